// SPDX-License-Identifier: GPL-2.0-only
/*
 * The time a program lost on its CPU, from trace events recorded in a
 * tracefs instance of notickctl's own (so that the system's trace buffer
 * and any other tracer are left alone), in the way rtla osnoise counts
 * noise: an interruption starts when an interrupt or softirq enters while
 * the program is on the CPU, or when it is switched out while still
 * runnable, and ends when nothing of that is left; nested ones merge.
 *
 * The trace's text format gives microseconds.  The instance records every
 * CPU but keeps a buffer of 4 KiB on the others and 8 MiB on the
 * program's; a trace that dropped events gives no figures at all.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "noise.h"
#include "sysinfo.h"

#define BUFFER_KB "8192"

static void why(struct nt_noise *n, const char *fmt, const char *arg)
{
	n->measured = 0;
	snprintf(n->why, sizeof(n->why), fmt, arg);
}

/* Write @text to the file @name of the instance; 0 or an errno. */
static int put(const struct nt_trace *t, const char *name, const char *text)
{
	char path[1024];
	size_t len = strlen(text);
	ssize_t w;
	int fd, e = 0;

	snprintf(path, sizeof(path), "%.511s/%.400s", t->dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	w = write(fd, text, len);
	if (w < 0)
		e = errno;
	else if ((size_t)w != len)
		e = EIO;
	close(fd);
	return e;
}

static char *get(const struct nt_trace *t, const char *name)
{
	char path[1024];

	snprintf(path, sizeof(path), "%.511s/%.400s", t->dir, name);
	return nt_read_file(path);
}

int nt_trace_start(struct nt_trace *t, int cpu, struct nt_noise *n)
{
	/* Needed, and (irq_vectors, x86's IPIs and local timer) wanted. */
	static const char *const need[] = {
		"events/irq/irq_handler_entry/enable",
		"events/irq/irq_handler_exit/enable",
		"events/irq/softirq_entry/enable",
		"events/irq/softirq_exit/enable",
		"events/sched/sched_switch/enable",
	};
	char base[256], name[512];
	size_t i;
	int e;

	memset(n, 0, sizeof(*n));
	n->asked = 1;
	t->dir[0] = '\0';
	t->cpu = cpu;
	nt_path(base, sizeof(base), "/sys/kernel/tracing");
	snprintf(name, sizeof(name), "%s/instances", base);
	if (access(name, F_OK)) {
		nt_path(base, sizeof(base), "/sys/kernel/debug/tracing");
		snprintf(name, sizeof(name), "%s/instances", base);
		if (access(name, F_OK)) {
			why(n, "no tracefs (mount -t tracefs nodev /sys/kernel/tracing)%s", "");
			return -1;
		}
	}
	snprintf(t->dir, sizeof(t->dir), "%s/instances/notickctl.%ld", base,
		 (long)getpid());
	if (mkdir(t->dir, 0700)) {
		e = errno;
		t->dir[0] = '\0';
		why(n, "cannot create a tracefs instance: %s", strerror(e));
		return -1;
	}
	e = put(t, "tracing_on", "0");
	if (!e)
		e = put(t, "buffer_size_kb", "4");
	snprintf(name, sizeof(name), "per_cpu/cpu%d/buffer_size_kb", cpu);
	if (!e)
		e = put(t, name, BUFFER_KB);
	if (!e)
		e = put(t, "options/overwrite", "0");
	for (i = 0; !e && i < sizeof(need) / sizeof(need[0]); i++)
		e = put(t, need[i], "1");
	if (e) {
		why(n, "cannot set up the trace: %s", strerror(e));
		rmdir(t->dir);
		t->dir[0] = '\0';
		return -1;
	}
	(void)put(t, "events/irq_vectors/enable", "1");	/* x86 only */
	e = put(t, "tracing_on", "1");
	if (e) {
		why(n, "cannot start the trace: %s", strerror(e));
		rmdir(t->dir);
		t->dir[0] = '\0';
		return -1;
	}
	return 0;
}

/* The value of "@key: N" in the text of a per_cpu stats file, or 0. */
static unsigned long long stat_value(const char *text, const char *key)
{
	const char *p = text ? strstr(text, key) : NULL;

	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

void nt_trace_finish(struct nt_trace *t, pid_t pid, struct nt_noise *n)
{
	char name[128], num[32], *stats, *text;
	unsigned long long lost;

	if (!t->dir[0])
		return;
	n->asked = 1;
	(void)put(t, "tracing_on", "0");
	snprintf(name, sizeof(name), "per_cpu/cpu%d/stats", t->cpu);
	stats = get(t, name);
	lost = stat_value(stats, "overrun: ") +
	       stat_value(stats, "dropped events: ");
	free(stats);
	snprintf(name, sizeof(name), "per_cpu/cpu%d/trace", t->cpu);
	text = get(t, name);
	if (!text) {
		why(n, "cannot read the trace: %s", strerror(errno));
	} else if (lost) {
		snprintf(num, sizeof(num), "%llu", lost);
		why(n, "the trace lost %s events (its buffer was full)", num);
	} else if (nt_noise_parse(text, pid, n)) {
		snprintf(num, sizeof(num), "%ld", (long)pid);
		why(n, "the trace shows no switch to PID %s", num);
	}
	free(text);
	n->asked = 1;	/* nt_noise_parse() starts afresh */
	if (rmdir(t->dir) && errno != ENOENT)
		fprintf(stderr, "notickctl: cannot remove %s: %s\n", t->dir,
			strerror(errno));
	t->dir[0] = '\0';
}

/* ---- the trace's text ---- */

struct event {
	unsigned long long us;	/* timestamp */
	const char *name;	/* "local_timer_entry" */
	size_t nlen;
	const char *args;	/* after "name: " */
};

/*
 * One line "  comm-pid  [001] d.h1.  12.345678: name: args": the comm
 * may hold anything, so the line is matched from each ']' on.
 */
static int parse_line(const char *line, struct event *ev)
{
	const char *p = line, *q;
	unsigned long long s, us;
	char *e;

	if (*line == '#')
		return -1;
	while ((p = strchr(p, ']'))) {
		q = ++p;
		while (*q == ' ')
			q++;
		while (*q && *q != ' ')
			q++;		/* the flags */
		while (*q == ' ')
			q++;
		if (*q < '0' || *q > '9')
			continue;
		s = strtoull(q, &e, 10);
		if (*e != '.' || e[1] < '0' || e[1] > '9')
			continue;
		q = e + 1;
		us = strtoull(q, &e, 10);
		if (e - q != 6 || e[0] != ':' || e[1] != ' ')
			continue;
		ev->us = s * 1000000ULL + us;
		ev->name = e + 2;
		q = strstr(ev->name, ": ");
		if (!q)
			continue;
		ev->nlen = (size_t)(q - ev->name);
		ev->args = q + 2;
		return 0;
	}
	return -1;
}

static int is(const struct event *ev, const char *name)
{
	return ev->nlen == strlen(name) && !strncmp(ev->name, name, ev->nlen);
}

static int ends(const struct event *ev, const char *suffix)
{
	size_t l = strlen(suffix);

	return ev->nlen > l && !strncmp(ev->name + ev->nlen - l, suffix, l);
}

/* The number after @key (" next_pid=") in @args, or -1. */
static long arg_num(const char *args, const char *key)
{
	const char *p = strstr(args, key);

	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

/* sched_switch's prev_state: R or R+ (preempted, still runnable). */
static int prev_runnable(const char *args)
{
	const char *p = strstr(args, " prev_state=");

	return p && p[12] == 'R';
}

enum kind { K_IRQ, K_SOFTIRQ, K_THREAD };

static void interruption(struct nt_noise *n, unsigned long long from,
			 unsigned long long to)
{
	n->count++;
	n->total_us += to - from;
	if (to - from > n->worst_us)
		n->worst_us = to - from;
}

int nt_noise_parse(const char *text, pid_t pid, struct nt_noise *n)
{
	unsigned long long last = 0, start = 0, end = 0;
	int on = 0, waiting = 0, depth = 0, active = 0, seen = 0, ended = 0;
	enum kind outer = K_IRQ;
	const char *line = text;
	struct event ev;

	memset(n, 0, sizeof(*n));
	for (; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		int now;

		if (parse_line(line, &ev))
			continue;
		/* the time since the last event, to what was active then */
		if (active) {
			unsigned long long d = ev.us - last;

			if (depth && outer == K_SOFTIRQ)
				n->softirq_us += d;
			else if (depth)
				n->irq_us += d;
			else
				n->thread_us += d;
		}
		last = ev.us;
		if (is(&ev, "sched_switch")) {
			if (arg_num(ev.args, " prev_pid=") == (long)pid) {
				on = 0;
				waiting = prev_runnable(ev.args);
				seen = 1;
			}
			if (arg_num(ev.args, " next_pid=") == (long)pid) {
				on = 1;
				waiting = 0;
				seen = 1;
			}
		} else if (ends(&ev, "_entry")) {
			if (!depth)
				outer = is(&ev, "softirq_entry") ||
					is(&ev, "tasklet_entry") ?
					K_SOFTIRQ : K_IRQ;
			depth++;
		} else if (ends(&ev, "_exit")) {
			if (depth)
				depth--;
		} else {
			continue;
		}
		now = (on && depth) || waiting;
		if (now && !active) {
			/* one that starts as the last ended goes on */
			if (ended && ev.us != end)
				interruption(n, start, end);
			if (!ended || ev.us != end)
				start = ev.us;
			ended = 0;
		} else if (!now && active) {
			ended = 1;
			end = ev.us;
		}
		active = now;
	}
	if (active)	/* cut off by the end of the trace */
		interruption(n, start, last);
	else if (ended)
		interruption(n, start, end);
	if (!seen)
		return -1;
	n->measured = 1;
	return 0;
}
