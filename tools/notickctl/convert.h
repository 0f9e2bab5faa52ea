/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The steps the commands share (convert.c): converting a thread to
 * SCHED_NOTICK and undoing it, and keeping termination signals out of
 * the middle of a change.
 */
#ifndef NT_CONVERT_H
#define NT_CONVERT_H

#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

#include "isolate.h"

/*
 * Termination signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT) are blocked
 * around every change and its rollback; those the caller ignores are left
 * alone.  A signal that arrived meanwhile is then honoured: the change is
 * rolled back and notickctl dies by it.
 */
struct nt_signals {
	sigset_t set;		/* the signals blocked */
	sigset_t old;		/* the mask before */
};

void nt_signals_block(struct nt_signals *s);
/* A blocked signal that is pending, or 0. */
int nt_signals_pending(const struct nt_signals *s);
void nt_signals_restore(const struct nt_signals *s);
/* Die by @sig (default action), pending or not. */
void nt_die_by_signal(int sig) __attribute__((noreturn));

/* Our own copy of the UAPI struct sched_attr (VER1, 56 bytes). */
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

int nt_setattr(pid_t tid, const struct nt_sched_attr *attr);
int nt_getattr(pid_t tid, struct nt_sched_attr *attr);

/* The state of one thread before its conversion, to undo it. */
struct nt_saved {
	pid_t tid;
	int cpu;
	int pinned;		/* affinity changed: restore mask */
	int converted;		/* class changed: restore attr */
	struct nt_journal iso;	/* --isolate: files changed, for undo */
	int recorded;		/* the record of iso was saved */
	char *record_prev;	/* the record before, NULL if none */
	struct nt_sched_attr attr;	/* before */
	cpu_set_t *mask;
};

/*
 * Make @tid (0: ourselves) SCHED_NOTICK, pinning it to @want_cpu first
 * when >= 0, and with @iso isolating its CPU before that.  On failure the
 * thread and the system are left as they were and the exit code is
 * returned; on success @s records how to undo it.  A signal of @sig (may
 * be NULL) pending between two steps stops it there, undone, with
 * NT_EXIT_FAILURE and no message.
 */
int nt_convert_thread(pid_t tid, int want_cpu, int iso, struct nt_saved *s,
		      const struct nt_signals *sig);
/* Undo a conversion (policy, affinity, isolation), newest first. */
void nt_undo(struct nt_saved *s);
void nt_saved_free(struct nt_saved *s);
/* Keep an isolation after admission: save its record (0 or exit code). */
int nt_keep_isolation(struct nt_saved *s);

#endif
