// SPDX-License-Identifier: GPL-2.0
/*
 * ntrtc - is a device whose interrupt goes to an owned CPU still served?
 *
 *   ntrtc SECONDS RATE
 *	Turns on the periodic interrupt of /dev/rtc0 at RATE Hz and reads
 *	its events for SECONDS, each read allowed 200 ms (the bound on a
 *	waiting interrupt thread is 10 ms and a tick). Prints the reads
 *	that returned (reads), those that timed out (timeouts), the events
 *	they counted (events, from the interrupts that arrived) and the
 *	longest gap between two reads (max_gap_ms, not a pass criterion).
 */
#include "../lib/ntlib.h"
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <linux/rtc.h>

int main(int argc, char **argv)
{
	double secs, end, last, gap, max_gap = 0;
	long reads = 0, timeouts = 0, events = 0;
	unsigned long data;
	struct pollfd pfd;
	int fd, rate;

	if (argc != 3) {
		fprintf(stderr, "usage: ntrtc SECONDS RATE\n");
		return 2;
	}
	secs = atof(argv[1]);
	rate = atoi(argv[2]);
	fd = open("/dev/rtc0", O_RDONLY);
	if (fd < 0)
		nt_die("/dev/rtc0");
	if (ioctl(fd, RTC_IRQP_SET, rate) || ioctl(fd, RTC_PIE_ON, 0))
		nt_die("RTC periodic interrupt");
	pfd.fd = fd;
	pfd.events = POLLIN;
	last = nt_now();
	end = last + secs;
	while (nt_now() < end) {
		if (poll(&pfd, 1, 200) != 1) {
			timeouts++;
			continue;
		}
		if (read(fd, &data, sizeof(data)) != sizeof(data))
			nt_die("read /dev/rtc0");
		reads++;
		events += data >> 8;
		gap = nt_now() - last;
		if (gap > max_gap)
			max_gap = gap;
		last = nt_now();
	}
	ioctl(fd, RTC_PIE_OFF, 0);
	printf("reads=%ld\ntimeouts=%ld\nevents=%ld\nmax_gap_ms=%.1f\n", reads,
	       timeouts, events, max_gap * 1000);
	return 0;
}
