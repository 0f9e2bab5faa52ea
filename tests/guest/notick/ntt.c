// SPDX-License-Identifier: GPL-2.0
/*
 * ntt - SCHED_NOTICK test helper, run by run.sh in the guest.
 *
 *   ntt try [-s] [-u UID] [-U] PRIO CPULIST
 *	Bind to CPULIST, optionally drop to UID, with -U enter a new user
 *	namespace as its root (every capability there, CAP_SYS_NICE
 *	checked), then ask for SCHED_NOTICK with priority PRIO
 *	(sched_setattr, or sched_setscheduler with -s). Prints
 *	"OK policy=N" or the errno name (EINVAL, EPERM, EBUSY, ...).
 *   ntt hold CPU
 *	Become SCHED_NOTICK on CPU, print "ADMITTED TID", sleep until killed.
 *   ntt fork CPU
 *	Become SCHED_NOTICK on CPU, fork; print "parent=P child=C" policies.
 *   ntt affinity CPU
 *	Become SCHED_NOTICK on CPU; try to widen the affinity to CPU 0 and
 *	CPU, then set it to CPU alone: prints "widen=ERR same=ERR".
 *   ntt spin CPU SECONDS GPS
 *	A child becomes SCHED_NOTICK on CPU and spins in user space; the
 *	parent (on CPU 0) waits until the child spins and CPU's tick is
 *	stopped (up to 10 s: tick_stop_ms=-1 if it never was), counts CPU's
 *	LOC interrupts over SECONDS while forcing GPS synchronize_rcu()
 *	calls (the window, between the trace marker lines "ntt: spin
 *	window" and "ntt: spin ends"), stops the child and prints what both
 *	saw as key=value lines, with the LOC count from the fork to the
 *	stop (fork, admission, first return to user space, and the CPU's
 *	own RCU callbacks queued meanwhile, if it invokes them).
 *   ntt spin-files CPU SECONDS NFILES
 *	Like spin without grace periods, but the child creates and unlinks
 *	NFILES files in /tmp once admitted (RCU callbacks queued on CPU),
 *	and the parent writes "ntt: spin ends" to the trace marker before
 *	it stops the child.
 *   ntt normal-spin CPU SECONDS
 *	The same with a SCHED_NORMAL spinner and 2 grace periods: the
 *	control run, which must see local timer interrupts (and times
 *	synchronize_rcu() beside an ordinary task: gp_max_ms).
 *   ntt normal-spin-nohz CPU SECONDS
 *	The same on a nohz_full= CPU, counted from its tick stop, as spin
 *	does (tick_stop_ms=-1 if it never stopped).
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
 *   ntt dlboost CPU [CMD]
 *	A SCHED_NORMAL thread on CPU holds a priority-inheritance mutex a
 *	SCHED_DEADLINE thread waits on, and asks for SCHED_NOTICK while so
 *	boosted; with CMD, it does not ask itself: CMD runs through
 *	/bin/sh meanwhile, with the thread's TID in $NTT_TID ("cmd_rc=N").
 *	Prints the priorities, the error and cpuN/notick/pid after.
 *   ntt kick CPU idle|busy|timer
 *	A child bound to CPU sleeps, CPU idle or (busy) running a CFS
 *	spinner allowed on CPU 0 too; from CPU 0 the child is made
 *	SCHED_NOTICK, then woken 0.3 s (busy: 1.5 s) later to spin.
 *	Prints CPU's CAL and IWI interrupts between, the spinner's CPU
 *	time meanwhile (its utime + stime), where it ran before and after
 *	the wakeup, and CPU's tick and LOC count over 0.5 s once the child
 *	spins. With timer, CPU is idle but holds the hrtimer of a sleeper
 *	that went to sleep there for 1.2 s (allowed on CPU 0 too), and a
 *	task with ITIMER_PROF armed runs there in user space after the
 *	admission: the LOC count runs until the sleeper wakes, and the CPU
 *	it woke on is printed.
 *   ntt hotplug-wheel CPU
 *	Four sleepers arm wheel timers on CPU 0.7 to 1.9 s ahead (a receive
 *	timeout), CPU goes offline, which moves the timers, and online again;
 *	a task on CPU lets a 20 ms timer expire there, then a child is made
 *	SCHED_NOTICK on CPU and spins: prints its tick state and CPU's LOC
 *	count over the 2.1 s the wheel's second level takes to come round.
 *   ntt spinhold CPU
 *	Become SCHED_NOTICK on CPU, print "ADMITTED TID" and spin in user
 *	space until killed.
 *   ntt zombie CPU
 *	Ask for SCHED_NOTICK on CPU for a zombie group leader (its other
 *	thread alive) and for a zombie process (exited, not reaped): prints
 *	each errno and the sysfs pid of CPU after each attempt and after the
 *	process is gone.
 *   ntt membarrier
 *	Prints whether MEMBARRIER_CMD_QUERY lists MEMBARRIER_CMD_GLOBAL and
 *	what MEMBARRIER_CMD_GLOBAL itself returns (OK or the errno name).
 *   ntt syscalls CPU N
 *	Bound to CPU, makes N getppid() system calls.
 *   ntt flap CPU ROUNDS READERS
 *	A child on CPU becomes SCHED_NOTICK, spins briefly in user space and
 *	goes back to SCHED_NORMAL, ROUNDS times, while READERS processes on
 *	CPU 0 read /proc/stat and /proc/uptime in a loop. Prints the rounds
 *	admitted and, once the child is done, how many readers finished
 *	within 30 s (a reader stuck in the kernel never does).
 *   ntt deps CPU itimer|perf before|after
 *	A child on CPU arms ITIMER_PROF (10 ms) or opens a sampling perf
 *	event on itself (frequency mode), before or after its admission,
 *	and spins. Prints CPU's LOC count over 1 s and the SIGPROF count
 *	while armed, then over 1 s after the child disarmed it.
 *   ntt balance CPU SECONDS
 *	A child admitted on CPU blocks in read(); meanwhile three
 *	SCHED_NORMAL spinners allowed on every CPU run for SECONDS. Prints
 *	how many of their samples (sched_getcpu()) were taken on CPU.
 *   ntt remote CPU SECONDS
 *	A child admitted on CPU blocks in read(); a SCHED_NORMAL spinner
 *	bound to CPU runs alone there. Prints CPU's LOC count over SECONDS
 *	and the spinner's PID.
 *   ntt delay CPU ROUNDS
 *	A child spins as SCHED_NOTICK on CPU; ROUNDS times, a SCHED_NORMAL
 *	child moves to CPU, runs once and exits. Prints the contenders'
 *	PIDs (the delays come from the trace).
 *   ntt race CPU ROUNDS CPU_A CPU_B
 *	Two processes sleep, bound to CPU. ROUNDS times, callers on CPU_A
 *	and CPU_B ask at the same moment for SCHED_NOTICK, one for each;
 *	the winner goes back to SCHED_NORMAL. Prints how many rounds had
 *	exactly one winner and one EBUSY, and the others.
 *   ntt race2 exit|affinity CPU ROUNDS CPU_A CPU_B
 *	ROUNDS times, a fresh process bound to CPU and, from CPU_A, a
 *	request to make it SCHED_NOTICK at the same moment as (exit) the
 *	process exits, or (affinity) CPU_B widens its mask to CPU 0 and
 *	CPU. Prints how the requests ended, rounds whose outcome is
 *	inconsistent (admitted but not owner, owner with a wide mask, both
 *	requests won) and rounds that left CPU owned after the process
 *	died (leaked).
 *   ntt dlrt CPU
 *	A SCHED_NOTICK spinner on CPU; two SCHED_DEADLINE tasks run 0.5 s
 *	(one is pushed to CPU); then a SCHED_FIFO 10 task allowed on CPU 0
 *	and CPU wakes while a SCHED_FIFO 50 task spins on CPU 0. Prints the
 *	deadline tasks' samples on CPU and where the FIFO 10 task ran.
 *   ntt forkloop CPU ROUNDS
 *	Become SCHED_NOTICK on CPU and fork ROUNDS children, one at a time:
 *	each reports its policy and exits. Prints the rounds whose child was
 *	not SCHED_NORMAL and those after which the caller was no longer
 *	SCHED_NOTICK and CPU's owner.
 *   ntt execloop CPU ROUNDS
 *	Become SCHED_NOTICK on CPU, then exec this program ROUNDS times in
 *	a chain; every other exec is made by a second thread that took CPU
 *	over from the first (exec makes it the leader, with the process's
 *	PID). Each image checks that it is SCHED_NOTICK and CPU's owner
 *	under its PID; prints "execs=N bad=B".
 *   ntt respond SECONDS
 *	Every 500 ms for SECONDS, run /bin/true and wait for it (a shell
 *	command's round trip, as a user waits for one): prints the number
 *	run, the longest round trip in ms and how many took over 1 s.
 *   ntt multi SECONDS CPU...
 *	One SCHED_NOTICK spinner on each CPU at once; once each CPU's tick
 *	is stopped, prints its LOC count over SECONDS (as spin does).
 *   ntt hrtimers CPU
 *	Prints the hrtimers queued on CPU (/proc/timer_list): each callback
 *	and its due time in ms from now.
 *   ntt rtwake
 *	Becomes SCHED_FIFO 1 on CPU 0 and wakes every 100 ms, for a few
 *	microseconds each time, until killed: RT time in every period, so
 *	the RT bandwidth timer keeps running, without forking (a shell loop
 *	forking sleep(1) as FIFO starved CPU 0's kworkers under
 *	single-threaded TCG).
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
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <linux/capability.h>
#include <linux/membarrier.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../lib/ntlib.h"

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

/*
 * Become root of a new user namespace, mapped to our uid outside, and
 * check that CAP_SYS_NICE is effective there.
 */
static void enter_userns(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];
	char map[64];
	int fd, n;

	n = snprintf(map, sizeof(map), "0 %ld 1\n", (long)getuid());
	/* after setuid(), /proc/self would belong to root */
	if (prctl(PR_SET_DUMPABLE, 1) || unshare(CLONE_NEWUSER))
		die("unshare(CLONE_NEWUSER)");
	fd = open("/proc/self/uid_map", O_WRONLY);
	if (fd < 0 || write(fd, map, n) != n)
		die("uid_map");
	close(fd);
	if (syscall(SYS_capget, &hdr, data))
		die("capget");
	if (getuid() != 0 || !(data[0].effective & (1U << CAP_SYS_NICE))) {
		fprintf(stderr, "ntt: no CAP_SYS_NICE in the user namespace\n");
		exit(1);
	}
}

static int cmd_try(int argc, char **argv)
{
	int use_ss = 0, uid = -1, userns = 0, opt, err;
	cpu_set_t set;

	while ((opt = getopt(argc, argv, "su:U")) != -1) {
		if (opt == 's')
			use_ss = 1;
		else if (opt == 'u')
			uid = atoi(optarg);
		else if (opt == 'U')
			userns = 1;
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
	if (userns)
		enter_userns();
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

/*
 * The hrtimers queued on cpu, from /proc/timer_list, one line: each
 * callback and when it is due, in ms from now (" #0: <...>,
 * tick_sched_timer, S:01" then " # expires at A-B nsecs [in C to D
 * nsecs]" under "cpu: N").
 */
static void print_hrtimers(const char *key, int cpu)
{
	char line[256], fn[128] = "";
	FILE *f = fopen("/proc/timer_list", "r");
	int cur = -1, n;
	long long in;

	printf("%s=", key);
	if (!f) {
		printf("unreadable\n");
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "cpu: %d", &n) == 1)
			cur = n;
		else if (cur != cpu)
			continue;
		else if (sscanf(line, " #%d: <%*[^>]>, %127[^,]", &n, fn) == 2)
			printf(" %s", fn);
		else if (fn[0] &&
			 sscanf(line, " # expires at %*d-%*d nsecs [in %lld", &in) == 1)
			printf("(%+lldms)", in / 1000000);
	}
	fclose(f);
	printf("\n");
}

/* LOC (local timer interrupts) count of one CPU */
static long long loc_count(int cpu)
{
	return nt_irqs("LOC", cpu);
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
/* The number in /sys/devices/system/cpu/cpuCPU/notick/FILE, -1 if none */
static long long notick_read(int cpu, const char *file)
{
	char path[128];
	long long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/notick/%s",
		 cpu, file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &n) != 1)
		n = -1;
	fclose(f);
	return n;
}

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
	double utime_s;			/* spinner: /proc/self/stat utime */
	double stime_s;			/* spinner: /proc/self/stat stime */
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

/* utime and stime of this process in seconds, from /proc/self/stat */
static int stat_times(pid_t pid, double *utime_s, double *stime_s)
{
	unsigned long utime = 0, stime = 0;
	char path[64], buf[2048], *p;
	FILE *f;
	int i;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/stat");
	f = fopen(path, "r");
	if (!f || !fgets(buf, sizeof(buf), f))
		die(path);
	fclose(f);
	p = strrchr(buf, ')');		/* skip pid and comm */
	for (i = 2; p && i < 14; i++)	/* field 14 is utime */
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%lu %lu", &utime, &stime) != 2)
		return -1;
	*utime_s = (double)utime / sysconf(_SC_CLK_TCK);
	*stime_s = (double)stime / sysconf(_SC_CLK_TCK);
	return 0;
}

/* User time of one CPU in seconds, from /proc/stat */
static double cpu_user_s(int cpu)
{
	FILE *f = fopen("/proc/stat", "r");
	char line[1024], name[16];
	long long user = -1;

	if (!f)
		die("/proc/stat");
	snprintf(name, sizeof(name), "cpu%d ", cpu);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, name, strlen(name)))
			continue;
		if (sscanf(line + strlen(name), "%lld", &user) != 1)
			user = -1;
		break;
	}
	fclose(f);
	return (double)user / sysconf(_SC_CLK_TCK);
}

/* 0 for the control runs: the spinner stays SCHED_NORMAL */
static int spinner_notick = 1;
/* A SCHED_NORMAL spinner's window starts at its tick stop (nohz_full=) */
static int spinner_wait_stop;
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

/* A child bound to @cpu counting in sh->loops until sh->stop, nothing else */
static pid_t start_looper(struct shared *sh, int cpu)
{
	pid_t pid = xfork();

	if (pid == 0) {
		bind_cpu(cpu);
		while (!sh->stop)
			sh->loops++;
		_exit(0);
	}
	return pid;
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
		if (stat_times(0, &sh->utime_s, &sh->stime_s))
			sh->utime_s = sh->stime_s = -1;
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

/* cpu's notick/tick_restarts counter, -1 if unreadable */
static long long tick_restarts(int cpu)
{
	return notick_read(cpu, "tick_restarts");
}

/*
 * Once the spinner spins: how long CPU's tick then took to stop, in ms
 * (up to 10 s; -1 if it did not). The migration and the admission keep
 * it a while, and on a CPU that invokes its own RCU callbacks so do the
 * callbacks queued meanwhile, until grace periods end: longer when the
 * host is loaded. Returns 100 ms after the stop, the tick still stopped:
 * a tick that fell due while the CPU was stopping it (interrupts off on
 * the way to user space) has already raised its interrupt, which the CPU
 * takes right after, with nothing left to do; traced 2 ms after the stop
 * under a loaded host.
 */
static double wait_tick_stopped(struct shared *sh, int cpu)
{
	double t0 = now_s(), t1, stop_ms;

	while (!sh->loops && now_s() - t0 < 10)
		sleep_s(0.001);
	t1 = now_s();
	while (!tick_stopped(cpu) && now_s() - t0 < 10)
		sleep_s(0.001);
	if (!sh->loops || !tick_stopped(cpu))
		return -1;
	stop_ms = (now_s() - t1) * 1e3;
	sleep_s(0.1);
	return tick_stopped(cpu) ? stop_ms : -1;
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
	long long locs, loc0, loc1, restarts0, restarts1;
	int done = 0, tried = 0;
	pid_t pid;
	double t, gp_max = 0, user0, stop_ms = 0;

	bind_cpu(0);
	user0 = cpu_user_s(cpu);
	locs = loc_count(cpu);
	pid = start_spinner(sh, cpu);
	if (spinner_notick || spinner_wait_stop)
		stop_ms = wait_tick_stopped(sh, cpu);
	else
		sleep_s(0.1);
	loc0 = loc_count(cpu);
	trace_mark("ntt: spin window");
	restarts0 = tick_restarts(cpu);
	print_hrtimers("hrtimers_after_stop", cpu);
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
	restarts1 = tick_restarts(cpu);
	trace_mark("ntt: spin ends");
	printf("loc_before=%lld\nloc_after=%lld\nloc_delta=%lld\n", loc0, loc1,
	       loc1 - loc0);
	printf("loc_to_stop=%lld\ntick_stop_ms=%.0f\n", loc0 - locs, stop_ms);
	printf("tick_restarts_in_window=%lld\n", restarts1 - restarts0);
	printf("grace_periods=%d\ngp_max_ms=%.1f\n", done, gp_max * 1e3);
	printf("loops_in_window=%llu\n", (unsigned long long)sh->loops);
	sh->stop = 1;
	waitpid(pid, NULL, 0);
	printf("wall_ms=%.0f\nrusage_ms=%.0f\nstat_ms=%.0f\ncpu_seen=%d\n",
	       sh->wall_s * 1e3, sh->rusage_s * 1e3,
	       (sh->utime_s + sh->stime_s) * 1e3, sh->cpu_seen);
	printf("utime_ms=%.0f\nstime_ms=%.0f\ncpu_user_ms=%.0f\n",
	       sh->utime_s * 1e3, sh->stime_s * 1e3,
	       (cpu_user_s(cpu) - user0) * 1e3);
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
	/*
	 * The spinner's release (and the tick's restart) come with its last
	 * switch on its CPU, which may follow waitpid(): wait for the CPU
	 * to have no thread (1 s at most), so that the trace stopped next
	 * and the counters read next see the same events.
	 */
	for (i = 0; i < 100 && notick_read(cpu, "pid") != 0; i++)
		sleep_s(0.01);
	sleep_s(0.05);
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
	return (long)notick_read(cpu, "pid");
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

/* From CPU 0: @st's lock with priority inheritance, and its owner @fn. */
static void pi_start_owner(struct pi_state *st, pthread_t *owner,
			   void *(*fn)(void *))
{
	pthread_mutexattr_t ma;

	bind_cpu(0);
	pthread_mutexattr_init(&ma);
	if (pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT))
		die("PTHREAD_PRIO_INHERIT");
	pthread_mutex_init(&st->lock, &ma);
	if (pthread_create(owner, NULL, fn, st))
		die("pthread_create");
}

static int cmd_pi(int cpu)
{
	struct pi_state st = { .cpu = cpu };
	pthread_t owner;

	pi_start_owner(&st, &owner, pi_owner);
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

/*
 * dlboost: a SCHED_NORMAL owner of a PI mutex, pinned to @cpu, boosted to
 * deadline by a SCHED_DEADLINE waiter, asks for SCHED_NOTICK. The deadline
 * bandwidth check refuses a boosted task a policy change (EBUSY): the
 * CPU must then stay free, not be left admitted to a thread that is not
 * SCHED_NOTICK.
 */
static const char *dlboost_cmd;	/* asks for the owner instead */

static void *dlboost_owner(void *arg)
{
	struct pi_state *st = arg;

	bind_cpu(st->cpu);
	pthread_mutex_lock(&st->lock);
	st->owner = (pid_t)syscall(SYS_gettid);
	while (!st->release)
		sleep_s(0.001);
	if (!dlboost_cmd)
		st->err = set_notick(0, 0);
	st->rounds = (int)sysfs_pid(st->cpu);
	pthread_mutex_unlock(&st->lock);
	return NULL;
}

static int cmd_dlboost(int cpu)
{
	struct pi_state st = { .cpu = cpu };
	struct pi_waiter w = { .st = &st, .policy = SCHED_DEADLINE };
	pthread_t owner, waiter;

	pi_start_owner(&st, &owner, dlboost_owner);
	while (!st.owner)
		sleep_s(0.001);
	printf("before_prio=%ld\n", task_prio(st.owner));
	if (pthread_create(&waiter, NULL, pi_wait, &w))
		die("pthread_create");
	while (!w.state)
		sleep_s(0.001);
	if (w.state < 0) {
		printf("waiter=%s\n", errname(-w.state));
		st.release = 1;
		pthread_join(owner, NULL);
		pthread_join(waiter, NULL);
		return 1;
	}
	sleep_s(0.2);
	printf("boosted_prio=%ld\nboosted_policy=%d\n", task_prio(st.owner),
	       task_policy(st.owner));
	if (dlboost_cmd) {
		char tid[16];
		int rc;

		snprintf(tid, sizeof(tid), "%ld", (long)st.owner);
		setenv("NTT_TID", tid, 1);
		fflush(stdout);
		rc = system(dlboost_cmd);
		printf("cmd_rc=%d\n", WIFEXITED(rc) ? WEXITSTATUS(rc) : -1);
	}
	st.release = 1;
	pthread_join(waiter, NULL);
	pthread_join(owner, NULL);
	printf("err=%s\nsysfs_pid_after_call=%d\nsysfs_pid_at_end=%ld\n",
	       errname(st.err), st.rounds, sysfs_pid(cpu));
	return 0;
}

static int cmd_rtwake(void)
{
	struct sched_param sp = { .sched_priority = 1 };

	bind_cpu(0);
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		die("sched_setscheduler");
	for (;;)
		sleep_s(0.1);
	return 0;
}

static int cmd_spinhold(int cpu)
{
	volatile uint64_t n = 0;

	become_notick(cpu);
	printf("ADMITTED %ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	for (;;)
		n++;
	return 0;
}

/* sched_setaffinity() to one CPU and sched_setattr(SCHED_NOTICK) on pid */
static int set_notick_pid(pid_t pid, int cpu)
{
	struct nt_sched_attr attr;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(pid, sizeof(set), &set))
		return errno;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.sched_policy = SCHED_NOTICK;
	return syscall(SYS_sched_setattr, pid, &attr, 0) ? errno : 0;
}

/* State letter of a thread (field 3 of /proc/PID/task/TID/stat) */
static char task_state(pid_t pid, pid_t tid)
{
	char path[96], buf[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid,
		 (int)tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	fclose(f);
	return p && p[1] == ' ' ? p[2] : 0;
}

/* utime + stime of a process in seconds */
static double task_cpu_s(pid_t pid)
{
	double ut, st;

	return stat_times(pid, &ut, &st) ? -1 : ut + st;
}

static void *sleeper_thread(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static int cmd_zombie(int cpu)
{
	pthread_t thr;
	pid_t pid;
	int i, err;

	bind_cpu(0);
	/* A group leader that exited while its other thread lives on */
	pid = xfork();
	if (pid == 0) {
		if (pthread_create(&thr, NULL, sleeper_thread, NULL))
			_exit(1);
		pthread_exit(NULL);
	}
	for (i = 0; i < 3000 && task_state(pid, pid) != 'Z'; i++)
		sleep_s(0.01);
	printf("leader_state=%c\n", task_state(pid, pid));
	err = set_notick_pid(pid, cpu);
	printf("leader_err=%s\nleader_sysfs_pid=%ld\n", errname(err),
	       sysfs_pid(cpu));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	printf("leader_gone_sysfs_pid=%ld\n", sysfs_pid(cpu));

	/* A process that exited and was not reaped yet */
	pid = xfork();
	if (pid == 0)
		_exit(0);
	for (i = 0; i < 3000 && task_state(pid, pid) != 'Z'; i++)
		sleep_s(0.01);
	printf("zombie_state=%c\n", task_state(pid, pid));
	err = set_notick_pid(pid, cpu);
	printf("zombie_err=%s\nzombie_sysfs_pid=%ld\n", errname(err),
	       sysfs_pid(cpu));
	waitpid(pid, NULL, 0);
	printf("zombie_gone_sysfs_pid=%ld\n", sysfs_pid(cpu));
	return 0;
}

/* Read a whole file and throw it away; returns 0 on success */
static int slurp(const char *path)
{
	char buf[4096];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	close(fd);
	return n < 0 ? -1 : 0;
}

static int cmd_flap(int cpu, int rounds, int readers)
{
	struct shared *sh = shared_map();
	pid_t flapper, rd[16];
	int i, done = 0, status;

	if (readers > 16)
		readers = 16;
	bind_cpu(0);
	for (i = 0; i < readers; i++) {
		rd[i] = xfork();
		if (rd[i] == 0) {
			while (!sh->stop) {
				slurp("/proc/stat");
				slurp("/proc/uptime");
			}
			_exit(0);
		}
	}
	flapper = xfork();
	if (flapper == 0) {
		struct nt_sched_attr normal;
		volatile uint64_t n;
		int ok = 0;

		bind_cpu(cpu);
		memset(&normal, 0, sizeof(normal));
		normal.size = sizeof(normal);
		normal.sched_policy = SCHED_OTHER;
		for (i = 0; i < rounds; i++) {
			if (!set_notick(0, 0))
				ok++;
			for (n = 0; n < 20000; n++)
				;
			if (syscall(SYS_sched_setattr, 0, &normal, 0))
				_exit(2);
			for (n = 0; n < 2000; n++)
				;
		}
		sh->loops = ok;
		_exit(0);
	}
	waitpid(flapper, &status, 0);
	printf("rounds=%d\nadmitted=%llu\nflapper_status=%d\n", rounds,
	       (unsigned long long)sh->loops, status);
	sh->stop = 1;
	for (i = 0; i < 3000 && done < readers; i++) {
		while (done < readers && waitpid(-1, NULL, WNOHANG) > 0)
			done++;
		if (done < readers)
			sleep_s(0.01);
	}
	printf("readers=%d\nreaders_done=%d\n", readers, done);
	return 0;
}

static volatile sig_atomic_t sigprofs;

static void on_sigprof(int sig)
{
	(void)sig;
	sigprofs++;
}

/* A sampling perf event in frequency mode on the calling thread */
static int open_freq_event(void)
{
	struct perf_event_attr pe;

	memset(&pe, 0, sizeof(pe));
	pe.size = sizeof(pe);
	/*
	 * Not cpu-clock or task-clock: those sample from an hrtimer of
	 * their own and turn frequency mode into a period when created.
	 */
	pe.type = PERF_TYPE_SOFTWARE;
	pe.config = PERF_COUNT_SW_PAGE_FAULTS;
	pe.freq = 1;
	pe.sample_freq = 100;
	pe.exclude_kernel = 1;
	return syscall(SYS_perf_event_open, &pe, 0, -1, -1, 0);
}

static int arm_dep(int perf)
{
	struct itimerval it = { { 0, 10000 }, { 0, 10000 } };

	if (perf)
		return open_freq_event();
	signal(SIGPROF, on_sigprof);
	return setitimer(ITIMER_PROF, &it, NULL) ? -1 : 0;
}

static void disarm_dep(int perf, int fd)
{
	struct itimerval it = { { 0, 0 }, { 0, 0 } };

	if (perf)
		close(fd);
	else
		setitimer(ITIMER_PROF, &it, NULL);
}

static int cmd_deps(int cpu, int perf, int before)
{
	struct shared *sh = shared_map();
	long long armed, disarmed;
	pid_t pid;
	int i;

	bind_cpu(0);
	pid = xfork();
	if (pid == 0) {
		int fd = -1, err;

		bind_cpu(cpu);
		if (before && (fd = arm_dep(perf)) < 0)
			_exit(2);
		err = set_notick(0, 0);
		if (err) {
			sh->admitted = -err;
			_exit(1);
		}
		if (!before && (fd = arm_dep(perf)) < 0)
			_exit(2);
		sh->admitted = 1;
		while (sh->stop != 1)
			sh->loops++;
		sh->contender_ran = sigprofs;
		disarm_dep(perf, fd);
		sh->admitted = 2;
		while (sh->stop != 2)
			sh->loops++;
		_exit(0);
	}
	for (i = 0; i < 3000 && !sh->admitted; i++)
		sleep_s(0.01);
	if (sh->admitted != 1) {
		printf("admitted=%d\n", sh->admitted);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return 1;
	}
	sleep_s(0.2);
	armed = loc_over(cpu, 1.0);
	sh->stop = 1;
	for (i = 0; i < 3000 && sh->admitted != 2; i++)
		sleep_s(0.01);
	/* A disarmed CPU timer clears its tick dependency at the next tick */
	sleep_s(0.3);
	disarmed = loc_over(cpu, 1.0);
	printf("loc_armed=%lld\nsigprof=%d\nloc_disarmed=%lld\n", armed,
	       sh->contender_ran, disarmed);
	printf("tick_stopped_disarmed=%d\n", tick_stopped(cpu));
	sh->stop = 2;
	waitpid(pid, NULL, 0);
	return 0;
}

/* A child admitted on cpu that blocks in read() until the pipe is written */
static pid_t start_blocked_owner(struct shared *sh, int cpu, int *wfd)
{
	int pipefd[2];
	pid_t pid;
	char c;

	if (pipe(pipefd))
		die("pipe");
	pid = xfork();
	if (pid == 0) {
		close(pipefd[1]);
		bind_cpu(cpu);
		if (set_notick(0, 0)) {
			sh->admitted = -errno;
			_exit(1);
		}
		sh->admitted = 1;
		if (read(pipefd[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	close(pipefd[0]);
	while (!sh->admitted)
		sleep_s(0.001);
	if (sh->admitted < 0) {
		printf("admitted=%s\n", errname(-sh->admitted));
		exit(1);
	}
	*wfd = pipefd[1];
	return pid;
}

#define NT_SPINNERS 3

static int cmd_balance(int cpu, double seconds)
{
	struct shared *sh = shared_map();
	volatile uint64_t *on = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t owner, sp[NT_SPINNERS];
	uint64_t on_cpu = 0, total = 0;
	cpu_set_t all;
	int i, j, wfd;

	if (on == MAP_FAILED)
		die("mmap");
	bind_cpu(0);
	owner = start_blocked_owner(sh, cpu, &wfd);
	sleep_s(0.1);
	for (i = 0; i < NT_SPINNERS; i++) {
		sp[i] = xfork();
		if (sp[i] == 0) {
			CPU_ZERO(&all);
			for (j = 0; j < CPU_SETSIZE; j++)
				CPU_SET(j, &all);
			sched_setaffinity(0, sizeof(all), &all);
			while (!sh->stop) {
				on[2 * i]++;
				if (sched_getcpu() == cpu)
					on[2 * i + 1]++;
			}
			_exit(0);
		}
	}
	sleep_s(seconds);
	sh->stop = 1;
	for (i = 0; i < NT_SPINNERS; i++) {
		waitpid(sp[i], NULL, 0);
		total += on[2 * i];
		on_cpu += on[2 * i + 1];
	}
	if (write(wfd, "x", 1) != 1)
		die("write");
	waitpid(owner, NULL, 0);
	printf("samples=%llu\nsamples_on_cpu=%llu\n",
	       (unsigned long long)total, (unsigned long long)on_cpu);
	return 0;
}

static int cmd_remote(int cpu, double seconds)
{
	struct shared *sh = shared_map();
	pid_t owner, spinner;
	int wfd;

	bind_cpu(0);
	owner = start_blocked_owner(sh, cpu, &wfd);
	spinner = start_looper(sh, cpu);
	sleep_s(0.3);
	printf("spinner_pid=%d\n", spinner);
	printf("loc_delta=%lld\n", loc_over(cpu, seconds));
	printf("tick_stopped=%d\n", tick_stopped(cpu));
	sh->stop = 1;
	waitpid(spinner, NULL, 0);
	if (write(wfd, "x", 1) != 1)
		die("write");
	waitpid(owner, NULL, 0);
	return 0;
}

/*
 * kick: a child bound to @cpu sleeps in read(); with @busy, a CFS spinner
 * allowed on CPU 0 and @cpu runs on @cpu meanwhile, else @cpu is idle.
 * From CPU 0, the child is made SCHED_NOTICK. Prints the function call and
 * irq_work interrupts @cpu took from the admission until the child is
 * woken 0.3 s later (1.5 s with @busy), the CPU time the spinner was charged meanwhile, where
 * it ran then and after the child took the CPU, and the child's tick and
 * LOC count once it spins alone.
 *
 * With @timer (idle too), a sleeper allowed on CPU 0 and @cpu first goes
 * to sleep on @cpu for 1.2 s, so that @cpu holds its hrtimer when the child
 * comes, and after the admission a visitor whose profiling timer keeps the
 * tick runs there in user space, so that the tick, stopped in idle, stays
 * stopped as the child comes; the LOC count then runs until the sleeper
 * has woken, and the CPU it woke on is printed.
 */
static int cmd_kick(int cpu, int busy, int timer)
{
	struct shared *sh = shared_map();
	long long cal, iwi, loc;
	double spun = 0;
	pid_t owner, spinner = 0, sleeper = 0;
	cpu_set_t two;
	int pipefd[2], err, sleeping = 0;
	char c;

	bind_cpu(0);
	if (pipe(pipefd))
		die("pipe");
	owner = xfork();
	if (owner == 0) {
		close(pipefd[1]);
		bind_cpu(cpu);
		if (read(pipefd[0], &c, 1) != 1)
			_exit(1);
		while (!sh->stop)
			sh->loops++;
		_exit(0);
	}
	close(pipefd[0]);
	sh->cpu_seen = -1;
	if (busy) {
		spinner = xfork();
		if (spinner == 0) {
			bind_cpu(cpu);
			CPU_ZERO(&two);
			CPU_SET(0, &two);
			CPU_SET(cpu, &two);
			if (sched_setaffinity(0, sizeof(two), &two))
				_exit(1);
			while (!sh->stop)
				sh->cpu_seen = sched_getcpu();
			_exit(0);
		}
		while (sh->cpu_seen != cpu)
			sleep_s(0.001);
	}
	CPU_ZERO(&two);
	CPU_SET(0, &two);
	CPU_SET(cpu, &two);
	if (timer) {
		sleeper = xfork();
		if (sleeper == 0) {
			/* Armed on @cpu: it runs there, and is not idle */
			bind_cpu(cpu);
			if (sched_setaffinity(0, sizeof(two), &two))
				_exit(1);
			trace_mark("ntt: kick: sleeper sleeps");
			sleep_s(1.2);
			sh->cpu_seen = sched_getcpu();
			_exit(0);
		}
		while (task_state(sleeper, sleeper) != 'S')
			sleep_s(0.001);
	}
	while (task_state(owner, owner) != 'S')
		sleep_s(0.001);
	sleep_s(0.2);
	trace_mark("ntt: kick: counting");
	cal = nt_irqs("CAL", cpu);
	iwi = nt_irqs("IWI", cpu);
	if (spinner)
		spun = task_cpu_s(spinner);
	trace_mark("ntt: kick: admitting");
	err = set_notick_pid(owner, cpu);
	/*
	 * Busy: long enough for the remote tick (1 Hz) to charge the spinner
	 * its time, as on any nohz_full= CPU whose task runs tickless.
	 */
	sleep_s(0.1);
	trace_mark("ntt: kick: 0.1 s after");
	if (timer) {
		/*
		 * A task bound to @cpu runs there in user space, then exits:
		 * @cpu, full dynticks since that switch, tracks user mode from
		 * then on, but the visitor's profiling timer keeps the tick
		 * running under it. @cpu then stops its tick in idle, with
		 * the sleeper's timer still there.
		 */
		pid_t visitor = xfork();

		if (visitor == 0) {
			struct itimerval it = { .it_value = { .tv_sec = 10 } };
			double t0;

			if (setitimer(ITIMER_PROF, &it, NULL))
				_exit(1);
			bind_cpu(cpu);
			for (t0 = now_s(); now_s() < t0 + 0.01;)
				;
			_exit(0);
		}
		waitpid(visitor, NULL, 0);
	}
	sleep_s(busy ? 1.4 : 0.2);
	trace_mark("ntt: kick: slept");
	cal = nt_irqs("CAL", cpu) - cal;
	iwi = nt_irqs("IWI", cpu) - iwi;
	if (spinner)
		spun = task_cpu_s(spinner) - spun;
	trace_mark("ntt: kick: counted, waking");
	printf("admitted=%s\n", err ? errname(err) : "OK");
	printf("window_ms=%d\nspinner_cpu_time_ms=%.0f\n", busy ? 1500 : 300,
	       spun * 1000);
	printf("admission_cal=%lld\nadmission_iwi=%lld\n", cal, iwi);
	printf("spinner_cpu_before_wake=%d\n", sh->cpu_seen);
	if (write(pipefd[1], "x", 1) != 1)
		die("write");
	sleep_s(0.3);
	printf("owner_runs=%d\nspinner_cpu_after_wake=%d\n",
	       sh->loops > 0, sh->cpu_seen);
	printf("tick_stopped=%d\n", tick_stopped(cpu));
	if (timer) {
		/* Its timer due about 0.4 s from now, on @cpu or moved off */
		sleeping = task_state(sleeper, sleeper) == 'S';
		loc = loc_count(cpu);
		trace_mark("ntt: kick: counting LOC until the sleeper wakes");
		waitpid(sleeper, NULL, 0);
		sleep_s(0.1);
		loc = loc_count(cpu) - loc;
		printf("sleeper_asleep_at_start=%d\nsleeper_cpu=%d\n",
		       sleeping, sh->cpu_seen);
	} else {
		loc = loc_over(cpu, 0.5);
	}
	printf("loc_delta=%lld\n", loc);
	sh->stop = 1;
	if (spinner)
		waitpid(spinner, NULL, 0);
	waitpid(owner, NULL, 0);
	return 0;
}

static int set_online(int cpu, int on)
{
	char path[96];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	f = fopen(path, "w");
	if (!f)
		return errno;
	ok = fprintf(f, "%d\n", on) > 0;
	return fclose(f) || !ok ? errno : 0;
}

/* Sleep in recv() on an AF_UNIX socket for up to @seconds: a wheel timer */
static void recv_timeout(double seconds)
{
	struct timeval tv = { (time_t)seconds,
			      (long)((seconds - (time_t)seconds) * 1e6) };
	int sv[2];
	char c;

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) ||
	    setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		die("socketpair");
	if (recv(sv[0], &c, 1, 0) >= 0 || errno != EAGAIN)
		die("recv");
	close(sv[0]);
	close(sv[1]);
}

/*
 * hotplug-wheel: the timer wheel of a CPU that went offline and came back
 * must hold no trace of the timers moved off it then. Four sleepers allowed
 * on CPU 0 and @cpu arm timers on @cpu in the wheel's second level (8-jiffy
 * buckets, up to 512 jiffies ahead); @cpu goes offline, which moves them
 * and their timers to CPU 0, then online. A task bound to @cpu lets a 20 ms
 * timer expire there, so that @cpu computes its next expiry from the wheel
 * again; then a child made SCHED_NOTICK spins on @cpu. Its tick stops, and
 * nothing is left to bring it back: any LOC over the next 2.1 s (the second
 * level's turn at HZ >= 250) is the expiry of a bucket the wheel thinks
 * still holds a timer.
 */
static int cmd_hotplug_wheel(int cpu)
{
	static const double sleeps[] = { 0.7, 1.1, 1.5, 1.9 };
	struct shared *sh = shared_map();
	pid_t sleeper[4], poker, owner;
	long long loc;
	cpu_set_t two;
	int i, err;

	bind_cpu(0);
	CPU_ZERO(&two);
	CPU_SET(0, &two);
	CPU_SET(cpu, &two);
	for (i = 0; i < 4; i++) {
		sleeper[i] = xfork();
		if (sleeper[i] == 0) {
			/* Armed on @cpu: it runs there, and is not idle */
			bind_cpu(cpu);
			if (sched_setaffinity(0, sizeof(two), &two))
				_exit(1);
			recv_timeout(sleeps[i]);
			_exit(0);
		}
		while (task_state(sleeper[i], sleeper[i]) != 'S')
			sleep_s(0.001);
	}
	trace_mark("ntt: hotplug-wheel: offline");
	err = set_online(cpu, 0);
	if (!err)
		err = set_online(cpu, 1);
	printf("hotplug=%s\n", err ? errname(err) : "OK");
	trace_mark("ntt: hotplug-wheel: online");
	poker = xfork();
	if (poker == 0) {
		bind_cpu(cpu);
		recv_timeout(0.02);
		_exit(0);
	}
	waitpid(poker, NULL, 0);
	owner = start_looper(sh, cpu);
	err = set_notick_pid(owner, cpu);
	printf("admitted=%s\n", err ? errname(err) : "OK");
	sleep_s(0.1);
	trace_mark("ntt: hotplug-wheel: counting");
	loc = loc_over(cpu, 2.1);
	trace_mark("ntt: hotplug-wheel: counted");
	printf("tick_stopped=%d\nloc_delta=%lld\n", tick_stopped(cpu), loc);
	sh->stop = 1;
	waitpid(owner, NULL, 0);
	for (i = 0; i < 4; i++)
		waitpid(sleeper[i], NULL, 0);
	return 0;
}

static int cmd_delay(int cpu, int rounds)
{
	struct shared *sh = shared_map();
	pid_t spinner, c;
	int i, ran = 0;

	bind_cpu(0);
	spinner = start_spinner(sh, cpu);
	sleep_s(0.1);
	for (i = 0; i < rounds; i++) {
		sh->contender_ran = 0;
		c = start_contender(sh, cpu);
		waitpid(c, NULL, 0);
		ran += sh->contender_ran;
		printf("contender=%d\n", c);
		sleep_s(0.05);
	}
	sh->stop = 1;
	waitpid(spinner, NULL, 0);
	printf("ran=%d\n", ran);
	return 0;
}

static int set_policy_pid(pid_t pid, int policy)
{
	struct nt_sched_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.sched_policy = policy;
	return syscall(SYS_sched_setattr, pid, &attr, 0) ? errno : 0;
}

/*
 * Two target processes sleep, bound to cpu. Each round, two callers on
 * CPUs ca and cb ask at the same moment for SCHED_NOTICK, one for each
 * target; then the winner is set back to SCHED_NORMAL.
 */
static int cmd_race(int cpu, int rounds, int ca, int cb)
{
	volatile int *sh = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int i, k, one = 0, two = 0, none = 0, err = 0, st;
	pid_t target[2], caller[2];

	if (sh == MAP_FAILED)
		die("mmap");
	bind_cpu(0);
	for (k = 0; k < 2; k++) {
		target[k] = xfork();
		if (target[k] == 0) {
			bind_cpu(cpu);
			__sync_synchronize();
			sh[6 + k] = 1;
			for (;;)
				pause();
		}
	}
	/*
	 * sh[0]: round to start; sh[1 + k]: caller k's last round done;
	 * sh[3 + k]: caller k's result (0 won, 1 EBUSY, 2 other errno, in
	 * sh[5]); sh[6 + k]: target k bound to cpu. A target not yet bound
	 * may still run on CPU 0, which refuses the class with EINVAL.
	 */
	for (i = 0; i < 3000 && !(sh[6] && sh[7]); i++)
		sleep_s(0.01);
	if (!(sh[6] && sh[7]))
		die("race: targets never bound to their CPU");
	for (k = 0; k < 2; k++) {
		caller[k] = xfork();
		if (caller[k] == 0) {
			int r, err;

			bind_cpu(k ? cb : ca);
			for (r = 1; r <= rounds; r++) {
				while (sh[0] < r)
					;
				err = set_policy_pid(target[k], SCHED_NOTICK);
				sh[3 + k] = err == 0 ? 0 : err == EBUSY ? 1 : 2;
				if (sh[3 + k] == 2)
					sh[5] = err;
				__sync_synchronize();
				sh[1 + k] = r;
			}
			_exit(0);
		}
	}
	for (i = 1; i <= rounds; i++) {
		__sync_synchronize();
		sh[0] = i;
		while (sh[1] < i || sh[2] < i)
			;
		if (sh[3] == 2 || sh[4] == 2)
			err++;
		else if (sh[3] + sh[4] == 1)
			one++;
		else if (sh[3] + sh[4] == 0)
			two++;
		else
			none++;
		for (k = 0; k < 2; k++)
			if (sh[3 + k] == 0 &&
			    set_policy_pid(target[k], SCHED_OTHER))
				die("sched_setattr(SCHED_OTHER)");
	}
	for (k = 0; k < 2; k++) {
		waitpid(caller[k], &st, 0);
		kill(target[k], SIGKILL);
		waitpid(target[k], NULL, 0);
	}
	printf("rounds=%d\none_winner=%d\ntwo_winners=%d\nno_winner=%d\n",
	       rounds, one, two, none);
	printf("other_errno=%d\nlast_other_errno=%s\nsysfs_pid=%ld\n", err,
	       errname(sh[5]), sysfs_pid(cpu));
	return 0;
}

/*
 * Admission racing with the target's exit, or with an affinity change,
 * from other CPUs (see the top of the file). sh[0]: round to start;
 * sh[1], sh[2]: callers' last round done; sh[3], sh[4]: their errnos;
 * sh[5]: the target is running (exit mode).
 */
static int cmd_race2(const char *mode, int cpu, int rounds, int ca, int cb)
{
	volatile int *sh = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int exit_mode = !strcmp(mode, "exit"), r, k, bad = 0, won = 0;
	int esrch = 0, einval = 0, eagain = 0, ebusy = 0, other = 0, leaked = 0;
	pid_t target = 0, caller[2];
	cpu_set_t one, two, m;

	if (sh == MAP_FAILED)
		die("mmap");
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	two = one;
	CPU_SET(0, &two);
	bind_cpu(0);
	for (k = 0; k < (exit_mode ? 1 : 2); k++) {
		caller[k] = xfork();
		if (caller[k] == 0) {
			bind_cpu(k ? cb : ca);
			for (r = 1; r <= rounds; r++) {
				while (sh[0] < r)
					;
				if (k == 0)
					sh[3] = set_policy_pid(sh[6], SCHED_NOTICK);
				else
					sh[4] = sched_setaffinity(sh[6], sizeof(two), &two) ?
						errno : 0;
				__sync_synchronize();
				sh[1 + k] = r;
			}
			_exit(0);
		}
	}
	if (exit_mode)
		sh[2] = rounds;
	for (r = 1; r <= rounds; r++) {
		sh[5] = 0;
		target = xfork();
		if (target == 0) {
			bind_cpu(cpu);
			sh[5] = 1;
			if (exit_mode) {
				while (sh[0] < r)
					;
				_exit(0);
			}
			for (;;)
				pause();
		}
		while (!sh[5])
			;
		if (!exit_mode)
			sleep_s(0.001);	/* asleep in pause() */
		sh[6] = target;
		__sync_synchronize();
		sh[0] = r;
		while (sh[1] < r || sh[2] < r)
			;
		if (!exit_mode) {
			/* admitted exactly when it is SCHED_NOTICK, owns the
			 * CPU and is bound to it alone */
			int pol = task_policy(target), ok;

			if (sched_getaffinity(target, sizeof(m), &m))
				die("sched_getaffinity");
			ok = (pol == SCHED_NOTICK) == (sh[3] == 0) &&
			     (pol == SCHED_NOTICK) == (sysfs_pid(cpu) == target) &&
			     (pol != SCHED_NOTICK || CPU_EQUAL(&m, &one)) &&
			     !(sh[3] == 0 && sh[4] == 0);
			bad += !ok;
			ebusy += sh[4] == EBUSY;
		}
		won += sh[3] == 0;
		esrch += sh[3] == ESRCH;
		einval += sh[3] == EINVAL;
		eagain += sh[3] == EAGAIN;
		other += sh[3] && sh[3] != ESRCH && sh[3] != EINVAL &&
			 sh[3] != EAGAIN;
		kill(target, SIGKILL);
		waitpid(target, NULL, 0);
		/* released by the time the task is gone (within 1 s) */
		for (k = 0; k < 1000 && sysfs_pid(cpu) != 0; k++)
			sleep_s(0.001);
		leaked += sysfs_pid(cpu) != 0;
	}
	for (k = 0; k < (exit_mode ? 1 : 2); k++)
		waitpid(caller[k], NULL, 0);
	printf("rounds=%d\nadmitted=%d\nesrch=%d\neinval=%d\neagain=%d\nother=%d\n",
	       rounds, won, esrch, einval, eagain, other);
	printf("affinity_ebusy=%d\ninconsistent=%d\nleaked=%d\nsysfs_pid=%ld\n",
	       ebusy, bad, leaked, sysfs_pid(cpu));
	return 0;
}

/*
 * cpupri after a SCHED_DEADLINE task has visited the SCHED_NOTICK CPU: two
 * deadline tasks run for a while (one is pushed to cpu), then a FIFO 10
 * task allowed on CPU 0 and cpu wakes while a FIFO 50 task bound to CPU 0
 * spins there. It must not be pushed to cpu, whose thread outranks it.
 */
static int cmd_dlrt(int cpu)
{
	struct shared *sh = shared_map();
	volatile int *res = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int pa[2], pb[2], i, k;
	pid_t spinner, d[2], a, b;
	struct nt_sched_attr attr;
	cpu_set_t two;
	char c;

	if (res == MAP_FAILED || pipe(pa) || pipe(pb))
		die("setup");
	bind_cpu(0);
	spinner = start_spinner(sh, cpu);
	sleep_s(0.1);
	for (k = 0; k < 2; k++) {
		d[k] = xfork();
		if (d[k] == 0) {
			cpu_set_t all;
			double t0;

			CPU_ZERO(&all);
			for (i = 0; i < CPU_SETSIZE; i++)
				CPU_SET(i, &all);
			sched_setaffinity(0, sizeof(all), &all);
			memset(&attr, 0, sizeof(attr));
			attr.size = sizeof(attr);
			attr.sched_policy = SCHED_DEADLINE;
			/* 120% of a CPU together: one of them runs on cpu */
			attr.sched_runtime = 60000000;
			attr.sched_deadline = attr.sched_period = 100000000;
			if (syscall(SYS_sched_setattr, 0, &attr, 0))
				_exit(2);
			t0 = now_s();
			while (now_s() - t0 < 0.5)
				if (sched_getcpu() == cpu)
					__sync_fetch_and_add(&res[0], 1);
			_exit(0);
		}
	}
	for (k = 0; k < 2; k++)
		waitpid(d[k], NULL, 0);
	printf("dl_samples_on_cpu=%d\n", res[0]);

	res[1] = -1;
	b = xfork();
	if (b == 0) {
		if (read(pb[0], &c, 1) != 1)
			_exit(1);
		res[1] = sched_getcpu();
		_exit(0);
	}
	a = xfork();
	if (a == 0) {
		double t0;

		if (read(pa[0], &c, 1) != 1)
			_exit(1);
		t0 = now_s();
		if (write(pb[1], "x", 1) != 1)
			_exit(1);
		while (now_s() - t0 < 0.5)
			;
		_exit(0);
	}
	CPU_ZERO(&two);
	CPU_SET(0, &two);
	CPU_SET(cpu, &two);
	if (sched_setaffinity(b, sizeof(two), &two))
		die("affinity of B");
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.sched_policy = SCHED_FIFO;
	attr.sched_priority = 10;
	if (syscall(SYS_sched_setattr, b, &attr, 0))
		die("SCHED_FIFO 10");
	attr.sched_priority = 50;
	if (syscall(SYS_sched_setattr, a, &attr, 0))
		die("SCHED_FIFO 50");
	if (write(pa[1], "x", 1) != 1)
		die("write");
	waitpid(a, NULL, 0);
	waitpid(b, NULL, 0);
	printf("fifo10_ran_on=%d\n", res[1]);
	sh->stop = 1;
	waitpid(spinner, NULL, 0);
	return 0;
}

static int cmd_multi(double seconds, int ncpus, char **cpus)
{
	struct shared *sh[16];
	long long loc0[16];
	pid_t pid[16];
	int i;

	if (ncpus > 16)
		ncpus = 16;
	bind_cpu(0);
	for (i = 0; i < ncpus; i++) {
		sh[i] = shared_map();
		pid[i] = start_spinner(sh[i], atoi(cpus[i]));
	}
	for (i = 0; i < ncpus; i++) {
		printf("tick_stop_ms_%d=%.0f\n", atoi(cpus[i]),
		       wait_tick_stopped(sh[i], atoi(cpus[i])));
		loc0[i] = loc_count(atoi(cpus[i]));
	}
	sleep_s(seconds);
	for (i = 0; i < ncpus; i++)
		printf("loc_delta_%d=%lld\n", atoi(cpus[i]),
		       loc_count(atoi(cpus[i])) - loc0[i]);
	for (i = 0; i < ncpus; i++) {
		sh[i]->stop = 1;
		waitpid(pid[i], NULL, 0);
		printf("cpu_seen_%d=%d\n", atoi(cpus[i]), sh[i]->cpu_seen);
	}
	return 0;
}

static int cmd_forkloop(int cpu, int rounds)
{
	int i, bad_child = 0, bad_parent = 0, status;

	become_notick(cpu);
	for (i = 0; i < rounds; i++) {
		pid_t pid = xfork();

		if (pid == 0)
			_exit(sched_getscheduler(0) == SCHED_OTHER ? 0 : 1);
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			bad_child++;
		if (sched_getscheduler(0) != SCHED_NOTICK ||
		    sysfs_pid(cpu) != getpid())
			bad_parent++;
	}
	printf("forks=%d bad_child=%d bad_parent=%d\n", i, bad_child,
	       bad_parent);
	return 0;
}

struct exec_step {
	int cpu, left, bad;
};

static void exec_next(const struct exec_step *st)
{
	char cpu[16], left[16], bad[16];

	snprintf(cpu, sizeof(cpu), "%d", st->cpu);
	snprintf(left, sizeof(left), "%d", st->left - 1);
	snprintf(bad, sizeof(bad), "%d", st->bad);
	execl("/proc/self/exe", "ntt", "exec-step", cpu, left, bad,
	      (char *)NULL);
	die("execl");
}

/* The second thread: takes CPU over from the leader, then execs */
static void *exec_thread(void *arg)
{
	struct exec_step *st = arg;

	bind_cpu(st->cpu);
	if (set_notick(0, 0))
		st->bad++;
	exec_next(st);
	return NULL;
}

static int cmd_exec_step(int cpu, int left, int bad)
{
	struct exec_step st = { cpu, left, bad };
	struct sched_param sp = { 0 };
	pthread_t thr;

	if (sched_getscheduler(0) != SCHED_NOTICK || sysfs_pid(cpu) != getpid())
		st.bad++;
	if (left <= 0) {
		const char *n = getenv("NTT_EXECS");

		printf("execs=%s bad=%d\n", n ? n : "?", st.bad);
		return 0;
	}
	if (!(left & 1))
		exec_next(&st);
	/* Hand CPU over to a second thread, which execs */
	if (sched_setscheduler(0, SCHED_OTHER, &sp))
		st.bad++;
	if (pthread_create(&thr, NULL, exec_thread, &st))
		die("pthread_create");
	pthread_join(thr, NULL);
	return 1;	/* not reached: the exec ends this thread */
}

static int cmd_execloop(int cpu, int rounds)
{
	struct exec_step st = { cpu, rounds, 0 };
	char n[16];

	snprintf(n, sizeof(n), "%d", rounds);
	setenv("NTT_EXECS", n, 1);
	become_notick(cpu);
	exec_next(&st);
	return 1;
}

static int cmd_respond(double seconds)
{
	double t0 = now_s(), worst = 0;
	int n = 0, slow = 0, failed = 0;

	while (now_s() - t0 < seconds) {
		double t = now_s(), d;
		pid_t pid = xfork();
		int st;

		if (pid == 0) {
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
		    WEXITSTATUS(st))
			failed++;
		d = now_s() - t;
		n++;
		if (d > worst)
			worst = d;
		if (d > 1.0)
			slow++;
		if (d < 0.5)
			sleep_s(0.5 - d);
	}
	printf("commands=%d\nfailed=%d\nworst_ms=%.0f\nover_1s=%d\n", n,
	       failed, worst * 1e3, slow);
	return 0;
}

static int cmd_membarrier(void)
{
	long q = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
	long r = syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0);

	printf("query_global=%d\nglobal=%s\n",
	       q >= 0 && (q & MEMBARRIER_CMD_GLOBAL) ? 1 : 0,
	       r == 0 ? "OK" : errname(errno));
	return 0;
}

static int cmd_syscalls(int cpu, long n)
{
	long i;

	bind_cpu(cpu);
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		goto usage;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "try"))
		return cmd_try(argc - 1, argv + 1);
	if (!strcmp(argv[1], "membarrier") && argc == 2)
		return cmd_membarrier();
	if (!strcmp(argv[1], "syscalls") && argc == 4)
		return cmd_syscalls(atoi(argv[2]), atol(argv[3]));
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
	if (!strcmp(argv[1], "normal-spin-nohz") && argc == 4) {
		spinner_notick = 0;
		spinner_wait_stop = 1;
		return cmd_spin(atoi(argv[2]), atof(argv[3]), 2);
	}
	if (!strcmp(argv[1], "spin-files") && argc == 5) {
		spinner_files = atoi(argv[4]);
		return cmd_spin(atoi(argv[2]), atof(argv[3]), 0);
	}
	if (!strcmp(argv[1], "hrtimers") && argc == 3) {
		print_hrtimers("hrtimers", atoi(argv[2]));
		return 0;
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
	if (!strcmp(argv[1], "dlboost") && (argc == 3 || argc == 4)) {
		dlboost_cmd = argc == 4 ? argv[3] : NULL;
		return cmd_dlboost(atoi(argv[2]));
	}
	if (!strcmp(argv[1], "kick") && argc == 4)
		return cmd_kick(atoi(argv[2]), !strcmp(argv[3], "busy"),
				!strcmp(argv[3], "timer"));
	if (!strcmp(argv[1], "rtwake") && argc == 2)
		return cmd_rtwake();
	if (!strcmp(argv[1], "hotplug-wheel") && argc == 3)
		return cmd_hotplug_wheel(atoi(argv[2]));
	if (!strcmp(argv[1], "spinhold") && argc == 3)
		return cmd_spinhold(atoi(argv[2]));
	if (!strcmp(argv[1], "zombie") && argc == 3)
		return cmd_zombie(atoi(argv[2]));
	if (!strcmp(argv[1], "flap") && argc == 5)
		return cmd_flap(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
	if (!strcmp(argv[1], "deps") && argc == 5)
		return cmd_deps(atoi(argv[2]), !strcmp(argv[3], "perf"),
				!strcmp(argv[4], "before"));
	if (!strcmp(argv[1], "balance") && argc == 4)
		return cmd_balance(atoi(argv[2]), atof(argv[3]));
	if (!strcmp(argv[1], "remote") && argc == 4)
		return cmd_remote(atoi(argv[2]), atof(argv[3]));
	if (!strcmp(argv[1], "delay") && argc == 4)
		return cmd_delay(atoi(argv[2]), atoi(argv[3]));
	if (!strcmp(argv[1], "race") && argc == 6)
		return cmd_race(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]),
				atoi(argv[5]));
	if (!strcmp(argv[1], "race2") && argc == 7)
		return cmd_race2(argv[2], atoi(argv[3]), atoi(argv[4]),
				 atoi(argv[5]), atoi(argv[6]));
	if (!strcmp(argv[1], "dlrt") && argc == 3)
		return cmd_dlrt(atoi(argv[2]));
	if (!strcmp(argv[1], "forkloop") && argc == 4)
		return cmd_forkloop(atoi(argv[2]), atoi(argv[3]));
	if (!strcmp(argv[1], "execloop") && argc == 4)
		return cmd_execloop(atoi(argv[2]), atoi(argv[3]));
	if (!strcmp(argv[1], "exec-step") && argc == 5)
		return cmd_exec_step(atoi(argv[2]), atoi(argv[3]),
				     atoi(argv[4]));
	if (!strcmp(argv[1], "respond") && argc == 3)
		return cmd_respond(atof(argv[2]));
	if (!strcmp(argv[1], "multi") && argc >= 4)
		return cmd_multi(atof(argv[2]), argc - 3, argv + 3);
usage:
	fprintf(stderr, "usage: see the comment at the top of ntt.c\n");
	return 2;
}
