/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What "status" and --show print (format.c): text and JSON.  Spellings
 * are the same everywhere: no owner, or no value, is "-" in text and
 * null in JSON; an offline CPU is "no" in ONLINE and "online": false.
 */
#ifndef NT_FORMAT_H
#define NT_FORMAT_H

#include <stdio.h>
#include <sys/types.h>

#include "sysinfo.h"

/* One row of "notickctl status". */
struct nt_status_row {
	int cpu;
	int online;
	struct nt_cpu_notick nt;	/* nt.pid > 0: the owner; else none */
	char comm[64];		/* command of nt.pid, "" if none */
	int watchdog;		/* in watchdog_cpumask: 1, 0, -1 unknown */
	int irqs;		/* IRQs that may fire here, -1 unknown */
};

/* Without @headings, the rows only (status --noheadings). */
void nt_status_print_text(FILE *f, long grace_us, int have_grace,
			  int headings, const struct nt_status_row *rows,
			  size_t n);
void nt_status_print_json(FILE *f, long grace_us, int have_grace,
			  const struct nt_status_row *rows, size_t n);

/* One thread for --show. */
struct nt_thread_info {
	pid_t tid;
	char comm[64];
	int policy;		/* sched_getattr()'s policy */
	int nice;
	unsigned int priority;
	char affinity[256];	/* CPU list */
	int notick_cpu;		/* CPU it owns as SCHED_NOTICK, -1 none */
	char tick[16];		/* that CPU's tick state, "" unknown */
};

/* The name of a policy: "SCHED_NOTICK", "SCHED_OTHER"...; "unknown". */
const char *nt_policy_name(int policy);

/* chrt -p style lines, or a JSON object with one entry per thread. */
void nt_show_print_text(FILE *f, const struct nt_thread_info *t, size_t n);
void nt_show_print_json(FILE *f, const struct nt_thread_info *t, size_t n);

#endif
