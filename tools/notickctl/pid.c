// SPDX-License-Identifier: GPL-2.0-only
/*
 * Existing threads: --pid converts a thread (or, with --all-tasks, every
 * thread of a process, all or nothing), --reset returns them to
 * SCHED_NORMAL.
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "notickctl.h"
#include "sysinfo.h"

#ifndef SCHED_FLAG_RESET_ON_FORK
#define SCHED_FLAG_RESET_ON_FORK 0x01
#endif

int nt_cmd_pid(const struct nt_opts *o)
{
	struct nt_signals sig;
	struct nt_saved *s;
	pid_t *tids;
	size_t n, i, done = 0;
	int rc, signo = 0;

	rc = nt_list_tids(o->pid, o->all_tasks, &tids, &n);
	if (rc) {
		free(tids);
		return rc;
	}
	s = calloc(n, sizeof(*s));
	if (!s) {
		free(tids);
		warnx("cannot allocate memory");
		return NT_EXIT_FAILURE;
	}
	nt_signals_block(&sig);
	for (i = 0; i < n && !rc && !signo; i++) {
		rc = nt_convert_thread(tids[i], o->cpu, o->isolate, &s[i],
				       &sig);
		if (!rc)
			done++;
		signo = nt_signals_pending(&sig);
	}
	if (!rc && !signo && o->isolate)
		rc = nt_keep_isolation(&s[0]);	/* one thread with --isolate */
	if (rc || signo) {
		/* All or nothing: undo the threads already done. */
		for (i = done; i-- > 0; ) {
			int changed = s[i].converted || s[i].pinned;

			nt_undo(&s[i]);
			if (changed)
				warnx("PID %ld restored to its previous policy and affinity",
				      (long)s[i].tid);
		}
	} else {
		for (i = 0; i < n; i++)
			printf("pid %ld: SCHED_NOTICK on CPU %d\n",
			       (long)tids[i], s[i].cpu);
	}
	for (i = 0; i < n; i++)
		nt_saved_free(&s[i]);
	free(s);
	free(tids);
	if (signo)
		nt_die_by_signal(signo);
	nt_signals_restore(&sig);
	return rc;
}

/* Return one thread to SCHED_NORMAL: 1 done, 0 not SCHED_NOTICK, or -rc. */
static int reset_one(pid_t tid, int quiet_exited)
{
	struct nt_sched_attr old, a;
	long t = (long)tid;
	int rc, e;

	if (nt_getattr(tid, &old)) {
		e = errno;
		if (e == ESRCH && quiet_exited)
			return 0;	/* thread exited meanwhile */
		if (e == ESRCH) {
			warnx("PID %ld: no such process", t);
			return -NT_EXIT_NOPROC;
		}
		warnx("cannot read the policy of PID %ld: %s", t, strerror(e));
		return -NT_EXIT_FAILURE;
	}
	if (old.sched_policy != SCHED_NOTICK)
		return 0;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sched_policy = SCHED_OTHER;
	a.sched_flags = old.sched_flags & SCHED_FLAG_RESET_ON_FORK;
	a.sched_nice = old.sched_nice;
	if (nt_setattr(tid, &a) == 0)
		return 1;
	e = errno;
	rc = nt_errno_exit(e);
	if (rc == NT_EXIT_PERM)
		warnx("cannot reset PID %ld: permission denied (CAP_SYS_NICE needed)",
		      t);
	else if (rc == NT_EXIT_NOPROC)
		warnx("PID %ld: no such process", t);
	else
		warnx("cannot reset PID %ld: %s", t, strerror(e));
	return -(rc == NT_EXIT_CPU ? NT_EXIT_FAILURE : rc);
}

int nt_cmd_reset(const struct nt_opts *o)
{
	struct nt_signals sig;
	pid_t *tids;
	size_t n, i, reset = 0;
	int rc, first_rc = 0, signo;

	rc = nt_list_tids(o->pid, o->all_tasks, &tids, &n);
	if (rc) {
		free(tids);
		return rc;
	}
	nt_signals_block(&sig);
	for (i = 0; i < n; i++) {
		rc = reset_one(tids[i], o->all_tasks);
		if (rc < 0 && !first_rc)
			first_rc = -rc;
		if (rc == 1) {
			reset++;
			printf("pid %ld: SCHED_NORMAL\n", (long)tids[i]);
		} else if (rc == 0 && !o->all_tasks) {
			printf("pid %ld: not SCHED_NOTICK, unchanged\n",
			       (long)tids[i]);
		}
	}
	if (o->all_tasks && !reset && !first_rc)
		printf("pid %ld: no thread was SCHED_NOTICK, unchanged\n",
		       (long)o->pid);
	free(tids);
	signo = nt_signals_pending(&sig);
	if (signo)
		nt_die_by_signal(signo);
	nt_signals_restore(&sig);
	return first_rc;
}
