/* SPDX-License-Identifier: GPL-2.0 */
/*
 * notickctl - run or convert a thread as SCHED_NOTICK
 *
 * Shared declarations of the testable units: option parsing (options.c),
 * CPU lists (cpulist.c), /proc and /sys access (sysinfo.c), run-time
 * housekeeping of a CPU (isolate.c) and the disturbance report and status
 * formatting (report.c).
 */
#ifndef NOTICKCTL_H
#define NOTICKCTL_H

#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#ifndef NOTICKCTL_VERSION
#define NOTICKCTL_VERSION "0.1"
#endif

#ifndef SCHED_NOTICK
#define SCHED_NOTICK 8
#endif

/* Exit codes, documented in usage() and notickctl(8). */
enum nt_exit {
	NT_EXIT_OK = 0,
	NT_EXIT_FAILURE = 1,	/* usage error or other failure */
	NT_EXIT_UNSUPPORTED = 2,	/* kernel without SCHED_NOTICK */
	NT_EXIT_PERM = 3,	/* permission denied */
	NT_EXIT_BUSY = 4,	/* CPU already has a SCHED_NOTICK thread */
	NT_EXIT_CPU = 5,	/* CPU offline, out of range or CPU 0 */
	NT_EXIT_NOPROC = 6,	/* no such process or thread */
	NT_EXIT_NOEXEC = 126,	/* program found but not executable */
	NT_EXIT_NOTFOUND = 127,	/* program not found */
};

/* Largest CPU number + 1 the tool handles. */
#define NT_MAX_CPUS 8192

/* ---- options.c ---- */
enum nt_mode {
	NT_MODE_NONE = 0,
	NT_MODE_RUN,		/* run a program */
	NT_MODE_PID,		/* convert an existing thread */
	NT_MODE_RESET,		/* return a thread to SCHED_NORMAL */
	NT_MODE_STATUS,		/* print per-CPU state */
	NT_MODE_UNISOLATE,	/* give a CPU back its watchdog and IRQs */
	NT_MODE_HELP,
	NT_MODE_VERSION,
};

struct nt_opts {
	enum nt_mode mode;
	int cpu;		/* -1 when --cpu was not given */
	pid_t pid;		/* --pid or --reset argument */
	int all_tasks;
	int isolate;		/* --isolate: housekeeping before admission */
	int report;
	int json;
	const char *output;	/* --output file, NULL for stderr */
	int prog_argc;
	char **prog_argv;	/* points into argv, NULL-terminated */
};

/*
 * Parse the command line into @o without touching the system.  Returns 0
 * or NT_EXIT_FAILURE with a message (no program name prefix) in @err.
 */
int nt_parse_options(int argc, char **argv, struct nt_opts *o,
		     char *err, size_t errlen);

/* Parse a non-negative decimal integer no larger than @max; 0 or -1. */
int nt_parse_uint(const char *s, long max, long *out);

/* ---- cpulist.c ---- */
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

/* ---- sysinfo.c ---- */
/*
 * Every /proc and /sys path goes through nt_path(), which prefixes the
 * value of the (undocumented, for tests) environment variable
 * NOTICKCTL_ROOT when it is set.
 */
char *nt_path(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Read a whole file into a malloc'ed NUL-terminated buffer, or NULL. */
char *nt_read_file(const char *path);

/* Read a file (via nt_path) holding one unsigned number; 0 or -1. */
int nt_read_u64(unsigned long long *val, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Does the running kernel have SCHED_NOTICK (the grace sysctl exists)? */
int nt_kernel_supported(void);

/* Read /sys/devices/system/cpu/{possible,online} into @set; 0 or -1. */
int nt_read_cpulist(const char *name, cpu_set_t *set);

/* Per-CPU counters of the notick sysfs directory. */
struct nt_cpu_notick {
	int present;		/* the notick directory exists */
	long pid;		/* -1 when unreadable */
	char tick[16];		/* "stopped", "running" or "" */
	unsigned long long tick_stops, tick_restarts, yields;
	int have_counters;
};

void nt_read_cpu_notick(int cpu, struct nt_cpu_notick *st);

/* ---- isolate.c ---- */
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

/*
 * The affinity an IRQ allowed on @cur gets when @cpu is isolated: @cur
 * without @cpu, or the housekeeping CPUs (@online without @cpu) when no
 * online CPU would be left.  Returns 1 and sets @out when @cur contains
 * @cpu, 0 (nothing to do) otherwise.
 */
int nt_irq_new_affinity(const cpu_set_t *cur, int cpu,
			const cpu_set_t *online, cpu_set_t *out);

/* The files an isolation changed, with their previous contents. */
struct nt_journal_entry {
	char *path;		/* full path (NOTICKCTL_ROOT included) */
	char *name;		/* path for messages ("/proc/irq/4/...") */
	char *old;		/* exact previous contents */
};

struct nt_journal {
	struct nt_journal_entry *v;
	size_t n;
};

/*
 * Take @cpu out of kernel.watchdog_cpumask, /proc/irq/default_smp_affinity
 * and the affinity of every IRQ (see notickctl(8)).  IRQs the kernel
 * refuses to move are warned about.  Returns 0 with every change recorded
 * in @j, or an exit code after a message, everything already restored.
 */
int nt_isolate(int cpu, struct nt_journal *j);

/* Write back the recorded contents, newest first; failures warned. */
int nt_journal_restore(struct nt_journal *j);
void nt_journal_free(struct nt_journal *j);

/*
 * Put @cpu back into watchdog_cpumask and default_smp_affinity and set
 * every IRQ's affinity to default_smp_affinity.  0 or an exit code.
 */
int nt_unisolate(int cpu);

/*
 * Housekeeping state of each CPU below @ncpu for "status": @watchdog[c]
 * is 1 or 0 (-1 for all when the lockup detector is absent), @irqs[c] the
 * number of IRQs whose effective affinity contains c (-1 for all when
 * /proc/irq has no effective affinity files).
 */
void nt_housekeeping_state(int ncpu, int *watchdog, int *irqs);

/* ---- report.c ---- */
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

struct nt_report {
	pid_t pid;
	int cpu;
	const char *program;
	int exited;		/* 1: exit code in status; 0: killed by signal */
	int status;		/* exit code or signal number */
	long long elapsed_ns;
	long long user_us, system_us;
	unsigned long long vol_cs, invol_cs;
	struct nt_counters irqs;	/* deltas, LOC included */
	struct nt_counters softirqs;	/* deltas */
	int have_notick;
	unsigned long long tick_stops, tick_restarts, yields;
};

/* Delta of the local timer ("LOC") in @r->irqs, 0 if absent. */
unsigned long long nt_report_loc(const struct nt_report *r);
void nt_report_print_text(FILE *f, const struct nt_report *r);
void nt_report_print_json(FILE *f, const struct nt_report *r);

/* Print @s as a JSON string literal, quotes included. */
void nt_json_string(FILE *f, const char *s);

/* One row of "notickctl status". */
struct nt_status_row {
	int cpu;
	int online;
	struct nt_cpu_notick nt;
	char comm[64];		/* command of nt.pid, "" if none */
	int watchdog;		/* in watchdog_cpumask: 1, 0, -1 unknown */
	int irqs;		/* IRQs that may fire here, -1 unknown */
};

void nt_status_print_text(FILE *f, long grace_us, int have_grace,
			  const struct nt_status_row *rows, size_t n);
void nt_status_print_json(FILE *f, long grace_us, int have_grace,
			  const struct nt_status_row *rows, size_t n);

#endif
