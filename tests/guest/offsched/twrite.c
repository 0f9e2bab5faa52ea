// SPDX-License-Identifier: GPL-2.0
/*
 * twrite - one timed write(2), for the race tests of the offsched suite.
 *
 *   twrite FILE VALUE
 *
 * Prints "RESULT T0 T1": OK or the errno's name (strerrorname_np()), and
 * CLOCK_MONOTONIC in nanoseconds just before the write(2) and just after
 * it returned, so that a test can tell whether two writes overlapped.
 * Exits 2 if FILE cannot be opened.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	uint64_t t0, t1;
	ssize_t ret;
	int fd, err;

	if (argc != 3) {
		fprintf(stderr, "usage: twrite FILE VALUE\n");
		return 2;
	}
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		fprintf(stderr, "twrite: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	t0 = now_ns();
	ret = write(fd, argv[2], strlen(argv[2]));
	err = errno;
	t1 = now_ns();
	printf("%s %llu %llu\n", ret < 0 ? strerrorname_np(err) : "OK",
	       (unsigned long long)t0, (unsigned long long)t1);
	close(fd);
	return 0;
}
