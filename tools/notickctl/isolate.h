/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Run-time housekeeping of a CPU (isolate.c): --isolate's journal of the
 * files it writes, the record --unisolate reads, and the state "status"
 * shows.
 */
#ifndef NT_ISOLATE_H
#define NT_ISOLATE_H

#include <sched.h>
#include <stddef.h>

#include "notickctl.h"

/*
 * The affinity an IRQ allowed on @cur gets when @cpu is isolated: @cur
 * without @cpu, or the housekeeping CPUs (@online without @cpu) when no
 * online CPU would be left.  Returns 1 and sets @out when @cur contains
 * @cpu, 0 (nothing to do) otherwise.
 */
int nt_irq_new_affinity(const cpu_set_t *cur, int cpu,
			const cpu_set_t *online, cpu_set_t *out);

/* The files an isolation changed, with their contents before and after. */
struct nt_journal_entry {
	char *path;		/* full path (NOTICKCTL_ROOT included) */
	char *name;		/* path for messages ("/proc/irq/4/...") */
	char *old;		/* exact previous contents */
	char *new;		/* what was written */
};

struct nt_journal {
	struct nt_journal_entry *v;
	size_t n;
};

/*
 * Take @cpu out of kernel.watchdog_cpumask, /proc/irq/default_smp_affinity
 * and the affinity of every IRQ (see notickctl(8)).  IRQs the kernel
 * refuses to move are warned about.  Returns 0 with every change recorded
 * in @j, or an exit code after a message, everything already restored
 * (also when memory runs out).
 */
int nt_isolate(int cpu, struct nt_journal *j);

/* Write back the recorded contents, newest first; failures warned. */
int nt_journal_restore(struct nt_journal *j);
void nt_journal_free(struct nt_journal *j);

/*
 * Add the changes in @j to the record of @cpu's isolation,
 * /run/notickctl/cpuN (via nt_path), that --unisolate reads.  Returns 0
 * with the previous record's text in *@prev (NULL: there was none), or
 * an exit code after a message (the record is then as it was).
 */
int nt_record_save(int cpu, const struct nt_journal *j, char **prev);
/* Put back the record that nt_record_save() replaced (NULL: remove it). */
void nt_record_put_back(int cpu, const char *prev);

/*
 * Undo what the --isolate record of @cpu says was changed, newest first:
 * a file that still holds what --isolate wrote gets its previous contents;
 * one that changed since only gets @cpu back when --isolate had only
 * removed it, else it is left as it is with a warning.  Without a record,
 * nothing is changed (NT_EXIT_FAILURE, with a message) unless @force:
 * then @cpu goes back into watchdog_cpumask and default_smp_affinity and
 * every IRQ is left as it is (warned).  0 or an exit code.
 */
int nt_unisolate(int cpu, int force);

/*
 * Housekeeping state of each CPU below @ncpu for "status": @watchdog[c]
 * is 1 or 0 (-1 for all when the lockup detector is absent), @irqs[c] the
 * number of IRQs whose effective affinity contains c (-1 for all when
 * /proc/irq has no effective affinity files).
 */
void nt_housekeeping_state(int ncpu, int *watchdog, int *irqs);

#endif
