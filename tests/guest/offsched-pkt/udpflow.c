// SPDX-License-Identifier: GPL-2.0
/*
 * udpflow: the traffic of the offsched-pkt suite.
 *
 *   udpflow veth NAME PEER PID
 *	Create the veth pair NAME (here) and PEER (in the network namespace
 *	of process PID), as "ip link add ... type veth peer ... netns PID"
 *	would; busybox's ip cannot.
 *   udpflow send ADDR PORT COUNT [PPS]
 *	Send COUNT UDP datagrams of 64 bytes to ADDR:PORT, each carrying its
 *	sequence number, at most PPS per second if given. Prints "sent=N".
 *   udpflow gso ADDR PORT COUNT SEGS
 *	Send COUNT UDP GSO packets (UDP_SEGMENT) of SEGS datagrams of 64
 *	bytes each to ADDR:PORT, datagram i carrying sequence number i: each
 *	send crosses the veth pair as one packet that the stack counts as
 *	SEGS (skb_shinfo()->gso_segs) and segments for the socket. Prints
 *	"sent=N", N = COUNT * SEGS.
 *   udpflow recv PORT IDLE_MS
 *	Receive on PORT until nothing came for IDLE_MS. Prints "received=N",
 *	"dup=N" (sequence numbers seen twice), "reordered=N" (lower than one
 *	before) and "max_seq=N".
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/udp.h>
#include <linux/veth.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../lib/udp.h"

#define MAX_SEQ (1U << 22)

static void die(const char *what)
{
	fprintf(stderr, "udpflow: %s: %s\n", what, strerror(errno));
	exit(1);
}

struct req {
	struct nlmsghdr nh;
	struct ifinfomsg ifi;
	char attrs[512];
};

static struct rtattr *rta_add(struct nlmsghdr *nh, int type, const void *data,
			      int len)
{
	struct rtattr *rta = (struct rtattr *)((char *)nh +
					       NLMSG_ALIGN(nh->nlmsg_len));

	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(rta), data, len);
	nh->nlmsg_len = NLMSG_ALIGN(nh->nlmsg_len) + RTA_ALIGN(rta->rta_len);
	return rta;
}

static void rta_end(struct nlmsghdr *nh, struct rtattr *nest)
{
	nest->rta_len = (char *)nh + nh->nlmsg_len - (char *)nest;
}

static int cmd_veth(const char *name, const char *peer, int pid)
{
	struct req req = { 0 };
	struct rtattr *linkinfo, *data, *peerinfo;
	struct ifinfomsg peer_ifi = { .ifi_family = AF_UNSPEC };
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char reply[1024];
	struct nlmsgerr *err;
	uint32_t nspid = pid;
	int fd;
	ssize_t n;

	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(req.ifi));
	req.nh.nlmsg_type = RTM_NEWLINK;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_EXCL |
			     NLM_F_ACK;
	req.ifi.ifi_family = AF_UNSPEC;
	rta_add(&req.nh, IFLA_IFNAME, name, strlen(name) + 1);
	linkinfo = rta_add(&req.nh, IFLA_LINKINFO, NULL, 0);
	rta_add(&req.nh, IFLA_INFO_KIND, "veth", 5);
	data = rta_add(&req.nh, IFLA_INFO_DATA, NULL, 0);
	peerinfo = rta_add(&req.nh, VETH_INFO_PEER, &peer_ifi,
			   sizeof(peer_ifi));
	rta_add(&req.nh, IFLA_IFNAME, peer, strlen(peer) + 1);
	rta_add(&req.nh, IFLA_NET_NS_PID, &nspid, sizeof(nspid));
	rta_end(&req.nh, peerinfo);
	rta_end(&req.nh, data);
	rta_end(&req.nh, linkinfo);

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		die("socket");
	if (sendto(fd, &req, req.nh.nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0)
		die("sendto");
	n = recv(fd, reply, sizeof(reply), 0);
	if (n < 0)
		die("recv");
	err = NLMSG_DATA((struct nlmsghdr *)reply);
	if (((struct nlmsghdr *)reply)->nlmsg_type != NLMSG_ERROR || err->error) {
		errno = -err->error;
		die("RTM_NEWLINK");
	}
	close(fd);
	printf("veth=%s peer=%s netns_pid=%d\n", name, peer, pid);
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmd_send(const char *addr, int port, unsigned int count,
		    double pps)
{
	struct sockaddr_in to;
	char payload[64] = { 0 };
	unsigned int seq, sent = 0;
	double t0 = now_s();
	int fd;

	fd = udp_sender(addr, port, &to);
	if (fd < 0)
		return 2;
	for (seq = 0; seq < count; seq++) {
		memcpy(payload, &seq, sizeof(seq));
		while (pps > 0 && now_s() < t0 + seq / pps)
			;
		while (sendto(fd, payload, sizeof(payload), 0,
			      (struct sockaddr *)&to, sizeof(to)) < 0) {
			if (errno != ENOBUFS && errno != EAGAIN)
				die("sendto");
		}
		sent++;
	}
	printf("sent=%u\n", sent);
	return 0;
}

static int cmd_gso(const char *addr, int port, unsigned int count,
		   unsigned int segs)
{
	struct sockaddr_in to;
	static char buf[64 * 64];
	unsigned int i, j, seq = 0;
	int fd, seg = 64;

	if (!segs || segs > 64) {
		fprintf(stderr, "udpflow: bad segment count %u (1-64)\n", segs);
		return 2;
	}
	fd = udp_sender(addr, port, &to);
	if (fd < 0)
		return 2;
	if (setsockopt(fd, IPPROTO_UDP, UDP_SEGMENT, &seg, sizeof(seg)))
		die("UDP_SEGMENT");
	for (i = 0; i < count; i++) {
		for (j = 0; j < segs; j++, seq++)
			memcpy(buf + j * seg, &seq, sizeof(seq));
		while (sendto(fd, buf, segs * seg, 0, (struct sockaddr *)&to,
			      sizeof(to)) < 0) {
			if (errno != ENOBUFS && errno != EAGAIN)
				die("sendto");
		}
	}
	printf("sent=%u\n", seq);
	return 0;
}

static int cmd_recv(int port, int idle_ms)
{
	static unsigned char seen[MAX_SEQ];
	unsigned int received = 0, dup = 0, reordered = 0, max_seq = 0;
	int fd = udp_receiver(port), last = -1;
	struct pollfd pfd;
	char payload[64];
	unsigned int seq;

	pfd.fd = fd;
	pfd.events = POLLIN;
	while (poll(&pfd, 1, idle_ms) > 0) {
		if (recv(fd, payload, sizeof(payload), 0) < (ssize_t)sizeof(seq))
			continue;
		memcpy(&seq, payload, sizeof(seq));
		received++;
		if (seq >= MAX_SEQ)
			continue;
		if (seen[seq]++)
			dup++;
		if ((int)seq < last)
			reordered++;
		last = seq;
		if (seq > max_seq)
			max_seq = seq;
	}
	printf("received=%u\ndup=%u\nreordered=%u\nmax_seq=%u\n", received,
	       dup, reordered, max_seq);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "veth"))
		return cmd_veth(argv[2], argv[3], atoi(argv[4]));
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "send"))
		return cmd_send(argv[2], atoi(argv[3]), strtoul(argv[4], NULL, 0),
				argc == 6 ? atof(argv[5]) : 0);
	if (argc == 6 && !strcmp(argv[1], "gso"))
		return cmd_gso(argv[2], atoi(argv[3]), strtoul(argv[4], NULL, 0),
			       strtoul(argv[5], NULL, 0));
	if (argc == 4 && !strcmp(argv[1], "recv"))
		return cmd_recv(atoi(argv[2]), atoi(argv[3]));
	fprintf(stderr, "usage: udpflow veth NAME PEER PID | send ADDR PORT COUNT [PPS] | recv PORT IDLE_MS\n");
	return 2;
}
