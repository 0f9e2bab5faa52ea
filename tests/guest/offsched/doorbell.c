// SPDX-License-Identifier: GPL-2.0
/*
 * doorbell - wait for the doorbell of an OFFSCHED CPU in /dev/offsched.
 *
 *   doorbell wait CPU IDLE_MS  attach to CPU, print "attached", then sleep
 *                              in read() until the first ring and in
 *                              poll() + read() for the next ones, until
 *                              IDLE_MS pass without one; prints "reads=R
 *                              last=L sleeps=S": R reads that returned a
 *                              count, L the last count, S voluntary
 *                              context switches meanwhile (the reads and
 *                              polls that slept)
 *   doorbell errors CPU        prints "noattach=E1 pollerr=P short=E2
 *                              nonblock=E3": read() before an attach,
 *                              whether poll() reports POLLERR then, a
 *                              4-byte read() after attaching to CPU, and
 *                              an O_NONBLOCK read() with no ring pending
 *                              (OK or the errno name each)
 *
 * Exits 1 on an unexpected failure, with a message on stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>
#include <linux/offsched.h>

static const char *ename(int e)
{
	switch (e) {
	case 0: return "OK";
	case EAGAIN: return "EAGAIN";
	case EINVAL: return "EINVAL";
	case ENODATA: return "ENODATA";
	case EFAULT: return "EFAULT";
	default: return strerror(e);
	}
}

static int open_attached(const char *cpu, int flags)
{
	struct offsched_attach a = { .cpu = (uint32_t)strtoul(cpu, NULL, 0) };
	int fd = open("/dev/offsched", flags);

	if (fd < 0 || ioctl(fd, OFFSCHED_IOC_ATTACH, &a)) {
		fprintf(stderr, "doorbell: attach to CPU %s: %s\n", cpu, strerror(errno));
		exit(1);
	}
	return fd;
}

/* errno of one read() of LEN bytes, 0 if it returned them */
static int read_errno(int fd, size_t len)
{
	uint64_t v;

	return read(fd, &v, len) == (ssize_t)len ? 0 : errno;
}

static long nvcsw(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_nvcsw;
}

static int wait_rings(const char *cpu, int idle_ms)
{
	int fd = open_attached(cpu, O_RDONLY);
	struct pollfd p = { .fd = fd, .events = POLLIN };
	unsigned long reads = 0;
	uint64_t v, last = 0;
	long s0;

	printf("attached\n");
	fflush(stdout);
	s0 = nvcsw();
	for (;;) {
		if (reads) {
			int r = poll(&p, 1, idle_ms);

			if (r < 0) {
				perror("doorbell: poll");
				return 1;
			}
			if (!r)
				break;
		}
		if (read(fd, &v, sizeof(v)) != sizeof(v)) {
			perror("doorbell: read");
			return 1;
		}
		if (reads && v <= last) {
			fprintf(stderr, "doorbell: the count went from %llu to %llu\n",
				(unsigned long long)last, (unsigned long long)v);
			return 1;
		}
		last = v;
		reads++;
	}
	printf("reads=%lu last=%llu sleeps=%ld\n", reads,
	       (unsigned long long)last, nvcsw() - s0);
	return 0;
}

static int errors(const char *cpu)
{
	int fd = open("/dev/offsched", O_RDONLY);
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int noattach, pollerr, shrt, nonblock;

	if (fd < 0) {
		perror("doorbell: /dev/offsched");
		return 1;
	}
	noattach = read_errno(fd, sizeof(uint64_t));
	pollerr = poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
	close(fd);
	fd = open_attached(cpu, O_RDONLY);
	shrt = read_errno(fd, sizeof(uint32_t));
	close(fd);
	fd = open_attached(cpu, O_RDONLY | O_NONBLOCK);
	nonblock = read_errno(fd, sizeof(uint64_t));
	close(fd);
	printf("noattach=%s pollerr=%d short=%s nonblock=%s\n", ename(noattach),
	       pollerr, ename(shrt), ename(nonblock));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "wait"))
		return wait_rings(argv[2], atoi(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "errors"))
		return errors(argv[2]);
	fprintf(stderr, "usage: doorbell wait CPU IDLE_MS | doorbell errors CPU\n");
	return 2;
}
