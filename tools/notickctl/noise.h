/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What disturbed a program on its CPU, in time (noise.c), from the
 * kernel's trace events recorded in a tracefs instance of notickctl's
 * own, as rtla osnoise users count it: every interruption of the program
 * while it wanted the CPU (interrupt handlers, softirqs, and other tasks
 * running while it was runnable), merged when nested, with the total and
 * the worst single one.
 */
#ifndef NT_NOISE_H
#define NT_NOISE_H

#include <stddef.h>
#include <sys/types.h>

struct nt_noise {
	int asked;		/* --noise was given */
	int measured;		/* 0: not traced, why[] says why */
	char why[160];
	unsigned long long total_us;	/* the interruptions, summed */
	unsigned long long worst_us;	/* the longest single one */
	unsigned long long count;	/* how many */
	unsigned long long irq_us, softirq_us, thread_us; /* by kind */
};

/* A tracefs instance recording one CPU. */
struct nt_trace {
	char dir[512];		/* the instance, "" when none */
	int cpu;
};

/*
 * Create the instance and record @cpu's interrupt, softirq and
 * scheduler events.  0, or -1 with @n->why set (nothing left behind).
 * Enabling trace events patches the kernel's text (static calls).
 */
int nt_trace_start(struct nt_trace *t, int cpu, struct nt_noise *n);

/*
 * Stop, read the noise @pid saw into @n, and remove the instance.  A
 * trace that lost events gives no figures (@n->why says so).
 */
void nt_trace_finish(struct nt_trace *t, pid_t pid, struct nt_noise *n);

/*
 * The noise of @pid in the text of a per-CPU trace (tracefs "trace"
 * format, microsecond timestamps); 0, or -1 when @text has no event
 * lines at all of the kinds needed.
 */
int nt_noise_parse(const char *text, pid_t pid, struct nt_noise *n);

#endif
