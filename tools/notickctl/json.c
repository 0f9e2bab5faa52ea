// SPDX-License-Identifier: GPL-2.0-only
/*
 * JSON string literals.  Names and arguments of processes are bytes, not
 * text: whatever is not valid UTF-8 becomes U+FFFD, one for each byte,
 * so that the output always parses.
 */
#include <stdio.h>

#include "json.h"

/*
 * Length of the valid UTF-8 sequence at @p (1-4), or 0 when the byte at
 * @p does not start one (RFC 3629: no overlong forms, no surrogates,
 * nothing above U+10FFFF).
 */
static int utf8_len(const unsigned char *p)
{
	unsigned char c = p[0];
	unsigned char lo = 0x80, hi = 0xbf;
	int n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;	/* continuation byte, 0xc0/0xc1, 0xf5-0xff */
	if (c == 0xe0)
		lo = 0xa0;	/* overlong */
	else if (c == 0xed)
		hi = 0x9f;	/* surrogates */
	else if (c == 0xf0)
		lo = 0x90;	/* overlong */
	else if (c == 0xf4)
		hi = 0x8f;	/* above U+10FFFF */
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

void nt_json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n;

	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	while (*p) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			p++;
			continue;
		case '\\':
			fputs("\\\\", f);
			p++;
			continue;
		case '\n':
			fputs("\\n", f);
			p++;
			continue;
		case '\t':
			fputs("\\t", f);
			p++;
			continue;
		}
		if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p);
			p++;
			continue;
		}
		n = utf8_len(p);
		if (!n) {
			fputs("\\ufffd", f);
			p++;
			continue;
		}
		fwrite(p, 1, (size_t)n, f);
		p += n;
	}
	fputc('"', f);
}
