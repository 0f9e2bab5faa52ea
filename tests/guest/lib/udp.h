/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The UDP sockets of the guest's flow tools (offsched-pkt's udpflow,
 * compare-test's pktflow): a sender's socket and address, and a receiver
 * bound with room for a whole flood, which says "listening=PORT" once it
 * can receive. Each exits with a message on failure.
 */
#ifndef NOTICK_UDP_H
#define NOTICK_UDP_H

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

static inline void udp_die(const char *what)
{
	fprintf(stderr, "%s: %s\n", what, strerror(errno));
	exit(1);
}

/* A socket to send to ADDR:PORT; -1 (said) for an address that is not one */
static inline int udp_sender(const char *addr, int port, struct sockaddr_in *to)
{
	int fd;

	memset(to, 0, sizeof(*to));
	to->sin_family = AF_INET;
	to->sin_port = htons(port);
	if (inet_pton(AF_INET, addr, &to->sin_addr) != 1) {
		fprintf(stderr, "bad address %s\n", addr);
		return -1;
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		udp_die("socket");
	return fd;
}

/* A socket bound to PORT with room for every datagram of a flood */
static inline int udp_receiver(int port)
{
	struct sockaddr_in me = { .sin_family = AF_INET,
				  .sin_port = htons(port),
				  .sin_addr.s_addr = htonl(INADDR_ANY) };
	int fd, rcvbuf = 256 << 20;

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		udp_die("socket");
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)))
		udp_die("SO_RCVBUFFORCE");
	if (bind(fd, (struct sockaddr *)&me, sizeof(me)))
		udp_die("bind");
	printf("listening=%d\n", port);
	fflush(stdout);
	return fd;
}

#endif
