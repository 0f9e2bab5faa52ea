// SPDX-License-Identifier: GPL-2.0
/*
 * Parsing of /proc/interrupts, /proc/softirqs and /proc/PID/status, the
 * before/after difference, and the text and JSON output of --report and
 * of "notickctl status".
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notickctl.h"

void nt_counters_free(struct nt_counters *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->v[i].name);
		free(c->v[i].desc);
	}
	free(c->v);
	c->v = NULL;
	c->n = 0;
}

static int counters_add(struct nt_counters *c, const char *name, size_t nlen,
			const char *desc, unsigned long long value)
{
	struct nt_counter *nv;
	char *n, *d;

	nv = realloc(c->v, (c->n + 1) * sizeof(*nv));
	if (!nv)
		return -1;
	c->v = nv;
	n = strndup(name, nlen);
	d = strdup(desc);
	if (!n || !d) {
		free(n);
		free(d);
		return -1;
	}
	c->v[c->n].name = n;
	c->v[c->n].desc = d;
	c->v[c->n].value = value;
	c->n++;
	return 0;
}

/* Column index of "CPU<cpu>" in a header line, or -1; sets *ncols. */
static int header_column(const char *line, const char *end, int cpu,
			 int *ncols)
{
	const char *p = line;
	int col = 0, found = -1;

	while (p < end) {
		const char *w;
		char *e;
		long n;

		while (p < end && isspace((unsigned char)*p))
			p++;
		if (p >= end)
			break;
		w = p;
		while (p < end && !isspace((unsigned char)*p))
			p++;
		if (p - w < 4 || strncmp(w, "CPU", 3) != 0)
			return -1;
		errno = 0;
		n = strtol(w + 3, &e, 10);
		if (e != p || errno || n < 0)
			return -1;
		if (n == cpu)
			found = col;
		col++;
	}
	*ncols = col;
	return col ? found : -1;
}

/* Copy [p, end) with runs of blanks collapsed, trimmed, into a new string. */
static char *collapse(const char *p, const char *end)
{
	char *s = malloc((size_t)(end - p) + 1), *o = s;
	int space = 0;

	if (!s)
		return NULL;
	for (; p < end; p++) {
		if (isspace((unsigned char)*p)) {
			space = 1;
			continue;
		}
		if (space && o != s)
			*o++ = ' ';
		space = 0;
		*o++ = *p;
	}
	*o = '\0';
	return s;
}

static int parse_table(const char *text, int cpu, struct nt_counters *out,
		       int with_desc)
{
	const char *line = text, *eol;
	int col, ncols = 0;

	out->v = NULL;
	out->n = 0;
	if (!text || cpu < 0)
		return -1;
	eol = strchr(line, '\n');
	if (!eol)
		eol = line + strlen(line);
	col = header_column(line, eol, cpu, &ncols);
	if (col < 0)
		return -1;

	for (line = *eol ? eol + 1 : eol; *line; line = *eol ? eol + 1 : eol) {
		unsigned long long val = 0, v;
		const char *p = line, *name, *colon;
		char *desc;
		size_t nlen;
		int i, rc;

		eol = strchr(line, '\n');
		if (!eol)
			eol = line + strlen(line);
		while (p < eol && isspace((unsigned char)*p))
			p++;
		if (p == eol)
			continue;
		colon = memchr(p, ':', (size_t)(eol - p));
		if (!colon || colon == p)
			goto bad;
		name = p;
		nlen = (size_t)(colon - p);
		/* ERR and MIS are global counts, not per CPU. */
		if ((nlen == 3 && !strncmp(name, "ERR", 3)) ||
		    (nlen == 3 && !strncmp(name, "MIS", 3)))
			continue;
		p = colon + 1;
		for (i = 0; i < ncols; i++) {
			char *e;

			while (p < eol && (*p == ' ' || *p == '\t'))
				p++;
			if (p >= eol || !isdigit((unsigned char)*p))
				break;
			errno = 0;
			v = strtoull(p, &e, 10);
			if (errno)
				goto bad;
			p = e;
			if (i == col)
				val = v;
		}
		if (i < ncols)
			continue;	/* not a per-CPU line */
		desc = with_desc ? collapse(p, eol) : strdup("");
		if (!desc)
			goto bad;
		rc = counters_add(out, name, nlen, desc, val);
		free(desc);
		if (rc)
			goto bad;
	}
	return 0;
bad:
	nt_counters_free(out);
	return -1;
}

int nt_parse_interrupts(const char *text, int cpu, struct nt_counters *out)
{
	return parse_table(text, cpu, out, 1);
}

int nt_parse_softirqs(const char *text, int cpu, struct nt_counters *out)
{
	return parse_table(text, cpu, out, 0);
}

int nt_counters_diff(const struct nt_counters *before,
		     const struct nt_counters *after, struct nt_counters *out)
{
	size_t i, j;

	out->v = NULL;
	out->n = 0;
	for (i = 0; i < after->n; i++) {
		const struct nt_counter *a = &after->v[i];
		unsigned long long b = 0, d;

		for (j = 0; j < before->n; j++) {
			if (!strcmp(before->v[j].name, a->name)) {
				b = before->v[j].value;
				break;
			}
		}
		if (a->value >= b)
			d = a->value - b;
		else if (b <= UINT32_MAX)
			d = a->value + ((unsigned long long)UINT32_MAX + 1) - b;
		else
			d = 0;	/* counter reset: no meaningful delta */
		if (counters_add(out, a->name, strlen(a->name), a->desc, d)) {
			nt_counters_free(out);
			return -1;
		}
	}
	return 0;
}

static int status_field(const char *text, const char *key,
			unsigned long long *val)
{
	size_t klen = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == ':') {
			char *e;

			p += klen + 1;
			while (*p == ' ' || *p == '\t')
				p++;
			if (!isdigit((unsigned char)*p))
				return -1;
			errno = 0;
			*val = strtoull(p, &e, 10);
			return errno ? -1 : 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

int nt_parse_ctxt_switches(const char *status_text,
			   unsigned long long *vol, unsigned long long *invol)
{
	if (!status_text)
		return -1;
	if (status_field(status_text, "voluntary_ctxt_switches", vol) ||
	    status_field(status_text, "nonvoluntary_ctxt_switches", invol))
		return -1;
	return 0;
}

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
	fprintf(f, "  %-28s %llu\n", "voluntary ctxt switches", r->vol_cs);
	fprintf(f, "  %-28s %llu\n", "involuntary ctxt switches",
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

void nt_json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	fputc('"', f);
	for (; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
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
	fprintf(f, "{\n  \"schema_version\": %d,\n  \"pid\": ", NT_JSON_SCHEMA);
	fprintf(f, "%ld,\n  \"cpu\": %d,\n  \"program\": ", (long)r->pid,
		r->cpu);
	nt_json_string(f, r->program);
	if (r->exited)
		fprintf(f, ",\n  \"exit_status\": %d,\n  \"signal\": null",
			r->status);
	else
		fprintf(f, ",\n  \"exit_status\": null,\n  \"signal\": %d",
			r->status);
	fprintf(f, ",\n  \"elapsed_ns\": %lld", r->elapsed_ns);
	fprintf(f, ",\n  \"user_us\": %lld", r->user_us);
	fprintf(f, ",\n  \"system_us\": %lld", r->system_us);
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
			r->comm[0] ? r->comm : "-", c1, c2, c3,
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
		if (r->nt.pid >= 0)
			fprintf(f, "%ld", r->nt.pid);
		else
			fputs("null", f);
		fputs(", \"command\": ", f);
		if (r->comm[0])
			nt_json_string(f, r->comm);
		else
			fputs("null", f);
		fputs(", \"tick\": ", f);
		if (r->nt.tick[0])
			nt_json_string(f, r->nt.tick);
		else
			fputs("null", f);
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
