// SPDX-License-Identifier: GPL-2.0
/*
 * The ground floor: numbers, CPU sets, CPU lists in the kernel's format
 * ("0-3,5,7", as in /sys/devices/system/cpu/{online,possible} and
 * printed in messages) and hexadecimal CPU masks ("ff,ffffffff", as in
 * /proc/irq/default_smp_affinity).  Calls nothing of notickctl's.
 */
#include <ctype.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"

int nt_parse_uint(const char *s, long max, long *out)
{
	unsigned long long v = 0;
	const char *p;

	if (!s || !*s)
		return -1;
	for (p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (unsigned long long)(*p - '0');
		if (v > (unsigned long long)max)
			return -1;
	}
	*out = (long)v;
	return 0;
}

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

/* ---- hexadecimal masks ---- */

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
