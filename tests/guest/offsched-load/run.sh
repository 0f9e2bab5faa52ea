#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# OFFSCHED under load: stress-ng on CPU 0, the only online CPU, for
# notick.load= seconds (60 in make test, 600 in make soak) while the echo
# service runs on the offlined CPU 1 and answers through its rings. The
# system stays responsive (a command answers within 1 s throughout), the
# service answers every exchange, and it stops and returns its CPU after.
. ../lib/ktap.sh
. ../lib/nt.sh
. ../lib/load.sh
. ../offsched/lib.sh

NTT=/tests/notick/ntt
T=/tmp/offsched-load
mkdir -p $T

ktap_plan 8
ktap_note "kernel $(uname -r); load ${LOAD} s"
modprobe offsched_mgr
$ctl write $C1/service echo > /dev/null
expect "start the echo service on CPU 1" $C1/control start OK
ktap_check "CPU 1 offline, the service running ($(cat $ONLINE1), $(cat $C1/state))" \
	'[ "$(cat $ONLINE1)" = 0 ] && [ "$(cat $C1/state)" = running ]'

m0=$(field messages "$($ctl shm 1)")
load_start $T/stress
"$NTT" respond $LOAD > $T/respond 2>&1 & respond=$!
# Ten words through the rings every second while the load runs (about
# one exchange every 2 s under TCG with a loaded host; at least one every
# 4 s is required)
rounds=0 bad=0
while kill -0 $load_pid 2>/dev/null; do
	case "$($ctl ring 1 10)" in "OK n=10 "*) ;; *) bad=$((bad + 1)) ;; esac
	rounds=$((rounds + 1))
	sleep 1
done
load_check $T/stress
wait $respond
m1=$(field messages "$($ctl shm 1)")
dump $T/respond
n=$(kv $T/respond commands)
ktap_check "responsive: $n commands, one every 500 ms, each answered within 1 s (worst $(kv $T/respond worst_ms) ms)" \
	'[ "$n" -ge $LOAD ] && [ "$(kv $T/respond failed)" = 0 ] &&
	 [ "$(kv $T/respond over_1s)" = 0 ]'
ktap_check "the service answered all $rounds exchanges of 10 words ($bad failed; $((m1 - m0)) messages)" \
	'[ $rounds -ge $((LOAD / 4)) ] && [ $bad = 0 ] && [ $((m1 - m0)) = $((rounds * 10)) ]'
expect "stop the service" $C1/control stop OK
ktap_check "CPU 1 back online, a task pinned to it runs there" \
	'[ "$(cat $ONLINE1)" = 1 ] &&
	 [ "$(taskset -c 1 sh -c "cat /proc/self/stat" | awk "{print \$39}")" = 1 ]'
ktap_check "no RCU stall nor hung task reported" \
	'! dmesg | grep -qiE "rcu.*stall|blocked for more than"'
