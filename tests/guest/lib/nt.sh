# SPDX-License-Identifier: GPL-2.0
# Helpers shared by the SCHED_NOTICK guest suites (busybox sh).
#   kv FILE KEY          value of KEY=value in FILE
#   dump FILE            FILE as KTAP diagnostic lines
#   within_pct A B PCT   |A - B| * 100 <= PCT * B (integers)
#   wait_for EXPR        poll up to 30 s for EXPR (not a pass criterion)
#   traced "EVENT..." CMD...  run CMD with only these trace events recorded
#                        (trace_only, lib/trace.sh), from an empty buffer;
#                        what they recorded stays in $TR/trace
#   loc CPU              local timer interrupts of CPU so far
#   policy_of PID        scheduling policy of PID (/proc/PID/stat field 41)
#   measure_hz           the tick rate (lib/hz.sh)
#   kernel_at_least M N  the running kernel is version M.N or later
#                        (lib/kver.sh)
#   bw_timer             the function of the per-CPU bandwidth timer that a
#                        fair or RT task run on a CPU arms there: the RT
#                        bandwidth timer on 6.1; from 6.12 (no RT bandwidth
#                        timer without RT_GROUP_SCHED) the fair server's
#   have_class           the kernel has the SCHED_NOTICK class (its grace
#                        sysctl): an errno counts as the class's only then,
#                        a kernel without it refuses every request (EINVAL)
#   housekeeping_on_cpu0 the watchdog and device IRQs on CPU 0 only (what
#                        nohz_full= and irqaffinity= would do at boot), so
#                        that LOC counts show what the class itself does
. ../lib/trace.sh
. ../lib/hz.sh
. ../lib/kver.sh
kv() { sed -n "s/^$2=//p" "$1"; }
dump() { sed 's/^/# /' "$1"; }
within_pct() {
	d=$(($1 - $2)); [ $d -lt 0 ] && d=$((-d))
	[ $((d * 100)) -le $(($3 * $2)) ]
}
wait_for() {
	i=0
	while ! eval "$1"; do
		i=$((i + 1)); [ $i -ge 300 ] && return 1; sleep 0.1
	done
}
have_class() { [ -e /proc/sys/kernel/sched_notick_grace_us ]; }
bw_timer() {
	if kernel_at_least 6 12; then echo dl_task_timer; else echo sched_rt_period_timer; fi
}
check_nonneg_int() { case "$1" in ''|*[!0-9]*) return 1 ;; esac; }
traced() {
	evs=$1
	shift
	echo 0 > $TR/tracing_on
	echo > $TR/trace
	trace_only $evs
	echo 1 > $TR/tracing_on
	"$@"
	echo 0 > $TR/tracing_on
	trace_only
}
loc() { awk -v c=$(($1 + 2)) '$1 == "LOC:" { print $c }' /proc/interrupts; }
policy_of() { awk '{print $41}' /proc/$1/stat 2>/dev/null; }
cpu_of() { awk '{print $39}' /proc/$1/stat 2>/dev/null; }
utime_of() { awk '{print $14}' /proc/$1/stat 2>/dev/null; }
housekeeping_on_cpu0() {
	echo 0 > /proc/sys/kernel/watchdog_cpumask 2>/dev/null
	echo 1 > /proc/irq/default_smp_affinity 2>/dev/null
	for f in /proc/irq/[0-9]*/smp_affinity; do echo 1 > $f 2>/dev/null; done
}
