/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Access to /proc and /sys (sysinfo.c): files, the CPU and kernel checks,
 * the errno mapping and the messages that name what the kernel lacks.
 */
#ifndef NT_SYSINFO_H
#define NT_SYSINFO_H

#include <sched.h>
#include <stddef.h>
#include <sys/types.h>

#include "notickctl.h"

/*
 * Every /proc and /sys path goes through nt_path().  A test build
 * (NT_TEST_HOOKS, the host CLI tests' test/notickctl) prefixes the value
 * of the environment variable NOTICKCTL_ROOT, read with secure_getenv();
 * the installed binary has no such hook.
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

/*
 * The one "not supported" message, naming the kernel needed; returns
 * NT_EXIT_UNSUPPORTED.
 */
int nt_unsupported(void);

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
	long pid;		/* the owner; 0: none; -1 when unreadable */
	char tick[16];		/* "stopped", "running" or "" */
	unsigned long long tick_stops, tick_restarts, yields;
	int have_counters;
};

void nt_read_cpu_notick(int cpu, struct nt_cpu_notick *st);

/* The command of @pid from /proc, "" if unknown. */
void nt_read_comm(long pid, char *buf, size_t len);

/*
 * The PID of a running irqbalance daemon (a /proc/N/comm of
 * "irqbalance"), or 0.
 */
long nt_irqbalance_pid(void);

/*
 * The threads to act on: @pid alone, or (@all) all of its threads,
 * sorted, in a malloc'ed *@tids.  0, or an exit code after a message.
 */
int nt_list_tids(pid_t pid, int all, pid_t **tids, size_t *n);

#endif
