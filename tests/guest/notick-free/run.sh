#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# SCHED_NOTICK costs nothing until it is used: before the first admission
# after boot, and again after the last release, no CPU is in nohz_full's
# global mode (the timekeeping CPU 0 stops its tick when idle), no CPU
# tracks user mode, and membarrier's GLOBAL command works. Requests that
# admission refuses never turn the mode on. While a thread is admitted,
# membarrier GLOBAL still works: the owned CPU, in user space, executes a
# barrier from an interrupt. The mode goes off without stopping any CPU.
# (The KUnit suite sched_notick_mode checks the static keys themselves.)
. ../lib/ktap.sh
. ../lib/nt.sh

NTT=/tests/notick/ntt
CPU=1
T=/tmp/notick-free
mkdir -p $T

ktap_plan 13
ktap_note "kernel $(uname -r); cmdline: $(cat /proc/cmdline)"

# The tick period
measure_hz
ktap_note "HZ=$hz ($hz_how)"

# free WHEN [EXPR]: the checks of a kernel on which SCHED_NOTICK is not in
# use, each also requiring EXPR (after the last release: that there was
# one).  Before any admission they pass on a kernel without the class too:
# that is their claim, the class costs nothing until it is used.
free() {
	pre=${2:-true}
	"$NTT" membarrier > $T/mb 2>&1
	dump $T/mb
	ktap_check "$1: membarrier GLOBAL offered and works ($(kv $T/mb query_global), $(kv $T/mb global))" \
		'eval "$pre" && [ "$(kv $T/mb query_global)" = 1 ] && [ "$(kv $T/mb global)" = OK ]'

	# Context tracking's user_enter/user_exit events fire on every
	# transition of a CPU it tracks: none may fire.
	if [ -d $TR/events/context_tracking/user_enter ]; then
		traced "context_tracking/user_enter context_tracking/user_exit" \
			sh -c "'$NTT' syscalls 0 1000; '$NTT' syscalls $CPU 1000"
		n=$(grep -c 'user_enter\|user_exit' $TR/trace)
		ktap_check "$1: 2000 system calls on CPUs 0 and $CPU, no context tracking event ($n)" \
			'eval "$pre" && [ "$n" = 0 ]'
	else
		ktap_fail "$1: context tracking events (none in $TR/events/context_tracking)"
	fi

	# The timekeeping CPU idles tickless: in 2 s of an idle system, CPU 0
	# takes far fewer than the 2 * HZ interrupts of a tick kept running.
	l0=$(loc 0); sleep 2; l1=$(loc 0)
	ktap_check "$1: idle CPU 0 stops its tick ($((l1 - l0)) LOC in 2 s, fewer than HZ/2 = $((hz / 2)))" \
		'eval "$pre" && [ $((l1 - l0)) -lt $((hz / 2)) ]'
}

free "before any admission"

# Requests admission refuses (a thread allowed on two CPUs, a thread on
# the timekeeping CPU) never take the full dynticks mode: no static key
# flips, no CPU's stopper runs. The soft lockup watchdog, which runs
# every CPU's stopper every 4 s, is off while stoppers are counted.  A
# kernel without the class refuses them too: the check counts only where
# the class is (its grace sysctl).
echo 0 > /proc/sys/kernel/watchdog
dmesg -c > /dev/null
r2=$(/tests/notick/ntadmit -c 0,$CPU -s -n 500 0)
r0=$(/tests/notick/ntadmit -c 0 -s -n 500 0)
dmesg > $T/dmesg.refused
echo 1 > /proc/sys/kernel/watchdog
ktap_check "1000 refused requests ($r2; $r0): the mode never went on ($(grep -c 'Full dynticks mode' $T/dmesg.refused) messages), no stopper ran" \
	'have_class && [ "$r2" = "EINVAL=500 stoppers=0" ] && [ "$r0" = "EINVAL=500 stoppers=0" ] &&
	 ! grep -q "Full dynticks mode" $T/dmesg.refused'

# The first admission turns context tracking on while CPU 0 runs a task in
# user space: its next entry into the kernel must not trip the entry
# code's check of the user/kernel state.
# Turning the mode on stops the timekeeping CPU alone (its stopper
# thread runs the switch): the thread's CPU, where it already runs, is
# left alone.
taskset -c 0 sh -c 'while :; do :; done' &
spin_pid=$!
sleep 0.5
dmesg -c > /dev/null
echo 0 > $TR/tracing_on
echo > $TR/trace
trace_only sched/sched_switch sched/sched_notick_admit
echo 1 > $TR/tracing_on
taskset -c $CPU "$NTT" spinhold $CPU > $T/hold 2>&1 &
hold_pid=$!
wait_for "grep -q ADMITTED $T/hold" || dump $T/hold
echo 0 > $TR/tracing_on
trace_only
# CPU 0's stopper runs, and CPU 1's that overlap one of them in time and
# begin before the admission is done (stop_machine() holds every CPU's at
# once, while the admission waits for the switch). Another use of CPU
# 1's stopper, the admission pushing a task away, comes after the
# sched_notick_admit event; under single-threaded TCG it may still
# overlap the window of CPU 0's stopper, which is switched out only when
# CPU 0's turn comes again.
r=$(awk -v c=$CPU '
	function ts(l) { match(l, /[0-9]+\.[0-9]+:/); return substr(l, RSTART, RLENGTH - 1) + 0 }
	/ sched_notick_admit: / && / admitted$/ && !adm { adm = ts($0) }
	!/sched_switch:/ { next }
	/\[000\]/ && /next_comm=migration\/0 / { s0 = ts($0) }
	/\[000\]/ && /prev_comm=migration\/0 / && s0 { n++; a[n] = s0; b[n] = ts($0); s0 = 0 }
	$0 ~ "\\[00" c "\\]" && $0 ~ "next_comm=migration/" c " " { s1 = ts($0) }
	$0 ~ "\\[00" c "\\]" && $0 ~ "prev_comm=migration/" c " " && s1 { m++; x[m] = s1; y[m] = ts($0); s1 = 0 }
	END { both = 0
	      for (i = 1; i <= m; i++) for (j = 1; j <= n; j++)
		      if (x[i] <= b[j] && y[i] >= a[j] && x[i] < adm) both++
	      print n + 0, (adm ? both : "no-admit-event") }' $TR/trace)
m0=${r% *} m1=${r#* }
sleep 0.5
kill -9 $spin_pid; wait $spin_pid 2>/dev/null
dmesg > $T/dmesg.on
ktap_check "tracking turned on while CPU 0 ran in user space: no warning ($(grep -c 'WARNING' $T/dmesg.on))" \
	'grep -q "Full dynticks mode on" $T/dmesg.on && ! grep -q WARNING $T/dmesg.on'
ktap_check "turning the mode on stopped CPU 0 alone: its stopper ran ($m0 times), CPU $CPU's never at the same time ($m1 times)" \
	'[ "$m0" -ge 1 ] && [ "$m1" = 0 ]'
# membarrier GLOBAL while CPU 1 is owned: offered and done, each call
# interrupting the owned CPU once, whose thread spins in user space as an
# RCU extended quiescent state, to execute its barrier.
own=$(cat /sys/devices/system/cpu/cpu$CPU/notick/pid 2> /dev/null)
c0=$(awk -v c=$((CPU + 2)) '$1 == "CAL:" { print $c }' /proc/interrupts)
ok=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	"$NTT" membarrier > $T/mb 2>&1
	[ "$(kv $T/mb query_global)" = 1 ] && [ "$(kv $T/mb global)" = OK ] && ok=$((ok + 1))
done
c1=$(awk -v c=$((CPU + 2)) '$1 == "CAL:" { print $c }' /proc/interrupts)
dump $T/mb
ktap_check "while CPU $CPU is owned (by ${own:-nobody}): membarrier GLOBAL offered and done ($ok of 10), CPU $CPU interrupted for each ($((c1 - c0)) function calls)" \
	'[ "${own:-0}" != 0 ] && [ $ok = 10 ] && [ $((c1 - c0)) -ge 10 ]'
# The control for the context tracking checks: the events do fire for
# transitions on a tracked CPU.
traced "context_tracking/user_enter context_tracking/user_exit" "$NTT" syscalls $CPU 1000
n=$(grep -c 'user_enter\|user_exit' $TR/trace)
ktap_check "while CPU $CPU is owned: 1000 system calls there give context tracking events ($n, at least 2000)" \
	'[ "$n" -ge 2000 ]'
dmesg -c > /dev/null
echo 0 > /proc/sys/kernel/watchdog
kill -9 $hold_pid; wait $hold_pid 2>/dev/null
released=0
wait_for "[ \"\$(cat /sys/devices/system/cpu/cpu$CPU/notick/pid)\" = 0 ]" &&
	[ "${own:-0}" != 0 ] && released=1
ktap_check "thread $own released (cpu$CPU/notick/pid $(cat /sys/devices/system/cpu/cpu$CPU/notick/pid))" \
	'[ $released = 1 ]'
# The full dynticks mode goes off a second after the last release, with
# no stop_machine() for it (a grace period instead), which would run
# every online CPU's stopper. One CPU's alone may run meanwhile for the
# scheduler (active balancing once the owned CPU takes tasks again).
./ntquiet 5 "Full dynticks mode off" > $T/off
echo 1 > /proc/sys/kernel/watchdog
dump $T/off
ncpu=$(grep -c '^processor' /proc/cpuinfo)
ktap_check "the full dynticks mode goes off within 5 s of the release ($(kv $T/off found)), no stop_machine() meanwhile (stoppers ran on $(kv $T/off stopped_cpus) of $ncpu CPUs, $(kv $T/off stoppers) switches)" \
	'[ "$(kv $T/off found)" = 1 ] && [ "$(kv $T/off stopped_cpus)" -lt "$ncpu" ]'

free "after the last release" '[ $released = 1 ]'

