// SPDX-License-Identifier: GPL-2.0
/*
 * failnth: one write with its N-th fault-injection point failing.
 *
 *   failnth N FILE VALUE
 *	Open FILE, make the N-th fault-injection point (failslab,
 *	fail_page_alloc, whichever is armed in debugfs) that this thread
 *	passes fail (/proc/thread-self/fail-nth), write VALUE to FILE.
 *	Prints the write's result, "OK" or the errno name, and whether the
 *	fault was injected: e.g. "ENOMEM injected" or "OK not-injected"
 *	(the write passed fewer than N points).
 *
 * Exit status: 0 when the write ran, 2 on usage or setup errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/ntlib.h"

#define FAIL_NTH "/proc/thread-self/fail-nth"

int main(int argc, char **argv)
{
	int fd, nth, err = 0;
	char left[32] = "";
	ssize_t n;

	if (argc != 4) {
		fprintf(stderr, "usage: failnth N FILE VALUE\n");
		return 2;
	}
	fd = open(argv[2], O_WRONLY);
	nth = open(FAIL_NTH, O_RDWR);
	if (fd < 0 || nth < 0) {
		perror("failnth: open");
		return 2;
	}
	if (write(nth, argv[1], strlen(argv[1])) < 0) {
		perror("failnth: " FAIL_NTH);
		return 2;
	}
	if (write(fd, argv[3], strlen(argv[3])) < 0)
		err = errno;
	/* What is left of N: 0 once the fault was injected */
	n = pread(nth, left, sizeof(left) - 1, 0);
	if (n <= 0)
		return 2;
	left[n] = '\0';
	/* No fault for the rest of this run */
	if (pwrite(nth, "0", 1, 0) < 0)
		return 2;
	printf("%s %s\n", nt_errname(err), atoi(left) ? "not-injected" : "injected");
	return 0;
}
