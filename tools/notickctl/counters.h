/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Counters of one CPU (counters.c): /proc/interrupts, /proc/softirqs and
 * a thread's context switches, and their difference over a run.
 */
#ifndef NT_COUNTERS_H
#define NT_COUNTERS_H

#include <stddef.h>

struct nt_counter {
	char *name;		/* "LOC", "4", "TIMER", ... */
	char *desc;		/* "Local timer interrupts", may be "" */
	unsigned long long value;
};

struct nt_counters {
	struct nt_counter *v;
	size_t n;
};

void nt_counters_free(struct nt_counters *c);

/*
 * Parse the text of /proc/interrupts or /proc/softirqs and keep the
 * column of @cpu.  Lines without a per-CPU value (ERR, MIS) are skipped.
 * Returns 0, or -1 if the text is malformed or has no column for @cpu.
 */
int nt_parse_interrupts(const char *text, int cpu, struct nt_counters *out);
int nt_parse_softirqs(const char *text, int cpu, struct nt_counters *out);

/*
 * @out = @after - @before, matched by name; a source absent from @before
 * counts from 0.  32-bit wrap-around of the kernel counters is handled.
 */
int nt_counters_diff(const struct nt_counters *before,
		     const struct nt_counters *after, struct nt_counters *out);

/* voluntary_ctxt_switches / nonvoluntary_ctxt_switches of a status file. */
int nt_parse_ctxt_switches(const char *status_text,
			   unsigned long long *vol, unsigned long long *invol);

#endif
