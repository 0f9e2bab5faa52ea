// SPDX-License-Identifier: GPL-2.0-only
/*
 * Running a program as SCHED_NOTICK: directly (notickctl switches itself
 * and executes it) or, with --report, as a child whose disturbances are
 * reported when it exits.  Both return the final exit status: the
 * program's, or NT_EXIT_OWN, 126 or 127 for notickctl's own failures.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "convert.h"
#include "counters.h"
#include "cpulist.h"
#include "noise.h"
#include "notickctl.h"
#include "report.h"
#include "sysinfo.h"

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

/* Candidate @i of @name along @path into @buf; 0, or -1 past the end. */
static int candidate(const char *path, const char *name, int i, char *buf,
		     size_t len)
{
	const char *p = path, *end;
	int n;

	for (;;) {
		end = strchrnul(p, ':');
		if (i-- == 0)
			break;
		if (!*end)
			return -1;
		p = end + 1;
	}
	n = (int)(end - p);
	if (n == 0)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "%.*s/%s", n, p, name);
	return 0;
}

/*
 * Find @name like execvp() does, before anything is changed, so that a
 * missing program is reported without touching the scheduler.  Reports
 * the first match that cannot be executed when none can, like the shell.
 */
static int resolve_program(const char *name, char *buf, size_t len)
{
	const char *path;
	int best = NT_EXIT_NOTFOUND, first_noexec = -1, i, rc;

	if (strchr(name, '/')) {
		snprintf(buf, len, "%s", name);
		best = check_exec(buf);
	} else {
		path = getenv("PATH");
		if (!path || !*path)
			path = "/usr/local/bin:/bin:/usr/bin";
		for (i = 0; candidate(path, name, i, buf, len) == 0; i++) {
			rc = check_exec(buf);
			if (rc == 0)
				return 0;
			if (rc == NT_EXIT_NOEXEC && first_noexec < 0)
				first_noexec = i;
		}
		if (first_noexec >= 0) {
			candidate(path, name, first_noexec, buf, len);
			best = NT_EXIT_NOEXEC;
		}
	}
	if (best == NT_EXIT_NOTFOUND)
		warnx("%s: program not found", name);
	else if (best == NT_EXIT_NOEXEC)
		warnx("%s: cannot execute: %s", buf,
		      access(buf, X_OK) ? strerror(EACCES) : "Is a directory");
	return best;
}

static int exec_errcode(int e)
{
	return e == ENOENT || e == ENOTDIR ? NT_EXIT_NOTFOUND : NT_EXIT_NOEXEC;
}

/*
 * Execute @path with @argv; a file without a known format (ENOEXEC) runs
 * as a shell script, as execvp() does.  Returns only on failure, with the
 * errno of the first attempt.
 */
static int exec_program(const char *path, char **argv, char **sh_argv)
{
	int e;

	execv(path, argv);
	e = errno;
	if (e == ENOEXEC && sh_argv)
		execv("/bin/sh", sh_argv);
	return e;
}

/* { "/bin/sh", @path, @argv[1]... }, for exec_program(); NULL on ENOMEM. */
static char **shell_argv(const char *path, int argc, char **argv)
{
	char **v = calloc((size_t)argc + 2, sizeof(*v));
	int i;

	if (!v)
		return NULL;
	v[0] = (char *)"/bin/sh";
	v[1] = (char *)path;
	for (i = 1; i < argc; i++)
		v[i + 1] = argv[i];
	return v;
}

/* ---- run a program ---- */

/*
 * Make tid the SCHED_NOTICK thread of o->cpu and keep the isolation
 * record. Everything is undone on failure, and also when a signal came
 * meanwhile: *signo is then that signal, else 0.
 */
static int convert_and_keep(pid_t tid, const struct nt_opts *o,
			    struct nt_saved *s, const struct nt_signals *sig,
			    int *signo)
{
	int rc = nt_convert_thread(tid, o->cpu, o->isolate, s, sig);

	if (!rc) {
		rc = nt_keep_isolation(s);
		if (rc)
			nt_undo(s);
	}
	*signo = nt_signals_pending(sig);
	if (!rc && *signo)
		nt_undo(s);	/* interrupted: nothing done */
	return rc;
}

/*
 * Admission from a helper thread, for nt_cmd_run(): the helper stays off
 * the CPU and converts the main thread while that one sleeps in
 * pthread_join(). The main thread then first runs on the CPU as its
 * SCHED_NOTICK thread, with the tick already stopped there: it never
 * runs on the CPU before, the CPU's migration stopper does not have to
 * push it there, and what admission may do on every CPU (the first one
 * turns the full dynticks mode on) meets an idle CPU.
 */
struct admission {
	pid_t tid;			/* the main thread */
	const struct nt_opts *o;
	struct nt_saved *s;
	const struct nt_signals *sig;
	int rc, signo;
};

/*
 * Wait, for up to a second, until thread @tid is asleep: pinning a
 * sleeping thread only changes its mask, where a running one would be
 * pushed to the CPU by the CPU's stopper. Sleeping between looks lets it
 * run when it shares our CPU (sched_yield() would not, under CFS).
 */
static void wait_asleep(pid_t tid)
{
	const struct timespec pause = { .tv_nsec = 200000 };
	char path[64], *text, *p;
	int i, running;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)tid);
	for (i = 0; i < 5000; i++) {
		text = nt_read_file(path);
		p = text ? strrchr(text, ')') : NULL;
		running = p && p[1] == ' ' && p[2] == 'R';
		free(text);
		if (!running)
			return;
		nanosleep(&pause, NULL);
	}
}

static void *admission_thread(void *arg)
{
	struct admission *a = arg;

	wait_asleep(a->tid);
	a->rc = convert_and_keep(a->tid, a->o, a->s, a->sig, &a->signo);
	return NULL;
}

/*
 * convert_and_keep() for the calling (main) thread, from a helper thread
 * kept off o->cpu when the thread may run elsewhere; in this thread if no
 * helper can be started.
 */
static int convert_self(const struct nt_opts *o, struct nt_saved *s,
			const struct nt_signals *sig, int *signo)
{
	struct admission a = {
		.tid = (pid_t)syscall(SYS_gettid), .o = o, .s = s, .sig = sig,
	};
	cpu_set_t *set = cpuset_alloc();
	pthread_attr_t attr;
	pthread_t helper;
	int started = 0;

	if (set && !pthread_attr_init(&attr)) {
		if (!sched_getaffinity(0, cpuset_size(), set) && o->cpu >= 0) {
			CPU_CLR_S((size_t)o->cpu, cpuset_size(), set);
			if (cpuset_count(set) > 0)
				pthread_attr_setaffinity_np(&attr, cpuset_size(), set);
		}
		started = !pthread_create(&helper, &attr, admission_thread, &a);
		pthread_attr_destroy(&attr);
	}
	cpuset_free(set);
	if (!started)
		return convert_and_keep(0, o, s, sig, signo);
	pthread_join(helper, NULL);
	*signo = a.signo;
	return a.rc;
}

int nt_cmd_run(const struct nt_opts *o)
{
	char path[PATH_MAX], **sh_argv;
	struct nt_signals sig;
	struct nt_saved s;
	int rc, e, signo;

	rc = resolve_program(o->prog_argv[0], path, sizeof(path));
	if (rc)
		return rc;
	sh_argv = shell_argv(path, o->prog_argc, o->prog_argv);
	if (!sh_argv) {
		warnx("cannot allocate memory");
		return NT_EXIT_OWN;
	}

	nt_signals_block(&sig);
	rc = convert_self(o, &s, &sig, &signo);
	if (rc || signo) {
		nt_saved_free(&s);
		free(sh_argv);
		if (signo)
			nt_die_by_signal(signo);
		nt_signals_restore(&sig);
		return nt_exit_status(rc, 1);
	}

	nt_signals_restore(&sig);
	e = exec_program(path, o->prog_argv, sh_argv);
	/* Leave no SCHED_NOTICK thread, nor isolation, behind. */
	nt_signals_block(&sig);
	nt_undo(&s);
	nt_saved_free(&s);
	free(sh_argv);
	signo = nt_signals_pending(&sig);
	if (signo)
		nt_die_by_signal(signo);
	nt_signals_restore(&sig);
	errno = e;
	warn("failed to execute %s", o->prog_argv[0]);
	return exec_errcode(e);
}

/* ---- --report ---- */

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

static volatile sig_atomic_t child_pid;

/*
 * Pass a termination signal on to the program.  One that the terminal
 * sent (SI_KERNEL) has reached the program already: the whole foreground
 * process group gets it.
 */
static void forward(int sig, siginfo_t *si, void *ctx)
{
	int e = errno;

	(void)ctx;
	if (child_pid > 0 && si->si_code != SI_KERNEL)
		kill((pid_t)child_pid, sig);
	errno = e;
}

static void reap(pid_t pid, int *status, struct rusage *ru)
{
	while (wait4(pid, status, 0, ru) < 0 && errno == EINTR)
		;
}

static void fill_report(struct nt_report *r, const struct nt_saved *s,
			const struct nt_opts *o, pid_t child, int status,
			const struct rusage *ru, const struct snapshot *before,
			const struct snapshot *after)
{
	memset(r, 0, sizeof(*r));
	r->pid = child;
	r->cpu = s->cpu;
	r->program = o->prog_argv[0];
	r->argv = o->prog_argv;
	if (WIFEXITED(status)) {
		r->exited = 1;
		r->status = WEXITSTATUS(status);
	} else {
		r->exited = 0;
		r->status = WTERMSIG(status);
	}
	r->user_us = ru->ru_utime.tv_sec * 1000000LL + ru->ru_utime.tv_usec;
	r->system_us = ru->ru_stime.tv_sec * 1000000LL + ru->ru_stime.tv_usec;
	if (before->have_cs && after->have_cs) {
		r->vol_cs = after->vol_cs - before->vol_cs;
		r->invol_cs = after->invol_cs - before->invol_cs;
	} else {
		r->vol_cs = (unsigned long long)ru->ru_nvcsw;
		r->invol_cs = (unsigned long long)ru->ru_nivcsw;
	}
	diff_table(nt_parse_interrupts, before->irqs, after->irqs, s->cpu,
		   &r->irqs, "/proc/interrupts");
	diff_table(nt_parse_softirqs, before->softirqs, after->softirqs,
		   s->cpu, &r->softirqs, "/proc/softirqs");
	if (before->nt.have_counters && after->nt.have_counters) {
		r->have_notick = 1;
		r->tick_stops = after->nt.tick_stops - before->nt.tick_stops;
		r->tick_restarts = after->nt.tick_restarts -
				   before->nt.tick_restarts;
		r->yields = after->nt.yields - before->nt.yields;
	}
}

/* The child: wait for the go, then execute the program. */
static void __attribute__((noreturn))
child_main(const struct nt_opts *o, const char *path, char **sh_argv,
	   pid_t parent, int go, int ep, const struct nt_signals *sig)
{
	char c;
	int e;

	/* Never outlive notickctl, even when it is killed (SIGKILL). */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(NT_EXIT_OWN);
	if (read_full(go, &c, 1) != 1 || c != 'g')
		_exit(NT_EXIT_OWN);	/* setup failed or interrupted */
	nt_signals_restore(sig);
	e = exec_program(path, o->prog_argv, sh_argv);
	if (write(ep, &e, sizeof(e)) < 0)
		_exit(exec_errcode(e));
	_exit(exec_errcode(e));
}

int nt_cmd_report(const struct nt_opts *o)
{
	struct snapshot before = { 0 }, after = { 0 };
	struct sigaction fwd, old_act[4];
	static const int fwd_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	char path[PATH_MAX], **sh_argv;
	struct timespec t0, t1;
	struct nt_signals sig;
	struct nt_report r;
	struct nt_trace trace;
	struct nt_noise noise;
	struct rusage ru;
	struct nt_saved s;
	siginfo_t si;
	FILE *out = stderr;
	int go[2], ep[2];
	int rc, status, e, signo;
	size_t i;
	pid_t child, parent = getpid();
	ssize_t n;

	rc = resolve_program(o->prog_argv[0], path, sizeof(path));
	if (rc)
		return rc;
	sh_argv = shell_argv(path, o->prog_argc, o->prog_argv);
	if (!sh_argv) {
		warnx("cannot allocate memory");
		return NT_EXIT_OWN;
	}
	if (pipe2(go, O_CLOEXEC) || pipe2(ep, O_CLOEXEC)) {
		warn("pipe");
		return NT_EXIT_OWN;
	}
	nt_signals_block(&sig);
	fflush(NULL);
	child = fork();
	if (child < 0) {
		warn("fork");
		nt_signals_restore(&sig);
		return NT_EXIT_OWN;
	}
	if (child == 0) {
		close(go[1]);
		close(ep[0]);
		child_main(o, path, sh_argv, parent, go[0], ep[1], &sig);
	}
	close(go[0]);
	close(ep[1]);

	/* Admission, then the output file: nothing is created before. */
	wait_asleep(child);	/* on the go pipe */
	rc = convert_and_keep(child, o, &s, &sig, &signo);
	if (!rc && !signo && o->output) {
		out = fopen(o->output, "we");
		if (!out) {
			warn("cannot open %s", o->output);
			nt_undo(&s);
			rc = NT_EXIT_FAILURE;
		}
	}
	if (rc || signo) {
		nt_saved_free(&s);
		free(sh_argv);
		close(go[1]);	/* the child exits without running anything */
		close(ep[0]);
		reap(child, &status, &ru);
		if (signo)
			nt_die_by_signal(signo);
		nt_signals_restore(&sig);
		return nt_exit_status(rc, 1);
	}
	move_off_cpu(s.cpu);

	memset(&fwd, 0, sizeof(fwd));
	fwd.sa_sigaction = forward;
	fwd.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&fwd.sa_mask);
	child_pid = child;
	for (i = 0; i < 4; i++)
		if (sigismember(&sig.set, fwd_sigs[i]) == 1)
			sigaction(fwd_sigs[i], &fwd, &old_act[i]);

	memset(&noise, 0, sizeof(noise));
	trace.dir[0] = '\0';
	if (o->noise)	/* else, or when it fails, noise.why says why not */
		nt_trace_start(&trace, s.cpu, &noise);
	else
		snprintf(noise.why, sizeof(noise.why), "not asked for (--noise)");
	take_snapshot(&before, s.cpu, child);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (write(go[1], "g", 1) != 1)
		warn("cannot start %s", o->prog_argv[0]);
	close(go[1]);
	nt_signals_restore(&sig);	/* from now on, signals are passed on */

	n = read_full(ep[0], &e, sizeof(e));
	close(ep[0]);

	memset(&si, 0, sizeof(si));
	while (waitid(P_PID, (id_t)child, &si, WEXITED | WNOWAIT) < 0) {
		if (errno != EINTR) {
			warn("waitid");
			break;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	take_snapshot(&after, s.cpu, child);
	reap(child, &status, &ru);
	nt_trace_finish(&trace, child, &noise);
	child_pid = 0;

	nt_signals_block(&sig);
	if (n == (ssize_t)sizeof(e))
		nt_undo(&s);	/* the program never ran: no isolation kept */
	nt_saved_free(&s);
	free(sh_argv);
	for (i = 0; i < 4; i++)
		if (sigismember(&sig.set, fwd_sigs[i]) == 1)
			sigaction(fwd_sigs[i], &old_act[i], NULL);
	nt_signals_restore(&sig);

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

	fill_report(&r, &s, o, child, status, &ru, &before, &after);
	r.elapsed_ns = ns_between(&t0, &t1);
	r.noise = noise;
	rc = r.exited ? r.status : 128 + r.status;
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
	return rc;
}
