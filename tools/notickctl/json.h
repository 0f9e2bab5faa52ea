/* SPDX-License-Identifier: GPL-2.0-only */
/* JSON string literals (json.c). */
#ifndef NT_JSON_H
#define NT_JSON_H

#include <stdio.h>

/*
 * Print @s as a JSON string literal, quotes included; NULL prints null.
 * Control characters are escaped; every byte that is not part of a valid
 * UTF-8 sequence (an invalid or truncated sequence, an overlong form, a
 * surrogate, a code point above U+10FFFF) is printed as \ufffd, so that
 * the output is always valid UTF-8 JSON whatever the names and arguments
 * of a process hold.
 */
void nt_json_string(FILE *f, const char *s);

#endif
