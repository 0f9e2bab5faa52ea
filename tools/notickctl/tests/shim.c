// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD shim for the host CLI tests: stands in for a kernel with
 * SCHED_NOTICK by answering sched_setattr() itself.  Every call is
 * logged as "setattr TID POLICY" to $NT_SHIM_LOG; $NT_SHIM_FAIL="N:ERRNO"
 * makes the Nth call fail with that errno (EPERM, EINVAL, EBUSY or a
 * number).  Everything else goes to the real syscall().
 *
 * It also stands in for the kernel refusing writes to /proc:
 * $NT_SHIM_WFAIL="SUFFIX:ERRNO[,SUFFIX:ERRNO...]" makes write(2) to a file
 * whose path ends with SUFFIX fail with ERRNO (also EIO, EACCES), and
 * each such refusal is logged as "refused PATH".
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

long syscall(long number, ...);
ssize_t write(int fd, const void *buf, size_t count);

static int calls;

static int fail_errno(const char *s)
{
	if (!strcmp(s, "EPERM"))
		return EPERM;
	if (!strcmp(s, "EINVAL"))
		return EINVAL;
	if (!strcmp(s, "EBUSY"))
		return EBUSY;
	if (!strcmp(s, "EIO"))
		return EIO;
	if (!strcmp(s, "EACCES"))
		return EACCES;
	return atoi(s);
}

static void log_refused(const char *path)
{
	const char *log = getenv("NT_SHIM_LOG");
	FILE *f = log ? fopen(log, "a") : NULL;

	if (f) {
		fprintf(f, "refused %s\n", path);
		fclose(f);
	}
}

/* errno to fail a write to @path with, per $NT_SHIM_WFAIL, or 0. */
static int refused(const char *path)
{
	const char *spec = getenv("NT_SHIM_WFAIL");
	size_t plen = strlen(path);

	while (spec && *spec) {
		const char *end = strchr(spec, ',');
		const char *colon = memchr(spec, ':', end ? (size_t)(end - spec)
							  : strlen(spec));
		char err[16];

		if (!end)
			end = spec + strlen(spec);
		if (colon) {
			size_t slen = (size_t)(colon - spec);

			snprintf(err, sizeof(err), "%.*s",
				 (int)(end - colon - 1), colon + 1);
			if (slen <= plen &&
			    !memcmp(path + plen - slen, spec, slen))
				return fail_errno(err);
		}
		spec = *end ? end + 1 : end;
	}
	return 0;
}

ssize_t write(int fd, const void *buf, size_t count)
{
	static ssize_t (*real)(int, const void *, size_t);
	char link[64], path[4096];
	ssize_t n;
	int e;

	if (fd > 2 && getenv("NT_SHIM_WFAIL")) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, path, sizeof(path) - 1);
		if (n > 0) {
			path[n] = '\0';
			e = refused(path);
			if (e) {
				log_refused(path);
				errno = e;
				return -1;
			}
		}
	}
	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))
			dlsym(RTLD_NEXT, "write");
	return real(fd, buf, count);
}

long syscall(long number, ...)
{
	static long (*real)(long, ...);
	long a[6];
	va_list ap;
	int i;

	va_start(ap, number);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);

	if (number == SYS_sched_setattr) {
		const uint32_t *attr = (const uint32_t *)a[1];
		const char *log = getenv("NT_SHIM_LOG");
		const char *fail = getenv("NT_SHIM_FAIL");
		FILE *f;

		calls++;
		f = log ? fopen(log, "a") : NULL;
		if (f) {
			fprintf(f, "setattr %ld %u\n", a[0], attr[1]);
			fclose(f);
		}
		if (fail && atoi(fail) == calls && strchr(fail, ':')) {
			errno = fail_errno(strchr(fail, ':') + 1);
			return -1;
		}
		return 0;
	}
	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
