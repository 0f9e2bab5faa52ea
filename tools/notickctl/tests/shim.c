// SPDX-License-Identifier: GPL-2.0-only
/*
 * LD_PRELOAD shim for the host CLI tests: stands in for a kernel with
 * SCHED_NOTICK by answering sched_setattr() itself.  Every call is
 * logged as "setattr TID POLICY" to $NT_SHIM_LOG (TID 0 for the calling
 * process's main thread, named by 0 or by its number); $NT_SHIM_FAIL="N:ERRNO"
 * makes the Nth call fail with that errno (EPERM, EINVAL, EBUSY or a
 * number).  Everything else goes to the real syscall().
 *
 * It also stands in for the kernel refusing writes to /proc:
 * $NT_SHIM_WFAIL="SUFFIX:ERRNO[,SUFFIX:ERRNO...]" makes write(2) to a file
 * whose path ends with SUFFIX fail with ERRNO (also EIO, EACCES), and
 * each such refusal is logged as "refused PATH".
 *
 * Slow steps, for signals sent in the middle of a change:
 * $NT_SHIM_SLOW="SUFFIX:MS[,...]" makes a write(2) to a file whose path
 * ends with SUFFIX take MS milliseconds longer; the SUFFIX "setattr"
 * slows every sched_setattr() to SCHED_NOTICK, "setattrN" only the Nth
 * call, and "pin" every sched_setaffinity() to a single CPU.  Each is
 * logged as "slow PATH" (or "slow setattr TID", "slow pin TID") when it
 * starts.
 *
 * The class itself: access() finds /proc/sys/kernel/sched_notick_grace_us
 * (that exact path, not one under a NOTICKCTL_ROOT) unless
 * $NT_SHIM_NOCLASS is set; with $NT_SHIM_LOGPIN set, every
 * sched_setaffinity() is logged as "pin TID".
 *
 * Running out of memory: with $NT_SHIM_NOMEM=N, once N writes to files
 * under a /proc/ directory succeeded, every malloc(), calloc() and
 * realloc() fails with ENOMEM.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

long syscall(long number, ...);
ssize_t write(int fd, const void *buf, size_t count);
int access(const char *path, int mode);
void *malloc(size_t n);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t n);
extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);

static int calls;
static long proc_writes;

static int out_of_memory(void)
{
	const char *s = getenv("NT_SHIM_NOMEM");

	return s && *s && proc_writes >= atol(s);
}

void *malloc(size_t n)
{
	if (out_of_memory()) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	if (out_of_memory()) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	if (out_of_memory()) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_realloc(p, n);
}

static ssize_t real_write(int fd, const void *buf, size_t count)
{
	return syscall(SYS_write, fd, buf, count);
}

/* Append one line to $NT_SHIM_LOG without a FILE (no allocation). */
static void log_line(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static void log_line(const char *fmt, ...)
{
	const char *log = getenv("NT_SHIM_LOG");
	char line[4200];
	va_list ap;
	int fd, n;

	if (!log)
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (n > 0)
		(void)!real_write(fd, line, (size_t)n);
	close(fd);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Milliseconds to delay the step @what by, per $NT_SHIM_SLOW, or 0. */
static long slow_ms(const char *what, int exact)
{
	const char *spec = getenv("NT_SHIM_SLOW");
	size_t wlen = strlen(what);

	while (spec && *spec) {
		const char *end = strchrnul(spec, ',');
		const char *colon = memchr(spec, ':', (size_t)(end - spec));

		if (colon) {
			size_t slen = (size_t)(colon - spec);

			if (exact ? slen == wlen && !memcmp(what, spec, slen) :
			    slen <= wlen &&
			    !memcmp(what + wlen - slen, spec, slen))
				return atol(colon + 1);
		}
		spec = *end ? end + 1 : end;
	}
	return 0;
}

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
	log_line("refused %s\n", path);
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
	char link[64], path[4096];
	ssize_t n;
	long ms;
	int e;

	path[0] = '\0';
	if (fd > 2) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, path, sizeof(path) - 1);
		path[n > 0 ? n : 0] = '\0';
	}
	if (path[0]) {
		ms = slow_ms(path, 0);
		if (ms > 0) {
			log_line("slow %s\n", path);
			sleep_ms(ms);
		}
		e = getenv("NT_SHIM_WFAIL") ? refused(path) : 0;
		if (e) {
			log_refused(path);
			errno = e;
			return -1;
		}
	}
	n = real_write(fd, buf, count);
	if (n >= 0 && strstr(path, "/proc/"))
		proc_writes++;
	return n;
}

int access(const char *path, int mode)
{
	if (!strcmp(path, "/proc/sys/kernel/sched_notick_grace_us") &&
	    !getenv("NT_SHIM_NOCLASS"))
		return 0;
	return (int)syscall(SYS_faccessat, AT_FDCWD, path, mode, 0);
}

int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set)
{
	long ms = CPU_COUNT_S(size, set) == 1 ? slow_ms("pin", 1) : 0;

	if (getenv("NT_SHIM_LOGPIN"))
		log_line("pin %ld\n", (long)pid);
	if (ms > 0) {
		log_line("slow pin %ld\n", (long)pid);
		sleep_ms(ms);
	}
	return (int)syscall(SYS_sched_setaffinity, pid, size, set);
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
		const char *fail = getenv("NT_SHIM_FAIL");

		char nth[32];
		long ms;

		if (a[0] == (long)getpid())
			a[0] = 0;
		calls++;
		snprintf(nth, sizeof(nth), "setattr%d", calls);
		ms = slow_ms(nth, 1);
		if (!ms && attr[1] == 8)
			ms = slow_ms("setattr", 1);
		if (ms > 0) {
			log_line("slow setattr %ld\n", a[0]);
			sleep_ms(ms);
		}
		log_line("setattr %ld %u\n", a[0], attr[1]);
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
