// SPDX-License-Identifier: GPL-2.0
/*
 * ntsteer - where wakeups steered away from an owned CPU land.
 *
 *   ntsteer CPU N
 *	N sleepers last ran on CPU (bound there, then allowed on every CPU
 *	while asleep in an eventfd read). A SCHED_NOTICK thread is admitted
 *	on CPU and sleeps, so that CPU is idle and its prev CPU is what the
 *	fair class picks for them. CPU 0 runs a spinner and the waker, which
 *	wakes the sleepers one at a time (non-sync wakeups); each reports
 *	sched_getcpu() and spins 0.5 s, keeping its CPU busy. Prints each
 *	sleeper's CPU (cpus=...) and how many landed on CPU 0, on CPU and
 *	elsewhere.
 */
#include "../lib/ntlib.h"
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/wait.h>

static void spin(double s)
{
	double end = nt_now() + s;

	while (nt_now() < end)
		;
}

static char state_of(pid_t pid)
{
	char path[64], buf[256], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f || !fgets(buf, sizeof(buf), f))
		return '?';
	fclose(f);
	p = strrchr(buf, ')');
	return p && p[1] ? p[2] : '?';
}

static void wait_asleep(pid_t pid)
{
	double end = nt_now() + 10;

	while (state_of(pid) != 'S' && nt_now() < end)
		usleep(10000);
}

int main(int argc, char **argv)
{
	int cpu, n, i, report[2], owner_pipe[2], on0 = 0, onc = 0, other = 0;
	pid_t spinner, owner, sleepers[16];
	int efd[16], where[16];
	cpu_set_t all;
	char c;

	if (argc != 3 || (n = atoi(argv[2])) < 1 || n > 16) {
		fprintf(stderr, "usage: ntsteer CPU N (N <= 16)\n");
		return 2;
	}
	cpu = atoi(argv[1]);
	CPU_ZERO(&all);
	for (i = 0; i < sysconf(_SC_NPROCESSORS_ONLN); i++)
		CPU_SET(i, &all);
	if (pipe(report) || pipe(owner_pipe))
		nt_die("pipe");
	nt_bind(0, 0);

	for (i = 0; i < n; i++) {
		efd[i] = eventfd(0, 0);
		if (efd[i] < 0)
			nt_die("eventfd");
		sleepers[i] = fork();
		if (sleepers[i] < 0)
			nt_die("fork");
		if (sleepers[i] == 0) {
			uint64_t v;
			int me;

			nt_bind(0, cpu);
			spin(0.005);
			if (sched_setaffinity(0, sizeof(all), &all))
				nt_die("widen");
			if (read(efd[i], &v, sizeof(v)) != sizeof(v))
				_exit(1);
			me = sched_getcpu();
			if (write(report[1], &me, sizeof(me)) != sizeof(me))
				_exit(1);
			spin(0.5);
			_exit(0);
		}
		wait_asleep(sleepers[i]);
	}

	owner = fork();
	if (owner < 0)
		nt_die("fork");
	if (owner == 0) {
		nt_bind(0, cpu);
		if (nt_setpolicy(0, SCHED_NOTICK))
			_exit(3);
		if (read(owner_pipe[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	wait_asleep(owner);
	spinner = fork();
	if (spinner < 0)
		nt_die("fork");
	if (spinner == 0) {
		for (;;)
			;
	}
	usleep(200000);

	for (i = 0; i < n; i++) {
		uint64_t one = 1;

		if (write(efd[i], &one, sizeof(one)) != sizeof(one))
			nt_die("eventfd write");
		if (read(report[0], &where[i], sizeof(where[i])) != sizeof(where[i]))
			nt_die("report");
		if (where[i] == 0)
			on0++;
		else if (where[i] == cpu)
			onc++;
		else
			other++;
		usleep(50000);
	}
	printf("owner_policy=%d\ncpus=", sched_getscheduler(owner));
	for (i = 0; i < n; i++)
		printf("%s%d", i ? "," : "", where[i]);
	printf("\non_cpu0=%d\non_owned=%d\nelsewhere=%d\n", on0, onc, other);

	kill(spinner, SIGKILL);
	if (write(owner_pipe[1], "x", 1) != 1)
		nt_die("owner");
	while (wait(NULL) > 0)
		;
	return 0;
}
