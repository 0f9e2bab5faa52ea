#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# SCHED_NOTICK under load: stress-ng on the housekeeping CPU 0 for
# notick.load= seconds (60 in make test, 600 in make soak) while a
# SCHED_NOTICK thread spins on CPU 1. The system stays responsive (a
# command answers within 1 s throughout), the thread keeps its CPU with
# its tick stopped and takes no local timer interrupt while nothing else
# is queued there, and RCU does not stall. Then stress-ng pinned to CPU 1
# itself: it makes progress through the thread's yields.
. ../lib/ktap.sh
. ../lib/nt.sh
. ../lib/load.sh

NTT=$PWD/../notick/ntt
CPU=1
SYS=/sys/devices/system/cpu/cpu$CPU/notick
T=/tmp/notick-load
mkdir -p $T

ktap_plan 11
ktap_note "kernel $(uname -r); load ${LOAD} s"
ktap_setup "stress-ng runs in the guest ($(stress-ng --version 2>&1 | head -n 1))" \
	'stress-ng --version > /dev/null 2>&1'

# The run-time settings the notick suite documents: the lockup watchdog's
# hrtimer and device interrupts stay on CPU 0.
housekeeping_on_cpu0

"$NTT" spinhold $CPU > $T/hold 2>&1 & hold=$!
wait_for "grep -q ADMITTED $T/hold" &&
	wait_for '[ "$(cat $SYS/tick)" = stopped ]'
ktap_check "a SCHED_NOTICK thread spins on CPU $CPU, its tick stopped ($(cat $SYS/pid), $(cat $SYS/tick))" \
	'[ "$(cat $SYS/pid)" = $hold ] && [ "$(cat $SYS/tick)" = stopped ]'

# What happens on CPU 1 meanwhile, if anything, for the diagnostics:
# context switches, work items, timers, hrtimers, local timer interrupts.
echo 0 > $TR/tracing_on; echo > $TR/trace
echo 4096 > $TR/buffer_size_kb
trace_cpu $CPU
EVS="sched/sched_switch workqueue/workqueue_execute_start timer/timer_expire_entry
     timer/hrtimer_expire_entry irq_vectors/local_timer_entry timer/hrtimer_start
     timer/hrtimer_cancel timer/tick_stop irq_vectors/local_timer_exit"
trace_only $EVS
echo 1 > $TR/tracing_on
ktap_note "load starts at $(cut -d" " -f1 /proc/uptime) s"
l0=$(loc $CPU) y0=$(cat $SYS/yields) r0=$(cat $SYS/tick_restarts) u0=$(utime_of $hold)
load_start $T/stress
"$NTT" respond $LOAD > $T/respond 2>&1
l1=$(loc $CPU) y1=$(cat $SYS/yields) r1=$(cat $SYS/tick_restarts) u1=$(utime_of $hold)
echo 0 > $TR/tracing_on
trace_only
trace_cpu all
# what ran on CPU 1, with counts, and the events around each interrupt
sed -n 's/.*sched_switch: .*==> next_comm=\([^ ]*\) .*/ran \1/p
	s/.*workqueue_execute_start: .*function \([^ ]*\).*/work \1/p
	s/.*timer_expire_entry: .*function=\([^ ]*\).*/timer \1/p
	s/.*local_timer_entry: .*/local timer interrupt/p' \
	$TR/trace | sort | uniq -c | sort -rn > $T/others
# the trace is the evidence only if none of it was lost
overrun=$(sed -n 's/^overrun: //p' $TR/per_cpu/cpu$CPU/stats)
# switches to another task than the thread: what may restart the tick
arrivals=$(grep -c "sched_switch: .*==> next_comm=" $TR/trace)
arrivals=$((arrivals - $(grep -c "sched_switch: .*==> next_comm=ntt " $TR/trace)))
grep -B3 -A3 "local_timer_entry" $TR/trace | head -n 30 > $T/locs
dump $T/locs
ktap_note "on CPU $CPU during the load (trace overruns: $overrun; the 20 most frequent):"
head -n 20 $T/others > $T/others.top
dump $T/others.top
load_check $T/stress
dump $T/respond
n=$(kv $T/respond commands)
# Responsive beside the thread, which must have kept its CPU meanwhile
kept=0
[ "$(cat $SYS/pid 2> /dev/null)" = $hold ] && [ "$(policy_of $hold)" = 8 ] &&
	[ "$(cpu_of $hold)" = $CPU ] && [ "$u1" -gt "$u0" ] && kept=1
ktap_check "responsive beside the thread: $n commands, one every 500 ms, each answered within 1 s (worst $(kv $T/respond worst_ms) ms)" \
	'[ $kept = 1 ] && [ "$n" -ge $((LOAD)) ] && [ "$(kv $T/respond failed)" = 0 ] &&
	 [ "$(kv $T/respond over_1s)" = 0 ]'
ktap_check "the thread kept CPU $CPU and spun (policy $(policy_of $hold), utime $u0 -> $u1)" \
	'[ $kept = 1 ]'
# Nothing that may run elsewhere comes to CPU 1. What is bound to it may:
# in a 10-minute soak, a kworker of CPU 1's pool that workqueue reaps
# after 5 minutes idle wakes there to exit (6.1 does the same on a
# nohz_full= CPU). Each such task restarts the tick until it has run,
# within the grace period (10 ms, under 3 ticks at HZ=250): at most 5
# local timer interrupts for each restart, none without one.
others=$(sed -n 's/^ *[0-9]* ran //p' $T/others | grep -v "^ntt$" | tr '\n' ' ')
bound_only=1
for c in $others; do
	case $c in
	kworker/$CPU:*|ksoftirqd/$CPU|migration/$CPU|cpuhp/$CPU|rcuc/$CPU) ;;
	*) bound_only=0 ;;
	esac
done
ktap_check "only tasks bound to CPU $CPU came there meanwhile (${others:-none}; trace overruns ${overrun:-unknown}): $((y1 - y0)) yields, $((r1 - r0)) tick restarts" \
	'[ "$overrun" = 0 ] && [ $bound_only = 1 ] &&
	 { [ -n "$others" ] || { [ $y1 = $y0 ] && [ $r1 = $r0 ]; }; }'
ktap_check "local timer interrupts on CPU $CPU over the ${LOAD} s: $((l1 - l0)), none without a tick restart, at most 5 for each; $((r1 - r0)) restarts for $arrivals arrivals of other tasks, no more" \
	'[ $((l1 - l0)) -le $((5 * (r1 - r0))) ] && [ $((r1 - r0)) -le "$arrivals" ]'

# stress-ng on the notick CPU itself: its worker runs in the thread's
# yields, each after the grace period (sched_notick_grace_us).
y0=$(cat $SYS/yields)
stress-ng --taskset $CPU --cpu 1 --timeout 5s --metrics-brief > $T/pinned 2>&1; prc=$?
y1=$(cat $SYS/yields)
dump $T/pinned
ops=$(awk '$2 == "metrc:" && $4 == "cpu" { print $5; exit }' $T/pinned)
own=$(cat $SYS/pid 2> /dev/null)
ktap_check "stress-ng pinned to CPU $CPU, owned by the thread ($own), made progress ($ops bogo ops, exit $prc)" \
	'[ "$own" = $hold ] && [ $prc = 0 ] && [ "${ops:-0}" -gt 0 ]'
ktap_check "through the thread's yields ($((y1 - y0)) more), the thread still owns CPU $CPU" \
	'[ $y1 -gt $y0 ] && [ "$(cat $SYS/pid)" = $hold ] && [ "$(policy_of $hold)" = 8 ]'

kill -9 $hold; wait $hold 2>/dev/null
ktap_check "CPU $CPU released ($(cat $SYS/pid))" 'wait_for "[ \"\$(cat $SYS/pid)\" = 0 ]"'
ktap_check "the load beside the thread ($kept: it kept CPU $CPU): no RCU stall nor hung task reported" \
	'[ $kept = 1 ] && ! dmesg | grep -qiE "rcu.*stall|blocked for more than"'
