// SPDX-License-Identifier: GPL-2.0-only
/* The text and JSON output of "status" and --show. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "json.h"

void nt_status_print_text(FILE *f, long grace_us, int have_grace,
			  int headings, const struct nt_status_row *rows,
			  size_t n)
{
	size_t i;

	if (!headings)
		goto rows;
	if (have_grace) {
		if (grace_us < 0)
			fprintf(f, "grace period: never yield (%ld)\n", grace_us);
		else
			fprintf(f, "grace period: %ld us\n", grace_us);
	} else {
		fputs("grace period: unknown\n", f);
	}
	fprintf(f, "%4s %-6s %-8s %8s %-16s %12s %13s %12s %-8s %5s\n", "CPU",
		"ONLINE", "TICK", "PID", "COMMAND", "TICK_STOPS",
		"TICK_RESTARTS", "YIELDS", "WATCHDOG", "IRQS");
rows:
	for (i = 0; i < n; i++) {
		const struct nt_status_row *r = &rows[i];
		char pid[24] = "-", c1[24] = "-", c2[24] = "-", c3[24] = "-";
		char irqs[24] = "-";

		if (r->nt.pid > 0)
			snprintf(pid, sizeof(pid), "%ld", r->nt.pid);
		if (r->nt.have_counters) {
			snprintf(c1, sizeof(c1), "%llu", r->nt.tick_stops);
			snprintf(c2, sizeof(c2), "%llu", r->nt.tick_restarts);
			snprintf(c3, sizeof(c3), "%llu", r->nt.yields);
		}
		if (r->irqs >= 0)
			snprintf(irqs, sizeof(irqs), "%d", r->irqs);
		fprintf(f, "%4d %-6s %-8s %8s %-16s %12s %13s %12s %-8s %5s\n",
			r->cpu, r->online ? "yes" : "no",
			r->nt.tick[0] ? r->nt.tick : "-", pid,
			r->nt.pid > 0 && r->comm[0] ? r->comm : "-", c1, c2, c3,
			r->watchdog < 0 ? "-" : r->watchdog ? "yes" : "no",
			irqs);
	}
}

void nt_status_print_json(FILE *f, long grace_us, int have_grace,
			  const struct nt_status_row *rows, size_t n)
{
	size_t i;

	fprintf(f, "{\n  \"schema_version\": %d,\n", NT_JSON_SCHEMA);
	if (have_grace)
		fprintf(f, "  \"grace_us\": %ld,\n  \"cpus\": [", grace_us);
	else
		fputs("  \"grace_us\": null,\n  \"cpus\": [", f);
	for (i = 0; i < n; i++) {
		const struct nt_status_row *r = &rows[i];

		fprintf(f, "%s\n    {\"cpu\": %d, \"online\": %s, \"pid\": ",
			i ? "," : "", r->cpu, r->online ? "true" : "false");
		if (r->nt.pid > 0)
			fprintf(f, "%ld", r->nt.pid);
		else
			fputs("null", f);
		fputs(", \"command\": ", f);
		nt_json_string(f, r->nt.pid > 0 && r->comm[0] ? r->comm : NULL);
		fputs(", \"tick\": ", f);
		nt_json_string(f, r->nt.tick[0] ? r->nt.tick : NULL);
		if (r->nt.have_counters)
			fprintf(f, ", \"tick_stops\": %llu, \"tick_restarts\": %llu, \"yields\": %llu",
				r->nt.tick_stops, r->nt.tick_restarts,
				r->nt.yields);
		else
			fputs(", \"tick_stops\": null, \"tick_restarts\": null, \"yields\": null",
			      f);
		fprintf(f, ", \"watchdog\": %s, \"irqs\": ",
			r->watchdog < 0 ? "null" :
			r->watchdog ? "true" : "false");
		if (r->irqs >= 0)
			fprintf(f, "%d}", r->irqs);
		else
			fputs("null}", f);
	}
	fprintf(f, "%s]\n}\n", n ? "\n  " : "");
}

const char *nt_policy_name(int policy)
{
	static const char *const names[] = {
		"SCHED_OTHER", "SCHED_FIFO", "SCHED_RR", "SCHED_BATCH",
		NULL, "SCHED_IDLE", "SCHED_DEADLINE", NULL, "SCHED_NOTICK",
	};

	if (policy >= 0 && policy < (int)(sizeof(names) / sizeof(names[0])) &&
	    names[policy])
		return names[policy];
	return "unknown";
}

void nt_show_print_text(FILE *f, const struct nt_thread_info *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++, t++) {
		long id = (long)t->tid;

		fprintf(f, "pid %ld's current scheduling policy: %s\n", id,
			nt_policy_name(t->policy));
		if (t->policy == 1 || t->policy == 2)
			fprintf(f, "pid %ld's current scheduling priority: %u\n",
				id, t->priority);
		else
			fprintf(f, "pid %ld's current nice value: %d\n", id,
				t->nice);
		fprintf(f, "pid %ld's current affinity list: %s\n", id,
			t->affinity[0] ? t->affinity : "-");
		if (t->notick_cpu >= 0)
			fprintf(f, "pid %ld owns CPU %d, tick %s\n", id,
				t->notick_cpu, t->tick[0] ? t->tick : "-");
	}
}

void nt_show_print_json(FILE *f, const struct nt_thread_info *t, size_t n)
{
	size_t i;

	fprintf(f, "{\n  \"schema_version\": %d,\n  \"threads\": [",
		NT_JSON_SCHEMA);
	for (i = 0; i < n; i++, t++) {
		fprintf(f, "%s\n    {\"pid\": %ld, \"command\": ", i ? "," : "",
			(long)t->tid);
		nt_json_string(f, t->comm[0] ? t->comm : NULL);
		fputs(", \"policy\": ", f);
		nt_json_string(f, nt_policy_name(t->policy));
		fprintf(f, ", \"policy_number\": %d, \"priority\": %u, \"nice\": %d, \"affinity\": ",
			t->policy, t->priority, t->nice);
		nt_json_string(f, t->affinity[0] ? t->affinity : NULL);
		fputs(", \"notick_cpu\": ", f);
		if (t->notick_cpu >= 0)
			fprintf(f, "%d", t->notick_cpu);
		else
			fputs("null", f);
		fputs(", \"tick\": ", f);
		nt_json_string(f, t->notick_cpu >= 0 && t->tick[0] ? t->tick : NULL);
		fputc('}', f);
	}
	fprintf(f, "%s]\n}\n", n ? "\n  " : "");
}
