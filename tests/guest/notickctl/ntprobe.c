// SPDX-License-Identifier: GPL-2.0
/*
 * ntprobe: helper of the notickctl guest tests.
 *   ntprobe info                 print policy, current CPU, allowed CPUs
 *   ntprobe exit N               exit with status N
 *   ntprobe kill                 die by SIGTERM
 *   ntprobe spin MS              busy-loop MS milliseconds, then info
 *   ntprobe spinpair MS          the same beside a child spinning on the
 *                                same CPU (it binds itself there: a child
 *                                of a SCHED_NOTICK thread does not keep
 *                                its one-CPU affinity), so that the tick
 *                                runs there; killed and reaped before info
 *   ntprobe sleeploop N MS       sleep MS milliseconds N times, then info
 *   ntprobe policy TID           print the policy number of TID
 *   ntprobe affinity TID         print the allowed CPUs of TID
 *   ntprobe threads FILE SPEC... one thread per SPEC ("-" or a CPU to pin
 *                                to; the first is the main thread); write
 *                                their TIDs to FILE, then sleep forever
 *   ntprobe drop CMD [ARG...]    run CMD as user/group 65534 (no caps)
 *   ntprobe dfl CMD [ARG...]     run CMD with SIGINT, SIGQUIT and SIGHUP
 *                                at their default action (a shell ignores
 *                                the first two in its background jobs,
 *                                nohup the third)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void print_allowed(pid_t tid)
{
	cpu_set_t set;
	int c, first = 1;

	if (sched_getaffinity(tid, sizeof(set), &set)) {
		printf("err=%d", errno);
		return;
	}
	for (c = 0; c < CPU_SETSIZE; c++) {
		if (CPU_ISSET(c, &set)) {
			printf("%s%d", first ? "" : ",", c);
			first = 0;
		}
	}
}

static int info(void)
{
	printf("policy=%d cpu=%d allowed=", sched_getscheduler(0),
	       sched_getcpu());
	print_allowed(0);
	putchar('\n');
	return 0;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static int pin(const char *spec)
{
	cpu_set_t set;

	if (!strcmp(spec, "-"))
		return 0;
	CPU_ZERO(&set);
	CPU_SET(atoi(spec), &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static pthread_barrier_t barrier;
static pid_t *tids;

struct targ {
	int idx;
	const char *spec;
};

static void *thread_fn(void *p)
{
	struct targ *a = p;

	if (pin(a->spec))
		perror("ntprobe: sched_setaffinity");
	tids[a->idx] = (pid_t)syscall(SYS_gettid);
	pthread_barrier_wait(&barrier);
	for (;;)
		pause();
	return NULL;
}

static int threads(const char *file, int n, char **specs)
{
	struct targ *args = calloc((size_t)n, sizeof(*args));
	char tmp[4096];
	pthread_t t;
	FILE *f;
	int i;

	tids = calloc((size_t)n, sizeof(*tids));
	if (!args || !tids)
		return 1;
	pthread_barrier_init(&barrier, NULL, (unsigned)n);
	tids[0] = getpid();
	/* Threads start with our original affinity, then pin themselves. */
	for (i = 1; i < n; i++) {
		args[i].idx = i;
		args[i].spec = specs[i];
		if (pthread_create(&t, NULL, thread_fn, &args[i]))
			return 1;
	}
	if (pin(specs[0]))
		perror("ntprobe: sched_setaffinity");
	pthread_barrier_wait(&barrier);
	snprintf(tmp, sizeof(tmp), "%s.tmp", file);
	f = fopen(tmp, "w");
	if (!f)
		return 1;
	for (i = 0; i < n; i++)
		fprintf(f, "%s%d", i ? " " : "", (int)tids[i]);
	fputc('\n', f);
	fclose(f);
	rename(tmp, file);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(cmd, "info"))
		return info();
	if (!strcmp(cmd, "exit") && argc > 2)
		return atoi(argv[2]);
	if (!strcmp(cmd, "kill")) {
		raise(SIGTERM);
		return 1;
	}
	if (!strcmp(cmd, "spin") && argc > 2) {
		long long end = now_ms() + atoll(argv[2]);
		volatile unsigned long x = 0;

		while (now_ms() < end)
			x++;
		return info();
	}
	if (!strcmp(cmd, "spinpair") && argc > 2) {
		long long end = now_ms() + atoll(argv[2]);
		volatile unsigned long x = 0;
		int cpu = sched_getcpu();
		pid_t child = fork();
		cpu_set_t one;

		if (child < 0 || cpu < 0)
			return 1;
		if (!child) {
			CPU_ZERO(&one);
			CPU_SET(cpu, &one);
			if (sched_setaffinity(0, sizeof(one), &one))
				_exit(1);
			for (;;)
				x++;
		}
		while (now_ms() < end)
			x++;
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		return info();
	}
	if (!strcmp(cmd, "sleeploop") && argc > 3) {
		int i, n = atoi(argv[2]);
		struct timespec ts = { 0, atol(argv[3]) * 1000000L };

		for (i = 0; i < n; i++)
			nanosleep(&ts, NULL);
		return info();
	}
	if (!strcmp(cmd, "policy") && argc > 2) {
		int p = sched_getscheduler(atoi(argv[2]));

		if (p < 0)
			printf("err=%d\n", errno);
		else
			printf("%d\n", p);
		return p < 0;
	}
	if (!strcmp(cmd, "affinity") && argc > 2) {
		print_allowed(atoi(argv[2]));
		putchar('\n');
		return 0;
	}
	if (!strcmp(cmd, "threads") && argc > 3)
		return threads(argv[2], argc - 3, argv + 3);
	if (!strcmp(cmd, "drop") && argc > 2) {
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534)) {
			perror("ntprobe: drop");
			return 125;
		}
		execvp(argv[2], argv + 2);
		perror("ntprobe: exec");
		return 127;
	}
	if (!strcmp(cmd, "dfl") && argc > 2) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		execvp(argv[2], argv + 2);
		perror("ntprobe: exec");
		return 127;
	}
	fprintf(stderr, "usage: ntprobe info|exit N|kill|spin MS|sleeploop N MS|policy TID|affinity TID|threads FILE SPEC...|drop CMD...|dfl CMD...\n");
	return 2;
}
