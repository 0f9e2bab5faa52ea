// SPDX-License-Identifier: GPL-2.0
/*
 * racew: two writes at the same moment, for the offsched-pkt-race suite.
 *
 *   racew FILE1 VALUE1 FILE2 VALUE2
 *	Two processes open FILE1 and FILE2, wait on one pipe, and write
 *	VALUE1 and VALUE2 once the pipe is closed, so that both write(2)
 *	calls enter the kernel together. Prints the two results on one line,
 *	"OK" or the errno name each, e.g. "OK EBUSY".
 *
 * Exit status: 0 when both writes ran, 2 on usage or setup errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/ntlib.h"

/* In a child: wait for @go to close, write, exit with the errno (0: OK). */
static void writer(int go, const char *file, const char *value)
{
	int fd = open(file, O_WRONLY);
	char c;

	if (fd < 0)
		_exit(errno);
	if (read(go, &c, 1) < 0)
		_exit(255);
	if (write(fd, value, strlen(value)) < 0)
		_exit(errno);
	_exit(0);
}

int main(int argc, char **argv)
{
	int go[2], i, status, err[2];
	pid_t pid[2];

	if (argc != 5) {
		fprintf(stderr, "usage: racew FILE1 VALUE1 FILE2 VALUE2\n");
		return 2;
	}
	if (pipe(go))
		return 2;
	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		if (pid[i] < 0)
			return 2;
		if (!pid[i]) {
			close(go[1]);
			writer(go[0], argv[1 + 2 * i], argv[2 + 2 * i]);
		}
	}
	close(go[0]);
	/* Both children are at their read() or about to be: go. */
	usleep(20000);
	close(go[1]);
	for (i = 0; i < 2; i++) {
		if (waitpid(pid[i], &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status) == 255)
			return 2;
		err[i] = WEXITSTATUS(status);
	}
	printf("%s ", nt_errname(err[0]));
	printf("%s\n", nt_errname(err[1]));
	return 0;
}
