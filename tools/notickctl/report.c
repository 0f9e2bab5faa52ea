// SPDX-License-Identifier: GPL-2.0-only
/* The text and JSON output of --report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "report.h"

unsigned long long nt_report_loc(const struct nt_report *r)
{
	size_t i;

	for (i = 0; i < r->irqs.n; i++)
		if (!strcmp(r->irqs.v[i].name, "LOC"))
			return r->irqs.v[i].value;
	return 0;
}

static unsigned long long sum(const struct nt_counters *c, int skip_loc)
{
	unsigned long long s = 0;
	size_t i;

	for (i = 0; i < c->n; i++)
		if (!skip_loc || strcmp(c->v[i].name, "LOC"))
			s += c->v[i].value;
	return s;
}

static void print_secs(FILE *f, const char *label, long long ns)
{
	fprintf(f, "  %-28s %lld.%06lld s\n", label, ns / 1000000000LL,
		(ns % 1000000000LL) / 1000LL);
}

double nt_report_cpu_percent(const struct nt_report *r)
{
	if (r->elapsed_ns <= 0)
		return -1;
	return (double)(r->user_us + r->system_us) * 1000.0 * 100.0 /
	       (double)r->elapsed_ns;
}

static void print_noise_text(FILE *f, const struct nt_noise *n)
{
	if (!n->asked)
		return;
	if (!n->measured) {
		fprintf(f, "  %-28s not measured: %s\n", "noise", n->why);
		return;
	}
	fprintf(f, "  %-28s %llu us in %llu interruptions\n", "noise",
		n->total_us, n->count);
	fprintf(f, "  %-28s %llu us\n", "worst interruption", n->worst_us);
	fprintf(f, "    %-8s %10llu us\n", "irq", n->irq_us);
	fprintf(f, "    %-8s %10llu us\n", "softirq", n->softirq_us);
	fprintf(f, "    %-8s %10llu us\n", "thread", n->thread_us);
}

void nt_report_print_text(FILE *f, const struct nt_report *r)
{
	unsigned long long others = sum(&r->irqs, 1);
	size_t i;

	fprintf(f, "\n SCHED_NOTICK report for PID %ld (%s) on CPU %d:\n\n",
		(long)r->pid, r->program ? r->program : "?", r->cpu);
	if (r->exited)
		fprintf(f, "  %-28s %d\n", "exit status", r->status);
	else
		fprintf(f, "  %-28s %d (%s)\n", "killed by signal", r->status,
			strsignal(r->status));
	print_secs(f, "elapsed", r->elapsed_ns);
	print_secs(f, "user time", r->user_us * 1000LL);
	print_secs(f, "system time", r->system_us * 1000LL);
	if (nt_report_cpu_percent(r) >= 0)
		fprintf(f, "  %-28s %.1f %%\n", "CPU time / elapsed",
			nt_report_cpu_percent(r));
	print_noise_text(f, &r->noise);
	fprintf(f, "  %-28s %llu\n", "voluntary ctxt switches", r->vol_cs);
	fprintf(f, "  %-28s %llu\n", "nonvoluntary ctxt switches",
		r->invol_cs);
	fprintf(f, "  %-28s %llu\n", "local timer interrupts (LOC)",
		nt_report_loc(r));
	fprintf(f, "  %-28s %llu\n", "other interrupts", others);
	for (i = 0; i < r->irqs.n; i++) {
		const struct nt_counter *c = &r->irqs.v[i];

		if (!c->value || !strcmp(c->name, "LOC"))
			continue;
		fprintf(f, "    %-8s %10llu  %s\n", c->name, c->value, c->desc);
	}
	fprintf(f, "  %-28s %llu\n", "softirqs", sum(&r->softirqs, 0));
	for (i = 0; i < r->softirqs.n; i++) {
		const struct nt_counter *c = &r->softirqs.v[i];

		if (c->value)
			fprintf(f, "    %-8s %10llu\n", c->name, c->value);
	}
	if (r->have_notick) {
		fprintf(f, "  %-28s %llu\n", "tick stops", r->tick_stops);
		fprintf(f, "  %-28s %llu\n", "tick restarts",
			r->tick_restarts);
		fprintf(f, "  %-28s %llu\n", "yields", r->yields);
	}
	fputc('\n', f);
}

static void json_counters(FILE *f, const char *key,
			  const struct nt_counters *c, int with_desc)
{
	size_t i;

	fprintf(f, "  \"%s\": [", key);
	for (i = 0; i < c->n; i++) {
		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		nt_json_string(f, c->v[i].name);
		if (with_desc) {
			fputs(", \"description\": ", f);
			nt_json_string(f, c->v[i].desc);
		}
		fprintf(f, ", \"count\": %llu}", c->v[i].value);
	}
	fprintf(f, "%s]", c->n ? "\n  " : "");
}

void nt_report_print_json(FILE *f, const struct nt_report *r)
{
	size_t i;

	fprintf(f, "{\n  \"schema_version\": %d,\n  \"pid\": ", NT_JSON_SCHEMA);
	fprintf(f, "%ld,\n  \"cpu\": %d,\n  \"program\": ", (long)r->pid,
		r->cpu);
	nt_json_string(f, r->program);
	fputs(",\n  \"argv\": [", f);
	for (i = 0; r->argv && r->argv[i]; i++) {
		fputs(i ? ", " : "", f);
		nt_json_string(f, r->argv[i]);
	}
	fputc(']', f);
	if (r->exited)
		fprintf(f, ",\n  \"exit_status\": %d,\n  \"signal\": null",
			r->status);
	else
		fprintf(f, ",\n  \"exit_status\": null,\n  \"signal\": %d",
			r->status);
	fprintf(f, ",\n  \"elapsed_ns\": %lld", r->elapsed_ns);
	fprintf(f, ",\n  \"user_us\": %lld", r->user_us);
	fprintf(f, ",\n  \"system_us\": %lld", r->system_us);
	if (nt_report_cpu_percent(r) >= 0)
		fprintf(f, ",\n  \"cpu_percent\": %.1f",
			nt_report_cpu_percent(r));
	else
		fputs(",\n  \"cpu_percent\": null", f);
	if (r->noise.measured)
		fprintf(f, ",\n  \"noise\": {\"total_us\": %llu, \"worst_us\": %llu, "
			"\"count\": %llu, \"irq_us\": %llu, \"softirq_us\": %llu, "
			"\"thread_us\": %llu},\n  \"noise_unavailable\": null",
			r->noise.total_us, r->noise.worst_us, r->noise.count,
			r->noise.irq_us, r->noise.softirq_us,
			r->noise.thread_us);
	else {
		fputs(",\n  \"noise\": null,\n  \"noise_unavailable\": ", f);
		nt_json_string(f, r->noise.why);
	}
	fprintf(f, ",\n  \"voluntary_ctxt_switches\": %llu", r->vol_cs);
	fprintf(f, ",\n  \"nonvoluntary_ctxt_switches\": %llu", r->invol_cs);
	fprintf(f, ",\n  \"local_timer_interrupts\": %llu", nt_report_loc(r));
	fprintf(f, ",\n  \"other_interrupts\": %llu", sum(&r->irqs, 1));
	fprintf(f, ",\n  \"softirqs_total\": %llu,\n", sum(&r->softirqs, 0));
	json_counters(f, "interrupts", &r->irqs, 1);
	fputs(",\n", f);
	json_counters(f, "softirqs", &r->softirqs, 0);
	if (r->have_notick)
		fprintf(f, ",\n  \"notick\": {\"tick_stops\": %llu, "
			"\"tick_restarts\": %llu, \"yields\": %llu}",
			r->tick_stops, r->tick_restarts, r->yields);
	else
		fputs(",\n  \"notick\": null", f);
	fputs("\n}\n", f);
}
