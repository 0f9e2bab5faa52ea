// SPDX-License-Identifier: GPL-2.0-only
/*
 * Parsing of /proc/interrupts, /proc/softirqs and /proc/PID/status, and
 * the before/after difference of a run.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters.h"

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
