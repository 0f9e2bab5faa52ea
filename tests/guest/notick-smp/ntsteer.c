// SPDX-License-Identifier: GPL-2.0
/*
 * ntsteer - where wakeups steered away from an owned CPU land.
 *
 *   ntsteer CPU N ROUNDS
 *	N sleepers last ran on CPU (bound there, then allowed on every CPU
 *	while asleep in an eventfd read). A SCHED_NOTICK thread is admitted
 *	on CPU and sleeps, so that CPU is idle and its prev CPU is what the
 *	fair class picks for them. CPU 0 runs a spinner and the waker, which
 *	wakes the sleepers one at a time (non-sync wakeups); each reports
 *	sched_getcpu() and spins 0.5 s, keeping its CPU busy. All this is
 *	done ROUNDS times. Prints each round's CPUs (round_R=...), how many
 *	wakeups landed on CPU 0, on CPU and elsewhere, in how many rounds
 *	every sleeper landed on a CPU of its own other than 0 and CPU
 *	(apart=...), and in how many the owner was not SCHED_NOTICK.
 *
 *	One round says little alone: a kworker that happens to run on the
 *	last idle CPU at the wakeup leaves no idle CPU to steer to.
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

struct tally {
	int on0, onc, other, apart, bad_owner;
};

/* One round: where N sleepers woken off an owned @cpu landed, in @where */
static void steer_round(int cpu, int n, const cpu_set_t *all, int *where,
			struct tally *t)
{
	int i, j, report[2], owner_pipe[2], ok = 1, efd[16];
	pid_t spinner, owner, sleepers[16];
	char c;

	if (pipe(report) || pipe(owner_pipe))
		nt_die("pipe");
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
			if (sched_setaffinity(0, sizeof(*all), all))
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
			t->on0++;
		else if (where[i] == cpu)
			t->onc++;
		else
			t->other++;
		if (where[i] == 0 || where[i] == cpu)
			ok = 0;
		for (j = 0; j < i; j++)
			if (where[j] == where[i])
				ok = 0;
		usleep(50000);
	}
	t->apart += ok;
	if (sched_getscheduler(owner) != SCHED_NOTICK)
		t->bad_owner++;

	kill(spinner, SIGKILL);
	if (write(owner_pipe[1], "x", 1) != 1)
		nt_die("owner");
	while (wait(NULL) > 0)
		;
	for (i = 0; i < n; i++)
		close(efd[i]);
	close(report[0]);
	close(report[1]);
	close(owner_pipe[0]);
	close(owner_pipe[1]);
}

int main(int argc, char **argv)
{
	int cpu, n, rounds, r, i, where[16];
	struct tally t = { 0 };
	cpu_set_t all;

	if (argc != 4 || (n = atoi(argv[2])) < 1 || n > 16 ||
	    (rounds = atoi(argv[3])) < 1) {
		fprintf(stderr, "usage: ntsteer CPU N ROUNDS (N <= 16)\n");
		return 2;
	}
	cpu = atoi(argv[1]);
	CPU_ZERO(&all);
	for (i = 0; i < sysconf(_SC_NPROCESSORS_ONLN); i++)
		CPU_SET(i, &all);
	nt_bind(0, 0);

	for (r = 0; r < rounds; r++) {
		steer_round(cpu, n, &all, where, &t);
		printf("round_%d=", r + 1);
		for (i = 0; i < n; i++)
			printf("%s%d", i ? "," : "", where[i]);
		printf("\n");
		fflush(stdout);
	}
	printf("rounds=%d\non_cpu0=%d\non_owned=%d\nelsewhere=%d\napart=%d\nbad_owner=%d\n",
	       rounds, t.on0, t.onc, t.other, t.apart, t.bad_owner);
	return 0;
}
