// SPDX-License-Identifier: GPL-2.0
/*
 * ntfork - where the child of a SCHED_NOTICK thread runs.
 *
 *   ntfork CPU
 *	Becomes SCHED_NOTICK on CPU and, spinning in user space all along
 *	(never blocking), forks a child that execs this program; the child
 *	reports where it runs through a pipe that the parent polls for up
 *	to 3 s. Prints, as key=value lines: whether the child reported
 *	(child_ran), its CPU, policy and allowed CPU count, the online CPU
 *	count, and the parent's wait from fork() to the report (ms).
 *   ntfork --child FD
 *	The child's part: writes "CPU POLICY NCPUS" to FD.
 */
#include "../lib/ntlib.h"
#include <fcntl.h>
#include <sys/wait.h>

static int child(int fd)
{
	cpu_set_t set;
	char buf[64];
	int n;

	if (sched_getaffinity(0, sizeof(set), &set))
		nt_die("sched_getaffinity");
	n = snprintf(buf, sizeof(buf), "%d %d %d\n", sched_getcpu(),
		     sched_getscheduler(0), CPU_COUNT(&set));
	return write(fd, buf, n) == n ? 0 : 1;
}

int main(int argc, char **argv)
{
	int cpu, fds[2], ccpu = -1, cpol = -1, cncpus = -1, ran = 0, e;
	char buf[64], fdarg[16];
	double t0, waited = -1;
	ssize_t n;
	pid_t pid;

	if (argc == 3 && !strcmp(argv[1], "--child"))
		return child(atoi(argv[2]));
	if (argc != 2) {
		fprintf(stderr, "usage: ntfork CPU\n");
		return 2;
	}
	cpu = atoi(argv[1]);
	nt_bind(0, cpu);
	e = nt_setpolicy(0, SCHED_NOTICK);
	if (e) {
		printf("admitted=%s\n", nt_errname(e));
		return 1;
	}
	if (pipe2(fds, O_NONBLOCK))
		nt_die("pipe2");
	snprintf(fdarg, sizeof(fdarg), "%d", fds[1]);
	t0 = nt_now();
	pid = fork();
	if (pid < 0)
		nt_die("fork");
	if (pid == 0) {
		execl("/proc/self/exe", argv[0], "--child", fdarg, (char *)NULL);
		_exit(127);
	}
	/* Spin: a child left on this CPU would not run before we block */
	while (nt_now() - t0 < 3) {
		n = read(fds[0], buf, sizeof(buf) - 1);
		if (n > 0) {
			buf[n] = 0;
			ran = sscanf(buf, "%d %d %d", &ccpu, &cpol, &cncpus) == 3;
			waited = (nt_now() - t0) * 1000;
			break;
		}
	}
	printf("child_ran=%d\nchild_cpu=%d\nchild_policy=%d\n", ran, ccpu, cpol);
	printf("child_ncpus=%d\nonline_cpus=%ld\nwaited_ms=%.1f\n", cncpus,
	       sysconf(_SC_NPROCESSORS_ONLN), waited);
	printf("parent_policy=%d\n", sched_getscheduler(0));
	nt_setpolicy(0, SCHED_OTHER);
	waitpid(pid, NULL, 0);
	return 0;
}
