// SPDX-License-Identifier: GPL-2.0
/*
 * ntquiet - did any CPU's stopper run while the kernel did something?
 *
 *   ntquiet SECONDS TEXT
 *	Waits up to SECONDS for TEXT to appear in the kernel log, reading
 *	it with klogctl() (no exec, so no exec balancing, which may run a
 *	stopper itself), and prints found=0|1 and stoppers=S: the stopper
 *	thread (migration/N) switches meanwhile.
 */
#include "../lib/ntlib.h"
#include <sys/klog.h>

int main(int argc, char **argv)
{
	static char buf[1 << 20];
	double end;
	int found = 0, n;
	long s0;

	if (argc != 3) {
		fprintf(stderr, "usage: ntquiet SECONDS TEXT\n");
		return 2;
	}
	s0 = nt_stopper_switches();
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
	printf("found=%d\nstoppers=%ld\n", found, nt_stopper_switches() - s0);
	return 0;
}
