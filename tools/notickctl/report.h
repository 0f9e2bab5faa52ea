/* SPDX-License-Identifier: GPL-2.0-only */
/* What --report prints (report.c): text and JSON. */
#ifndef NT_REPORT_H
#define NT_REPORT_H

#include <stdio.h>
#include <sys/types.h>

#include "counters.h"
#include "notickctl.h"
#include "noise.h"

struct nt_report {
	pid_t pid;
	int cpu;
	const char *program;
	char **argv;		/* the program's arguments, NULL-terminated */
	int exited;		/* 1: exit code in status; 0: killed by signal */
	int status;		/* exit code or signal number */
	long long elapsed_ns;
	long long user_us, system_us;
	unsigned long long vol_cs, invol_cs;
	struct nt_counters irqs;	/* deltas, LOC included */
	struct nt_counters softirqs;	/* deltas */
	int have_notick;
	unsigned long long tick_stops, tick_restarts, yields;
	struct nt_noise noise;	/* from the trace, when it could run */
};

/* CPU time (user + system) over the elapsed time, percent; -1 unknown. */
double nt_report_cpu_percent(const struct nt_report *r);

/* Delta of the local timer ("LOC") in @r->irqs, 0 if absent. */
unsigned long long nt_report_loc(const struct nt_report *r);
void nt_report_print_text(FILE *f, const struct nt_report *r);
void nt_report_print_json(FILE *f, const struct nt_report *r);

#endif
