// SPDX-License-Identifier: GPL-2.0
/*
 * ntt - SCHED_NOTICK test helper, run by run.sh in the guest.
 *
 *   ntt try [-s] [-u UID] PRIO CPULIST
 *	Bind to CPULIST, optionally drop to UID, then ask for SCHED_NOTICK
 *	with priority PRIO (sched_setattr, or sched_setscheduler with -s).
 *	Prints "OK policy=N" or the errno name (EINVAL, EPERM, EBUSY, ...).
 *   ntt hold CPU
 *	Become SCHED_NOTICK on CPU, print "ADMITTED TID", sleep until killed.
 *   ntt fork CPU
 *	Become SCHED_NOTICK on CPU, fork; print "parent=P child=C" policies.
 *   ntt affinity CPU
 *	Become SCHED_NOTICK on CPU; try to widen the affinity to CPU 0 and
 *	CPU, then set it to CPU alone: prints "widen=ERR same=ERR".
 *   ntt spin CPU SECONDS GPS
 *	A child becomes SCHED_NOTICK on CPU and spins in user space; the
 *	parent (on CPU 0) waits 100 ms, counts CPU's LOC interrupts over
 *	SECONDS while forcing GPS synchronize_rcu() calls, stops the child
 *	and prints what both saw as key=value lines, with the LOC count of
 *	the first 100 ms (fork, admission, first return to user space).
 *   ntt spin-files CPU SECONDS NFILES
 *	Like spin without grace periods, but the child creates and unlinks
 *	NFILES files in /tmp once admitted (RCU callbacks queued on CPU),
 *	and the parent writes "ntt: spin ends" to the trace marker before
 *	it stops the child.
 *   ntt normal-spin CPU SECONDS
 *	The same with a SCHED_NORMAL spinner and 2 grace periods: the
 *	control run, which must see local timer interrupts (and times
 *	synchronize_rcu() beside an ordinary task: gp_max_ms).
 *   ntt contend CPU
 *	A child spins as SCHED_NOTICK on CPU; a second child (SCHED_NORMAL)
 *	moves to CPU, marks that it ran and exits. Prints whether it ran
 *	while the spinner spun and the spinner's progress before and after.
 *   ntt block CPU
 *	A child spins as SCHED_NOTICK on CPU, blocks in read(), then spins
 *	again: prints CPU's idle time while it blocked and its LOC count
 *	over 2 s once it spins again.
 *   ntt wait-contender CPU SECONDS
 *	Like contend, but reports whether the second child ran at all within
 *	SECONDS (for sched_notick_grace_us = -1, where it must not).
 *   ntt pi CPU
 *	A SCHED_NOTICK thread on CPU holds a priority-inheritance mutex and
 *	spins; a SCHED_FIFO 99 thread on CPU 0, then a SCHED_DEADLINE thread,
 *	block on the mutex. Prints the owner's priority (/proc stat field
 *	18) and policy while each waiter waits and after, CPU's LOC count
 *	while the FIFO waiter waits and once the owner is alone again, and
 *	the TID in cpuN/notick/pid.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SCHED_NOTICK
#define SCHED_NOTICK 8
#endif

struct nt_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

static const char *errname(int e)
{
	switch (e) {
	case 0: return "OK";
	case EINVAL: return "EINVAL";
	case EPERM: return "EPERM";
	case EBUSY: return "EBUSY";
	case ESRCH: return "ESRCH";
	case ENOSYS: return "ENOSYS";
	default: return strerror(e);
	}
}

static void die(const char *what)
{
	fprintf(stderr, "ntt: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* fork(), or exit with a message */
static pid_t xfork(void)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	return pid;
}

static int set_notick(int prio, int use_setscheduler)
{
	struct nt_sched_attr attr;

	if (use_setscheduler) {
		struct sched_param sp = { .sched_priority = prio };

		return sched_setscheduler(0, SCHED_NOTICK, &sp) ? errno : 0;
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.sched_policy = SCHED_NOTICK;
	attr.sched_priority = prio;
	return syscall(SYS_sched_setattr, 0, &attr, 0) ? errno : 0;
}

static int parse_cpus(const char *list, cpu_set_t *set)
{
	char *copy = strdup(list), *tok, *save = NULL;

	CPU_ZERO(set);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		CPU_SET(atoi(tok), set);
	free(copy);
	return 0;
}

static void bind_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

/* Bind to cpu and become SCHED_NOTICK; exits with a message on failure. */
static void become_notick(int cpu)
{
	int err;

	bind_cpu(cpu);
	err = set_notick(0, 0);
	if (err) {
		fprintf(stderr, "ntt: SCHED_NOTICK on CPU %d: %s\n", cpu,
			errname(err));
		exit(3);
	}
}

static int cmd_try(int argc, char **argv)
{
	int use_ss = 0, uid = -1, opt, err;
	cpu_set_t set;

	while ((opt = getopt(argc, argv, "su:")) != -1) {
		if (opt == 's')
			use_ss = 1;
		else if (opt == 'u')
			uid = atoi(optarg);
		else
			return 2;
	}
	if (argc - optind != 2)
		return 2;
	parse_cpus(argv[optind + 1], &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
	if (uid >= 0 && setuid(uid))
		die("setuid");
	err = set_notick(atoi(argv[optind]), use_ss);
	if (err)
		printf("%s\n", errname(err));
	else
		printf("OK policy=%d\n", sched_getscheduler(0));
	return 0;
}

static int cmd_hold(int cpu)
{
	become_notick(cpu);
	printf("ADMITTED %ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	for (;;)
		pause();
	return 0;
}

static int cmd_fork(int cpu)
{
	int pipefd[2], child_policy = -1, status;
	pid_t pid;

	become_notick(cpu);
	if (pipe(pipefd))
		die("pipe");
	pid = xfork();
	if (pid == 0) {
		int pol = sched_getscheduler(0);

		if (write(pipefd[1], &pol, sizeof(pol)) != sizeof(pol))
			_exit(1);
		_exit(0);
	}
	if (read(pipefd[0], &child_policy, sizeof(child_policy)) !=
	    sizeof(child_policy))
		die("read");
	waitpid(pid, &status, 0);
	printf("parent=%d child=%d\n", sched_getscheduler(0), child_policy);
	return 0;
}

static int cmd_affinity(int cpu)
{
	cpu_set_t set;
	int widen, same;

	become_notick(cpu);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	CPU_SET(cpu, &set);
	widen = sched_setaffinity(0, sizeof(set), &set) ? errno : 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	same = sched_setaffinity(0, sizeof(set), &set) ? errno : 0;
	printf("widen=%s same=%s policy=%d\n", errname(widen), errname(same),
	       sched_getscheduler(0));
	return 0;
}

/* LOC (local timer interrupts) count of one CPU, from /proc/interrupts */
static long long loc_count(int cpu)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char line[4096];
	long long val = -1;

	if (!f)
		die("/proc/interrupts");
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;
		int i;

		while (*p == ' ')
			p++;
		if (strncmp(p, "LOC:", 4))
			continue;
		p += 4;
		for (i = 0; i <= cpu; i++) {
			val = strtoll(p, &end, 10);
			if (end == p) {
				val = -1;
				break;
			}
			p = end;
		}
		break;
	}
	fclose(f);
	return val;
}

/* Idle time of one CPU in USER_HZ ticks, from /proc/stat */
static long long cpu_idle_ticks(int cpu)
{
	FILE *f = fopen("/proc/stat", "r");
	char line[1024], name[16];
	long long idle = -1;

	if (!f)
		die("/proc/stat");
	snprintf(name, sizeof(name), "cpu%d ", cpu);
	while (fgets(line, sizeof(line), f)) {
		long long v[4];

		if (strncmp(line, name, strlen(name)))
			continue;
		if (sscanf(line + strlen(name), "%lld %lld %lld %lld",
			   &v[0], &v[1], &v[2], &v[3]) == 4)
			idle = v[3];
		break;
	}
	fclose(f);
	return idle;
}

/* Is the tick of this CPU stopped, per /sys/.../cpuN/notick/tick? */
static int tick_stopped(int cpu)
{
	char path[96], buf[16] = "";
	FILE *f;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/notick/tick", cpu);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return !strncmp(buf, "stopped", 7);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* LOC interrupts of cpu over the next seconds */
static long long loc_over(int cpu, double seconds)
{
	long long loc0 = loc_count(cpu);

	sleep_s(seconds);
	return loc_count(cpu) - loc0;
}

/* Shared between the parent and its children */
struct shared {
	volatile int stop;
	volatile int admitted;		/* 1 ok, -errno on failure */
	volatile int contender_ran;
	volatile uint64_t loops;
	volatile uint64_t loops_at_contender;
	double wall_s;			/* spinner: admission to stop */
	double rusage_s;		/* spinner: getrusage() user+sys */
	double stat_s;			/* spinner: /proc/self/stat utime+stime */
	int cpu_seen;			/* spinner: CPU it ran on at the end */
};

static struct shared *shared_map(void)
{
	struct shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (sh == MAP_FAILED)
		die("mmap");
	memset(sh, 0, sizeof(*sh));
	return sh;
}

static double stat_cputime(void)
{
	unsigned long utime = 0, stime = 0;
	char buf[2048], *p;
	FILE *f = fopen("/proc/self/stat", "r");
	int i;

	if (!f || !fgets(buf, sizeof(buf), f))
		die("/proc/self/stat");
	fclose(f);
	p = strrchr(buf, ')');		/* skip pid and comm */
	for (i = 2; p && i < 14; i++)	/* field 14 is utime */
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%lu %lu", &utime, &stime) != 2)
		return -1;
	return (double)(utime + stime) / sysconf(_SC_CLK_TCK);
}

/* 0 for the control runs: the spinner stays SCHED_NORMAL */
static int spinner_notick = 1;
/* Files the spinner creates and unlinks once admitted (RCU callbacks) */
static int spinner_files;

/* Create and unlink n files in /tmp: each unlinked dentry is freed by RCU. */
static void churn_files(int n)
{
	char path[64];
	int i, fd;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/tmp/ntt-rcu-%d", i);
		fd = open(path, O_CREAT | O_WRONLY, 0600);
		if (fd >= 0)
			close(fd);
		unlink(path);
	}
}

/* Write a line to the trace buffer, if tracing is there. */
static void trace_mark(const char *text)
{
	int fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY);

	if (fd < 0)
		return;
	if (write(fd, text, strlen(text)) < 0) {
		/* best effort: the check that reads it fails without it */
	}
	close(fd);
}

static pid_t start_spinner(struct shared *sh, int cpu)
{
	pid_t pid = xfork();

	if (pid == 0) {
		struct rusage ru;
		uint64_t n = 0;
		double t0;
		int err;

		bind_cpu(cpu);
		err = spinner_notick ? set_notick(0, 0) : 0;
		if (err) {
			sh->admitted = -err;
			_exit(1);
		}
		churn_files(spinner_files);
		t0 = now_s();
		sh->admitted = 1;
		while (!sh->stop) {
			n++;
			if (!(n & 0xffff))
				sh->loops = n;
		}
		sh->wall_s = now_s() - t0;
		getrusage(RUSAGE_SELF, &ru);
		sh->rusage_s = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
			       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
		sh->stat_s = stat_cputime();
		sh->cpu_seen = sched_getcpu();
		_exit(0);
	}
	while (!sh->admitted)
		sleep_s(0.001);
	if (sh->admitted < 0) {
		printf("admitted=%s\n", errname(-sh->admitted));
		waitpid(pid, NULL, 0);
		exit(1);
	}
	return pid;
}

static void *idle_thread(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/*
 * One synchronize_rcu() per call: a fresh child with a second thread
 * sharing its file table (64 fds) grows the table, and expand_fdtable()
 * (fs/file.c) calls synchronize_rcu() when the table is shared.
 */
static int force_grace_period(void)
{
	pthread_t thr;
	int status;
	pid_t pid = xfork();

	if (pid == 0) {
		if (pthread_create(&thr, NULL, idle_thread, NULL))
			_exit(1);
		if (dup2(0, 100) < 0)
			_exit(1);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0)
		return 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int cmd_spin(int cpu, double seconds, int gps)
{
	struct shared *sh = shared_map();
	long long locs, loc0, loc1;
	int done = 0, tried = 0;
	pid_t pid;
	double t, gp_max = 0;

	bind_cpu(0);
	locs = loc_count(cpu);
	pid = start_spinner(sh, cpu);
	sleep_s(0.1);
	loc0 = loc_count(cpu);
	for (t = 0; t < seconds; t += 1.0) {
		sleep_s(1.0);
		while (tried < gps * (t + 1) / seconds) {
			double g0 = now_s();

			tried++;
			done += force_grace_period();
			if (now_s() - g0 > gp_max)
				gp_max = now_s() - g0;
		}
	}
	loc1 = loc_count(cpu);
	trace_mark("ntt: spin ends");
	printf("loc_before=%lld\nloc_after=%lld\nloc_delta=%lld\n", loc0, loc1,
	       loc1 - loc0);
	printf("loc_first_100ms=%lld\n", loc0 - locs);
	printf("grace_periods=%d\ngp_max_ms=%.1f\n", done, gp_max * 1e3);
	printf("loops_in_window=%llu\n", (unsigned long long)sh->loops);
	sh->stop = 1;
	waitpid(pid, NULL, 0);
	printf("wall_ms=%.0f\nrusage_ms=%.0f\nstat_ms=%.0f\ncpu_seen=%d\n",
	       sh->wall_s * 1e3, sh->rusage_s * 1e3, sh->stat_s * 1e3,
	       sh->cpu_seen);
	return 0;
}

static pid_t start_contender(struct shared *sh, int cpu)
{
	pid_t pid = xfork();

	if (pid == 0) {
		/* Returns once this task runs on cpu */
		bind_cpu(cpu);
		sh->loops_at_contender = sh->loops;
		sh->contender_ran = 1;
		_exit(0);
	}
	return pid;
}

static int cmd_contend(int cpu)
{
	struct shared *sh = shared_map();
	uint64_t loops_after;
	pid_t spinner, contender;
	double t0, delay;
	int i;

	bind_cpu(0);
	spinner = start_spinner(sh, cpu);
	sleep_s(0.1);
	t0 = now_s();
	contender = start_contender(sh, cpu);
	/* Give up after 30 s (then the check fails): not a timing criterion */
	for (i = 0; i < 3000 && !waitpid(contender, NULL, WNOHANG); i++)
		sleep_s(0.01);
	delay = now_s() - t0;
	/* The spinner must make progress again after the contender left */
	loops_after = sh->loops;
	for (i = 0; i < 3000 && sh->loops == loops_after; i++)
		sleep_s(0.01);
	printf("contender_ran=%d\nspinner_was_spinning=%d\n", sh->contender_ran,
	       sh->loops_at_contender > 0);
	printf("spinner_progress_after=%d\ncontender_delay_ms=%.1f\n",
	       sh->loops > loops_after, delay * 1e3);
	/*
	 * Alone again: the tick must stop again (on a CPU that invokes its
	 * own RCU callbacks, once those queued by the contender's exit have
	 * run), and stay stopped.
	 */
	t0 = now_s();
	for (i = 0; i < 3000 && !tick_stopped(cpu); i++)
		sleep_s(0.01);
	printf("tick_stopped_again=%d\nstop_again_ms=%.0f\n",
	       tick_stopped(cpu), (now_s() - t0) * 1e3);
	printf("loc_delta_after=%lld\n", loc_over(cpu, 2.0));
	sh->stop = 1;
	waitpid(spinner, NULL, 0);
	if (!sh->contender_ran)
		kill(contender, SIGKILL);
	waitpid(contender, NULL, 0);
	printf("spinner_pid=%d\n", spinner);
	return 0;
}

/*
 * The spinner blocks in read() halfway: its CPU must idle meanwhile and
 * the spinner must be tickless again once it spins alone.
 */
static int cmd_block(int cpu)
{
	struct shared *sh = shared_map();
	long long idle0, idle1;
	int pipefd[2], i;
	pid_t pid;
	char c = 'x';

	bind_cpu(0);
	if (pipe(pipefd))
		die("pipe");
	pid = xfork();
	if (pid == 0) {
		uint64_t n = 0;

		bind_cpu(cpu);
		if (set_notick(0, 0)) {
			sh->admitted = -errno;
			_exit(1);
		}
		sh->admitted = 1;
		while (!sh->stop)
			n++;
		if (read(pipefd[0], &c, 1) != 1)
			_exit(1);
		sh->contender_ran = 1;		/* resumed */
		while (sh->stop != 2)
			sh->loops = ++n;
		_exit(0);
	}
	while (!sh->admitted)
		sleep_s(0.001);
	sh->stop = 1;				/* go and block in read() */
	sleep_s(0.1);
	idle0 = cpu_idle_ticks(cpu);
	sleep_s(1.0);
	idle1 = cpu_idle_ticks(cpu);
	printf("idle_ticks_while_blocked=%lld\n", idle1 - idle0);
	if (write(pipefd[1], &c, 1) != 1)
		die("write");
	for (i = 0; i < 3000 && !sh->contender_ran; i++)
		sleep_s(0.01);
	printf("resumed=%d\n", sh->contender_ran);
	sleep_s(0.5);
	printf("loc_delta_resumed=%lld\n", loc_over(cpu, 2.0));
	sh->stop = 2;
	waitpid(pid, NULL, 0);
	return 0;
}

static int cmd_wait_contender(int cpu, double seconds)
{
	struct shared *sh = shared_map();
	pid_t spinner, contender;
	int ran_while_spinning;

	bind_cpu(0);
	spinner = start_spinner(sh, cpu);
	sleep_s(0.1);
	contender = start_contender(sh, cpu);
	sleep_s(seconds);
	ran_while_spinning = sh->contender_ran;
	sh->stop = 1;
	waitpid(spinner, NULL, 0);
	waitpid(contender, NULL, 0);
	printf("ran_while_spinning=%d\nran_after_spinner_left=%d\n",
	       ran_while_spinning, sh->contender_ran);
	return 0;
}

/* Priority of a thread as /proc shows it: prio - 100 (field 18 of stat) */
static long task_prio(pid_t tid)
{
	char path[64], buf[1024], *p;
	long prio = 0;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	f = fopen(path, "r");
	if (!f || !fgets(buf, sizeof(buf), f))
		die(path);
	fclose(f);
	p = strrchr(buf, ')');		/* field 2 ends here */
	for (i = 2; p && i < 18; i++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%ld", &prio) != 1)
		return 0;
	return prio;
}

static int task_policy(pid_t tid)
{
	struct nt_sched_attr attr;

	memset(&attr, 0, sizeof(attr));
	if (syscall(SYS_sched_getattr, tid, &attr, sizeof(attr), 0))
		return -errno;
	return (int)attr.sched_policy;
}

static long sysfs_pid(int cpu)
{
	char path[96];
	long pid = -1;
	FILE *f;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/notick/pid", cpu);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &pid) != 1)
		pid = -1;
	fclose(f);
	return pid;
}

struct pi_state {
	pthread_mutex_t lock;
	int cpu;
	volatile pid_t owner;		/* owner's TID once admitted */
	volatile int err;		/* owner's admission error */
	volatile int release;		/* main: hand the lock over once */
	volatile int rounds;		/* owner: times it took the lock */
	volatile int stop;
};

struct pi_waiter {
	struct pi_state *st;
	int policy;			/* SCHED_FIFO or SCHED_DEADLINE */
	volatile int state;		/* 1 about to lock, 2 got it, <0 error */
};

static void *pi_owner(void *arg)
{
	struct pi_state *st = arg;
	int err;

	bind_cpu(st->cpu);
	err = set_notick(0, 0);
	if (err) {
		st->err = err;
		return NULL;
	}
	pthread_mutex_lock(&st->lock);
	st->owner = (pid_t)syscall(SYS_gettid);
	st->rounds = 1;
	while (!st->stop) {
		if (!st->release)
			continue;
		/* The top waiter gets the lock; take it back after it. */
		pthread_mutex_unlock(&st->lock);
		st->release = 0;
		pthread_mutex_lock(&st->lock);
		st->rounds++;
	}
	pthread_mutex_unlock(&st->lock);
	return NULL;
}

static void *pi_wait(void *arg)
{
	struct pi_waiter *w = arg;
	struct nt_sched_attr attr;
	cpu_set_t all;
	int i;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.sched_policy = w->policy;
	if (w->policy == SCHED_DEADLINE) {
		/* Deadline admission wants the whole root domain. */
		CPU_ZERO(&all);
		for (i = 0; i < CPU_SETSIZE; i++)
			CPU_SET(i, &all);
		sched_setaffinity(0, sizeof(all), &all);
		attr.sched_runtime = 1000000;
		attr.sched_deadline = attr.sched_period = 10000000;
	} else {
		attr.sched_priority = 99;
	}
	if (syscall(SYS_sched_setattr, 0, &attr, 0)) {
		w->state = -errno;
		return NULL;
	}
	w->state = 1;
	pthread_mutex_lock(&w->st->lock);
	w->state = 2;
	pthread_mutex_unlock(&w->st->lock);
	return NULL;
}

/* Start a waiter, let it block, report the owner's state, release it. */
static void pi_round(struct pi_state *st, int policy, const char *tag,
		     int count_loc)
{
	struct pi_waiter w = { .st = st, .policy = policy };
	int rounds = st->rounds;
	pthread_t thr;

	if (pthread_create(&thr, NULL, pi_wait, &w))
		die("pthread_create");
	while (!w.state)
		sleep_s(0.001);
	if (w.state < 0) {
		printf("%s_waiter=%s\n", tag, errname(-w.state));
		pthread_join(thr, NULL);
		return;
	}
	sleep_s(0.2);
	printf("%s_waiter_blocked=%d\n", tag, w.state == 1);
	printf("%s_prio=%ld\n%s_policy=%d\n", tag, task_prio(st->owner), tag,
	       task_policy(st->owner));
	if (count_loc)
		printf("%s_loc_delta=%lld\n", tag, loc_over(st->cpu, 1.0));
	st->release = 1;
	pthread_join(thr, NULL);
	while (st->rounds == rounds)
		sleep_s(0.001);
	printf("%s_waiter_got_lock=%d\n", tag, w.state == 2);
}

static int cmd_pi(int cpu)
{
	struct pi_state st = { .cpu = cpu };
	pthread_mutexattr_t ma;
	pthread_t owner;

	bind_cpu(0);
	pthread_mutexattr_init(&ma);
	if (pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT))
		die("PTHREAD_PRIO_INHERIT");
	pthread_mutex_init(&st.lock, &ma);
	if (pthread_create(&owner, NULL, pi_owner, &st))
		die("pthread_create");
	while (!st.owner && !st.err)
		sleep_s(0.001);
	if (st.err) {
		printf("admitted=%s\n", errname(st.err));
		pthread_join(owner, NULL);
		return 1;
	}
	sleep_s(0.1);
	printf("owner_is_sysfs_pid=%d\n", sysfs_pid(cpu) == st.owner);
	printf("before_prio=%ld\nbefore_policy=%d\n", task_prio(st.owner),
	       task_policy(st.owner));
	pi_round(&st, SCHED_FIFO, "fifo", 1);
	pi_round(&st, SCHED_DEADLINE, "dl", 0);
	sleep_s(0.2);
	printf("after_prio=%ld\nafter_policy=%d\n", task_prio(st.owner),
	       task_policy(st.owner));
	printf("after_owner_is_sysfs_pid=%d\n", sysfs_pid(cpu) == st.owner);
	printf("after_tick_stopped=%d\n", tick_stopped(cpu));
	printf("after_loc_delta=%lld\n", loc_over(cpu, 1.0));
	st.stop = 1;
	pthread_join(owner, NULL);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		goto usage;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "try"))
		return cmd_try(argc - 1, argv + 1);
	if (!strcmp(argv[1], "hold") && argc == 3)
		return cmd_hold(atoi(argv[2]));
	if (!strcmp(argv[1], "fork") && argc == 3)
		return cmd_fork(atoi(argv[2]));
	if (!strcmp(argv[1], "affinity") && argc == 3)
		return cmd_affinity(atoi(argv[2]));
	if (!strcmp(argv[1], "normal-spin") && argc == 4) {
		spinner_notick = 0;
		return cmd_spin(atoi(argv[2]), atof(argv[3]), 2);
	}
	if (!strcmp(argv[1], "spin-files") && argc == 5) {
		spinner_files = atoi(argv[4]);
		return cmd_spin(atoi(argv[2]), atof(argv[3]), 0);
	}
	if (!strcmp(argv[1], "spin") && argc == 5)
		return cmd_spin(atoi(argv[2]), atof(argv[3]), atoi(argv[4]));
	if (!strcmp(argv[1], "contend") && argc == 3)
		return cmd_contend(atoi(argv[2]));
	if (!strcmp(argv[1], "block") && argc == 3)
		return cmd_block(atoi(argv[2]));
	if (!strcmp(argv[1], "pi") && argc == 3)
		return cmd_pi(atoi(argv[2]));
	if (!strcmp(argv[1], "wait-contender") && argc == 4)
		return cmd_wait_contender(atoi(argv[2]), atof(argv[3]));
usage:
	fprintf(stderr, "usage: see the comment at the top of ntt.c\n");
	return 2;
}
