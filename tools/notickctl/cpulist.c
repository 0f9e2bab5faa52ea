// SPDX-License-Identifier: GPL-2.0
/*
 * CPU lists in the kernel's format ("0-3,5,7"), as found in
 * /sys/devices/system/cpu/{online,possible} and printed in messages.
 */
#include <ctype.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notickctl.h"

cpu_set_t *cpuset_alloc(void)
{
	cpu_set_t *set = CPU_ALLOC(NT_MAX_CPUS);

	if (set)
		CPU_ZERO_S(cpuset_size(), set);
	return set;
}

size_t cpuset_size(void)
{
	return CPU_ALLOC_SIZE(NT_MAX_CPUS);
}

void cpuset_free(cpu_set_t *set)
{
	if (set)
		CPU_FREE(set);
}

/* Read a CPU number at *p; advance *p.  -1 on error. */
static long parse_cpu(const char **p)
{
	long v = 0;

	if (!isdigit((unsigned char)**p))
		return -1;
	while (isdigit((unsigned char)**p)) {
		v = v * 10 + (**p - '0');
		if (v >= NT_MAX_CPUS)
			return -1;
		(*p)++;
	}
	return v;
}

int cpulist_parse(const char *s, cpu_set_t *set)
{
	size_t size = cpuset_size();
	const char *p = s;

	CPU_ZERO_S(size, set);
	/* An empty list (possibly just a newline) is valid. */
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0' || (*p == '\n' && p[1] == '\0'))
		return 0;

	for (;;) {
		long lo, hi, c;

		lo = parse_cpu(&p);
		if (lo < 0)
			goto bad;
		hi = lo;
		if (*p == '-') {
			p++;
			hi = parse_cpu(&p);
			if (hi < lo)
				goto bad;
		}
		for (c = lo; c <= hi; c++)
			CPU_SET_S((size_t)c, size, set);
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '\n')
			p++;
		if (*p == '\0')
			return 0;
		goto bad;
	}
bad:
	CPU_ZERO_S(size, set);
	return -1;
}

char *cpulist_format(const cpu_set_t *set, char *buf, size_t len)
{
	size_t size = cpuset_size(), off = 0;
	int c = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	while (c < NT_MAX_CPUS) {
		int lo, hi;
		int n;

		if (!CPU_ISSET_S((size_t)c, size, set)) {
			c++;
			continue;
		}
		lo = hi = c;
		while (hi + 1 < NT_MAX_CPUS &&
		       CPU_ISSET_S((size_t)hi + 1, size, set))
			hi++;
		if (lo == hi)
			n = snprintf(buf + off, len - off, "%s%d",
				     off ? "," : "", lo);
		else
			n = snprintf(buf + off, len - off, "%s%d-%d",
				     off ? "," : "", lo, hi);
		if (n < 0 || (size_t)n >= len - off) {
			/* Truncated: end with an ellipsis if room allows. */
			if (len >= 4)
				strcpy(buf + len - 4, "...");
			return buf;
		}
		off += (size_t)n;
		c = hi + 1;
	}
	return buf;
}

int cpuset_count(const cpu_set_t *set)
{
	return CPU_COUNT_S(cpuset_size(), set);
}

int cpuset_first(const cpu_set_t *set)
{
	int c;

	for (c = 0; c < NT_MAX_CPUS; c++)
		if (CPU_ISSET_S((size_t)c, cpuset_size(), set))
			return c;
	return -1;
}
