// SPDX-License-Identifier: GPL-2.0-only
/*
 * "notickctl status": per CPU, its SCHED_NOTICK thread, tick state and
 * counters, and its housekeeping (watchdog, device interrupts).
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "format.h"
#include "isolate.h"
#include "notickctl.h"
#include "sysinfo.h"

int nt_cmd_status(const struct nt_opts *o)
{
	cpu_set_t *possible = cpuset_alloc(), *online = cpuset_alloc();
	struct nt_status_row *rows = NULL;
	char path[4096], *text, *end;
	int *wd = NULL, *irqs = NULL;
	long grace = 0;
	int have_grace = 0, c, rc = NT_EXIT_FAILURE;
	size_t n = 0;

	if (!possible || !online) {
		warnx("cannot allocate a CPU set");
		goto out;
	}
	if (!nt_kernel_supported()) {
		rc = nt_unsupported();
		goto out;
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
	if (nt_read_cpulist("online", online)) {
		warnx("cannot read the list of online CPUs");
		goto out;
	}
	if (nt_read_cpulist("possible", possible))
		memcpy(possible, online, cpuset_size());

	rows = calloc((size_t)cpuset_count(possible) + 1, sizeof(*rows));
	wd = calloc(NT_MAX_CPUS, sizeof(*wd));
	irqs = calloc(NT_MAX_CPUS, sizeof(*irqs));
	if (!rows || !wd || !irqs) {
		warnx("cannot allocate memory");
		goto out;
	}
	nt_housekeeping_state(NT_MAX_CPUS, wd, irqs);
	for (c = 0; c < NT_MAX_CPUS; c++) {
		struct nt_status_row *r;

		if (!CPU_ISSET_S((size_t)c, cpuset_size(), possible))
			continue;
		r = &rows[n++];
		r->cpu = c;
		r->online = CPU_ISSET_S((size_t)c, cpuset_size(), online);
		nt_read_cpu_notick(c, &r->nt);
		nt_read_comm(r->nt.pid, r->comm, sizeof(r->comm));
		r->watchdog = wd[c];
		r->irqs = irqs[c];
	}
	if (o->json)
		nt_status_print_json(stdout, grace, have_grace, rows, n);
	else
		nt_status_print_text(stdout, grace, have_grace,
				     !o->noheadings, rows, n);
	rc = 0;
	if (fflush(stdout) || ferror(stdout)) {
		warnx("write error");
		rc = NT_EXIT_FAILURE;
	}
out:
	free(rows);
	free(wd);
	free(irqs);
	cpuset_free(possible);
	cpuset_free(online);
	return rc;
}
