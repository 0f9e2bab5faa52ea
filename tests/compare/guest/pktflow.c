// SPDX-License-Identifier: GPL-2.0
/*
 * pktflow: compare-test's packet flow, over a veth pair between two
 * network namespaces of the guest, both ends on the same CPU.
 *
 *   pktflow send ADDR PORT COUNT [PPS]
 *	Send COUNT UDP datagrams of 64 bytes to ADDR:PORT, each carrying its
 *	sequence number and the CLOCK_MONOTONIC time it was sent at, at most
 *	PPS per second if given, asleep until each one's time (so that the
 *	CPU's busy time is the packets'), else as fast as the socket takes
 *	them.
 *	Prints "sent=N" and "send_ns=N" (first to last send).
 *   pktflow recv PORT IDLE_MS
 *	Receive on PORT until nothing came for IDLE_MS, after the first
 *	datagram. Prints "listening=PORT" once bound, then "received=N",
 *	"dup=N", "span_ns=N" (first to last arrival) and the latency of
 *	each datagram, from its send to its arrival in this process:
 *	"lat_p50_ns=N", "lat_p99_ns=N", "lat_max_ns=N".
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../../guest/lib/udp.h"

#define MAX_PKTS (1U << 22)

struct payload {
	uint64_t seq;
	uint64_t sent_ns;
	char pad[48];
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int cmd_send(const char *addr, int port, unsigned long count,
		    unsigned long pps)
{
	struct sockaddr_in to;
	struct payload p = { 0 };
	uint64_t t0 = now_ns(), t = t0;
	unsigned long seq;
	int fd;

	fd = udp_sender(addr, port, &to);
	if (fd < 0)
		return 2;
	for (seq = 0; seq < count; seq++) {
		if (pps) {
			uint64_t due = t0 + seq * 1000000000ULL / pps;
			struct timespec ts = { .tv_sec = due / 1000000000,
					       .tv_nsec = due % 1000000000 };

			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
					       &ts, NULL) == EINTR)
				;
		}
		p.seq = seq;
		p.sent_ns = t = now_ns();
		while (sendto(fd, &p, sizeof(p), 0, (struct sockaddr *)&to,
			      sizeof(to)) < 0) {
			if (errno != ENOBUFS && errno != EAGAIN)
				udp_die("pktflow: sendto");
		}
	}
	printf("sent=%lu\nsend_ns=%llu\n", count,
	       (unsigned long long)(t - t0));
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmd_recv(int port, int idle_ms)
{
	static unsigned char seen[MAX_PKTS];
	static uint64_t lat[MAX_PKTS];
	unsigned long received = 0, dup = 0;
	uint64_t first = 0, last = 0, t;
	int fd = udp_receiver(port);
	struct pollfd pfd;
	struct payload p;

	pfd.fd = fd;
	pfd.events = POLLIN;
	/* The first datagram may be long in coming; then IDLE_MS ends it */
	while (poll(&pfd, 1, received ? idle_ms : 60000) > 0) {
		if (recv(fd, &p, sizeof(p), 0) != (ssize_t)sizeof(p))
			continue;
		t = now_ns();
		if (!received)
			first = t;
		last = t;
		if (p.seq >= MAX_PKTS || received >= MAX_PKTS)
			continue;
		if (seen[p.seq]++) {
			dup++;
			continue;
		}
		lat[received++] = t - p.sent_ns;
	}
	printf("received=%lu\ndup=%lu\nspan_ns=%llu\n", received, dup,
	       (unsigned long long)(last - first));
	if (received) {
		qsort(lat, received, sizeof(lat[0]), cmp_u64);
		printf("lat_p50_ns=%llu\nlat_p99_ns=%llu\nlat_max_ns=%llu\n",
		       (unsigned long long)lat[received / 2],
		       (unsigned long long)lat[received * 99 / 100],
		       (unsigned long long)lat[received - 1]);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "send"))
		return cmd_send(argv[2], atoi(argv[3]),
				strtoul(argv[4], NULL, 0),
				argc == 6 ? strtoul(argv[5], NULL, 0) : 0);
	if (argc == 4 && !strcmp(argv[1], "recv"))
		return cmd_recv(atoi(argv[2]), atoi(argv[3]));
	fprintf(stderr,
		"usage: pktflow send ADDR PORT COUNT [PPS]\n"
		"       pktflow recv PORT IDLE_MS\n");
	return 2;
}
