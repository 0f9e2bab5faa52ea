// SPDX-License-Identifier: GPL-2.0
/*
 * ntfuzz - bounded fuzzing of SCHED_NOTICK's system call interface, run
 * by run.sh in the guest.
 *
 *   ntfuzz CPU SECONDS SEED
 *
 * For SECONDS, asks for random and boundary scheduling attributes for
 * itself: sched_setattr() (sizes, policies, every flag and combinations
 * of them, priorities, nice values, util clamps, bad pids) and
 * sched_setscheduler() (with and without SCHED_RESET_ON_FORK), from a
 * mask of CPU alone, CPU 0 alone or both; and writes random and boundary
 * strings to /proc/sys/kernel/sched_notick_grace_us. Every call must
 * succeed or fail with an errno the interface documents, and leave what
 * reads back consistent. Where the outcome follows from the request
 * alone (the order of sched_setattr()'s checks, sched-notick.rst's errno
 * table: the size, the pid, the policy, the flags, the priority, the
 * mask for SCHED_NOTICK), the call must give exactly that result: a
 * valid SCHED_NOTICK request from a thread bound to CPU alone must be
 * admitted, any other mask refused with EINVAL. The few cases it does
 * not predict (SCHED_DEADLINE's parameters and bandwidth, util clamps on
 * a kernel with them, SCHED_NOTICK with SCHED_FLAG_KEEP_PARAMS) need a
 * documented errno only:
 *
 *   - a failed call changes nothing (policy, flags, nice, priority,
 *     affinity, the CPU's owner in sysfs, the sysctl's value);
 *   - a successful one without SCHED_FLAG_KEEP_POLICY/KEEP_PARAMS gives
 *     the policy asked for; a sysctl write gives the value written;
 *   - always: the policy is SCHED_NOTICK exactly when sysfs names us the
 *     owner of CPU, and then our mask is CPU alone.
 *
 * After each case the thread goes back to SCHED_OTHER (which must
 * succeed). Prints "cases=N setattr=N setscheduler=N sysctl=N",
 * "predicted=N", "unpredicted=N" and "admitted=N" (SCHED_NOTICK
 * requests that succeeded) on lines of their own, one "errno NAME N" line per result, "bad=N"
 * and the first bad cases. Exit status 0 when bad=0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define SCHED_NOTICK		8
#define RESET_ON_FORK_POLICY	0x40000000
#define FLAG_RESET_ON_FORK	0x01
#define FLAG_KEEP_POLICY	0x08
#define FLAG_KEEP_PARAMS	0x10
#define FLAG_UTIL_CLAMP		0x60
#define FLAG_ALL		0x7f
#define FLAG_SUGOV		0x10000000
#define NO_PID			0x3ffffff0	/* no such process */
/* the result of a call the model does not predict */
#define UNPREDICTED		(-1)
#define GRACE "/proc/sys/kernel/sched_notick_grace_us"

/* struct sched_attr (glibc 2.36 has none; the uapi header's sched_param
 * clashes with glibc's), with room to pass sizes beyond it */
struct attr {
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
	unsigned char tail[4096];
};
#define ATTR_SIZE	56	/* up to sched_util_max */

struct state {
	uint32_t policy;
	uint64_t flags;
	int32_t nice;
	uint32_t prio;
	cpu_set_t mask;
	long owner;
	long grace;
};

static int cpu;
static unsigned long bad, predicted, unpredicted, admitted;
static unsigned long counts[4096];
/* The kernel has util clamps (CONFIG_UCLAMP_TASK): not modelled */
static int uclamp;

static unsigned long rnd(unsigned long n)
{
	return (unsigned long)random() % n;
}

static long read_long(const char *path)
{
	char buf[64] = "";
	long v = -9999;
	int fd = open(path, O_RDONLY);

	if (fd >= 0) {
		if (read(fd, buf, sizeof(buf) - 1) > 0)
			v = strtol(buf, NULL, 10);
		close(fd);
	}
	return v;
}

static void get_state(struct state *s)
{
	struct attr buf, *a = &buf;
	char path[96];

	memset(a, 0, sizeof(*a));
	memset(s, 0, sizeof(*s));
	if (syscall(SYS_sched_getattr, 0, a, ATTR_SIZE, 0))
		perror("ntfuzz: sched_getattr");
	s->policy = a->sched_policy;
	s->flags = a->sched_flags & FLAG_RESET_ON_FORK;
	s->nice = a->sched_nice;
	s->prio = a->sched_priority;
	if (sched_getaffinity(0, sizeof(s->mask), &s->mask))
		perror("ntfuzz: sched_getaffinity");
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/notick/pid", cpu);
	s->owner = read_long(path);
	s->grace = read_long(GRACE);
}

static int same_state(const struct state *a, const struct state *b)
{
	return a->policy == b->policy && a->flags == b->flags &&
	       a->nice == b->nice && a->prio == b->prio &&
	       CPU_EQUAL(&a->mask, &b->mask) && a->owner == b->owner &&
	       a->grace == b->grace;
}

static void report(const char *what, const char *why)
{
	if (bad++ < 10)
		printf("bad: %s: %s\n", what, why);
}

/* The invariant that holds whatever was asked. */
static void check_owner(const struct state *s, const char *what)
{
	int mine = s->owner == (long)getpid();

	if ((s->policy == SCHED_NOTICK) != mine)
		report(what, "policy and sysfs owner disagree");
	if (s->policy == SCHED_NOTICK &&
	    (CPU_COUNT(&s->mask) != 1 || !CPU_ISSET(cpu, &s->mask)))
		report(what, "SCHED_NOTICK with a mask other than its CPU");
}

static int documented(int e)
{
	switch (e) {
	case EINVAL: case EPERM: case EBUSY: case ESRCH: case E2BIG:
	case EAGAIN: case EOPNOTSUPP:
		return 1;
	}
	return 0;
}

/* The thread's mask is CPU alone: a SCHED_NOTICK request may be admitted */
static int mask_is_cpu(const struct state *s)
{
	return CPU_COUNT(&s->mask) == 1 && CPU_ISSET(cpu, &s->mask);
}

static int valid_policy(uint32_t policy)
{
	return policy <= 3 || policy == 5 || policy == 6 || policy == SCHED_NOTICK;
}

/*
 * What __sched_setscheduler() answers a root thread that is SCHED_OTHER
 * with priority 0 (as every case starts), asking for @policy (-1: keep
 * it) with @flags and @prio, its mask as in @s: 0, an errno, or
 * UNPREDICTED. The checks in the kernel's order.
 */
static int predict_setscheduler(long policy, uint64_t flags, uint32_t prio,
				const struct state *s)
{
	long eff = policy < 0 ? 0 : policy;

	if (policy >= 0 && !valid_policy((uint32_t)policy))
		return EINVAL;
	if (flags & ~(uint64_t)(FLAG_ALL | FLAG_SUGOV))
		return EINVAL;
	if (prio > 99)
		return EINVAL;
	if (eff == 6)
		return UNPREDICTED;	/* SCHED_DEADLINE's parameters */
	if ((eff == 1 || eff == 2) != (prio != 0))
		return EINVAL;
	if (flags & FLAG_SUGOV)
		return EINVAL;
	if (flags & FLAG_UTIL_CLAMP)
		return uclamp ? UNPREDICTED : EOPNOTSUPP;
	if (eff != SCHED_NOTICK)
		return 0;
	if (flags & FLAG_KEEP_PARAMS)
		return UNPREDICTED;
	/* sched-notick.rst: exactly one online CPU, not the boot CPU */
	return mask_is_cpu(s) ? 0 : EINVAL;
}

/* sched_setattr(@pid, @a): the syscall's own checks first */
static int predict_setattr(pid_t pid, const struct attr *a,
			   const struct state *s)
{
	uint32_t size = a->size ? a->size : 48, i;

	if (pid < 0)
		return EINVAL;
	if (size < 48 || size > 4096)
		return E2BIG;
	for (i = 56; i < size; i++)
		if (((const unsigned char *)a)[i])
			return E2BIG;
	if ((a->sched_flags & FLAG_UTIL_CLAMP) && size < 56)
		return EINVAL;
	if ((int32_t)a->sched_policy < 0)
		return EINVAL;
	if (pid == NO_PID)
		return ESRCH;
	/*
	 * SCHED_FLAG_KEEP_PARAMS takes only the nice value of a SCHED_OTHER
	 * thread (get_params()): the priority asked for stays.
	 */
	return predict_setscheduler(a->sched_flags & FLAG_KEEP_POLICY ?
				    -1 : (long)a->sched_policy,
				    a->sched_flags, a->sched_priority, s);
}

/*
 * A scheduling call's outcome: success or a documented errno, exactly
 * the one @expect says unless UNPREDICTED; a failure changes nothing; a
 * success gives the policy @want (-1: any).
 */
static void check_call(const char *what, int e, int expect,
		       const struct state *before, const struct state *after,
		       long want)
{
	char why[96];

	counts[e < 4096 ? e : 4095]++;
	if (e && !documented(e))
		report(what, strerror(e));
	if (expect == UNPREDICTED) {
		unpredicted++;
	} else {
		predicted++;
		if (e != expect) {
			snprintf(why, sizeof(why), "gave %s, not %s",
				 e ? strerrorname_np(e) : "success",
				 expect ? strerrorname_np(expect) : "success");
			report(what, why);
		}
	}
	if (!e && after->policy == SCHED_NOTICK && before->policy != SCHED_NOTICK)
		admitted++;
	if (e && !same_state(before, after))
		report(what, "failed, but the state changed");
	if (!e && want >= 0 && after->policy != (uint32_t)want)
		report(what, "succeeded, but the policy is another");
	check_owner(after, what);
}

static void set_mask(void)
{
	cpu_set_t m;
	unsigned long r = rnd(10);

	if (r >= 9)
		return;		/* as left by the previous case */
	CPU_ZERO(&m);
	if (r < 6 || r == 8)
		CPU_SET(cpu, &m);
	if (r >= 6)
		CPU_SET(0, &m);
	if (sched_setaffinity(0, sizeof(m), &m))
		perror("ntfuzz: sched_setaffinity");
}

static uint32_t pick_policy(void)
{
	static const uint32_t others[] = { 0, 1, 2, 3, 4, 5, 6, 7, 9, 100, 0xffffffff };

	if (rnd(10) < 7)
		return SCHED_NOTICK;
	if (rnd(10) == 0)
		return (uint32_t)random();
	return others[rnd(sizeof(others) / sizeof(others[0]))];
}

static uint32_t pick_prio(void)
{
	static const uint32_t v[] = { 1, 50, 99, 100, 0xffffffff };

	return rnd(10) < 7 ? 0 : v[rnd(sizeof(v) / sizeof(v[0]))];
}

static void fuzz_setattr(char *what, size_t len)
{
	static const uint32_t sizes[] = { 48, 56, 56, 56, 0, 47, 57, 64, 4096 + 56 };
	struct state before, after;
	struct attr buf, *a = &buf;
	pid_t pid = 0;
	int e, expect;

	memset(a, 0, sizeof(*a));
	a->size = rnd(4) ? sizes[rnd(sizeof(sizes) / sizeof(sizes[0]))] : (uint32_t)rnd(200);
	a->sched_policy = pick_policy();
	a->sched_flags = rnd(3) ? random() & 0x7f : (uint64_t)random() << rnd(60);
	a->sched_nice = rnd(4) ? (int32_t)rnd(41) - 20 : (int32_t)random() - (int32_t)(RAND_MAX / 2);
	a->sched_priority = pick_prio();
	if (rnd(4) == 0) {
		a->sched_runtime = 1000000 * rnd(3);
		a->sched_deadline = 2000000 * rnd(3);
		a->sched_period = 4000000 * rnd(3);
	}
	a->sched_util_min = rnd(1200);
	a->sched_util_max = rnd(1200);
	if (rnd(20) == 0)
		a->tail[rnd(64)] = 1;	/* a non-zero byte past the struct */
	switch (rnd(20)) {
	case 0: pid = getpid(); break;
	case 1: pid = NO_PID; break;
	case 2: pid = -1; break;
	}
	snprintf(what, len, "sched_setattr(pid %d, size %u, policy %u, flags %#llx, nice %d, prio %u)",
		 pid, a->size, a->sched_policy, (unsigned long long)a->sched_flags,
		 a->sched_nice, a->sched_priority);

	get_state(&before);
	/* before the call: a refused size is written back into a->size */
	expect = predict_setattr(pid, a, &before);
	e = syscall(SYS_sched_setattr, pid, a, 0) ? errno : 0;
	get_state(&after);
	check_call(what, e, expect, &before, &after,
		   a->sched_flags & (FLAG_KEEP_POLICY | FLAG_KEEP_PARAMS) ?
		   -1 : (long)a->sched_policy);
}

static void fuzz_setscheduler(char *what, size_t len)
{
	struct state before, after;
	struct sched_param sp = { .sched_priority = (int)pick_prio() };
	int policy = (int)pick_policy(), e, expect;

	if (rnd(4) == 0)
		policy |= RESET_ON_FORK_POLICY;
	snprintf(what, len, "sched_setscheduler(policy %#x, prio %d)", policy,
		 sp.sched_priority);
	get_state(&before);
	/*
	 * A negative policy is refused by the syscall; SCHED_RESET_ON_FORK
	 * becomes the flag; SCHED_DEADLINE without parameters is invalid.
	 */
	expect = policy < 0 ? EINVAL :
		 (policy & ~RESET_ON_FORK_POLICY) == 6 && (uint32_t)sp.sched_priority <= 99 ?
		 EINVAL :
		 predict_setscheduler(policy & ~RESET_ON_FORK_POLICY,
				      policy & RESET_ON_FORK_POLICY ? FLAG_RESET_ON_FORK : 0,
				      (uint32_t)sp.sched_priority, &before);
	e = sched_setscheduler(0, policy, &sp) ? errno : 0;
	get_state(&after);
	check_call(what, e, expect, &before, &after,
		   (long)((uint32_t)policy & ~RESET_ON_FORK_POLICY));
}

static void fuzz_sysctl(char *what, size_t len)
{
	static const char *const v[] = {
		"-1", "-2", "0", "1", "10000", "1000000", "2147483647",
		"2147483648", "-2147483649", "99999999999999999999", "abc",
		"12abc", " 5", "5\n", "-", "+7", "0x10", "1e3",
	};
	static char big[4097];
	struct state before, after;
	char buf[32];
	const char *s;
	ssize_t n;
	int fd, e = 0;

	switch (rnd(6)) {
	case 0:
		memset(big, '9', sizeof(big) - 1);
		s = big;
		break;
	case 1:
		snprintf(buf, sizeof(buf), "%ld", (long)random() - RAND_MAX / 2);
		s = buf;
		break;
	default:
		s = v[rnd(sizeof(v) / sizeof(v[0]))];
	}
	snprintf(what, len, "write '%.20s'%s (%zu bytes) to sched_notick_grace_us",
		 s, strlen(s) > 20 ? "..." : "", strlen(s));
	get_state(&before);
	fd = open(GRACE, O_WRONLY);
	if (fd < 0) {
		report(what, "cannot open");
		return;
	}
	n = write(fd, s, strlen(s));
	if (n < 0)
		e = errno;
	close(fd);
	get_state(&after);
	counts[e < 4096 ? e : 4095]++;
	if (e && e != EINVAL)
		report(what, strerror(e));
	if (e && !same_state(&before, &after))
		report(what, "failed, but the value changed");
	/* proc_dointvec reads numbers with base 0, as strtol() does */
	if (!e && after.grace != strtol(s, NULL, 0))
		report(what, "written, but reads back another value");
}

int main(int argc, char **argv)
{
	unsigned long cases = 0, nattr = 0, nsched = 0, nsys = 0, i;
	struct attr normal = { .size = 48 };	/* SCHED_ATTR_SIZE_VER0 */
	struct timespec t0, t;
	long grace0;
	char what[256];
	double secs;

	if (argc != 4) {
		fprintf(stderr, "usage: ntfuzz CPU SECONDS SEED\n");
		return 2;
	}
	cpu = atoi(argv[1]);
	secs = atof(argv[2]);
	srandom((unsigned int)atol(argv[3]));
	setvbuf(stdout, NULL, _IOLBF, 0);
	grace0 = read_long(GRACE);
	uclamp = access("/proc/sys/kernel/sched_util_clamp_min", F_OK) == 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		set_mask();
		switch (rnd(10)) {
		case 0:
			fuzz_sysctl(what, sizeof(what));
			nsys++;
			break;
		case 1:
		case 2:
			fuzz_setscheduler(what, sizeof(what));
			nsched++;
			break;
		default:
			fuzz_setattr(what, sizeof(what));
			nattr++;
		}
		cases++;
		/* back to SCHED_OTHER, which must always work */
		if (syscall(SYS_sched_setattr, 0, &normal, 0))
			report(what, "then SCHED_OTHER refused");
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) +
		 (double)(t.tv_nsec - t0.tv_nsec) / 1e9 < secs);

	/* leave the sysctl as found */
	snprintf(what, sizeof(what), "%ld", grace0);
	i = open(GRACE, O_WRONLY);
	if ((int)i < 0 || write((int)i, what, strlen(what)) < 0)
		report("restoring sched_notick_grace_us", strerror(errno));
	if ((int)i >= 0)
		close((int)i);

	printf("cases=%lu setattr=%lu setscheduler=%lu sysctl=%lu\n",
	       cases, nattr, nsched, nsys);
	printf("predicted=%lu\nunpredicted=%lu\nadmitted=%lu\n", predicted,
	       unpredicted, admitted);
	for (i = 0; i < 4096; i++)
		if (counts[i])
			printf("errno %s %lu\n", i ? strerrorname_np((int)i) : "OK",
			       counts[i]);
	printf("bad=%lu\n", bad);
	return bad ? 1 : 0;
}
