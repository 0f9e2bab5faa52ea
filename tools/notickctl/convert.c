// SPDX-License-Identifier: GPL-2.0-only
/*
 * The steps the commands share: converting one thread to SCHED_NOTICK
 * and undoing it, and keeping termination signals out of the middle of a
 * change.
 *
 * The order of every change is: check (the kernel has the class, the
 * thread, the CPU), isolate the CPU (--isolate), pin, switch the class;
 * any failure undoes the steps already done so that the system is left
 * as it was.
 */
#include <err.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "convert.h"
#include "cpulist.h"
#include "sysinfo.h"

#ifndef SCHED_FLAG_RESET_ON_FORK
#define SCHED_FLAG_RESET_ON_FORK 0x01
#endif
#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

/* ---- signals ---- */

static const int term_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

void nt_signals_block(struct nt_signals *s)
{
	struct sigaction sa;
	size_t i;

	sigemptyset(&s->set);
	for (i = 0; i < sizeof(term_signals) / sizeof(term_signals[0]); i++) {
		/* A blocked signal is queued even when ignored: skip those. */
		if (sigaction(term_signals[i], NULL, &sa) == 0 &&
		    sa.sa_handler == SIG_IGN)
			continue;
		sigaddset(&s->set, term_signals[i]);
	}
	sigprocmask(SIG_BLOCK, &s->set, &s->old);
}

int nt_signals_pending(const struct nt_signals *s)
{
	sigset_t pending;
	size_t i;

	if (sigpending(&pending))
		return 0;
	for (i = 0; i < sizeof(term_signals) / sizeof(term_signals[0]); i++)
		if (sigismember(&s->set, term_signals[i]) == 1 &&
		    sigismember(&pending, term_signals[i]) == 1)
			return term_signals[i];
	return 0;
}

void nt_signals_restore(const struct nt_signals *s)
{
	sigprocmask(SIG_SETMASK, &s->old, NULL);
}

void nt_die_by_signal(int sig)
{
	sigset_t one;

	fflush(NULL);
	signal(sig, SIG_DFL);
	sigemptyset(&one);
	sigaddset(&one, sig);
	raise(sig);	/* pending until unblocked, if blocked */
	sigprocmask(SIG_UNBLOCK, &one, NULL);
	_exit(128 + sig);
}

/* ---- sched_setattr ---- */

int nt_setattr(pid_t tid, const struct nt_sched_attr *attr)
{
	return (int)syscall(SYS_sched_setattr, tid, attr, 0);
}

int nt_getattr(pid_t tid, struct nt_sched_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	return (int)syscall(SYS_sched_getattr, tid, attr, sizeof(*attr), 0);
}

static const char *who(pid_t tid, char *buf, size_t len)
{
	snprintf(buf, len, "PID %ld", (long)(tid ? tid : getpid()));
	return buf;
}

/*
 * Whether thread @tid (0: the calling thread) runs boosted to deadline
 * through a PI mutex: /proc's priority (the 18th field of stat) is then
 * below every real-time one (-101). The kernel refuses such a thread any
 * policy change with EBUSY, as it does a CPU with another SCHED_NOTICK
 * thread.
 */
static int deadline_boosted(pid_t tid)
{
	char path[64], *text, *p;
	long prio = 0;
	int field;

	if (tid)
		snprintf(path, sizeof(path), "/proc/%ld/stat", (long)tid);
	else
		snprintf(path, sizeof(path), "/proc/thread-self/stat");
	text = nt_read_file(path);
	p = text ? strrchr(text, ')') : NULL;
	/* After the comm: state is field 3, priority field 18. */
	for (field = 2; p && field < 18; field++) {
		p = strchr(p + 1, ' ');
		if (p && field == 17)
			prio = strtol(p + 1, NULL, 10);
	}
	free(text);
	return prio < -100;
}

/* Exit code and message for a failed sched_setattr(SCHED_NOTICK). */
static int setattr_error(int e, pid_t tid, int cpu)
{
	struct nt_cpu_notick st;
	char w[32], comm[64];
	int rc = nt_errno_exit(e);

	who(tid, w, sizeof(w));
	switch (rc) {
	case NT_EXIT_PERM:
		warnx("cannot make %s SCHED_NOTICK: permission denied (CAP_SYS_NICE needed)", w);
		break;
	case NT_EXIT_NOPROC:
		warnx("%s: no such process", w);
		break;
	case NT_EXIT_BUSY:
		nt_read_cpu_notick(cpu, &st);
		if (deadline_boosted(tid)) {
			warnx("cannot make %s SCHED_NOTICK now: it holds a PI mutex that a SCHED_DEADLINE thread waits on, and the kernel changes no policy of a thread boosted to deadline; retry once it releases the mutex",
			      w);
		} else if (st.pid > 0) {
			nt_read_comm(st.pid, comm, sizeof(comm));
			warnx("CPU %d is busy: PID %ld%s%s%s already runs SCHED_NOTICK there",
			      cpu, st.pid, comm[0] ? " (" : "", comm,
			      comm[0] ? ")" : "");
		} else {
			warnx("CPU %d is busy: another thread already runs SCHED_NOTICK there",
			      cpu);
		}
		break;
	case NT_EXIT_CPU:
		if (!nt_kernel_supported())
			return nt_unsupported();	/* gone meanwhile */
		if (nt_check_cpu(cpu, NT_CPU_ONLINE))
			break;
		warnx("kernel refused SCHED_NOTICK for %s on CPU %d: %s (the thread must be allowed on exactly one online CPU that is neither the boot nor the timekeeping CPU)",
		      w, cpu, strerror(e));
		break;
	default:
		warnx("cannot make %s SCHED_NOTICK: %s", w, strerror(e));
	}
	return rc;
}

/* Exit code and message for a failed sched_setaffinity() to @cpu. */
static int pin_error(int e, pid_t tid, int cpu)
{
	char w[32];
	int rc = nt_errno_exit(e);

	who(tid, w, sizeof(w));
	switch (rc) {
	case NT_EXIT_CPU:
		warnx("CPU %d is not available to %s (offline or outside its cpuset)",
		      cpu, w);
		break;
	case NT_EXIT_PERM:
		warnx("cannot pin %s to CPU %d: permission denied", w, cpu);
		break;
	case NT_EXIT_NOPROC:
		warnx("%s: no such process", w);
		break;
	default:
		warnx("cannot pin %s to CPU %d: %s", w, cpu, strerror(e));
	}
	return rc;
}

/* ---- converting one thread, and undoing it ---- */

void nt_saved_free(struct nt_saved *s)
{
	cpuset_free(s->mask);
	s->mask = NULL;
	nt_journal_free(&s->iso);
	free(s->record_prev);
	s->record_prev = NULL;
	s->recorded = 0;
}

void nt_undo(struct nt_saved *s)
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
	if (s->recorded) {
		nt_record_put_back(s->cpu, s->record_prev);
		s->recorded = 0;
	}
	nt_journal_restore(&s->iso);
}

int nt_keep_isolation(struct nt_saved *s)
{
	int rc;

	if (!s->iso.n)
		return 0;
	rc = nt_record_save(s->cpu, &s->iso, &s->record_prev);
	if (!rc)
		s->recorded = 1;
	return rc;
}

/* --isolate, after every check. */
static int isolate(int cpu, struct nt_saved *s)
{
	return nt_isolate(cpu, &s->iso);
}

/* A termination signal arrived between two steps: undo, and say so. */
static int interrupted(const struct nt_signals *sig, struct nt_saved *s)
{
	if (!sig || !nt_signals_pending(sig))
		return 0;
	nt_undo(s);
	return 1;
}

int nt_convert_thread(pid_t tid, int want_cpu, int iso, struct nt_saved *s,
		      const struct nt_signals *sig)
{
	struct nt_sched_attr a;
	char w[32], list[256];
	cpu_set_t *one;
	int rc, cpu, e;

	memset(s, 0, sizeof(*s));
	s->tid = tid;
	s->cpu = -1;
	who(tid, w, sizeof(w));
	/* Before anything is read or changed: the kernel must have it. */
	if (!nt_kernel_supported())
		return nt_unsupported();
	s->mask = cpuset_alloc();
	if (!s->mask) {
		warnx("cannot allocate a CPU set");
		return NT_EXIT_FAILURE;
	}

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
	rc = nt_check_cpu(cpu, NT_CPU_ONLINE);
	if (rc)
		return rc;
	s->cpu = cpu;

	if (s->attr.sched_policy == SCHED_NOTICK) {
		if (cpuset_count(s->mask) == 1 && cpuset_first(s->mask) == cpu)
			return iso ? isolate(cpu, s) : 0; /* nothing to undo */
		warnx("%s already runs SCHED_NOTICK on another CPU: use --reset first", w);
		return NT_EXIT_FAILURE;
	}

	if (iso) {
		rc = isolate(cpu, s);
		if (rc)
			return rc;
		if (interrupted(sig, s))
			return NT_EXIT_FAILURE;	/* the caller dies by it */
	}

	if (cpuset_count(s->mask) != 1 || cpuset_first(s->mask) != cpu) {
		one = cpuset_alloc();
		if (!one) {
			nt_undo(s);
			warnx("cannot allocate a CPU set");
			return NT_EXIT_FAILURE;
		}
		CPU_SET_S((size_t)cpu, cpuset_size(), one);
		rc = sched_setaffinity(tid, cpuset_size(), one);
		e = errno;
		cpuset_free(one);
		if (rc) {
			nt_undo(s);
			return pin_error(e, tid, cpu);
		}
		s->pinned = 1;
		if (interrupted(sig, s))
			return NT_EXIT_FAILURE;
	}

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sched_policy = SCHED_NOTICK;
	a.sched_priority = 0;
	a.sched_nice = s->attr.sched_nice;
	if (nt_setattr(tid, &a)) {
		e = errno;
		nt_undo(s);
		return setattr_error(e, tid, cpu);
	}
	s->converted = 1;
	return 0;
}
