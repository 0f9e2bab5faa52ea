// SPDX-License-Identifier: GPL-2.0-only
/*
 * --unisolate: give a CPU back what --isolate took, as its record says
 * (with --force and no record: the watchdog and default masks only).
 */
#include "convert.h"
#include "notickctl.h"
#include "sysinfo.h"

int nt_cmd_unisolate(const struct nt_opts *o)
{
	struct nt_signals sig;
	int rc, signo;

	rc = nt_check_cpu(o->cpu, 0);
	if (rc)
		return rc;
	/* A change of its own: signals held off while it runs. */
	nt_signals_block(&sig);
	rc = nt_unisolate(o->cpu, o->force);
	signo = nt_signals_pending(&sig);
	if (signo)
		nt_die_by_signal(signo);
	nt_signals_restore(&sig);
	return rc;
}
