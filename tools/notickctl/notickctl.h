/* SPDX-License-Identifier: GPL-2.0 */
/*
 * notickctl - run or convert a thread as SCHED_NOTICK
 *
 * Shared declarations of the testable units: option parsing (options.c),
 * CPU lists (cpulist.c), /proc and /sys access, CPU checks and the errno
 * mapping (sysinfo.c), run-time housekeeping of a CPU (isolate.c) and the
 * disturbance report and status formatting (report.c); and of the
 * commands: converting a thread and signals (convert.c), running a
 * program with or without --report (run.c), --pid and --reset (pid.c),
 * status (status.c), main() and usage (notickctl.c).
 */
#ifndef NOTICKCTL_H
#define NOTICKCTL_H

#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#ifndef NOTICKCTL_VERSION
#define NOTICKCTL_VERSION "0.2"
#endif

#ifndef SCHED_NOTICK
#define SCHED_NOTICK 8
#endif

/*
 * Exit codes, documented in usage() and notickctl(8).  Codes 1-6 are the
 * commands without a program (--pid, --reset, --unisolate, status); when
 * notickctl runs a program, each of them becomes NT_EXIT_OWN, so that the
 * caller can tell notickctl's failures from the program's status, as
 * with env(1), nice(1) and timeout(1).  nt_exit_status() maps them.
 */
enum nt_exit {
	NT_EXIT_OK = 0,
	NT_EXIT_FAILURE = 1,	/* other failure */
	NT_EXIT_UNSUPPORTED = 2,	/* kernel without SCHED_NOTICK */
	NT_EXIT_PERM = 3,	/* permission denied */
	NT_EXIT_BUSY = 4,	/* CPU already has a SCHED_NOTICK thread */
	NT_EXIT_CPU = 5,	/* CPU offline, out of range or CPU 0 */
	NT_EXIT_NOPROC = 6,	/* no such process or thread */
	NT_EXIT_OWN = 125,	/* usage error; notickctl failed to run a program */
	NT_EXIT_NOEXEC = 126,	/* program found but not executable */
	NT_EXIT_NOTFOUND = 127,	/* program not found */
};

/* Version of the --json output's layout ("schema_version"). */
#define NT_JSON_SCHEMA 1

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
	int noheadings;		/* status --noheadings */
	const char *output;	/* --output file, NULL for stderr */
	int prog_argc;
	char **prog_argv;	/* points into argv, NULL-terminated */
};

/*
 * Parse the command line into @o without touching the system.  Returns 0
 * or NT_EXIT_OWN (a usage error) with a message (no program name prefix)
 * in @err.
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

/*
 * The one mapping of an errno to an exit code: EPERM, EACCES and EROFS to
 * NT_EXIT_PERM, ESRCH to NT_EXIT_NOPROC, EBUSY to NT_EXIT_BUSY, EINVAL to
 * NT_EXIT_CPU, anything else to NT_EXIT_FAILURE.
 */
int nt_errno_exit(int e);

/*
 * The final exit status: @rc as it is for the commands without a program;
 * for a program (@run), 1-6 become NT_EXIT_OWN.
 */
int nt_exit_status(int rc, int run);

/*
 * The one CPU check: @cpu below NT_MAX_CPUS and possible; with
 * NT_CPU_ONLINE also online and not CPU 0 (the boot and timekeeping CPU).
 * Returns 0 or NT_EXIT_CPU after a message.
 */
#define NT_CPU_ONLINE 1
int nt_check_cpu(int cpu, unsigned int what);

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

/* The files an isolation changed, with their contents before and after. */
struct nt_journal_entry {
	char *path;		/* full path (NOTICKCTL_ROOT included) */
	char *name;		/* path for messages ("/proc/irq/4/...") */
	char *old;		/* exact previous contents */
	char *new;		/* what was written */
};

struct nt_journal {
	struct nt_journal_entry *v;
	size_t n;
};

/*
 * Take @cpu out of kernel.watchdog_cpumask, /proc/irq/default_smp_affinity
 * and the affinity of every IRQ (see notickctl(8)).  IRQs the kernel
 * refuses to move are warned about.  Returns 0 with every change recorded
 * in @j, or an exit code after a message, everything already restored
 * (also when memory runs out).
 */
int nt_isolate(int cpu, struct nt_journal *j);

/* Write back the recorded contents, newest first; failures warned. */
int nt_journal_restore(struct nt_journal *j);
void nt_journal_free(struct nt_journal *j);

/*
 * Add the changes in @j to the record of @cpu's isolation,
 * /run/notickctl/cpuN (via nt_path), that --unisolate reads.  Returns 0
 * with the previous record's text in *@prev (NULL: there was none), or
 * an exit code after a message (the record is then as it was).
 */
int nt_record_save(int cpu, const struct nt_journal *j, char **prev);
/* Put back the record that nt_record_save() replaced (NULL: remove it). */
void nt_record_put_back(int cpu, const char *prev);

/*
 * Undo what the --isolate record of @cpu says was changed, newest first:
 * a file that still holds what --isolate wrote gets its previous contents;
 * one that changed since only gets @cpu back when --isolate had only
 * removed it, else it is left as it is with a warning.  Without a record,
 * put @cpu back into watchdog_cpumask and default_smp_affinity and leave
 * every IRQ as it is (warned).  0 or an exit code.
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

/* Without @headings, the rows only (status --noheadings). */
void nt_status_print_text(FILE *f, long grace_us, int have_grace,
			  int headings, const struct nt_status_row *rows,
			  size_t n);
void nt_status_print_json(FILE *f, long grace_us, int have_grace,
			  const struct nt_status_row *rows, size_t n);

/* ---- convert.c: the commands' shared steps ---- */

/*
 * Termination signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT) are blocked
 * around every change and its rollback; those the caller ignores are left
 * alone.  A signal that arrived meanwhile is then honoured: the change is
 * rolled back and notickctl dies by it.
 */
struct nt_signals {
	sigset_t set;		/* the signals blocked */
	sigset_t old;		/* the mask before */
};

void nt_signals_block(struct nt_signals *s);
/* A blocked signal that is pending, or 0. */
int nt_signals_pending(const struct nt_signals *s);
void nt_signals_restore(const struct nt_signals *s);
/* Die by @sig (default action), pending or not. */
void nt_die_by_signal(int sig) __attribute__((noreturn));

/* Our own copy of the UAPI struct sched_attr (VER1, 56 bytes). */
struct nt_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
};

int nt_setattr(pid_t tid, const struct nt_sched_attr *attr);
int nt_getattr(pid_t tid, struct nt_sched_attr *attr);

/* The state of one thread before its conversion, to undo it. */
struct nt_saved {
	pid_t tid;
	int cpu;
	int pinned;		/* affinity changed: restore mask */
	int converted;		/* class changed: restore attr */
	struct nt_journal iso;	/* --isolate: files changed, for undo */
	int recorded;		/* the record of iso was saved */
	char *record_prev;	/* the record before, NULL if none */
	struct nt_sched_attr attr;	/* before */
	cpu_set_t *mask;
};

/*
 * Make @tid (0: ourselves) SCHED_NOTICK, pinning it to @want_cpu first
 * when >= 0, and with @iso isolating its CPU before that.  On failure the
 * thread and the system are left as they were and the exit code is
 * returned; on success @s records how to undo it.  A signal of @sig (may
 * be NULL) pending between two steps stops it there, undone, with
 * NT_EXIT_FAILURE and no message.
 */
int nt_convert_thread(pid_t tid, int want_cpu, int iso, struct nt_saved *s,
		      const struct nt_signals *sig);
/* Undo a conversion (policy, affinity, isolation), newest first. */
void nt_undo(struct nt_saved *s);
void nt_saved_free(struct nt_saved *s);
/* Keep an isolation after admission: save its record (0 or exit code). */
int nt_keep_isolation(struct nt_saved *s);

/* The command of @pid from /proc, "" if unknown. */
void nt_read_comm(long pid, char *buf, size_t len);

/*
 * The commands.  nt_cmd_run() and nt_cmd_report() return the final exit
 * status (the program's, or 125-127); the others a code of enum nt_exit.
 */
int nt_cmd_run(const struct nt_opts *o);	/* run.c */
int nt_cmd_report(const struct nt_opts *o);	/* run.c */
int nt_cmd_pid(const struct nt_opts *o);	/* pid.c */
int nt_cmd_reset(const struct nt_opts *o);	/* pid.c */
int nt_cmd_status(const struct nt_opts *o);	/* status.c */

#endif
