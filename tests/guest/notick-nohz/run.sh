#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# SCHED_NOTICK on a kernel booted with nohz_full=2 (three CPUs): the full
# dynticks mode is on from boot and never goes off. A thread made
# SCHED_NOTICK on CPU 1 (full dynticks at run time) and one on the
# nohz_full= CPU 2 both run without a tick; releasing them leaves CPU 2
# full dynticks as booted (its tick stops again under an ordinary task)
# and gives CPU 1 its tick back. The timekeeping and boot CPU 0 is
# refused. rcu_nocbs= lists CPU 1 too, as sched-notick.rst recommends:
# given at all, it replaces the configuration's default of offloading
# every CPU, and CPU 1's own callbacks would hold its tick for a while
# (notick-rcu-local tests that case).
. ../lib/ktap.sh
. ../lib/nt.sh

NTT=/tests/notick/ntt
T=/tmp/notick-nohz
mkdir -p $T

ktap_plan 9
ktap_note "kernel $(uname -r); cmdline: $(cat /proc/cmdline)"
ktap_setup "booted with nohz_full=2 ($(cat /sys/devices/system/cpu/nohz_full))" \
	'[ "$(cat /sys/devices/system/cpu/nohz_full)" = 2 ]'

"$NTT" try 0 0 > $T/try0 2>&1
ktap_check "CPU 0 (boot, timekeeping) refused by the class: EINVAL ($(cat $T/try0))" \
	'have_class && [ "$(cat $T/try0)" = EINVAL ]'

# The run-time settings sched-notick.rst gives for a SCHED_NOTICK CPU:
# nohz_full= took CPU 2 out of the lockup watchdog's mask at boot, the
# sysctl takes CPU 1 out here (and device IRQs go to CPU 0). Left in, the
# watchdog's 4 s hrtimer fired on CPU 1 within a 2 s window (traced: it
# wakes migration/1, whose stop work restarts the tick once; 3 LOC).
housekeeping_on_cpu0
ktap_note "watchdog_cpumask: $(cat /proc/sys/kernel/watchdog_cpumask)"

# spin CPU: a SCHED_NOTICK spinner there for 2 s, 2 grace periods forced,
# counted once its tick stopped: no tick then, on the nohz_full= CPU 2 as
# on CPU 1, made full dynticks at run time. The CPU's timer, tick, IPI,
# wakeup and switch events are traced, and printed around each local
# timer interrupt it takes.
# released_CPU: 1 once CPU's thread, its tick stopped, was released
released_1=0 released_2=0
for cpu in 1 2; do
	trace_cpu $cpu
	traced "irq_vectors/local_timer_entry irq_vectors/call_function_single_entry irq_vectors/reschedule_entry timer/hrtimer_expire_entry timer/timer_expire_entry timer/tick_stop sched/sched_switch sched/sched_wakeup" \
		"$NTT" spin $cpu 2 2 > $T/spin$cpu 2>&1
	trace_cpu all
	dump $T/spin$cpu
	grep -B6 -A2 "local_timer_entry" $TR/trace | tail -n 60 | sed "s/^/# /"
	l=$(kv $T/spin$cpu loc_delta) r=$(kv $T/spin$cpu tick_restarts_in_window)
	ktap_check "SCHED_NOTICK on CPU $cpu: the tick stopped ($(kv $T/spin$cpu tick_stop_ms) ms after admission), then 0 LOC over 2 s, 2 grace periods ($l LOC, $r restarts, $(kv $T/spin$cpu grace_periods))" \
		'[ "$(kv $T/spin$cpu tick_stop_ms)" != -1 ] && [ "$l" = 0 ] &&
		 [ "$(kv $T/spin$cpu grace_periods)" = 2 ]'
	rel=0
	wait_for "[ \"\$(cat /sys/devices/system/cpu/cpu$cpu/notick/pid)\" = 0 ]" &&
		[ "$(kv $T/spin$cpu tick_stop_ms)" != -1 ] && rel=1
	eval released_$cpu=$rel
	ktap_check "CPU $cpu released ($(cat /sys/devices/system/cpu/cpu$cpu/notick/pid))" '[ $rel = 1 ]'
done

# After the releases: the nohz_full= CPU still stops its tick under an
# ordinary task (its context tracking was not switched off), CPU 1 does
# not, and the mode is still on (membarrier GLOBAL refused, as on any
# nohz_full= kernel).  Each counts only after those releases: on a kernel
# without the class they are mainline's behaviour.
# From 6.12 an ordinary task has the fair server behind it, a deadline
# entity given 50 ms of each 1 s period: on a nohz_full= CPU, once a
# period, it is queued as a deadline entity, which keeps the tick
# (sched_can_stop_tick()), for at most its runtime. Traced here: a
# function call IPI, a reschedule, then 1 to 3 ticks. That is mainline
# 6.12's own: 4 local timer interrupts in 4 s under a SCHED_NORMAL
# spinner on the nohz_full= CPU of its compare-mainline kernel. So the
# window's interrupts on CPU 2 come in bursts, one a second and one more
# for the window's edges, each within 50 ms of ticks; a running tick
# would give 500 in a row. On 6.1 there is none at all.
measure_hz
traced "irq_vectors/local_timer_entry irq_vectors/call_function_single_entry irq_vectors/reschedule_entry timer/hrtimer_expire_entry timer/hrtimer_start timer/timer_expire_entry sched/sched_switch" \
	"$NTT" normal-spin-nohz 2 2 > $T/normal2 2>&1
dump $T/normal2
sed -n '/ntt: spin window/,/ntt: spin ends/p' $TR/trace > $T/normal2.window
grep -e '\[002\]' -e 'ntt:' $T/normal2.window | tail -n 40 | sed 's/^/# /'
# markers, loc, bursts (a gap of 100 ms or more starts one), the most
# interrupts in one burst
awk '
	/ntt: spin (window|ends)/ { m++ }
	/ \[002\] / && / local_timer_entry: / {
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) t = $i + 0
		if (!n || t - last >= 0.1) { b++; c = 0 }
		n++; c++; if (c > most) most = c; last = t }
	END { printf "markers=%d\nloc=%d\nbursts=%d\nmost=%d\n", m, n, b, most }' \
	$T/normal2.window > $T/normal2.bursts
dump $T/normal2.bursts
bursts=0 most=0
kernel_at_least 6 12 && bursts=3 most=$((50 * hz / 1000 + 1))
ktap_check "after the release, a SCHED_NORMAL spinner on nohz_full= CPU 2: the tick stopped ($(kv $T/normal2 tick_stop_ms) ms), then in 2 s $(kv $T/normal2.bursts loc) LOC in $(kv $T/normal2.bursts bursts) burst(s) of at most $(kv $T/normal2.bursts most) (allowed: $bursts of $most), grace periods complete ($(kv $T/normal2 grace_periods))" \
	'[ $released_2 = 1 ] && [ "$(kv $T/normal2.bursts markers)" = 2 ] &&
	 [ "$(kv $T/normal2 tick_stop_ms)" != -1 ] &&
	 [ "$(kv $T/normal2.bursts bursts)" -le $bursts ] &&
	 [ "$(kv $T/normal2.bursts most)" -le $most ] &&
	 [ "$(kv $T/normal2 loc_delta)" -le $((bursts * most)) ] &&
	 [ "$(kv $T/normal2 grace_periods)" = 2 ]'
"$NTT" normal-spin 1 2 > $T/normal1 2>&1
ktap_check "after the release, a SCHED_NORMAL spinner on CPU 1 takes the tick ($(kv $T/normal1 loc_delta) LOC in 2 s)" \
	'[ $released_1 = 1 ] && [ "$(kv $T/normal1 loc_delta)" -gt 0 ]'
"$NTT" membarrier > $T/mb 2>&1
ktap_check "after the releases, membarrier GLOBAL refused as on any nohz_full= kernel ($(kv $T/mb query_global), $(kv $T/mb global))" \
	'[ $released_1 = 1 ] && [ $released_2 = 1 ] &&
	 [ "$(kv $T/mb query_global)" = 0 ] && [ "$(kv $T/mb global)" = EINVAL ]'
