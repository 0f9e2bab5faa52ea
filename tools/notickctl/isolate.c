// SPDX-License-Identifier: GPL-2.0-only
/*
 * Run-time housekeeping for --isolate and --unisolate: keep the soft and
 * hard lockup watchdog (kernel.watchdog_cpumask) and device interrupts
 * (/proc/irq) off a CPU, as nohz_full= and irqaffinity= do at boot.
 *
 * Every file written is recorded first with its exact previous contents
 * (struct nt_journal), so that a failed admission puts back what was
 * there, byte for byte.  An isolation that is kept is saved to
 * /run/notickctl/cpuN, so that --unisolate undoes exactly what it
 * changed.  All paths go through nt_path().
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

#include "cpulist.h"
#include "isolate.h"
#include "sysinfo.h"

#define WATCHDOG_MASK	"/proc/sys/kernel/watchdog_cpumask"
#define DEFAULT_AFF	"/proc/irq/default_smp_affinity"
#define RECORD_DIR	"/run/notickctl"
#define RECORD_MAGIC	"notickctl isolate record 1\n"

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

/* A permission error, as nt_errno_exit() maps it. */
static int is_perm(int e)
{
	return nt_errno_exit(e) == NT_EXIT_PERM;
}

/* The exit code of a failed read or write here: 3 or 1. */
static int perm_or_fail(int e)
{
	return is_perm(e) ? NT_EXIT_PERM : NT_EXIT_FAILURE;
}

/* Record @path's @old contents and the @new ones; -1 when out of memory. */
static int journal_add(struct nt_journal *j, const char *path,
		       const char *name, const char *old, const char *new)
{
	struct nt_journal_entry *nv, *e;

	nv = realloc(j->v, (j->n + 1) * sizeof(*nv));
	if (!nv)
		return -1;
	j->v = nv;
	e = &nv[j->n];
	e->path = strdup(path);
	e->name = strdup(name);
	e->old = strdup(old);
	e->new = strdup(new);
	if (!e->path || !e->name || !e->old || !e->new) {
		free(e->path);
		free(e->name);
		free(e->old);
		free(e->new);
		return -1;
	}
	j->n++;
	return 0;
}

static void entry_free(struct nt_journal_entry *e)
{
	free(e->path);
	free(e->name);
	free(e->old);
	free(e->new);
}

void nt_journal_free(struct nt_journal *j)
{
	size_t i;

	for (i = 0; i < j->n; i++)
		entry_free(&j->v[i]);
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
 * the errno (ENOMEM: nothing recorded nor written), the journal entry
 * dropped on failure.
 */
static int change(struct nt_journal *j, const char *name, const char *old,
		  const char *text)
{
	char path[4096];
	int e;

	nt_path(path, sizeof(path), "%s", name);
	if (journal_add(j, path, name, old, text))
		return ENOMEM;
	e = write_text(path, text);
	if (e)
		entry_free(&j->v[--j->n]);
	return e;
}

/* Exit code and message for a failed write of a global file. */
static int write_error(const char *name, int e)
{
	int rc = nt_errno_exit(e);

	if (rc == NT_EXIT_PERM) {
		warnx("cannot write %s: permission denied (root needed)", name);
		return rc;
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

static int nomem(void)
{
	warnx("cannot allocate memory");
	return NT_EXIT_FAILURE;
}

/*
 * The IRQ numbers under /proc/irq, sorted, in *@v (NULL and *@n = 0 when
 * the directory does not exist).  0, or an exit code after a message.
 */
static int list_irqs(int **v, size_t *n)
{
	char path[4096];
	struct dirent *de;
	size_t cap = 64;
	int *nv;
	DIR *dir;

	*n = 0;
	*v = NULL;
	dir = opendir(nt_path(path, sizeof(path), "/proc/irq"));
	if (!dir)
		return errno == ENOMEM ? nomem() : 0;
	*v = malloc(cap * sizeof(**v));
	if (!*v)
		goto fail;
	while ((de = readdir(dir))) {
		long irq;

		if (nt_parse_uint(de->d_name, INT_MAX, &irq))
			continue;
		if (*n == cap) {
			nv = realloc(*v, cap * 2 * sizeof(*nv));
			if (!nv)
				goto fail;
			*v = nv;
			cap *= 2;
		}
		(*v)[(*n)++] = (int)irq;
	}
	closedir(dir);
	qsort(*v, *n, sizeof(**v), cmp_int);
	return 0;
fail:
	closedir(dir);
	free(*v);
	*v = NULL;
	*n = 0;
	return nomem();
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
	return perm_or_fail(errno);
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

static void sets_free(struct sets *s);

/* 0, or an exit code after a message. */
static int sets_alloc(struct sets *s)
{
	s->cur = cpuset_alloc();
	s->want = cpuset_alloc();
	s->online = cpuset_alloc();
	if (s->cur && s->want && s->online)
		return 0;
	sets_free(s);
	return nomem();
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
		if (is_perm(errno) || errno == ENOMEM) {
			warn("cannot read %s", name);
			return perm_or_fail(errno);
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
		/*
		 * Without privilege the open fails with EACCES. An EPERM is
		 * the kernel refusing this interrupt, as EIO is (6.12 answers
		 * EPERM where 6.1 answered EIO: the timer interrupt, per-CPU
		 * and managed ones).
		 */
		if ((is_perm(e) && e != EPERM) || e == ENOMEM) {
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

/*
 * irqbalance moves interrupts by its own rules every 10 s: it would put
 * some back on the CPU.  Say how to keep it off (its banned CPU list).
 */
static void warn_irqbalance(int cpu)
{
	long pid = nt_irqbalance_pid();

	if (!pid)
		return;
	warnx("irqbalance (PID %ld) runs and will move interrupts back onto CPU %d: ban the CPU with IRQBALANCE_BANNED_CPULIST=%d in /etc/default/irqbalance and restart it (systemctl restart irqbalance)",
	      pid, cpu, cpu);
}

int nt_isolate(int cpu, struct nt_journal *j)
{
	struct sets s;
	size_t n = 0, i;
	int *irqs = NULL;
	int rc;

	j->v = NULL;
	j->n = 0;
	rc = sets_alloc(&s);
	if (rc)
		return rc;
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

	warn_irqbalance(cpu);
	rc = isolate_watchdog(cpu, j, &s);
	if (!rc)
		rc = isolate_default(cpu, j, &s);
	if (!rc)
		rc = list_irqs(&irqs, &n);
	for (i = 0; i < n && !rc; i++)
		rc = isolate_irq(irqs[i], cpu, j, &s);
out:
	free(irqs);
	sets_free(&s);
	if (rc)
		nt_journal_restore(j);
	return rc;
}

/* ---- the record of a kept isolation ---- */

static char *record_path(char *buf, size_t len, int cpu)
{
	return nt_path(buf, len, RECORD_DIR "/cpu%d", cpu);
}

/* Append @s to @buf (size *@cap, length *@len), escaping \, tab, newline. */
static int put_escaped(char **buf, size_t *len, size_t *cap, const char *s,
		       int escape)
{
	for (; *s; s++) {
		const char *rep = NULL;
		size_t k;

		if (escape && *s == '\\')
			rep = "\\\\";
		else if (escape && *s == '\t')
			rep = "\\t";
		else if (escape && *s == '\n')
			rep = "\\n";
		k = rep ? 2 : 1;
		if (*len + k + 1 > *cap) {
			char *nb = realloc(*buf, *cap * 2 + k + 1);

			if (!nb)
				return -1;
			*buf = nb;
			*cap = *cap * 2 + k + 1;
		}
		memcpy(*buf + *len, rep ? rep : s, k);
		*len += k;
		(*buf)[*len] = '\0';
	}
	return 0;
}

/* Undo put_escaped() in place on one field. */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			*d++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

/* Write @text to @path through a temporary file; 0 or an errno. */
static int replace_file(const char *path, const char *text)
{
	char tmp[4200];
	size_t len = strlen(text);
	ssize_t n;
	int fd, e = 0;

	snprintf(tmp, sizeof(tmp), "%s.new", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno;
	while (len && !e) {
		n = write(fd, text, len);
		if (n < 0 && errno != EINTR)
			e = errno;
		if (n > 0) {
			text += n;
			len -= (size_t)n;
		}
	}
	if (close(fd) && !e)
		e = errno;
	if (!e && rename(tmp, path))
		e = errno;
	if (e)
		unlink(tmp);
	return e;
}

int nt_record_save(int cpu, const struct nt_journal *j, char **prev)
{
	char path[4096], dir[4096];
	size_t len = 0, cap = 256, i;
	char *text;
	int e;

	*prev = nt_read_file(record_path(path, sizeof(path), cpu));
	if (!*prev && errno != ENOENT) {
		warn("cannot read %s", path);
		return perm_or_fail(errno);
	}
	text = malloc(cap);
	if (!text)
		goto nomem;
	text[0] = '\0';
	if (put_escaped(&text, &len, &cap, *prev ? *prev : RECORD_MAGIC, 0))
		goto nomem;
	if (!*prev) {
		snprintf(dir, sizeof(dir), "cpu %d\n", cpu);
		if (put_escaped(&text, &len, &cap, dir, 0))
			goto nomem;
	}
	for (i = 0; i < j->n; i++)
		if (put_escaped(&text, &len, &cap, j->v[i].name, 1) ||
		    put_escaped(&text, &len, &cap, "\t", 0) ||
		    put_escaped(&text, &len, &cap, j->v[i].old, 1) ||
		    put_escaped(&text, &len, &cap, "\t", 0) ||
		    put_escaped(&text, &len, &cap, j->v[i].new, 1) ||
		    put_escaped(&text, &len, &cap, "\n", 0))
			goto nomem;
	/* mkdir -p: /run may be missing (an initramfs) */
	nt_path(dir, sizeof(dir), "/run");
	if (mkdir(dir, 0755) && errno != EEXIST)
		goto bad_dir;
	nt_path(dir, sizeof(dir), RECORD_DIR);
	if (mkdir(dir, 0755) && errno != EEXIST)
		goto bad_dir;
	e = replace_file(path, text);
	free(text);
	if (!e)
		return 0;
	warnx("cannot save the isolation record %s: %s", path, strerror(e));
	goto fail;
bad_dir:
	e = errno;
	free(text);
	warnx("cannot create %s: %s", dir, strerror(e));
	goto fail;
nomem:
	free(text);
	e = ENOMEM;
	warnx("cannot allocate memory");
fail:
	free(*prev);
	*prev = NULL;
	return perm_or_fail(e);
}

void nt_record_put_back(int cpu, const char *prev)
{
	char path[4096];
	int e;

	record_path(path, sizeof(path), cpu);
	if (prev)
		e = replace_file(path, prev);
	else
		e = unlink(path) ? errno : 0;
	if (e && e != ENOENT)
		warnx("cannot restore the isolation record %s: %s", path,
		      strerror(e));
}

/* ---- --unisolate ---- */

static int put(const char *name, const char *text)
{
	char path[4096];

	return write_text(nt_path(path, sizeof(path), "%s", name), text);
}

static int is_hex_mask(const char *name)
{
	return !strcmp(name, DEFAULT_AFF);
}

/* Parse @text of the file @name (CPU list or hex mask); 0 or -1. */
static int parse_any(const char *name, const char *text, cpu_set_t *set)
{
	return is_hex_mask(name) ? nt_mask_parse(text, set) :
				   cpulist_parse(text, set);
}

/* Do @a and @b, contents of @name, say the same (as CPU sets or bytes)? */
static int same_value(const char *name, const char *a, const char *b,
		      struct sets *s)
{
	if (parse_any(name, a, s->cur) || parse_any(name, b, s->want))
		return strcspn(a, "\n") == strcspn(b, "\n") &&
		       !strncmp(a, b, strcspn(a, "\n"));
	return CPU_EQUAL_S(cpuset_size(), s->cur, s->want);
}

/* @cpu added to the CPUs in @text (file @name), formatted as @text is. */
static int with_cpu(const char *name, const char *text, int cpu,
		    struct sets *s, char *buf, size_t len)
{
	if (parse_any(name, text, s->cur))
		return -1;
	CPU_SET_S((size_t)cpu, cpuset_size(), s->cur);
	if (is_hex_mask(name))
		nt_mask_format(s->cur, nt_mask_digits(text), buf, len - 1);
	else
		cpulist_format(s->cur, buf, len - 1);
	strcat(buf, "\n");
	return 0;
}

/* Did --isolate only take @cpu out of @old to give @new? */
static int only_removed(const char *name, const char *old, const char *new,
			int cpu, struct sets *s)
{
	if (parse_any(name, old, s->cur) || parse_any(name, new, s->want) ||
	    !CPU_ISSET_S((size_t)cpu, cpuset_size(), s->cur))
		return 0;
	CPU_CLR_S((size_t)cpu, cpuset_size(), s->cur);
	return CPU_EQUAL_S(cpuset_size(), s->cur, s->want);
}

/* Undo one recorded change; 0, or an exit code that stops the undo. */
static int unisolate_one(int cpu, const char *name, const char *old,
			 const char *new, struct sets *s)
{
	char buf[8192 + 2];
	const char *text;
	char *cur;
	int e, irq = strncmp(name, "/proc/irq/", 10) == 0 && !is_hex_mask(name);

	cur = read_proc(name);
	if (!cur) {
		if (errno == ENOENT)
			return 0;	/* IRQ freed, or no lockup detector */
		warn("cannot read %s", name);
		return perm_or_fail(errno);
	}
	if (same_value(name, cur, old, s)) {
		free(cur);
		return 0;	/* as before --isolate already */
	}
	if (same_value(name, cur, new, s)) {
		text = old;
	} else if (only_removed(name, old, new, cpu, s) &&
		   parse_any(name, cur, s->cur) == 0 &&
		   !CPU_ISSET_S((size_t)cpu, cpuset_size(), s->cur) &&
		   with_cpu(name, cur, cpu, s, buf, sizeof(buf)) == 0) {
		text = buf;	/* changed since: only give the CPU back */
		warnx("%s changed since --isolate (now %.*s): CPU %d given back (%.*s)",
		      name, (int)strcspn(cur, "\n"), cur, cpu,
		      (int)strcspn(buf, "\n"), buf);
	} else {
		warnx("%s changed since --isolate (now %.*s, --isolate wrote %.*s): left as it is",
		      name, (int)strcspn(cur, "\n"), cur,
		      (int)strcspn(new, "\n"), new);
		free(cur);
		return 0;
	}
	free(cur);
	e = put(name, text);
	if (!e || e == ENOENT)
		return 0;
	if (irq && !is_perm(e)) {
		warnx("%.*s: cannot set it back to CPUs %.*s: %s (per-CPU or managed interrupt)",
		      (int)(strlen(name) - strlen("/smp_affinity_list")), name,
		      (int)strcspn(text, "\n"), text, strerror(e));
		return 0;
	}
	return write_error(name, e);
}

/* Without a record: @cpu back into the watchdog and default masks only. */
static int unisolate_unrecorded(int cpu, const char *path, struct sets *s)
{
	char buf[8192 + 2];
	const char *names[] = { WATCHDOG_MASK, DEFAULT_AFF };
	char *cur;
	size_t i;
	int e;

	warnx("no record of --isolate for CPU %d (%s), --force: putting it back into %s and %s; IRQ affinities left as they are",
	      cpu, path, WATCHDOG_MASK, DEFAULT_AFF);
	for (i = 0; i < 2; i++) {
		int rc = read_setting(names[i], &cur);

		if (rc)
			return rc;
		if (!cur)
			continue;	/* no lockup detector, or no /proc/irq */
		if (parse_any(names[i], cur, s->cur)) {
			rc = bad_setting(names[i], cur);
			free(cur);
			return rc;
		}
		if (CPU_ISSET_S((size_t)cpu, cpuset_size(), s->cur) ||
		    with_cpu(names[i], cur, cpu, s, buf, sizeof(buf))) {
			free(cur);
			continue;
		}
		free(cur);
		e = put(names[i], buf);
		if (e)
			return write_error(names[i], e);
	}
	return 0;
}

int nt_unisolate(int cpu, int force)
{
	char path[4096], *text, *line, *next, *f[3];
	struct sets s;
	char **lines = NULL;
	size_t n = 0, i;
	int rc, bad = 0;

	rc = sets_alloc(&s);
	if (rc)
		return rc;
	text = nt_read_file(record_path(path, sizeof(path), cpu));
	if (!text) {
		if (errno == ENOENT) {
			char name[64];

			snprintf(name, sizeof(name), RECORD_DIR "/cpu%d", cpu);
			if (force) {
				rc = unisolate_unrecorded(cpu, name, &s);
				goto out;
			}
			warnx("no record of --isolate for CPU %d (%s): nothing changed; --force puts CPU %d back into %s and %s (that undoes any other tool's isolation of it, e.g. tuned's)",
			      cpu, name, cpu, WATCHDOG_MASK, DEFAULT_AFF);
			rc = NT_EXIT_FAILURE;
		} else {
			warn("cannot read %s", path);
			rc = NT_EXIT_FAILURE;
		}
		goto out;
	}
	/* The header, "cpu N", then one line per change, oldest first. */
	if (strncmp(text, RECORD_MAGIC, strlen(RECORD_MAGIC)))
		bad = 1;
	line = text + strlen(RECORD_MAGIC);
	if (!bad) {
		char want[32];

		snprintf(want, sizeof(want), "cpu %d\n", cpu);
		if (strncmp(line, want, strlen(want)))
			bad = 1;
		line += strlen(want);
	}
	for (; !bad && *line; line = next) {
		char **nl;

		next = strchrnul(line, '\n');
		if (*next)
			*next++ = '\0';
		nl = realloc(lines, (n + 1) * sizeof(*lines));
		if (!nl) {
			rc = nomem();
			goto out;
		}
		lines = nl;
		lines[n++] = line;
		if (!strchr(line, '\t') || !strchr(strchr(line, '\t') + 1, '\t'))
			bad = 1;
	}
	if (bad) {
		warnx("cannot parse the isolation record %s: left as it is", path);
		rc = NT_EXIT_FAILURE;
		goto out;
	}
	for (i = n; i-- > 0 && !rc; ) {
		f[0] = lines[i];
		f[1] = strchr(f[0], '\t');
		*f[1]++ = '\0';
		f[2] = strchr(f[1], '\t');
		*f[2]++ = '\0';
		unescape(f[0]);
		unescape(f[1]);
		unescape(f[2]);
		rc = unisolate_one(cpu, f[0], f[1], f[2], &s);
	}
	if (!rc && unlink(path) && errno != ENOENT)
		warn("cannot remove %s", path);
out:
	free(lines);
	free(text);
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

	if (!set) {
		for (c = 0; c < ncpu; c++)
			watchdog[c] = irqs[c] = -1;
		return;
	}
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
	if (list_irqs(&v, &n))
		v = NULL;
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
