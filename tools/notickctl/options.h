/* SPDX-License-Identifier: GPL-2.0-only */
/* Command-line parsing (options.c), free of side effects on the system. */
#ifndef NT_OPTIONS_H
#define NT_OPTIONS_H

#include <stddef.h>

#include "notickctl.h"

/*
 * Parse the command line into @o without touching the system.  Returns 0
 * or NT_EXIT_OWN (a usage error) with a message (no program name prefix)
 * in @err.
 */
int nt_parse_options(int argc, char **argv, struct nt_opts *o,
		     char *err, size_t errlen);

#endif
