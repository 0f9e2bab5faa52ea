// SPDX-License-Identifier: GPL-2.0-only
/*
 * Access to /proc and /sys.  All paths go through nt_path(), so that the
 * test build (NT_TEST_HOOKS) can point the tool at a fake tree with
 * NOTICKCTL_ROOT; the installed binary has no such redirection.
 */
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cpulist.h"
#include "sysinfo.h"

char *nt_path(char *buf, size_t len, const char *fmt, ...)
{
	const char *root = NULL;
	size_t off = 0;
	va_list ap;

#ifdef NT_TEST_HOOKS
	/* Never from the environment of a set-user-ID or capable program. */
	root = secure_getenv("NOTICKCTL_ROOT");
#endif
	if (root && *root) {
		snprintf(buf, len, "%s", root);
		off = strlen(buf);
	}
	va_start(ap, fmt);
	if (off < len)
		vsnprintf(buf + off, len - off, fmt, ap);
	va_end(ap);
	return buf;
}

char *nt_read_file(const char *path)
{
	size_t cap = 4096, len = 0;
	char *buf, *nbuf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = malloc(cap);
	if (!buf)
		goto fail;
	for (;;) {
		ssize_t n;

		if (cap - len < 2) {
			nbuf = realloc(buf, cap * 2);
			if (!nbuf)
				goto fail;
			buf = nbuf;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	close(fd);
	return buf;
fail:
	free(buf);
	close(fd);
	return NULL;
}

int nt_read_u64(unsigned long long *val, const char *fmt, ...)
{
	char rel[256], path[4096];
	unsigned long long v;
	char *text, *end;
	va_list ap;
	int rc = -1;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	text = nt_read_file(nt_path(path, sizeof(path), "%s", rel));
	if (!text)
		return -1;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (end != text && errno == 0 && text[0] != '-' &&
	    (*end == '\0' || *end == '\n')) {
		*val = v;
		rc = 0;
	}
	free(text);
	return rc;
}

int nt_errno_exit(int e)
{
	switch (e) {
	case EPERM:
	case EACCES:
	case EROFS:
		return NT_EXIT_PERM;
	case ESRCH:
		return NT_EXIT_NOPROC;
	case EBUSY:
		return NT_EXIT_BUSY;
	case EINVAL:
		return NT_EXIT_CPU;
	default:
		return NT_EXIT_FAILURE;
	}
}

int nt_exit_status(int rc, int run)
{
	if (run && rc >= NT_EXIT_FAILURE && rc <= NT_EXIT_NOPROC)
		return NT_EXIT_OWN;
	return rc;
}

int nt_check_cpu(int cpu, unsigned int what)
{
	cpu_set_t *set = cpuset_alloc();
	char list[256];
	int rc = NT_EXIT_CPU;

	if (cpu < 0 || cpu >= NT_MAX_CPUS) {
		warnx("CPU %d is out of range", cpu);
		goto out;
	}
	if (!set) {
		warnx("cannot allocate a CPU set");
		return NT_EXIT_FAILURE;
	}
	if (nt_read_cpulist("possible", set) == 0 &&
	    !CPU_ISSET_S((size_t)cpu, cpuset_size(), set)) {
		warnx("CPU %d is out of range (possible CPUs: %s)", cpu,
		      cpulist_format(set, list, sizeof(list)));
		goto out;
	}
	if (!(what & NT_CPU_ONLINE)) {
		rc = 0;
		goto out;
	}
	if (nt_read_cpulist("online", set) == 0 &&
	    !CPU_ISSET_S((size_t)cpu, cpuset_size(), set)) {
		warnx("CPU %d is offline (online CPUs: %s)", cpu,
		      cpulist_format(set, list, sizeof(list)));
		goto out;
	}
	if (cpu == 0) {
		warnx("CPU 0 is the boot and timekeeping CPU: it cannot run SCHED_NOTICK");
		goto out;
	}
	rc = 0;
out:
	cpuset_free(set);
	return rc;
}

int nt_kernel_supported(void)
{
	char path[4096];

	nt_path(path, sizeof(path), "/proc/sys/kernel/sched_notick_grace_us");
	return access(path, F_OK) == 0;
}

int nt_unsupported(void)
{
	struct utsname u;

	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "unknown");
	warnx("SCHED_NOTICK is not supported by this kernel (Linux %s): it needs Linux 6.1 with the notick project's sched-notick series and CONFIG_SCHED_NOTICK=y, such as the package 'make kernel-deb' builds",
	      u.release);
	return NT_EXIT_UNSUPPORTED;
}

int nt_read_cpulist(const char *name, cpu_set_t *set)
{
	char path[4096];
	char *text;
	int rc;

	text = nt_read_file(nt_path(path, sizeof(path),
				    "/sys/devices/system/cpu/%s", name));
	if (!text)
		return -1;
	rc = cpulist_parse(text, set);
	free(text);
	return rc;
}

void nt_read_cpu_notick(int cpu, struct nt_cpu_notick *st)
{
	const char *dir = "/sys/devices/system/cpu/cpu%d/notick";
	unsigned long long v;
	char path[4096], rel[128];
	char *text;

	memset(st, 0, sizeof(*st));
	st->pid = -1;
	snprintf(rel, sizeof(rel), dir, cpu);
	if (access(nt_path(path, sizeof(path), "%s", rel), F_OK) != 0)
		return;
	st->present = 1;
	if (nt_read_u64(&v, "%s/pid", rel) == 0)
		st->pid = (long)v;
	text = nt_read_file(nt_path(path, sizeof(path), "%s/tick", rel));
	if (text) {
		text[strcspn(text, "\n")] = '\0';
		snprintf(st->tick, sizeof(st->tick), "%s", text);
		free(text);
	}
	st->have_counters =
		nt_read_u64(&st->tick_stops, "%s/tick_stops", rel) == 0 &&
		nt_read_u64(&st->tick_restarts, "%s/tick_restarts", rel) == 0 &&
		nt_read_u64(&st->yields, "%s/yields", rel) == 0;
}

void nt_read_comm(long pid, char *buf, size_t len)
{
	char path[4096];
	char *text;

	buf[0] = '\0';
	if (pid <= 0)
		return;
	text = nt_read_file(nt_path(path, sizeof(path), "/proc/%ld/comm", pid));
	if (!text)
		return;
	text[strcspn(text, "\n")] = '\0';
	snprintf(buf, len, "%s", text);
	free(text);
}

long nt_irqbalance_pid(void)
{
	char path[4096], comm[64];
	struct dirent *de;
	long pid, found = 0;
	DIR *dir;

	dir = opendir(nt_path(path, sizeof(path), "/proc"));
	if (!dir)
		return 0;
	while (!found && (de = readdir(dir))) {
		if (nt_parse_uint(de->d_name, INT_MAX, &pid) || pid == 0)
			continue;
		nt_read_comm(pid, comm, sizeof(comm));
		if (!strcmp(comm, "irqbalance"))
			found = pid;
	}
	closedir(dir);
	return found;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

int nt_list_tids(pid_t pid, int all, pid_t **tids, size_t *n)
{
	char path[4096];
	struct dirent *de;
	size_t cap = 16;
	DIR *dir;

	*n = 0;
	*tids = malloc(cap * sizeof(**tids));
	if (!*tids) {
		warnx("cannot allocate memory");
		return NT_EXIT_FAILURE;
	}
	if (!all) {
		(*tids)[(*n)++] = pid;
		return 0;
	}
	dir = opendir(nt_path(path, sizeof(path), "/proc/%ld/task", (long)pid));
	if (!dir) {
		if (errno == ENOENT) {
			warnx("PID %ld: no such process", (long)pid);
			return NT_EXIT_NOPROC;
		}
		warn("cannot list the threads of PID %ld", (long)pid);
		return NT_EXIT_FAILURE;
	}
	while ((de = readdir(dir))) {
		long v;

		if (nt_parse_uint(de->d_name, INT_MAX, &v) || v == 0)
			continue;
		if (*n == cap) {
			pid_t *nt = realloc(*tids, cap * 2 * sizeof(*nt));

			if (!nt) {
				closedir(dir);
				warnx("cannot allocate memory");
				return NT_EXIT_FAILURE;
			}
			*tids = nt;
			cap *= 2;
		}
		(*tids)[(*n)++] = (pid_t)v;
	}
	closedir(dir);
	if (*n == 0) {
		warnx("PID %ld: no such process", (long)pid);
		return NT_EXIT_NOPROC;
	}
	qsort(*tids, *n, sizeof(**tids), cmp_pid);
	return 0;
}
