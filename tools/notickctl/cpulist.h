/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Numbers, CPU sets, CPU lists ("0-3,5") and hexadecimal CPU masks
 * ("ff,ffffffff") as the kernel writes them (cpulist.c): the ground floor.
 */
#ifndef NT_CPULIST_H
#define NT_CPULIST_H

#include <sched.h>
#include <stddef.h>

#include "notickctl.h"

/* Parse a non-negative decimal integer no larger than @max; 0 or -1. */
int nt_parse_uint(const char *s, long max, long *out);

/* A CPU set large enough for NT_MAX_CPUS, allocated with CPU_ALLOC. */
cpu_set_t *cpuset_alloc(void);
size_t cpuset_size(void);
void cpuset_free(cpu_set_t *set);

/*
 * Parse a kernel CPU list ("0-3,5", optional trailing newline, empty list
 * allowed) into @set.  Returns 0, or -1 for a syntax error or a CPU number
 * at or beyond NT_MAX_CPUS.
 */
int cpulist_parse(const char *s, cpu_set_t *set);

/* Format @set as a CPU list ("0-3,5"); "" when empty.  Returns @buf. */
char *cpulist_format(const cpu_set_t *set, char *buf, size_t len);

/* Number of CPUs in @set and the first one (or -1). */
int cpuset_count(const cpu_set_t *set);
int cpuset_first(const cpu_set_t *set);

/*
 * Hexadecimal CPU masks as in /proc/irq/default_smp_affinity ("3",
 * "ff,ffffffff": 32-bit groups, the last one holds CPUs 0-31).  Parse:
 * 0, or -1 for a syntax error or a CPU at or beyond NT_MAX_CPUS.  Format:
 * at least @min_digits hex digits (the width the kernel used), grouped
 * like the kernel does; returns @buf.
 */
int nt_mask_parse(const char *s, cpu_set_t *set);
char *nt_mask_format(const cpu_set_t *set, int min_digits, char *buf,
		     size_t len);
/* Number of hex digits (commas and blanks not counted) in @s. */
int nt_mask_digits(const char *s);

#endif
