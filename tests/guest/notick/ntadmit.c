// SPDX-License-Identifier: GPL-2.0
/*
 * ntadmit - ask for SCHED_NOTICK for a thread, maybe many times.
 *
 *   ntadmit [-c CPULIST] [-s] [-n N] TID
 *	Calls sched_setattr(TID, SCHED_NOTICK) N times (default 1; TID 0 is
 *	the caller), setting the thread back to SCHED_NORMAL after each
 *	success, and prints each outcome with its count, e.g. "EPERM=1" or
 *	"OK=3 EBUSY=997", in the order first seen. With -c, the caller first
 *	binds itself to CPULIST (comma-separated); with -s, it also prints
 *	" stoppers=S": the stopper thread switches meanwhile (the binding,
 *	which may move the caller, not counted).
 */
#include "../lib/ntlib.h"

#define NOUT 8

int main(int argc, char **argv)
{
	int err[NOUT], count[NOUT], nout = 0, n = 1, opt, i, j, stops = 0;
	long s0 = 0;
	cpu_set_t set;
	char *tok;
	pid_t tid;

	while ((opt = getopt(argc, argv, "c:n:s")) != -1) {
		switch (opt) {
		case 'c':
			CPU_ZERO(&set);
			for (tok = strtok(optarg, ","); tok; tok = strtok(NULL, ","))
				CPU_SET(atoi(tok), &set);
			if (sched_setaffinity(0, sizeof(set), &set))
				nt_die("sched_setaffinity");
			/* Wait for the move, if any, to be over */
			usleep(20000);
			break;
		case 'n':
			n = atoi(optarg);
			break;
		case 's':
			stops = 1;
			break;
		default:
			return 2;
		}
	}
	if (argc - optind != 1 || n < 1) {
		fprintf(stderr, "usage: ntadmit [-c CPULIST] [-s] [-n N] TID\n");
		return 2;
	}
	tid = atoi(argv[optind]);
	if (stops)
		s0 = nt_stopper_switches();
	for (i = 0; i < n; i++) {
		int e = nt_setpolicy(tid, SCHED_NOTICK);

		if (!e && nt_setpolicy(tid, SCHED_OTHER))
			nt_die("back to SCHED_NORMAL");
		for (j = 0; j < nout && err[j] != e; j++)
			;
		if (j == nout) {
			if (nout == NOUT)
				continue;
			err[nout] = e;
			count[nout++] = 0;
		}
		count[j]++;
	}
	for (j = 0; j < nout; j++)
		printf("%s%s=%d", j ? " " : "", nt_errname(err[j]), count[j]);
	if (stops)
		printf(" stoppers=%ld", nt_stopper_switches() - s0);
	printf("\n");
	return 0;
}
