// SPDX-License-Identifier: GPL-2.0
/*
 * notickctl - run a program, or convert a thread, as SCHED_NOTICK: the
 * thread owns one CPU and the scheduler tick stops while it runs alone.
 *
 * The order of every change is: check, isolate the CPU (--isolate), pin,
 * switch the class; any failure undoes the steps already done so that
 * the system is left as it was.
 */
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "notickctl.h"

#ifndef SCHED_FLAG_RESET_ON_FORK
#define SCHED_FLAG_RESET_ON_FORK 0x01
#endif
#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

/* Our own copy of the UAPI struct (VER1, 56 bytes). */
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

static int nt_setattr(pid_t tid, const struct nt_sched_attr *attr)
{
	return (int)syscall(SYS_sched_setattr, tid, attr, 0);
}

static int nt_getattr(pid_t tid, struct nt_sched_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	return (int)syscall(SYS_sched_getattr, tid, attr, sizeof(*attr), 0);
}

static void __attribute__((noreturn)) usage(void)
{
	FILE *out = stdout;

	fputs("\nUsage:\n", out);
	fprintf(out,
		" %1$s [options] [--isolate] [--cpu <cpu>] [--] <program> [<argument>...]\n"
		" %1$s [--all-tasks | --isolate] [--cpu <cpu>] --pid <pid>\n"
		" %1$s [--all-tasks] --reset <pid>\n"
		" %1$s --unisolate --cpu <cpu>\n"
		" %1$s status [--json]\n",
		program_invocation_short_name);
	fputs("\nRun a program, or convert an existing thread, with the SCHED_NOTICK\n"
	      "policy: the thread owns one CPU and the scheduler tick stops while it\n"
	      "runs there alone.  Without --cpu the thread must already be allowed on\n"
	      "exactly one CPU (as set by taskset).\n", out);
	fputs("\nOptions:\n", out);
	fputs(" -c, --cpu <cpu>      pin to this CPU first (not CPU 0)\n", out);
	fputs(" -p, --pid <pid>      convert the existing thread <pid>\n", out);
	fputs(" -r, --reset <pid>    return <pid> to SCHED_NORMAL\n", out);
	fputs(" -a, --all-tasks      with --pid or --reset: all threads of <pid>\n", out);
	fputs(" -i, --isolate        first take the CPU out of the lockup watchdog's\n"
	      "                        mask and move device interrupts off it (kept\n"
	      "                        after admission, undone if admission fails)\n", out);
	fputs(" -u, --unisolate      give the --cpu back its watchdog and interrupts\n", out);
	fputs(" -R, --report         run the program as a child and report what\n"
	      "                        disturbed it on its CPU when it exits\n", out);
	fputs(" -j, --json           report or status as JSON\n", out);
	fputs(" -o, --output <file>  write the report to <file> (default: stderr)\n", out);
	fputs("\n -h, --help           display this help\n", out);
	fputs(" -V, --version        display version\n", out);
	fputs("\nCommands:\n", out);
	fputs(" status               show each CPU's SCHED_NOTICK thread, tick state,\n"
	      "                        counters, watchdog and device interrupts\n", out);
	fputs("\nExit status:\n", out);
	fputs("   0   success; when running a program, the program's exit status\n"
	      "       (with --report: 128+N if it was killed by signal N)\n", out);
	fputs("   1   usage error, more than one allowed CPU, or other failure\n", out);
	fputs("   2   SCHED_NOTICK not supported by this kernel\n", out);
	fputs("   3   permission denied (CAP_SYS_NICE needed; root for --isolate)\n", out);
	fputs("   4   CPU busy: another SCHED_NOTICK thread owns it\n", out);
	fputs("   5   CPU offline, out of range, or CPU 0 (timekeeping CPU)\n", out);
	fputs("   6   no such process\n", out);
	fputs(" 126   program found but could not be executed\n", out);
	fputs(" 127   program not found\n", out);
	fputs("\nFor more details see notickctl(8).\n", out);
	exit(EXIT_SUCCESS);
}

/* ---- CPU checks ---- */

static int validate_cpu(int cpu)
{
	cpu_set_t *set = cpuset_alloc();
	char list[256];
	int rc = NT_EXIT_CPU;

	if (!set)
		err(NT_EXIT_FAILURE, "cannot allocate CPU set");
	if (cpu >= NT_MAX_CPUS) {
		warnx("CPU %d is out of range", cpu);
		goto out;
	}
	if (nt_read_cpulist("possible", set) == 0 &&
	    !CPU_ISSET_S((size_t)cpu, cpuset_size(), set)) {
		warnx("CPU %d is out of range (possible CPUs: %s)", cpu,
		      cpulist_format(set, list, sizeof(list)));
		goto out;
	}
	if (nt_read_cpulist("online", set) == 0 &&
	    !CPU_ISSET_S((size_t)cpu, cpuset_size(), set)) {
		warnx("CPU %d is offline (online CPUs: %s)", cpu,
		      cpulist_format(set, list, sizeof(list)));
		goto out;
	}
	if (cpu == 0) {
		warnx("CPU 0 is the boot and timekeeping CPU: it cannot run SCHED_NOTICK");
		goto out;
	}
	rc = 0;
out:
	cpuset_free(set);
	return rc;
}

static void read_comm(long pid, char *buf, size_t len)
{
	char path[4096];
	char *text;

	buf[0] = '\0';
	if (pid <= 0)
		return;
	text = nt_read_file(nt_path(path, sizeof(path), "/proc/%ld/comm", pid));
	if (!text)
		return;
	text[strcspn(text, "\n")] = '\0';
	snprintf(buf, len, "%s", text);
	free(text);
}

/* ---- converting one thread, and undoing it ---- */

struct saved {
	pid_t tid;
	int cpu;
	int pinned;		/* affinity changed: restore mask */
	int converted;		/* class changed: restore attr */
	struct nt_journal iso;	/* --isolate: files changed, for undo */
	struct nt_sched_attr attr;
	cpu_set_t *mask;
};

static const char *who(pid_t tid, char *buf, size_t len)
{
	if (tid == 0)
		snprintf(buf, len, "PID %ld", (long)getpid());
	else
		snprintf(buf, len, "PID %ld", (long)tid);
	return buf;
}

/* Exit code and message for a failed sched_setattr(SCHED_NOTICK). */
static int setattr_error(int e, pid_t tid, int cpu)
{
	struct nt_cpu_notick st;
	char w[32], comm[64];

	who(tid, w, sizeof(w));
	switch (e) {
	case EPERM:
		warnx("cannot make %s SCHED_NOTICK: permission denied (CAP_SYS_NICE needed)", w);
		return NT_EXIT_PERM;
	case ESRCH:
		warnx("%s: no such process", w);
		return NT_EXIT_NOPROC;
	case EBUSY:
		nt_read_cpu_notick(cpu, &st);
		if (st.pid > 0) {
			read_comm(st.pid, comm, sizeof(comm));
			warnx("CPU %d is busy: PID %ld%s%s%s already runs SCHED_NOTICK there",
			      cpu, st.pid, comm[0] ? " (" : "", comm,
			      comm[0] ? ")" : "");
		} else {
			warnx("CPU %d is busy: another thread already runs SCHED_NOTICK there",
			      cpu);
		}
		return NT_EXIT_BUSY;
	case EINVAL:
		if (!nt_kernel_supported()) {
			warnx("SCHED_NOTICK is not supported by this kernel");
			return NT_EXIT_UNSUPPORTED;
		}
		if (validate_cpu(cpu))
			return NT_EXIT_CPU;
		warnx("kernel refused SCHED_NOTICK for %s on CPU %d: %s (the thread must be allowed on exactly one online CPU that is neither the boot nor the timekeeping CPU)",
		      w, cpu, strerror(e));
		return NT_EXIT_CPU;
	default:
		warnx("cannot make %s SCHED_NOTICK: %s", w, strerror(e));
		return NT_EXIT_FAILURE;
	}
}

static void saved_free(struct saved *s)
{
	cpuset_free(s->mask);
	s->mask = NULL;
	nt_journal_free(&s->iso);
}

static void undo(struct saved *s)
{
	struct nt_sched_attr a;
	char w[32];

	who(s->tid, w, sizeof(w));
	if (s->converted) {
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.sched_policy = s->attr.sched_policy;
		a.sched_flags = s->attr.sched_flags & SCHED_FLAG_RESET_ON_FORK;
		a.sched_nice = s->attr.sched_nice;
		a.sched_priority = s->attr.sched_priority;
		if (a.sched_policy == SCHED_DEADLINE) {
			a.sched_runtime = s->attr.sched_runtime;
			a.sched_deadline = s->attr.sched_deadline;
			a.sched_period = s->attr.sched_period;
		}
		if (nt_setattr(s->tid, &a) && errno != ESRCH)
			warn("cannot restore the policy of %s", w);
		s->converted = 0;
	}
	if (s->pinned) {
		if (sched_setaffinity(s->tid, cpuset_size(), s->mask) &&
		    errno != ESRCH)
			warn("cannot restore the affinity of %s", w);
		s->pinned = 0;
	}
	nt_journal_restore(&s->iso);
}

/*
 * --isolate, after every check: the kernel must have the class (its
 * refusal would come only after the housekeeping changes).
 */
static int isolate(int cpu, struct saved *s)
{
	if (!nt_kernel_supported()) {
		warnx("SCHED_NOTICK is not supported by this kernel");
		return NT_EXIT_UNSUPPORTED;
	}
	return nt_isolate(cpu, &s->iso);
}

/*
 * Make @tid (0: ourselves) SCHED_NOTICK, pinning it to @want_cpu first
 * when >= 0, and with @iso isolating its CPU before that.  On failure the
 * thread and the system are left as they were and the exit code is
 * returned; on success @s records how to undo it.
 */
static int convert_thread(pid_t tid, int want_cpu, int iso, struct saved *s)
{
	struct nt_sched_attr a;
	char w[32], list[256];
	int rc, cpu, e;

	memset(s, 0, sizeof(*s));
	s->tid = tid;
	s->cpu = -1;
	who(tid, w, sizeof(w));
	s->mask = cpuset_alloc();
	if (!s->mask)
		err(NT_EXIT_FAILURE, "cannot allocate CPU set");

	if (nt_getattr(tid, &s->attr) ||
	    sched_getaffinity(tid, cpuset_size(), s->mask)) {
		if (errno == ESRCH) {
			warnx("%s: no such process", w);
			return NT_EXIT_NOPROC;
		}
		warn("cannot read the scheduling state of %s", w);
		return NT_EXIT_FAILURE;
	}

	if (want_cpu >= 0) {
		cpu = want_cpu;
	} else {
		if (cpuset_count(s->mask) != 1) {
			warnx("%s may run on CPUs %s: SCHED_NOTICK needs exactly one; use --cpu or taskset -c",
			      w, cpulist_format(s->mask, list, sizeof(list)));
			return NT_EXIT_FAILURE;
		}
		cpu = cpuset_first(s->mask);
	}
	rc = validate_cpu(cpu);
	if (rc)
		return rc;

	if (s->attr.sched_policy == SCHED_NOTICK) {
		if (cpuset_count(s->mask) == 1 && cpuset_first(s->mask) == cpu) {
			s->cpu = cpu;	/* nothing to do, nothing to undo */
			return iso ? isolate(cpu, s) : 0;
		}
		warnx("%s already runs SCHED_NOTICK on another CPU: use --reset first", w);
		return NT_EXIT_FAILURE;
	}

	if (iso) {
		rc = isolate(cpu, s);
		if (rc)
			return rc;
	}

	if (cpuset_count(s->mask) != 1 || cpuset_first(s->mask) != cpu) {
		cpu_set_t *one = cpuset_alloc();

		if (!one)
			err(NT_EXIT_FAILURE, "cannot allocate CPU set");
		CPU_SET_S((size_t)cpu, cpuset_size(), one);
		rc = sched_setaffinity(tid, cpuset_size(), one);
		e = errno;
		cpuset_free(one);
		if (rc) {
			undo(s);
			switch (e) {
			case EINVAL:
				warnx("CPU %d is not available to %s (offline or outside its cpuset)",
				      cpu, w);
				return NT_EXIT_CPU;
			case EPERM:
				warnx("cannot pin %s to CPU %d: permission denied", w, cpu);
				return NT_EXIT_PERM;
			case ESRCH:
				warnx("%s: no such process", w);
				return NT_EXIT_NOPROC;
			default:
				warnx("cannot pin %s to CPU %d: %s", w, cpu, strerror(e));
				return NT_EXIT_FAILURE;
			}
		}
		s->pinned = 1;
	}

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sched_policy = SCHED_NOTICK;
	a.sched_priority = 0;
	a.sched_nice = s->attr.sched_nice;
	if (nt_setattr(tid, &a)) {
		e = errno;
		undo(s);
		return setattr_error(e, tid, cpu);
	}
	s->converted = 1;
	s->cpu = cpu;
	return 0;
}

/* ---- program lookup ---- */

static int check_exec(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return NT_EXIT_NOTFOUND;
	if (S_ISDIR(st.st_mode) || access(path, X_OK))
		return NT_EXIT_NOEXEC;
	return 0;
}

/*
 * Find @name like execvp() does, before anything is changed, so that a
 * missing program is reported without touching the scheduler.
 */
static int resolve_program(const char *name, char *buf, size_t len)
{
	const char *path, *p;
	int best = NT_EXIT_NOTFOUND;

	if (strchr(name, '/')) {
		snprintf(buf, len, "%s", name);
		best = check_exec(buf);
		goto out;
	}
	path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/bin:/usr/bin";
	for (p = path; ; ) {
		const char *end = strchrnul(p, ':');
		int n = (int)(end - p), rc;

		if (n == 0)
			snprintf(buf, len, "%s", name);
		else
			snprintf(buf, len, "%.*s/%s", n, p, name);
		rc = check_exec(buf);
		if (rc == 0)
			return 0;
		if (rc == NT_EXIT_NOEXEC)
			best = rc;
		if (!*end)
			break;
		p = end + 1;
	}
	/* Report the first non-executable match, like the shell. */
	if (best == NT_EXIT_NOEXEC) {
		for (p = path; ; ) {
			const char *end = strchrnul(p, ':');
			int n = (int)(end - p);

			if (n == 0)
				snprintf(buf, len, "%s", name);
			else
				snprintf(buf, len, "%.*s/%s", n, p, name);
			if (check_exec(buf) == NT_EXIT_NOEXEC)
				break;
			if (!*end)
				break;
			p = end + 1;
		}
	}
out:
	if (best == NT_EXIT_NOTFOUND)
		warnx("%s: program not found", name);
	else if (best == NT_EXIT_NOEXEC)
		warnx("%s: cannot execute: %s", buf,
		      access(buf, X_OK) ? strerror(EACCES) : "Is a directory");
	return best;
}

/* ---- run a program ---- */

static int exec_errcode(int e)
{
	return e == ENOENT || e == ENOTDIR ? NT_EXIT_NOTFOUND : NT_EXIT_NOEXEC;
}

static int run_exec(const struct nt_opts *o)
{
	char path[PATH_MAX];
	struct saved s;
	int rc, e;

	rc = resolve_program(o->prog_argv[0], path, sizeof(path));
	if (rc)
		return rc;
	rc = convert_thread(0, o->cpu, o->isolate, &s);
	if (rc) {
		saved_free(&s);
		return rc;
	}
	execv(path, o->prog_argv);
	e = errno;
	/* Leave no SCHED_NOTICK thread behind on exec failure. */
	undo(&s);
	saved_free(&s);
	errno = e;
	warn("failed to execute %s", o->prog_argv[0]);
	return exec_errcode(e);
}

struct snapshot {
	char *irqs;
	char *softirqs;
	int have_cs;
	unsigned long long vol_cs, invol_cs;
	struct nt_cpu_notick nt;
};

static void take_snapshot(struct snapshot *sn, int cpu, pid_t pid)
{
	char path[4096];
	char *status;

	sn->irqs = nt_read_file(nt_path(path, sizeof(path), "/proc/interrupts"));
	sn->softirqs = nt_read_file(nt_path(path, sizeof(path), "/proc/softirqs"));
	status = nt_read_file(nt_path(path, sizeof(path), "/proc/%ld/status",
				      (long)pid));
	sn->have_cs = nt_parse_ctxt_switches(status, &sn->vol_cs,
					     &sn->invol_cs) == 0;
	free(status);
	nt_read_cpu_notick(cpu, &sn->nt);
}

static void snapshot_free(struct snapshot *sn)
{
	free(sn->irqs);
	free(sn->softirqs);
}

static int diff_table(int (*parse)(const char *, int, struct nt_counters *),
		      const char *before, const char *after, int cpu,
		      struct nt_counters *out, const char *what)
{
	struct nt_counters b, a;
	int rc;

	out->v = NULL;
	out->n = 0;
	if (parse(before, cpu, &b))
		goto bad;
	if (parse(after, cpu, &a)) {
		nt_counters_free(&b);
		goto bad;
	}
	rc = nt_counters_diff(&b, &a, out);
	nt_counters_free(&a);
	nt_counters_free(&b);
	if (!rc)
		return 0;
bad:
	warnx("cannot read %s for CPU %d", what, cpu);
	return -1;
}

static long long ns_between(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1000000000LL + (b->tv_nsec - a->tv_nsec);
}

/* Keep ourselves off the measured CPU if we can (best effort). */
static void move_off_cpu(int cpu)
{
	cpu_set_t *set = cpuset_alloc();

	if (!set)
		return;
	if (nt_read_cpulist("online", set) == 0) {
		CPU_CLR_S((size_t)cpu, cpuset_size(), set);
		if (cpuset_count(set) > 0)
			(void)sched_setaffinity(0, cpuset_size(), set);
	}
	cpuset_free(set);
}

static ssize_t read_full(int fd, void *buf, size_t len)
{
	ssize_t n;

	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n;
}

static int run_report(const struct nt_opts *o)
{
	struct snapshot before = { 0 }, after = { 0 };
	struct sigaction ign, old_int, old_quit;
	char path[PATH_MAX];
	struct timespec t0, t1;
	struct nt_report r;
	struct rusage ru;
	siginfo_t si;
	FILE *out = stderr;
	int go[2], ep[2];
	int rc, status, e;
	struct saved s;
	pid_t child;
	ssize_t n;
	char c;

	rc = resolve_program(o->prog_argv[0], path, sizeof(path));
	if (rc)
		return rc;
	if (o->output) {
		out = fopen(o->output, "we");
		if (!out)
			err(NT_EXIT_FAILURE, "cannot open %s", o->output);
	}
	if (pipe2(go, O_CLOEXEC) || pipe2(ep, O_CLOEXEC))
		err(NT_EXIT_FAILURE, "pipe");
	fflush(NULL);
	child = fork();
	if (child < 0)
		err(NT_EXIT_FAILURE, "fork");
	if (child == 0) {
		close(go[1]);
		close(ep[0]);
		if (read_full(go[0], &c, 1) != 1 || c != 'g')
			_exit(NT_EXIT_FAILURE);	/* setup failed */
		execv(path, o->prog_argv);
		e = errno;
		if (write(ep[1], &e, sizeof(e)) < 0)
			_exit(exec_errcode(e));
		_exit(exec_errcode(e));
	}
	close(go[0]);
	close(ep[1]);

	rc = convert_thread(child, o->cpu, o->isolate, &s);
	if (rc) {
		saved_free(&s);
		close(go[1]);
		close(ep[0]);
		while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
			;
		if (out != stderr)
			fclose(out);
		return rc;
	}
	move_off_cpu(s.cpu);

	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);

	take_snapshot(&before, s.cpu, child);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (write(go[1], "g", 1) != 1)
		warn("cannot start %s", o->prog_argv[0]);
	close(go[1]);

	n = read_full(ep[0], &e, sizeof(e));
	close(ep[0]);

	memset(&si, 0, sizeof(si));
	while (waitid(P_PID, (id_t)child, &si, WEXITED | WNOWAIT) < 0) {
		if (errno != EINTR)
			err(NT_EXIT_FAILURE, "waitid");
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	take_snapshot(&after, s.cpu, child);
	while (wait4(child, &status, 0, &ru) < 0) {
		if (errno != EINTR)
			err(NT_EXIT_FAILURE, "wait4");
	}
	if (n == (ssize_t)sizeof(e))
		nt_journal_restore(&s.iso);	/* the program never ran */
	saved_free(&s);

	if (n == (ssize_t)sizeof(e)) {
		/* exec failed: the child never ran the program. */
		errno = e;
		warn("failed to execute %s", o->prog_argv[0]);
		snapshot_free(&before);
		snapshot_free(&after);
		if (out != stderr)
			fclose(out);
		return exec_errcode(e);
	}

	memset(&r, 0, sizeof(r));
	r.pid = child;
	r.cpu = s.cpu;
	r.program = o->prog_argv[0];
	if (WIFEXITED(status)) {
		r.exited = 1;
		r.status = WEXITSTATUS(status);
		rc = r.status;
	} else {
		r.exited = 0;
		r.status = WTERMSIG(status);
		rc = 128 + r.status;
	}
	r.elapsed_ns = ns_between(&t0, &t1);
	r.user_us = ru.ru_utime.tv_sec * 1000000LL + ru.ru_utime.tv_usec;
	r.system_us = ru.ru_stime.tv_sec * 1000000LL + ru.ru_stime.tv_usec;
	if (before.have_cs && after.have_cs) {
		r.vol_cs = after.vol_cs - before.vol_cs;
		r.invol_cs = after.invol_cs - before.invol_cs;
	} else {
		r.vol_cs = (unsigned long long)ru.ru_nvcsw;
		r.invol_cs = (unsigned long long)ru.ru_nivcsw;
	}
	diff_table(nt_parse_interrupts, before.irqs, after.irqs, s.cpu,
		   &r.irqs, "/proc/interrupts");
	diff_table(nt_parse_softirqs, before.softirqs, after.softirqs, s.cpu,
		   &r.softirqs, "/proc/softirqs");
	if (before.nt.have_counters && after.nt.have_counters) {
		r.have_notick = 1;
		r.tick_stops = after.nt.tick_stops - before.nt.tick_stops;
		r.tick_restarts = after.nt.tick_restarts -
				  before.nt.tick_restarts;
		r.yields = after.nt.yields - before.nt.yields;
	}
	if (o->json)
		nt_report_print_json(out, &r);
	else
		nt_report_print_text(out, &r);
	if (out != stderr) {
		if (fclose(out))
			warn("cannot write %s", o->output);
	} else {
		fflush(out);
	}
	nt_counters_free(&r.irqs);
	nt_counters_free(&r.softirqs);
	snapshot_free(&before);
	snapshot_free(&after);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	return rc;
}

/* ---- existing threads ---- */

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* Threads to act on: @pid alone, or all of its threads, sorted. */
static int list_tids(pid_t pid, int all, pid_t **tids, size_t *n)
{
	char path[4096];
	struct dirent *de;
	size_t cap = 16;
	DIR *dir;

	*n = 0;
	*tids = malloc(cap * sizeof(**tids));
	if (!*tids)
		err(NT_EXIT_FAILURE, "cannot allocate memory");
	if (!all) {
		(*tids)[(*n)++] = pid;
		return 0;
	}
	dir = opendir(nt_path(path, sizeof(path), "/proc/%ld/task", (long)pid));
	if (!dir) {
		if (errno == ENOENT) {
			warnx("PID %ld: no such process", (long)pid);
			return NT_EXIT_NOPROC;
		}
		warn("cannot list the threads of PID %ld", (long)pid);
		return NT_EXIT_FAILURE;
	}
	while ((de = readdir(dir))) {
		long v;

		if (nt_parse_uint(de->d_name, INT_MAX, &v) || v == 0)
			continue;
		if (*n == cap) {
			pid_t *nt = realloc(*tids, cap * 2 * sizeof(*nt));

			if (!nt)
				err(NT_EXIT_FAILURE, "cannot allocate memory");
			*tids = nt;
			cap *= 2;
		}
		(*tids)[(*n)++] = (pid_t)v;
	}
	closedir(dir);
	if (*n == 0) {
		warnx("PID %ld: no such process", (long)pid);
		return NT_EXIT_NOPROC;
	}
	qsort(*tids, *n, sizeof(**tids), cmp_pid);
	return 0;
}

static int do_pid(const struct nt_opts *o)
{
	struct saved *s;
	pid_t *tids;
	size_t n, i, j;
	int rc;

	rc = list_tids(o->pid, o->all_tasks, &tids, &n);
	if (rc) {
		free(tids);
		return rc;
	}
	s = calloc(n, sizeof(*s));
	if (!s)
		err(NT_EXIT_FAILURE, "cannot allocate memory");
	for (i = 0; i < n; i++) {
		rc = convert_thread(tids[i], o->cpu, o->isolate, &s[i]);
		if (rc) {
			/* All or nothing: undo the threads already done. */
			for (j = i; j-- > 0; ) {
				int changed = s[j].converted || s[j].pinned;

				undo(&s[j]);
				if (changed)
					warnx("PID %ld restored to its previous policy and affinity",
					      (long)s[j].tid);
			}
			break;
		}
	}
	if (!rc)
		for (i = 0; i < n; i++)
			printf("pid %ld: SCHED_NOTICK on CPU %d\n",
			       (long)tids[i], s[i].cpu);
	for (i = 0; i < n; i++)
		saved_free(&s[i]);
	free(s);
	free(tids);
	return rc;
}

static int do_reset(const struct nt_opts *o)
{
	struct nt_sched_attr old, a;
	pid_t *tids;
	size_t n, i;
	int rc, first_rc = 0;

	rc = list_tids(o->pid, o->all_tasks, &tids, &n);
	if (rc) {
		free(tids);
		return rc;
	}
	for (i = 0; i < n; i++) {
		long tid = (long)tids[i];

		if (nt_getattr(tids[i], &old)) {
			if (errno == ESRCH && o->all_tasks)
				continue;	/* thread exited meanwhile */
			if (errno == ESRCH) {
				warnx("PID %ld: no such process", tid);
				rc = NT_EXIT_NOPROC;
			} else {
				warn("cannot read the policy of PID %ld", tid);
				rc = NT_EXIT_FAILURE;
			}
			if (!first_rc)
				first_rc = rc;
			continue;
		}
		if (old.sched_policy != SCHED_NOTICK) {
			if (!o->all_tasks)
				printf("pid %ld: not SCHED_NOTICK, unchanged\n",
				       tid);
			continue;
		}
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.sched_policy = SCHED_OTHER;
		a.sched_flags = old.sched_flags & SCHED_FLAG_RESET_ON_FORK;
		a.sched_nice = old.sched_nice;
		if (nt_setattr(tids[i], &a)) {
			int e = errno;

			if (e == EPERM) {
				warnx("cannot reset PID %ld: permission denied (CAP_SYS_NICE needed)",
				      tid);
				rc = NT_EXIT_PERM;
			} else if (e == ESRCH) {
				warnx("PID %ld: no such process", tid);
				rc = NT_EXIT_NOPROC;
			} else {
				warnx("cannot reset PID %ld: %s", tid,
				      strerror(e));
				rc = NT_EXIT_FAILURE;
			}
			if (!first_rc)
				first_rc = rc;
			continue;
		}
		printf("pid %ld: SCHED_NORMAL\n", tid);
	}
	free(tids);
	return first_rc;
}

/* ---- status ---- */

static int do_status(const struct nt_opts *o)
{
	cpu_set_t *possible = cpuset_alloc(), *online = cpuset_alloc();
	struct nt_status_row *rows;
	char path[4096], *text, *end;
	int *wd, *irqs;
	long grace = 0;
	int have_grace = 0, c;
	size_t n = 0;

	if (!possible || !online)
		err(NT_EXIT_FAILURE, "cannot allocate CPU set");
	if (!nt_kernel_supported()) {
		warnx("SCHED_NOTICK is not supported by this kernel");
		cpuset_free(possible);
		cpuset_free(online);
		return NT_EXIT_UNSUPPORTED;
	}
	text = nt_read_file(nt_path(path, sizeof(path),
				    "/proc/sys/kernel/sched_notick_grace_us"));
	if (text) {
		errno = 0;
		grace = strtol(text, &end, 10);
		have_grace = end != text && !errno &&
			     (*end == '\n' || *end == '\0');
		free(text);
	}
	if (nt_read_cpulist("online", online))
		errx(NT_EXIT_FAILURE, "cannot read the list of online CPUs");
	if (nt_read_cpulist("possible", possible))
		memcpy(possible, online, cpuset_size());

	rows = calloc((size_t)cpuset_count(possible) + 1, sizeof(*rows));
	wd = calloc(NT_MAX_CPUS, sizeof(*wd));
	irqs = calloc(NT_MAX_CPUS, sizeof(*irqs));
	if (!rows || !wd || !irqs)
		err(NT_EXIT_FAILURE, "cannot allocate memory");
	nt_housekeeping_state(NT_MAX_CPUS, wd, irqs);
	for (c = 0; c < NT_MAX_CPUS; c++) {
		struct nt_status_row *r;

		if (!CPU_ISSET_S((size_t)c, cpuset_size(), possible))
			continue;
		r = &rows[n++];
		r->cpu = c;
		r->online = CPU_ISSET_S((size_t)c, cpuset_size(), online);
		nt_read_cpu_notick(c, &r->nt);
		read_comm(r->nt.pid, r->comm, sizeof(r->comm));
		r->watchdog = wd[c];
		r->irqs = irqs[c];
	}
	if (o->json)
		nt_status_print_json(stdout, grace, have_grace, rows, n);
	else
		nt_status_print_text(stdout, grace, have_grace, rows, n);
	free(rows);
	free(wd);
	free(irqs);
	cpuset_free(possible);
	cpuset_free(online);
	if (fflush(stdout) || ferror(stdout))
		errx(NT_EXIT_FAILURE, "write error");
	return 0;
}

/* ---- --unisolate ---- */

static int do_unisolate(const struct nt_opts *o)
{
	cpu_set_t *possible = cpuset_alloc();
	char list[256];
	int rc = 0;

	if (!possible)
		err(NT_EXIT_FAILURE, "cannot allocate CPU set");
	if (o->cpu >= NT_MAX_CPUS) {
		warnx("CPU %d is out of range", o->cpu);
		rc = NT_EXIT_CPU;
	} else if (nt_read_cpulist("possible", possible) == 0 &&
		   !CPU_ISSET_S((size_t)o->cpu, cpuset_size(), possible)) {
		warnx("CPU %d is out of range (possible CPUs: %s)", o->cpu,
		      cpulist_format(possible, list, sizeof(list)));
		rc = NT_EXIT_CPU;
	}
	cpuset_free(possible);
	return rc ? rc : nt_unisolate(o->cpu);
}

int main(int argc, char **argv)
{
	struct nt_opts o;
	char msg[256];
	int rc;

	rc = nt_parse_options(argc, argv, &o, msg, sizeof(msg));
	if (rc) {
		warnx("%s", msg);
		fprintf(stderr, "Try '%s --help' for more information.\n",
			program_invocation_short_name);
		return rc;
	}
	switch (o.mode) {
	case NT_MODE_HELP:
		usage();
	case NT_MODE_VERSION:
		printf("%s %s\n", program_invocation_short_name,
		       NOTICKCTL_VERSION);
		return 0;
	case NT_MODE_STATUS:
		return do_status(&o);
	case NT_MODE_PID:
		rc = do_pid(&o);
		break;
	case NT_MODE_RESET:
		rc = do_reset(&o);
		break;
	case NT_MODE_UNISOLATE:
		return do_unisolate(&o);
	case NT_MODE_RUN:
		return o.report ? run_report(&o) : run_exec(&o);
	default:
		errx(NT_EXIT_FAILURE, "internal error: no mode");
	}
	if (fflush(stdout) && !rc)
		rc = NT_EXIT_FAILURE;
	return rc;
}
