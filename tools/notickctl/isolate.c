// SPDX-License-Identifier: GPL-2.0
/*
 * Run-time housekeeping for --isolate and --unisolate: keep the soft and
 * hard lockup watchdog (kernel.watchdog_cpumask) and device interrupts
 * (/proc/irq) off a CPU, as nohz_full= and irqaffinity= do at boot.
 *
 * Every file written is recorded first with its exact previous contents
 * (struct nt_journal), so that a failed admission puts back what was
 * there, byte for byte.  All paths go through nt_path().
 */
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "notickctl.h"

#define WATCHDOG_MASK	"/proc/sys/kernel/watchdog_cpumask"
#define DEFAULT_AFF	"/proc/irq/default_smp_affinity"

/* ---- masks ---- */

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int nt_mask_digits(const char *s)
{
	int n = 0;

	for (; *s; s++)
		if (hexval(*s) >= 0)
			n++;
	return n;
}

int nt_mask_parse(const char *s, cpu_set_t *set)
{
	size_t size = cpuset_size(), len = strlen(s);
	int group = 0;

	CPU_ZERO_S(size, set);
	if (len && s[len - 1] == '\n')
		len--;
	if (!len)
		return -1;
	/* Groups of at most 8 digits, from the right: CPUs 0-31, 32-63... */
	while (len) {
		size_t end = len, start = len;
		int bit = 0;

		while (start && s[start - 1] != ',')
			start--;
		if (start == end || end - start > 8)
			goto bad;
		for (; end > start; end--, bit += 4) {
			int v = hexval(s[end - 1]), b;

			if (v < 0)
				goto bad;
			for (b = 0; b < 4; b++) {
				long cpu = (long)group * 32 + bit + b;

				if (!(v & (1 << b)))
					continue;
				if (cpu >= NT_MAX_CPUS)
					goto bad;
				CPU_SET_S((size_t)cpu, size, set);
			}
		}
		group++;
		if (!start)
			break;
		len = start - 1;	/* skip the comma */
		if (!len)
			goto bad;
	}
	return 0;
bad:
	CPU_ZERO_S(size, set);
	return -1;
}

char *nt_mask_format(const cpu_set_t *set, int min_digits, char *buf,
		     size_t len)
{
	size_t size = cpuset_size(), off = 0;
	int last = -1, digits, d, c;

	if (!len)
		return buf;
	for (c = 0; c < NT_MAX_CPUS; c++)
		if (CPU_ISSET_S((size_t)c, size, set))
			last = c;
	digits = last / 4 + 1;
	if (digits < min_digits)
		digits = min_digits;
	if (digits > NT_MAX_CPUS / 4)
		digits = NT_MAX_CPUS / 4;
	/* digits hex digits plus a comma per full group of 8 below the top */
	if ((size_t)digits + (size_t)(digits - 1) / 8 + 1 > len) {
		buf[0] = '\0';
		return buf;
	}
	for (d = digits - 1; d >= 0; d--) {
		int v = 0, b;

		for (b = 0; b < 4; b++)
			if (d * 4 + b < NT_MAX_CPUS &&
			    CPU_ISSET_S((size_t)(d * 4 + b), size, set))
				v |= 1 << b;
		buf[off++] = "0123456789abcdef"[v];
		if (d && d % 8 == 0)
			buf[off++] = ',';
	}
	buf[off] = '\0';
	return buf;
}

int nt_irq_new_affinity(const cpu_set_t *cur, int cpu,
			const cpu_set_t *online, cpu_set_t *out)
{
	size_t size = cpuset_size();
	int c;

	if (!CPU_ISSET_S((size_t)cpu, size, cur))
		return 0;
	memcpy(out, cur, size);
	CPU_CLR_S((size_t)cpu, size, out);
	for (c = 0; c < NT_MAX_CPUS; c++)
		if (CPU_ISSET_S((size_t)c, size, out) &&
		    CPU_ISSET_S((size_t)c, size, online))
			return 1;
	memcpy(out, online, size);
	CPU_CLR_S((size_t)cpu, size, out);
	return 1;
}

/* ---- files ---- */

/*
 * Write @text with a single write(2), as /proc expects; 0 or an errno.
 * No O_TRUNC: a refused write must leave the file as it was.  /proc files
 * have size 0; a longer file (a test's fake tree) is cut after the write.
 */
static int write_text(const char *path, const char *text)
{
	size_t len = strlen(text);
	struct stat st;
	ssize_t n;
	int fd, e;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	do
		n = write(fd, text, len);
	while (n < 0 && errno == EINTR);
	e = n < 0 ? errno : (size_t)n != len ? EIO : 0;
	if (!e && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size > (off_t)len && ftruncate(fd, (off_t)len))
		e = errno;
	if (close(fd) && !e)
		e = errno;
	return e;
}

static int is_perm(int e)
{
	return e == EACCES || e == EPERM || e == EROFS;
}

static int journal_add(struct nt_journal *j, const char *path,
		       const char *name, const char *old)
{
	struct nt_journal_entry *nv;

	nv = realloc(j->v, (j->n + 1) * sizeof(*nv));
	if (!nv)
		err(NT_EXIT_FAILURE, "cannot allocate memory");
	j->v = nv;
	nv[j->n].path = strdup(path);
	nv[j->n].name = strdup(name);
	nv[j->n].old = strdup(old);
	if (!nv[j->n].path || !nv[j->n].name || !nv[j->n].old)
		err(NT_EXIT_FAILURE, "cannot allocate memory");
	j->n++;
	return 0;
}

void nt_journal_free(struct nt_journal *j)
{
	size_t i;

	for (i = 0; i < j->n; i++) {
		free(j->v[i].path);
		free(j->v[i].name);
		free(j->v[i].old);
	}
	free(j->v);
	j->v = NULL;
	j->n = 0;
}

int nt_journal_restore(struct nt_journal *j)
{
	int failed = 0, e;
	size_t i;

	for (i = j->n; i-- > 0; ) {
		e = write_text(j->v[i].path, j->v[i].old);
		if (e && e != ENOENT) {
			warnx("cannot restore %s: %s", j->v[i].name,
			      strerror(e));
			failed++;
		}
	}
	nt_journal_free(j);
	return failed;
}

/*
 * Write @text to @name after recording its @old contents.  Returns 0 or
 * the errno, the journal entry dropped on failure.
 */
static int change(struct nt_journal *j, const char *name, const char *old,
		  const char *text)
{
	char path[4096];
	int e;

	nt_path(path, sizeof(path), "%s", name);
	journal_add(j, path, name, old);
	e = write_text(path, text);
	if (e) {
		j->n--;
		free(j->v[j->n].path);
		free(j->v[j->n].name);
		free(j->v[j->n].old);
	}
	return e;
}

/* Exit code and message for a failed write of a global file. */
static int write_error(const char *name, int e)
{
	if (is_perm(e)) {
		warnx("cannot write %s: permission denied (root needed)", name);
		return NT_EXIT_PERM;
	}
	warnx("cannot write %s: %s", name, strerror(e));
	return NT_EXIT_FAILURE;
}

/* Read @name (via nt_path); NULL with errno set on failure. */
static char *read_proc(const char *name)
{
	char path[4096];

	return nt_read_file(nt_path(path, sizeof(path), "%s", name));
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/*
 * The IRQ numbers under /proc/irq, sorted; *n = 0 and NULL when the
 * directory does not exist.
 */
static int *list_irqs(size_t *n)
{
	char path[4096];
	struct dirent *de;
	size_t cap = 64;
	int *v;
	DIR *dir;

	*n = 0;
	dir = opendir(nt_path(path, sizeof(path), "/proc/irq"));
	if (!dir)
		return NULL;
	v = malloc(cap * sizeof(*v));
	if (!v)
		err(NT_EXIT_FAILURE, "cannot allocate memory");
	while ((de = readdir(dir))) {
		long irq;

		if (nt_parse_uint(de->d_name, INT_MAX, &irq))
			continue;
		if (*n == cap) {
			int *nv = realloc(v, cap * 2 * sizeof(*nv));

			if (!nv)
				err(NT_EXIT_FAILURE, "cannot allocate memory");
			v = nv;
			cap *= 2;
		}
		v[(*n)++] = (int)irq;
	}
	closedir(dir);
	qsort(v, *n, sizeof(*v), cmp_int);
	return v;
}

/*
 * Read the /proc setting @path into *@old. Returns 0, with *@old NULL when
 * the file does not exist (nothing to change), or an exit code after a
 * warning.
 */
static int read_setting(const char *path, char **old)
{
	*old = read_proc(path);
	if (*old || errno == ENOENT)
		return 0;
	warn("cannot read %s", path);
	return is_perm(errno) ? NT_EXIT_PERM : NT_EXIT_FAILURE;
}

/* Warn that @old, read from @path, does not parse; returns the exit code. */
static int bad_setting(const char *path, const char *old)
{
	warnx("cannot parse %s: '%.*s'", path, (int)strcspn(old, "\n"), old);
	return NT_EXIT_FAILURE;
}

struct sets {
	cpu_set_t *cur, *want, *online;
};

static void sets_alloc(struct sets *s)
{
	s->cur = cpuset_alloc();
	s->want = cpuset_alloc();
	s->online = cpuset_alloc();
	if (!s->cur || !s->want || !s->online)
		err(NT_EXIT_FAILURE, "cannot allocate CPU set");
}

static void sets_free(struct sets *s)
{
	cpuset_free(s->cur);
	cpuset_free(s->want);
	cpuset_free(s->online);
}

/* ---- --isolate ---- */

static int isolate_watchdog(int cpu, struct nt_journal *j, struct sets *s)
{
	char list[8192 + 2];
	char *old;
	int e, rc = 0;

	rc = read_setting(WATCHDOG_MASK, &old);
	if (rc || !old)
		return rc;	/* !old: no lockup detector, nothing to do */
	if (cpulist_parse(old, s->cur)) {
		rc = bad_setting(WATCHDOG_MASK, old);
	} else if (CPU_ISSET_S((size_t)cpu, cpuset_size(), s->cur)) {
		CPU_CLR_S((size_t)cpu, cpuset_size(), s->cur);
		cpulist_format(s->cur, list, sizeof(list) - 1);
		strcat(list, "\n");
		e = change(j, WATCHDOG_MASK, old, list);
		if (e)
			rc = write_error(WATCHDOG_MASK, e);
	}
	free(old);
	return rc;
}

static int isolate_default(int cpu, struct nt_journal *j, struct sets *s)
{
	char mask[NT_MAX_CPUS / 4 + NT_MAX_CPUS / 32 + 2];
	char *old;
	int e, rc = 0;

	rc = read_setting(DEFAULT_AFF, &old);
	if (rc || !old)
		return rc;	/* !old: no /proc/irq (!SMP), nothing to do */
	if (nt_mask_parse(old, s->cur)) {
		rc = bad_setting(DEFAULT_AFF, old);
	} else if (nt_irq_new_affinity(s->cur, cpu, s->online, s->want)) {
		nt_mask_format(s->want, nt_mask_digits(old), mask,
			       sizeof(mask) - 1);
		strcat(mask, "\n");
		e = change(j, DEFAULT_AFF, old, mask);
		if (e)
			rc = write_error(DEFAULT_AFF, e);
	}
	free(old);
	return rc;
}

/* Move one IRQ off @cpu; 0 also when the kernel refused (warned). */
static int isolate_irq(int irq, int cpu, struct nt_journal *j,
		       struct sets *s)
{
	char name[64], list[8192 + 2], now[8192];
	char *old;
	int e, rc = 0;

	snprintf(name, sizeof(name), "/proc/irq/%d/smp_affinity_list", irq);
	old = read_proc(name);
	if (!old) {
		if (errno == ENOENT)
			return 0;	/* freed meanwhile */
		if (is_perm(errno)) {
			warn("cannot read %s", name);
			return NT_EXIT_PERM;
		}
		warn("IRQ %d: cannot read its affinity, left as it is", irq);
		return 0;
	}
	if (cpulist_parse(old, s->cur)) {
		warnx("IRQ %d: cannot parse its affinity '%.*s', left as it is",
		      irq, (int)strcspn(old, "\n"), old);
	} else if (nt_irq_new_affinity(s->cur, cpu, s->online, s->want)) {
		cpulist_format(s->want, list, sizeof(list) - 1);
		strcat(list, "\n");
		e = change(j, name, old, list);
		if (is_perm(e)) {
			rc = write_error(name, e);
		} else if (e && e != ENOENT) {
			warnx("IRQ %d: cannot move it off CPU %d: %s (per-CPU or managed interrupt); it stays on CPUs %s",
			      irq, cpu, strerror(e),
			      cpulist_format(s->cur, now, sizeof(now)));
		}
	}
	free(old);
	return rc;
}

int nt_isolate(int cpu, struct nt_journal *j)
{
	struct sets s;
	size_t n = 0, i;
	int *irqs = NULL;
	int rc;

	j->v = NULL;
	j->n = 0;
	if (cpu < 0 || cpu >= NT_MAX_CPUS) {
		warnx("CPU %d is out of range", cpu);
		return NT_EXIT_CPU;
	}
	sets_alloc(&s);
	if (nt_read_cpulist("online", s.online)) {
		warnx("cannot read the list of online CPUs");
		rc = NT_EXIT_FAILURE;
		goto out;
	}
	CPU_CLR_S((size_t)cpu, cpuset_size(), s.online);
	if (cpuset_count(s.online) == 0) {
		warnx("no online CPU other than CPU %d to take its interrupts",
		      cpu);
		rc = NT_EXIT_CPU;
		goto out;
	}
	CPU_SET_S((size_t)cpu, cpuset_size(), s.online);

	rc = isolate_watchdog(cpu, j, &s);
	if (!rc)
		rc = isolate_default(cpu, j, &s);
	if (!rc) {
		irqs = list_irqs(&n);
		for (i = 0; i < n && !rc; i++)
			rc = isolate_irq(irqs[i], cpu, j, &s);
	}
out:
	free(irqs);
	sets_free(&s);
	if (rc)
		nt_journal_restore(j);
	return rc;
}

/* ---- --unisolate ---- */

static int put(const char *name, const char *text)
{
	char path[4096];

	return write_text(nt_path(path, sizeof(path), "%s", name), text);
}

int nt_unisolate(int cpu)
{
	char mask[NT_MAX_CPUS / 4 + NT_MAX_CPUS / 32 + 2];
	char list[8192 + 2], name[64];
	struct sets s;
	char *old, *text;
	size_t n = 0, i;
	int *irqs = NULL, e, rc = 0;

	sets_alloc(&s);

	rc = read_setting(WATCHDOG_MASK, &old);
	if (rc)
		goto out;
	if (old && cpulist_parse(old, s.cur)) {
		rc = bad_setting(WATCHDOG_MASK, old);
		goto out;
	}
	if (old && !CPU_ISSET_S((size_t)cpu, cpuset_size(), s.cur)) {
		CPU_SET_S((size_t)cpu, cpuset_size(), s.cur);
		cpulist_format(s.cur, list, sizeof(list) - 1);
		strcat(list, "\n");
		e = put(WATCHDOG_MASK, list);
		if (e) {
			rc = write_error(WATCHDOG_MASK, e);
			goto out;
		}
	}
	free(old);

	rc = read_setting(DEFAULT_AFF, &old);
	if (rc || !old)
		goto out;	/* !old: no /proc/irq, nothing more to do */
	if (nt_mask_parse(old, s.want)) {
		rc = bad_setting(DEFAULT_AFF, old);
		goto out;
	}
	if (!CPU_ISSET_S((size_t)cpu, cpuset_size(), s.want)) {
		CPU_SET_S((size_t)cpu, cpuset_size(), s.want);
		nt_mask_format(s.want, nt_mask_digits(old), mask,
			       sizeof(mask) - 1);
		strcat(mask, "\n");
		e = put(DEFAULT_AFF, mask);
		if (e) {
			rc = write_error(DEFAULT_AFF, e);
			goto out;
		}
	}
	cpulist_format(s.want, list, sizeof(list) - 1);
	strcat(list, "\n");

	irqs = list_irqs(&n);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "/proc/irq/%d/smp_affinity_list",
			 irqs[i]);
		text = read_proc(name);
		if (!text)
			continue;	/* freed meanwhile */
		if (cpulist_parse(text, s.cur) == 0 &&
		    CPU_EQUAL_S(cpuset_size(), s.cur, s.want)) {
			free(text);
			continue;
		}
		free(text);
		e = put(name, list);
		if (is_perm(e)) {
			rc = write_error(name, e);
			goto out;
		}
		if (e && e != ENOENT)
			warnx("IRQ %d: cannot set its affinity to CPUs %.*s: %s (per-CPU or managed interrupt)",
			      irqs[i], (int)strcspn(list, "\n"), list,
			      strerror(e));
	}
out:
	free(old);
	free(irqs);
	sets_free(&s);
	return rc;
}

/* ---- status ---- */

void nt_housekeeping_state(int ncpu, int *watchdog, int *irqs)
{
	cpu_set_t *set = cpuset_alloc();
	char name[64], *text;
	int *v, c, any = 0;
	size_t n = 0, i;

	if (!set)
		err(NT_EXIT_FAILURE, "cannot allocate CPU set");
	text = read_proc(WATCHDOG_MASK);
	if (text && cpulist_parse(text, set) == 0) {
		for (c = 0; c < ncpu; c++)
			watchdog[c] = c < NT_MAX_CPUS &&
				      CPU_ISSET_S((size_t)c, cpuset_size(), set);
	} else {
		for (c = 0; c < ncpu; c++)
			watchdog[c] = -1;
	}
	free(text);

	for (c = 0; c < ncpu; c++)
		irqs[c] = 0;
	v = list_irqs(&n);
	for (i = 0; i < n; i++) {
		int ok;

		snprintf(name, sizeof(name),
			 "/proc/irq/%d/effective_affinity_list", v[i]);
		text = read_proc(name);
		if (text) {
			ok = cpulist_parse(text, set) == 0;
		} else {
			snprintf(name, sizeof(name),
				 "/proc/irq/%d/effective_affinity", v[i]);
			text = read_proc(name);
			ok = text && nt_mask_parse(text, set) == 0;
		}
		free(text);
		if (!ok)
			continue;
		any = 1;
		for (c = 0; c < ncpu && c < NT_MAX_CPUS; c++)
			if (CPU_ISSET_S((size_t)c, cpuset_size(), set))
				irqs[c]++;
	}
	free(v);
	if (!any)
		for (c = 0; c < ncpu; c++)
			irqs[c] = -1;
	cpuset_free(set);
}
