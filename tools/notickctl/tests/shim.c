// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD shim for the host CLI tests: stands in for a kernel with
 * SCHED_NOTICK by answering sched_setattr() itself.  Every call is
 * logged as "setattr TID POLICY" to $NT_SHIM_LOG; $NT_SHIM_FAIL="N:ERRNO"
 * makes the Nth call fail with that errno (EPERM, EINVAL, EBUSY or a
 * number).  Everything else goes to the real syscall().
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

long syscall(long number, ...);

static int calls;

static int fail_errno(const char *s)
{
	if (!strcmp(s, "EPERM"))
		return EPERM;
	if (!strcmp(s, "EINVAL"))
		return EINVAL;
	if (!strcmp(s, "EBUSY"))
		return EBUSY;
	return atoi(s);
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
