/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the small SCHED_NOTICK test programs of the guest suites share:
 * the policy and sched_setattr(2), binding to a CPU, errno names, reading
 * a CPU's interrupt counts. Each program includes it (static functions;
 * -Wall -Wextra -Werror: only what a program uses is kept, hence the
 * unused attribute).
 */
#ifndef NTLIB_H
#define NTLIB_H

#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef SCHED_NOTICK
#define SCHED_NOTICK 8
#endif

#define NT_UNUSED __attribute__((unused))

struct nt_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

static NT_UNUSED const char *nt_errname(int e)
{
	switch (e) {
	case 0: return "OK";
	case EINVAL: return "EINVAL";
	case EPERM: return "EPERM";
	case EBUSY: return "EBUSY";
	case ESRCH: return "ESRCH";
	case EAGAIN: return "EAGAIN";
	case ENOSYS: return "ENOSYS";
	case ENOMEM: return "ENOMEM";
	case ENOENT: return "ENOENT";
	case ETIMEDOUT: return "ETIMEDOUT";
	default: return strerror(e);
	}
}

static NT_UNUSED void nt_die(const char *what)
{
	fprintf(stderr, "%s: %s\n", what, strerror(errno));
	exit(2);
}

/* sched_setattr(tid, policy): 0 or the errno */
static NT_UNUSED int nt_setpolicy(pid_t tid, int policy)
{
	struct nt_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.sched_policy = policy;
	return syscall(SYS_sched_setattr, tid, &attr, 0) ? errno : 0;
}

static NT_UNUSED void nt_bind(pid_t tid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(tid, sizeof(set), &set))
		nt_die("sched_setaffinity");
}

static NT_UNUSED double nt_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The count of interrupt NAME ("LOC", "CAL", or an IRQ number such as
 * "8") on CPU in /proc/interrupts; -1 if not found.
 */
static NT_UNUSED long nt_irqs(const char *name, int cpu)
{
	char line[4096], key[32];
	long v = -1;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		nt_die("/proc/interrupts");
	snprintf(key, sizeof(key), "%s:", name);
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;
		int i;

		while (*p == ' ')
			p++;
		if (strncmp(p, key, strlen(key)))
			continue;
		p += strlen(key);
		for (i = 0; i <= cpu; i++) {
			v = strtol(p, &end, 10);
			if (end == p) {
				v = -1;
				break;
			}
			p = end;
		}
		break;
	}
	fclose(f);
	return v;
}

#define NT_MAX_CPUS 64

/*
 * Context switches of each CPU's stopper thread (migration/N) so far,
 * into sw[N] for N < NT_MAX_CPUS; returns their sum. Each stop_one_cpu()
 * run switches one CPU's in and out, each stop_machine() every online
 * CPU's.
 */
static NT_UNUSED long nt_stopper_read(long sw[NT_MAX_CPUS])
{
	char path[64], buf[256];
	long total = 0, v;
	int pid, cpu;
	FILE *f;

	memset(sw, 0, NT_MAX_CPUS * sizeof(*sw));
	for (pid = 1; pid < 512; pid++) {
		snprintf(path, sizeof(path), "/proc/%d/comm", pid);
		f = fopen(path, "r");
		if (!f)
			continue;
		buf[0] = 0;
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
		if (sscanf(buf, "migration/%d", &cpu) != 1 ||
		    cpu < 0 || cpu >= NT_MAX_CPUS)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/status", pid);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(buf, sizeof(buf), f)) {
			if (sscanf(buf, "voluntary_ctxt_switches: %ld", &v) == 1 ||
			    sscanf(buf, "nonvoluntary_ctxt_switches: %ld", &v) == 1) {
				sw[cpu] += v;
				total += v;
			}
		}
		fclose(f);
	}
	return total;
}

/* The sum of nt_stopper_read() */
static NT_UNUSED long nt_stopper_switches(void)
{
	long sw[NT_MAX_CPUS];

	return nt_stopper_read(sw);
}

#endif
