#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Two pkt services started at once, in a 4-CPU guest: CPUs 1 and 2 race
# their starts, ROUNDS times (100; 1000 under make test KASAN=1) while a
# UDP flow runs over the veth pair of the offsched-pkt suite. One pkt
# service can run at a time: exactly one start wins, the other gets EBUSY
# and leaves nothing behind, and the winner's rule keeps counting the flow
# until it is stopped. Nothing is lost on the way: every datagram sent is
# received once.
. ../lib/ktap.sh

ktap_plan 9

. ../offsched/lib.sh
T=/tmp/offsched-pkt-race
. ../offsched-pkt/net.sh
R=/tests/offsched-pkt-race/racew
ROUNDS=100
grep -q 'notick.kernel=kasan' /proc/cmdline && ROUNDS=1000

cdir() { echo $SYS/cpu$1/offsched; }
rule_pkts() { sed -n "s/^0 .* packets \([0-9]*\) .*/\1/p" $(cdir $1)/pkt_rules; }

ktap_check "modprobe offsched_mgr" 'modprobe offsched_mgr'
net_up
for c in 1 2; do
	echo pkt > $(cdir $c)/service
	echo "add count proto udp dport 9000" > $(cdir $c)/pkt_rules
done
ktap_check "CPUs 1 and 2 have the pkt service and one counting rule each" \
	'[ "$(cat $(cdir 1)/service) $(cat $(cdir 2)/service)" = "pkt pkt" ] &&
	 [ "$(rule_pkts 1) $(rule_pkts 2)" = "0 0" ]'

# The flow: 1000 datagrams a second for as long as the rounds take
recv_start 9000 20000
$U send 10.9.0.2 9000 4000000 1000 > $T/send.9000 2>&1 &
sp=$!

# Each round: both starts at once; the winner must count, then stop.
n=0 won1=0 won2=0 bad= slow=
while [ $n -lt $ROUNDS ]; do
	n=$((n + 1))
	r=$($R $(cdir 1)/control start $(cdir 2)/control start)
	case "$r" in
	"OK EBUSY") w=1 l=2 won1=$((won1 + 1)) ;;
	"EBUSY OK") w=2 l=1 won2=$((won2 + 1)) ;;
	*)	bad="$bad $n:$r"
		for c in 1 2; do $ctl write $(cdir $c)/control stop > /dev/null; done
		continue ;;
	esac
	# The loser left nothing: its CPU online, nothing registered
	ls=$(cat $(cdir $l)/state)
	[ "$(cat $SYS/cpu$l/online)" = 1 ] && [ "$ls" != running ] &&
		[ "$ls" != armed ] || bad="$bad $n:loser-$l-$ls"
	# The winner runs and its rule counts the flow
	p0=$(rule_pkts $w)
	[ "$(cat $(cdir $w)/state)" = running ] || bad="$bad $n:winner-$w-$(cat $(cdir $w)/state)"
	wait_for '[ "$(rule_pkts $w)" -gt "$p0" ]' || slow="$slow $n:$w"
	r=$($ctl write $(cdir $w)/control stop)
	[ "$r" = OK ] || bad="$bad $n:stop-$w-$r"
done
ktap_note "$ROUNDS rounds: CPU 1 won $won1, CPU 2 won $won2"
ktap_check "$ROUNDS racing starts of pkt on CPUs 1 and 2: exactly one won each (bad:${bad:- none})" \
	'[ -z "$bad" ] && [ $((won1 + won2)) = $ROUNDS ]'
ktap_check "the winner's rule counted the flow after every EBUSY (not:${slow:- none})" \
	'[ -z "$slow" ]'
ktap_check "rule counters: CPU 1 $(rule_pkts 1), CPU 2 $(rule_pkts 2), both rose with their wins" \
	'{ [ $won1 = 0 ] || [ "$(rule_pkts 1)" -ge $won1 ]; } &&
	 { [ $won2 = 0 ] || [ "$(rule_pkts 2)" -ge $won2 ]; }'

kill $sp
wait $sp
recv_end 9000
top=$(kv $T/recv.9000 max_seq)
ktap_check "both CPUs online again, neither service left running or armed" \
	'[ "$(cat $SYS/online)" = 0-3 ] &&
	 ! grep -q -e running -e armed $(cdir 1)/state $(cdir 2)/state'
ktap_check "every datagram up to the last one received once ($recv, last $top, dup $dup)" \
	'[ "$recv" -gt 0 ] && [ "$recv" = $((top + 1)) ] && [ "$dup" = 0 ]'
for c in 1 2; do echo none > $(cdir $c)/service; done
ktap_check "rmmod offsched_mgr" 'rmmod offsched_mgr'
kill $NS
