// SPDX-License-Identifier: GPL-2.0-only
/*
 * --show: one thread's policy, nice value or priority, CPU affinity and,
 * when it is a CPU's SCHED_NOTICK thread, that CPU and its tick, as
 * chrt -p and taskset -p show theirs.  Changes nothing; works on any
 * kernel.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "cpulist.h"
#include "format.h"
#include "notickctl.h"
#include "sysinfo.h"

/* 0, 1 (gone meanwhile, with @quiet) or an exit code after a message. */
static int read_thread(pid_t tid, int quiet, struct nt_thread_info *t)
{
	struct nt_sched_attr a;
	struct nt_cpu_notick st;
	cpu_set_t *set;
	int e;

	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->notick_cpu = -1;
	set = cpuset_alloc();
	if (!set) {
		warnx("cannot allocate a CPU set");
		return NT_EXIT_FAILURE;
	}
	if (nt_getattr(tid, &a) || sched_getaffinity(tid, cpuset_size(), set)) {
		e = errno;
		cpuset_free(set);
		if (e == ESRCH && quiet)
			return 1;
		if (e == ESRCH) {
			warnx("PID %ld: no such process", (long)tid);
			return NT_EXIT_NOPROC;
		}
		warnx("cannot read the scheduling state of PID %ld: %s",
		      (long)tid, strerror(e));
		return nt_errno_exit(e) == NT_EXIT_PERM ? NT_EXIT_PERM :
							  NT_EXIT_FAILURE;
	}
	t->policy = (int)a.sched_policy;
	t->nice = a.sched_nice;
	t->priority = a.sched_priority;
	cpulist_format(set, t->affinity, sizeof(t->affinity));
	if (t->policy == SCHED_NOTICK && cpuset_count(set) == 1) {
		nt_read_cpu_notick(cpuset_first(set), &st);
		if (st.pid == (long)tid) {
			t->notick_cpu = cpuset_first(set);
			snprintf(t->tick, sizeof(t->tick), "%s", st.tick);
		}
	}
	cpuset_free(set);
	nt_read_comm((long)tid, t->comm, sizeof(t->comm));
	return 0;
}

int nt_cmd_show(const struct nt_opts *o)
{
	struct nt_thread_info *t;
	pid_t *tids;
	size_t n, i, shown = 0;
	int rc;

	rc = nt_list_tids(o->pid, o->all_tasks, &tids, &n);
	if (rc) {
		free(tids);
		return rc;
	}
	t = calloc(n, sizeof(*t));
	if (!t) {
		free(tids);
		warnx("cannot allocate memory");
		return NT_EXIT_FAILURE;
	}
	for (i = 0; i < n && !rc; i++) {
		rc = read_thread(tids[i], o->all_tasks, &t[shown]);
		if (rc == 1)
			rc = 0;	/* a thread that exited meanwhile */
		else if (!rc)
			shown++;
	}
	if (!rc && o->json)
		nt_show_print_json(stdout, t, shown);
	else if (!rc)
		nt_show_print_text(stdout, t, shown);
	free(t);
	free(tids);
	return rc;
}
