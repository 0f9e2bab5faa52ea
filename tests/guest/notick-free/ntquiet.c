// SPDX-License-Identifier: GPL-2.0
/*
 * ntquiet - did any CPU's stopper run while the kernel did something?
 *
 *   ntquiet SECONDS TEXT
 *	Waits up to SECONDS for TEXT to appear in the kernel log, reading
 *	it with klogctl() (no exec, so no exec balancing, which may run a
 *	stopper itself), and prints found=0|1, stoppers=S: the stopper
 *	threads' (migration/N) switches meanwhile, and stopped_cpus=C: on
 *	how many CPUs they switched. A stop_machine() runs every online
 *	CPU's stopper; one CPU's alone runs for other reasons (the
 *	scheduler's active balancing, a migration).
 */
#include "../lib/ntlib.h"
#include <sys/klog.h>

int main(int argc, char **argv)
{
	static char buf[1 << 20];
	long sw0[NT_MAX_CPUS], sw1[NT_MAX_CPUS], s0, s1;
	int found = 0, n, cpu, cpus = 0;
	double end;

	if (argc != 3) {
		fprintf(stderr, "usage: ntquiet SECONDS TEXT\n");
		return 2;
	}
	s0 = nt_stopper_read(sw0);
	end = nt_now() + atof(argv[1]);
	while (!found && nt_now() < end) {
		n = klogctl(3, buf, sizeof(buf) - 1);	/* SYSLOG_ACTION_READ_ALL */
		if (n < 0)
			nt_die("klogctl");
		buf[n] = 0;
		found = strstr(buf, argv[2]) != NULL;
		if (!found)
			usleep(50000);
	}
	s1 = nt_stopper_read(sw1);
	for (cpu = 0; cpu < NT_MAX_CPUS; cpu++)
		cpus += sw1[cpu] != sw0[cpu];
	printf("found=%d\nstoppers=%ld\nstopped_cpus=%d\n", found, s1 - s0, cpus);
	return 0;
}
