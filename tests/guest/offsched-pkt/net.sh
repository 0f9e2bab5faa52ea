# SPDX-License-Identifier: GPL-2.0
# The network of the pkt service suites (busybox sh, after ../lib/ktap.sh
# and ../offsched/lib.sh): a veth pair from the root network namespace
# (v0, 10.9.0.1) to another one (v1, 10.9.0.2), and UDP flows over it.
#   net_up                  make the pair; sets NS, the namespace's holder
#   kv FILE KEY             the last value KEY=value in FILE
#   recv_start PORT [IDLE]  a receiver in the namespace, ready; sets rp
#   recv_end PORT           wait for it; sets recv and dup
#   flow PORT COUNT [PPS]   send COUNT datagrams to PORT; sets sent, recv, dup
U=/tests/offsched-pkt/udpflow
T=${T:-/tmp/offsched-pkt}
mkdir -p $T

kv() { sed -n "s/^$2=//p" "$1" | tail -n 1; }

net_up() {
	unshare -n sleep 100000 &
	NS=$!
	wait_for "[ \"\$(readlink /proc/$NS/ns/net)\" != \"\$(readlink /proc/self/ns/net)\" ]"
	ktap_check "veth pair v0 (root namespace) and v1 (namespace of $NS)" \
		'$U veth v0 v1 $NS > $T/veth 2>&1' || cat $T/veth
	ip addr add 10.9.0.1/24 dev v0
	ip link set v0 up
	ip link set lo up
	nsenter -t $NS -n sh -c 'ip addr add 10.9.0.2/24 dev v1; ip link set v1 up; ip link set lo up'
}

recv_start() {
	nsenter -t $NS -n $U recv $1 ${2:-500} > $T/recv.$1 2>&1 &
	rp=$!
	wait_for "grep -q listening $T/recv.$1"
}

recv_end() {
	wait $rp
	recv=$(kv $T/recv.$1 received) dup=$(kv $T/recv.$1 dup)
}

flow() {
	recv_start $1
	$U send 10.9.0.2 $1 $2 ${3:-} > $T/send.$1 2>&1
	sent=$(kv $T/send.$1 sent)
	recv_end $1
}
