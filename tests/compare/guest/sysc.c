// SPDX-License-Identifier: GPL-2.0
/*
 * sysc - the cost of a system call, user space.
 *
 * Times batches of getppid() calls, the cheapest real system call: entry,
 * a trivial handler and exit.  What changes between kernels is the entry
 * and exit work, such as context tracking on every CPU.
 *
 * Output (stdout): one line "C <ns per call>" per batch.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static unsigned long parse_num(const char *s, const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || !v) {
		fprintf(stderr, "sysc: invalid %s: '%s'\n", what, s);
		exit(EXIT_FAILURE);
	}
	return v;
}

int main(int argc, char **argv)
{
	unsigned long calls = 50000, batches = 9;
	int c;

	while ((c = getopt(argc, argv, "n:b:h")) != -1) {
		switch (c) {
		case 'n': calls = parse_num(optarg, "call count"); break;
		case 'b': batches = parse_num(optarg, "batch count"); break;
		case 'h':
			printf("Usage: sysc [-n CALLS] [-b BATCHES]\n");
			return EXIT_SUCCESS;
		default:
			fprintf(stderr, "Usage: sysc [-n CALLS] [-b BATCHES]\n");
			return EXIT_FAILURE;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "Usage: sysc [-n CALLS] [-b BATCHES]\n");
		return EXIT_FAILURE;
	}
	for (unsigned long b = 0; b < batches; b++) {
		uint64_t t0 = mono_ns();

		for (unsigned long i = 0; i < calls; i++)
			syscall(SYS_getppid);
		printf("C %.1f\n", (double)(mono_ns() - t0) / (double)calls);
	}
	return EXIT_SUCCESS;
}
