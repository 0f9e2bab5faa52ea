#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In-guest tests of the SCHED_NOTICK class (patches/sched-notick): admission
# and its errnos, fork/affinity/hotplug rules, sysfs state, the tick on the
# notick CPU (LOC interrupts from /proc/interrupts), RCU grace periods while
# the thread spins, CPU time accounting, the grace sysctl and yielding.
# No boot parameter is used: CPU 1 becomes tickless only by admission.
. ../lib/ktap.sh
. ../lib/nt.sh

NTT=$PWD/ntt
CPU=1
SYS=/sys/devices/system/cpu/cpu$CPU/notick
GRACE=/proc/sys/kernel/sched_notick_grace_us
T=/tmp/notick-test
mkdir -p $T

# The 60 s fuzz runs in the suite's own boot: its other two, on the
# JUMP_LABEL=y kernel (notick.kernel=jump) and with local RCU callbacks
# (notick-rcu-local), test what differs there, not the same input checks
# again, which would add two minutes to make test.
FUZZ=1
case " $(cat /proc/cmdline) " in *" notick.kernel="*) FUZZ=0 ;; esac
[ "${EXPECT_RCU:-}" = local ] && FUZZ=0
ktap_plan $((64 + 2 * FUZZ))
ktap_note "kernel $(uname -r); cmdline: $(cat /proc/cmdline)"

# --- interface presence -------------------------------------------------
ktap_check "sysctl $GRACE exists, default 10000 (documented)" \
	'[ "$(cat $GRACE 2>/dev/null)" = 10000 ]'
ok=1
for d in /sys/devices/system/cpu/cpu[0-9]*; do
	[ -d "$d/notick" ] || { ok=0; ktap_note "missing $d/notick"; continue; }
	[ "$(cat $d/notick/pid)" = 0 ] || ok=0
	case "$(cat $d/notick/tick)" in stopped|running) ;; *) ok=0 ;; esac
	for f in tick_stops tick_restarts yields; do
		check_nonneg_int "$(cat $d/notick/$f)" || ok=0
	done
done
ktap_check "every CPU has notick/{pid,tick,tick_stops,tick_restarts,yields}, pid 0" \
	'[ $ok = 1 ]'

# --- admission errnos ---------------------------------------------------
try() { "$NTT" try "$@" 2>&1; }
# A kernel without the class answers EINVAL to any SCHED_NOTICK request:
# each EINVAL below counts only where the valid request was admitted.
attr=$(try 0 $CPU)
ktap_check "sched_setattr(SCHED_NOTICK) on CPU $CPU alone succeeds ($attr)" \
	'[ "$attr" = "OK policy=8" ]'
sched=$(try -s 0 $CPU)
ktap_check "sched_setscheduler(SCHED_NOTICK, 0) succeeds ($sched)" \
	'[ "$sched" = "OK policy=8" ]'
r=$(try 5 $CPU)
ktap_check "priority 5 -> EINVAL where priority 0 is admitted (sched_setattr) ($r)" \
	'[ "$r" = EINVAL ] && [ "$attr" = "OK policy=8" ]'
r=$(try -s 1 $CPU)
ktap_check "priority 1 -> EINVAL where priority 0 is admitted (sched_setscheduler) ($r)" \
	'[ "$r" = EINVAL ] && [ "$sched" = "OK policy=8" ]'
r=$(try 0 0,$CPU)
ktap_check "two allowed CPUs -> EINVAL where CPU $CPU alone is admitted ($r)" \
	'[ "$r" = EINVAL ] && [ "$attr" = "OK policy=8" ]'
r=$(try 0 0)
ktap_check "boot/timekeeping CPU 0 -> EINVAL where CPU $CPU is admitted ($r)" \
	'[ "$r" = EINVAL ] && [ "$attr" = "OK policy=8" ]'
r=$(try -u 65534 0 $CPU)
ktap_check "without CAP_SYS_NICE (uid 65534) -> EPERM ($r)" '[ "$r" = EPERM ]'
# CAP_SYS_NICE in a user namespace is not CAP_SYS_NICE on the host's CPUs.
r=$(try -U 0 $CPU)
ktap_check "root of a new user namespace (CAP_SYS_NICE there), from root -> EPERM ($r)" \
	'[ "$r" = EPERM ]'
r=$(try -u 65534 -U -s 0 $CPU)
ktap_check "root of a new user namespace, from uid 65534, sched_setscheduler -> EPERM ($r)" \
	'[ "$r" = EPERM ]'
ktap_check "failed attempts left CPU $CPU free (pid $(cat $SYS/pid))" \
	'[ "$(cat $SYS/pid)" = 0 ]'

# --- a held CPU: sysfs pid, EBUSY, hotplug refusal, release on exit ------
"$NTT" hold $CPU > $T/hold 2>&1 &
holder=$!
wait_for 'grep -q ADMITTED $T/hold' || dump $T/hold
tid=$(sed -n 's/^ADMITTED //p' $T/hold)
ktap_check "sysfs pid shows the admitted thread ($(cat $SYS/pid) = $tid)" \
	'[ -n "$tid" ] && [ "$(cat $SYS/pid)" = "$tid" ]'
pol=$(awk '{print $41}' /proc/$tid/stat 2>/dev/null)
ktap_check "/proc/$tid/stat reports policy 8 ($pol)" '[ "$pol" = 8 ]'
r=$(try 0 $CPU)
ktap_check "second thread on the same CPU -> EBUSY ($r)" '[ "$r" = EBUSY ]'
r=$( (echo 0 > /sys/devices/system/cpu/cpu$CPU/online) 2>&1)
ktap_check "offlining CPU $CPU is refused while admitted ($r)" \
	'[ "$(cat /sys/devices/system/cpu/cpu$CPU/online)" = 1 ] &&
	 echo "$r" | grep -qi busy'
kill $holder; wait $holder 2>/dev/null
wait_for '[ "$(cat $SYS/pid)" = 0 ]'
ktap_check "thread exit releases the CPU (pid $(cat $SYS/pid))" \
	'[ "$(cat $SYS/pid)" = 0 ]'
again=$(try 0 $CPU)
ktap_check "CPU $CPU can be admitted again ($again)" '[ "$again" = "OK policy=8" ]'
echo 0 > /sys/devices/system/cpu/cpu$CPU/online 2>/dev/null
off=$(cat /sys/devices/system/cpu/cpu$CPU/online)
echo 1 > /sys/devices/system/cpu/cpu$CPU/online 2>/dev/null
ktap_check "its thread gone, CPU $CPU goes offline and back (was $off)" \
	'[ "$again" = "OK policy=8" ] && [ "$off" = 0 ] &&
	 [ "$(cat /sys/devices/system/cpu/cpu$CPU/online)" = 1 ]'

# --- fork, affinity -----------------------------------------------------
r=$("$NTT" fork $CPU 2>&1)
ktap_check "fork: parent stays 8, child is SCHED_NORMAL 0 ($r)" \
	'[ "$r" = "parent=8 child=0" ]'
r=$("$NTT" affinity $CPU 2>&1)
ktap_check "affinity: widening -> EBUSY, same CPU -> OK, policy kept ($r)" \
	'[ "$r" = "widen=EBUSY same=OK policy=8" ]'
# A fork+exec'd child gets its cpuset's CPUs, not its parent's one CPU, and
# runs elsewhere: with a grace of -1, one left on CPU 1 would not run
# before its spinning parent blocks.
echo -1 > $GRACE
./ntfork $CPU > $T/fork 2>&1
echo 10000 > $GRACE
dump $T/fork
ktap_check "fork+exec under grace -1: the child ran ($(kv $T/fork child_ran)) on CPU $(kv $T/fork child_cpu), not $CPU, SCHED_NORMAL ($(kv $T/fork child_policy)), allowed on its cpuset's $(kv $T/fork child_ncpus) of $(kv $T/fork online_cpus) CPUs; parent still 8" \
	'[ "$(kv $T/fork child_ran)" = 1 ] && [ "$(kv $T/fork child_cpu)" != $CPU ] &&
	 [ "$(kv $T/fork child_policy)" = 0 ] &&
	 [ "$(kv $T/fork child_ncpus)" = "$(kv $T/fork online_cpus)" ] &&
	 [ "$(kv $T/fork parent_policy)" = 8 ]'

# --- kernel threads: user space may not give one a CPU --------------------
kt=
for p in /proc/[0-9]*; do
	[ "$(cat $p/comm 2>/dev/null)" = "ksoftirqd/$CPU" ] && kt=${p#/proc/}
done
r=$(./ntadmit ${kt:-0} 2>&1)
ktap_check "ksoftirqd/$CPU ($kt) -> EPERM, still SCHED_NORMAL ($(policy_of $kt)), CPU $CPU free ($r)" \
	'[ -n "$kt" ] && [ "$r" = EPERM=1 ] && [ "$(policy_of $kt)" = 0 ] &&
	 [ "$(cat $SYS/pid)" = 0 ]'

# --- context tracking: only while the CPU is full dynticks ---------------
# The context_tracking:user_enter event fires only on a CPU whose user mode
# is tracked (an RCU extended quiescent state, vtime accounting).  CPU 1
# has had SCHED_NOTICK threads above and must be back to normal.
ct_events() {	# ct_events CMD...: user_enter events on CPU $CPU while CMD runs
	traced context_tracking/user_enter "$@" > /dev/null 2>&1
	grep -c 'user_enter:' $TR/per_cpu/cpu$CPU/trace
}
syscalls_on_cpu() {	# a SCHED_NORMAL task making system calls on CPU $CPU
	taskset -c $CPU sh -c 'i=0; while [ $i -lt 300 ]; do i=$((i + 1)); read x < /proc/uptime; done'
}
if [ -d $TR/events/context_tracking/user_enter ]; then
	c0=$(ct_events syscalls_on_cpu)
	c1=$(ct_events "$NTT" spin $CPU 1 0)
	c2=$(ct_events syscalls_on_cpu)
	# Each "not tracked" counts only beside the "tracked" between them.
	ktap_check "CPU $CPU, its threads gone, not full dynticks: user mode not tracked ($c0 user_enter events)" \
		'[ "$c0" = 0 ] && [ "$c1" -gt 0 ]'
	ktap_check "SCHED_NOTICK thread on CPU $CPU: user mode tracked ($c1 user_enter events)" \
		'[ "$c1" -gt 0 ]'
	ktap_check "thread gone: user mode on CPU $CPU not tracked again ($c2 user_enter events)" \
		'[ "$c2" = 0 ] && [ "$c1" -gt 0 ]'
else
	for t in "not full dynticks: user mode not tracked" "notick thread: user mode tracked" \
		 "thread gone: not tracked again"; do
		ktap_fail "context tracking: $t (no context_tracking:user_enter event)"
	done
fi

# --- RCU callbacks queued on the CPU by the thread ------------------------
# The thread unlinks 100 files once admitted: each dentry is freed by an RCU
# callback (__d_free) queued on CPU $CPU.  Who invokes them depends on the
# kernel: with CONFIG_RCU_NOCB_CPU_DEFAULT_ALL (the test kernels) CPU $CPU's
# callbacks are offloaded to its rcuo kthread, which must invoke them all
# on another CPU; a CPU that keeps its callbacks (the notick-rcu-local
# suite, booted with rcu_nocbs=0) must invoke them itself, with its tick
# stopped or not.  Either way before the end of a 3 s spin.  (Trace
# pointers are hashed, so callbacks are counted, not matched; offloaded
# callbacks may be queued through the bypass list, which is not traced:
# so the offloaded ones are counted where they are invoked, by CPU $CPU's
# own rcuo kthread, which invokes CPU $CPU's callbacks and no other's.)
# Counted from the thread's admission (sched_notick_admit) on.
# rcu_mode CPU: "offloaded" or "local", from the boot message of rcu_init_nohz()
rcu_mode() {
	list=$(dmesg | sed -n 's/.*Offload RCU callbacks from CPUs: \([0-9,-]*\)\..*/\1/p' | tail -n 1)
	for r in $(echo "$list" | tr ',' ' '); do
		[ "$1" -ge "${r%-*}" ] && [ "$1" -le "${r#*-}" ] && { echo offloaded; return; }
	done
	echo local
}
RCU_MODE=$(rcu_mode $CPU)
ktap_note "RCU callbacks of CPU $CPU: $RCU_MODE (expected: ${EXPECT_RCU:-offloaded})"
if [ -d $TR/events/rcu/rcu_callback ]; then
	traced "rcu/rcu_callback rcu/rcu_invoke_callback sched/sched_notick_admit" \
		"$NTT" spin-files $CPU 3 100 > $T/cbs 2>&1
	dump $T/cbs
	awk -v cpu="$(printf '[%03d]' $CPU)" -v n=$CPU '
	/ sched_notick_admit: / && index($0, " cpu=" n " ") && / admitted$/ { adm = 1 }
	/tracing_mark_write: ntt: spin ends/ { end = 1; exit }
	!adm { next }
	# any callback invoked on CPU 1 while the thread spins there
	/ rcu_invoke_callback: / && index($0, cpu) { any++ }
	!/func=__d_free[ \t]*/ { next }
	/ rcu_callback: / && index($0, cpu) { q++ }
	/ rcu_invoke_callback: / {
		if (index($0, cpu)) i++
		else if ($1 ~ "^rcuo[ps]/" n "-[0-9]+$") o++ }
	END { printf "admitted=%d\nqueued=%d\ninvoked=%d\nby_rcuo=%d\non_cpu_any=%d\nend=%d\n",
		adm, q, i, o, any, end }
	' $TR/trace > $T/cbcount
	dump $T/cbcount
	q=$(kv $T/cbcount queued) i=$(kv $T/cbcount invoked) o=$(kv $T/cbcount by_rcuo)
	ktap_check "RCU ($RCU_MODE): the thread, admitted on CPU $CPU, unlinked 100 files there and spun ($q callbacks traced)" \
		'[ "$RCU_MODE" = "${EXPECT_RCU:-offloaded}" ] && [ "$(kv $T/cbcount end)" = 1 ] &&
		 [ "$(kv $T/cbcount admitted)" = 1 ] && [ "$(kv $T/cbs cpu_seen)" = $CPU ] &&
		 { [ "$RCU_MODE" = offloaded ] || [ "$q" -ge 100 ]; }'
	if [ "$RCU_MODE" = local ]; then
		ktap_check "RCU (local): CPU $CPU invoked them while the thread spun ($i of $q, at least 100)" \
			'[ "$q" -ge 100 ] && [ "$i" -ge "$q" ]'
	else
		ktap_check "RCU (offloaded): CPU $CPU's rcuo kthread invoked them on another CPU while the thread spun ($o of 100; callbacks invoked on CPU $CPU: $(kv $T/cbcount on_cpu_any))" \
			'[ "$o" -ge 100 ] && [ "$(kv $T/cbcount on_cpu_any)" = 0 ]'
	fi
	ktap_note "LOC on CPU $CPU until its tick stopped ($(kv $T/cbs tick_stop_ms) ms after admission): $(kv $T/cbs loc_to_stop), over the next 3 s: $(kv $T/cbs loc_delta)"
else
	for t in "callbacks queued" "all invoked"; do
		ktap_fail "RCU: $t (no rcu:rcu_callback event: CONFIG_RCU_TRACE off?)"
	done
fi

# --- the tick: 10 s spin --------------------------------------------------
# The soft lockup watchdog runs a 4 s hrtimer on every CPU in
# kernel.watchdog_cpumask; nohz_full= removes its CPUs from that mask at
# boot, here the run-time sysctl does it (see sched-notick.rst).
# Device interrupts likewise: irqaffinity= would do it at boot, the
# run-time /proc/irq files do it here.
housekeeping_on_cpu0
ktap_note "watchdog_cpumask: $(cat /proc/sys/kernel/watchdog_cpumask 2>/dev/null)"
ktap_note "device IRQs allowed on CPU 1: $(grep -l 2 /proc/irq/[0-9]*/effective_affinity 2>/dev/null | wc -l)"
"$NTT" normal-spin $CPU 2 > $T/control 2>&1
dump $T/control
ktap_check "control: a SCHED_NORMAL spinner on CPU $CPU takes local timer interrupts ($(kv $T/control loc_delta) in 2 s)" \
	'[ "$(kv $T/control loc_delta)" -gt 0 ]'
# Let CPU 1 idle and invoke the RCU callbacks of the control run's exit
sleep 1
s0=$(cat $SYS/tick_stops)
"$NTT" spin $CPU 10 8 > $T/spin10 2>&1
dump $T/spin10
ktap_note "LOC on CPU $CPU over 10 s of spinning: $(kv $T/spin10 loc_delta); before, from the fork until the tick stopped ($(kv $T/spin10 tick_stop_ms) ms after admission): $(kv $T/spin10 loc_to_stop)"
ktap_check "10 s spin: the tick stopped, then 0 local timer interrupts on CPU $CPU" \
	'[ "$(kv $T/spin10 tick_stop_ms)" != -1 ] && [ "$(kv $T/spin10 loc_delta)" = 0 ]'
ktap_check "10 s spin: the spinner ran on CPU $CPU and made progress" \
	'[ "$(kv $T/spin10 cpu_seen)" = $CPU ] && [ "$(kv $T/spin10 loops_in_window)" -gt 0 ]'
ktap_note "longest synchronize_rcu(): $(kv $T/spin10 gp_max_ms) ms beside the notick thread, $(kv $T/control gp_max_ms) ms beside a SCHED_NORMAL spinner (timing, not a criterion)"
ktap_check "10 s spin: 8 synchronize_rcu() from CPU 0 completed meanwhile" \
	'[ "$(kv $T/spin10 grace_periods)" = 8 ]'
# CPU time: vtime accounts it while the tick is off.  The user/system
# split must be right (cputime_adjust() only rescales the sum to the
# runtime), and CPU 1's user time in /proc/stat must grow by as much.
w=$(kv $T/spin10 wall_ms); ru=$(kv $T/spin10 rusage_ms)
ut=$(kv $T/spin10 utime_ms); stm=$(kv $T/spin10 stime_ms); cu=$(kv $T/spin10 cpu_user_ms)
ktap_check "getrusage() CPU time within 2% of wall time ($ru ms vs $w ms)" \
	'within_pct "$ru" "$w" 2'
ktap_check "utime within 2% of wall time, stime under 2% ($ut ms, $stm ms of $w ms)" \
	'within_pct "$ut" "$w" 2 && [ $((stm * 50)) -lt "$w" ]'
ktap_check "/proc/stat cpu$CPU user time grew by the thread's utime, within 2% ($cu ms vs $ut ms)" \
	'within_pct "$cu" "$ut" 2'
s1=$(cat $SYS/tick_stops)
ktap_check "tick_stops counter advanced ($s0 -> $s1)" '[ "$s1" -gt "$s0" ]'
ktap_check "thread gone: CPU $CPU released (pid $(cat $SYS/pid))" \
	'[ "$(cat $SYS/pid)" = 0 ]'

# --- blocking -------------------------------------------------------------
"$NTT" block $CPU > $T/block 2>&1
dump $T/block
ktap_check "blocked in read(): CPU $CPU idled ($(kv $T/block idle_ticks_while_blocked) ticks)" \
	'[ "$(kv $T/block idle_ticks_while_blocked)" -gt 0 ]'
ktap_check "after read() returns: resumed and 0 LOC over 2 s ($(kv $T/block loc_delta_resumed))" \
	'[ "$(kv $T/block resumed)" = 1 ] && [ "$(kv $T/block loc_delta_resumed)" = 0 ]'

# --- priority inheritance ---------------------------------------------------
# A SCHED_FIFO 99 waiter has the owner's own priority: the owner must stay
# in its class, tickless.  A SCHED_DEADLINE waiter boosts it into dl; the
# deboost must bring it back to SCHED_NOTICK, admitted, tickless.
"$NTT" pi $CPU > $T/pi 2>&1
dump $T/pi
ktap_check "PI: owner admitted, prio $(kv $T/pi before_prio), policy $(kv $T/pi before_policy)" \
	'[ "$(kv $T/pi owner_is_sysfs_pid)" = 1 ] && [ "$(kv $T/pi before_policy)" = 8 ]'
ktap_check "PI: FIFO 99 waiter blocked; owner keeps prio and policy 8 ($(kv $T/pi fifo_prio), $(kv $T/pi fifo_policy))" \
	'[ "$(kv $T/pi fifo_waiter_blocked)" = 1 ] && [ "$(kv $T/pi fifo_prio)" = "$(kv $T/pi before_prio)" ] && [ "$(kv $T/pi fifo_policy)" = 8 ]'
ktap_check "PI: owner stays tickless while the FIFO waiter waits ($(kv $T/pi fifo_loc_delta) LOC in 1 s)" \
	'[ "$(kv $T/pi fifo_loc_delta)" = 0 ]'
ktap_check "PI: DEADLINE waiter boosts the owner above its priority ($(kv $T/pi dl_prio) < $(kv $T/pi before_prio))" \
	'[ "$(kv $T/pi dl_waiter_blocked)" = 1 ] && [ "$(kv $T/pi dl_prio)" -lt "$(kv $T/pi before_prio)" ]'
ktap_check "PI: both waiters got the lock" \
	'[ "$(kv $T/pi fifo_waiter_got_lock)" = 1 ] && [ "$(kv $T/pi dl_waiter_got_lock)" = 1 ]'
ktap_check "PI: deboosted owner is SCHED_NOTICK again, prio $(kv $T/pi after_prio), still CPU $CPU's thread" \
	'[ "$(kv $T/pi after_policy)" = 8 ] && [ "$(kv $T/pi after_prio)" = "$(kv $T/pi before_prio)" ] && [ "$(kv $T/pi after_owner_is_sysfs_pid)" = 1 ]'
ktap_check "PI: deboosted owner tickless again ($(kv $T/pi after_loc_delta) LOC in 1 s)" \
	'[ "$(kv $T/pi after_tick_stopped)" = 1 ] && [ "$(kv $T/pi after_loc_delta)" = 0 ]'

# --- another task on the CPU: grace and yield -----------------------------
# Traced meanwhile: sched:sched_notick_admit, sched:sched_notick_yield and
# timer:tick_dyn, whose counts must match the sysfs counters exactly.
y0=$(cat $SYS/yields); r0=$(cat $SYS/tick_restarts); s0=$(cat $SYS/tick_stops)
traced "sched/sched_notick_admit sched/sched_notick_yield timer/tick_dyn" \
	"$NTT" contend $CPU > $T/contend 2>&1
y1=$(cat $SYS/yields); r1=$(cat $SYS/tick_restarts); s1=$(cat $SYS/tick_stops)
dump $T/contend
awk -v pid="$(kv $T/contend spinner_pid)" -v cpu=$CPU '
/ sched_notick_admit: / && index($0, "pid=" pid " cpu=" cpu " ") {
	if (/ admitted$/) a++; else if (/ released$/) r++ }
/ sched_notick_yield: / && index($0, " cpu=" cpu " ") {
	if (/ yield$/) y++; else if (/ resume$/) u++ }
/ tick_dyn: / && index($0, " cpu=" cpu " ") {
	if (/ tick=stopped$/) s++; else if (/ tick=running$/) t++ }
END { printf "admitted=%d\nreleased=%d\nyield=%d\nresume=%d\nstopped=%d\nrestarted=%d\n",
	a, r, y, u, s, t }' $TR/trace > $T/events
dump $T/events
ktap_check "default grace: a SCHED_NORMAL task ran on CPU $CPU while the thread spun" \
	'[ "$(kv $T/contend contender_ran)" = 1 ] && [ "$(kv $T/contend spinner_was_spinning)" = 1 ]'
ktap_note "contender waited $(kv $T/contend contender_delay_ms) ms (grace $(cat $GRACE) us)"
ktap_check "the spinner resumed after the task left" \
	'[ "$(kv $T/contend spinner_progress_after)" = 1 ]'
ktap_check "alone again: the tick stops again (after $(kv $T/contend stop_again_ms) ms) and 0 LOC over 2 s ($(kv $T/contend loc_delta_after))" \
	'[ "$(kv $T/contend tick_stopped_again)" = 1 ] && [ "$(kv $T/contend loc_delta_after)" = 0 ]'
ktap_check "yields counter advanced ($y0 -> $y1)" '[ "$y1" -gt "$y0" ]'
ktap_check "tick_restarts counter advanced ($r0 -> $r1)" '[ "$r1" -gt "$r0" ]'
ktap_check "trace: sched_notick_admit: the spinner admitted on CPU $CPU, then released ($(kv $T/events admitted), $(kv $T/events released))" \
	'[ "$(kv $T/events admitted)" = 1 ] && [ "$(kv $T/events released)" = 1 ]'
ktap_check "trace: sched_notick_yield: $(kv $T/events yield) yield = yields counter delta $((y1 - y0)), $(kv $T/events resume) resume" \
	'[ "$(kv $T/events yield)" = $((y1 - y0)) ] && [ "$(kv $T/events resume)" -ge 1 ]'
ktap_check "trace: tick_dyn: $(kv $T/events stopped) stopped, $(kv $T/events restarted) running = counter deltas $((s1 - s0)), $((r1 - r0))" \
	'[ "$(kv $T/events stopped)" = $((s1 - s0)) ] && [ "$(kv $T/events restarted)" = $((r1 - r0)) ] &&
	 [ "$(kv $T/events stopped)" -ge 2 ]'

# -1: other tasks run only when the thread blocks, or during a yield to
# per-CPU kernel threads (documented: the task may run in such a yield).
# A run judges the check when the task did not run while the thread spun
# (yields or not: it never ran), or ran without any yield (a failure); a
# run where it ran and the thread yielded to kernel threads meanwhile
# cannot tell, and is reported, not judged: up to 3 tries, after which
# the check fails. (Where the CPU invokes its own RCU callbacks,
# notick-rcu-local, a kernel thread takes a yield in most runs.)
echo -1 > $GRACE
try=0 discarded=
while [ $try -lt 3 ]; do
	try=$((try + 1))
	y0=$(cat $SYS/yields)
	"$NTT" wait-contender $CPU 3 > $T/never 2>&1
	y1=$(cat $SYS/yields)
	dump $T/never
	[ $y1 = $y0 ] || [ "$(kv $T/never ran_while_spinning)" = 0 ] && break
	discarded="$discarded run $try: $((y1 - y0)) yields, ran_while_spinning=$(kv $T/never ran_while_spinning);"
done
echo 10000 > $GRACE
[ -n "$discarded" ] && ktap_note "grace -1, runs with yields to kernel threads, not judged:$discarded"
ktap_check "grace -1: the task never ran while the thread spun (run $try of 3, $((y1 - y0)) yields to kernel threads)" \
	'[ "$(kv $T/never ran_while_spinning)" = 0 ]'
ktap_check "grace -1: the task ran once the thread left" \
	'[ "$(kv $T/never ran_after_spinner_left)" = 1 ]'

# --- sysctl input -----------------------------------------------------------
(echo -2 > $GRACE) 2>/dev/null; v1=$(cat $GRACE)
(echo abc > $GRACE) 2>/dev/null; v2=$(cat $GRACE)
ktap_check "sysctl rejects -2 and garbage, value unchanged ($v1, $v2)" \
	'[ "$v1" = 10000 ] && [ "$v2" = 10000 ]'

# --- bounded fuzz of the system call and sysctl interface ----------------
# 60 s of random and boundary sched_setattr()/sched_setscheduler() calls
# (policies, every flag, sizes, priorities, nice, util clamps, bad pids,
# three CPU masks) and sysctl writes: each call whose outcome follows from
# the request gives exactly that result (valid SCHED_NOTICK requests from
# CPU $CPU alone are admitted), the others a documented errno, a failure
# changes nothing, SCHED_NOTICK exactly when sysfs names the caller the
# owner (ntfuzz.c). The seed is printed, for a replay.
if [ $FUZZ = 1 ]; then
	seed=$(date +%s)
	./ntfuzz $CPU 60 $seed > $T/fuzz 2>&1
	fuzz_rc=$?
	sed 's/^/# /' $T/fuzz
	fcases=$(sed -n 's/^cases=\([0-9]*\).*/\1/p' $T/fuzz)
	ktap_check "fuzz, 60 s (seed $seed): $fcases cases, $(kv $T/fuzz predicted) answered exactly as predicted, the others as documented, $(kv $T/fuzz admitted) admissions, state consistent" \
		'[ $fuzz_rc = 0 ] && grep -q "^bad=0$" $T/fuzz &&
		 [ "$(kv $T/fuzz admitted)" -ge 10 ] &&
		 [ "$(kv $T/fuzz predicted)" -ge $((fcases / 2)) ]'
	ktap_check "after the fuzz: CPU $CPU free, sysctl back at 10000 ($(cat $SYS/pid), $(cat $GRACE))" \
		'[ "$(cat $SYS/pid)" = 0 ] && [ "$(cat $GRACE)" = 10000 ]'
fi

# --- 60 s spin: RCU keeps working, no stall ------------------------------
# CPU 1 first gets the hrtimers its tick stop must hand over (those marked
# movable), on purpose: a sleeper's (a sleep started there) and the RT
# bandwidth timer, armed there by a SCHED_FIFO task once no CPU holds it,
# then kept running (it restarts every second while RT tasks ran in the
# last one) by a SCHED_FIFO task waking up every 100 ms on CPU 0 (ntt
# rtwake: no fork, a few microseconds a wakeup). From 6.12 there is no RT
# bandwidth timer (without RT_GROUP_SCHED): the fair server's, armed on
# CPU 1 by the fair tasks just run there (taskset, chrt), stands in for
# it; the admission stops that server and hands its timers over. No grace
# timer may be left there by the threads of the earlier tests (it ends with
# its thread). Timer events on CPU 1 are traced meanwhile, and printed
# around each of its local timer interrupts.
BW=$(bw_timer)
wait_for '! grep -q sched_rt_period_timer /proc/timer_list'
taskset -c $CPU sleep 1000 &
sleeper=$!
sleep 0.1
taskset -c $CPU chrt -f 1 true
"$NTT" rtwake &
rtloop=$!
"$NTT" hrtimers $CPU > $T/spin60.before
ktap_check "before the 60 s spin, CPU $CPU holds a sleeper's hrtimer and the bandwidth timer ($BW), and no grace timer of earlier threads:$(kv $T/spin60.before hrtimers)" \
	'grep -q " hrtimer_wakeup" $T/spin60.before &&
	 grep -q " $BW" $T/spin60.before &&
	 ! grep -q " notick_grace_timer_fn" $T/spin60.before'
trace_cpu $CPU
traced "irq_vectors/local_timer_entry timer/hrtimer_expire_entry timer/timer_expire_entry timer/hrtimer_start timer/timer_start timer/tick_stop" \
	"$NTT" spin $CPU 60 20 > $T/spin60 2>&1
trace_cpu all
kill $sleeper $rtloop
wait $sleeper $rtloop 2> /dev/null
dump $T/spin60
grep -B4 -A2 "local_timer_entry" $TR/trace | tail -n 40 > $T/spin60.locs
ktap_check "60 s spin: 20 synchronize_rcu() completed" \
	'[ "$(kv $T/spin60 grace_periods)" = 20 ]'
ktap_check "once the tick stopped, CPU $CPU holds none of the three:$(kv $T/spin60 hrtimers_after_stop)" \
	'grep -q "^hrtimers_after_stop=" $T/spin60 &&
	 ! grep -q "^hrtimers_after_stop=.* \(hrtimer_wakeup\|$BW\|notick_grace_timer_fn\)" $T/spin60'
ktap_note "LOC on CPU $CPU over 60 s of spinning: $(kv $T/spin60 loc_delta), tick restarts $(kv $T/spin60 tick_restarts_in_window); before, until the tick stopped: $(kv $T/spin60 loc_to_stop); longest synchronize_rcu(): $(kv $T/spin60 gp_max_ms) ms; timer events around CPU $CPU's interrupts (the last ones, the window's at the end):"
dump $T/spin60.locs
ktap_check "60 s spin: the tick stopped ($(kv $T/spin60 tick_stop_ms) ms after admission), then 0 local timer interrupts on CPU $CPU ($(kv $T/spin60 loc_delta), $(kv $T/spin60 tick_restarts_in_window) restarts)" \
	'[ "$(kv $T/spin60 tick_stop_ms)" != -1 ] && [ "$(kv $T/spin60 loc_delta)" = 0 ]'
# --- a thread boosted to deadline asks for SCHED_NOTICK (last: before the
# fix, the refused call left CPU 1 admitted to it for good) ---------------
# The deadline bandwidth check refuses a policy change to a task a
# SCHED_DEADLINE waiter boosts through a PI mutex (EBUSY); it comes before
# admission, so the CPU stays free.
"$NTT" dlboost $CPU > $T/dlboost 2>&1
dump $T/dlboost
ktap_check "boosted to deadline through a PI mutex, asking for SCHED_NOTICK: $(kv $T/dlboost err), CPU $CPU left free (sysfs pid $(kv $T/dlboost sysfs_pid_after_call), prio $(kv $T/dlboost boosted_prio) from $(kv $T/dlboost before_prio))" \
	'[ "$(kv $T/dlboost err)" = EBUSY ] &&
	 [ "$(kv $T/dlboost boosted_prio)" -lt "$(kv $T/dlboost before_prio)" ] &&
	 [ "$(kv $T/dlboost sysfs_pid_after_call)" = 0 ] && [ "$(kv $T/dlboost sysfs_pid_at_end)" = 0 ]'
# notickctl asked for such a thread says why the kernel refused (it said
# "another thread already runs SCHED_NOTICK there" before) and exits 4.
"$NTT" dlboost $CPU "notickctl --cpu $CPU --pid \$NTT_TID" > $T/dlboost-ctl 2>&1
dump $T/dlboost-ctl
ktap_check "notickctl --pid on a thread boosted to deadline: exit $(kv $T/dlboost-ctl cmd_rc), says why, CPU $CPU left free (sysfs pid $(kv $T/dlboost-ctl sysfs_pid_at_end))" \
	'[ "$(kv $T/dlboost-ctl cmd_rc)" = 4 ] &&
	 grep -q "SCHED_DEADLINE thread waits on" $T/dlboost-ctl &&
	 ! grep -q "already runs SCHED_NOTICK" $T/dlboost-ctl &&
	 [ "$(kv $T/dlboost-ctl sysfs_pid_at_end)" = 0 ]'

dmesg > $T/dmesg
ktap_check "no RCU stall reported in the kernel log" \
	'! grep -qi "rcu.*stall" $T/dmesg'
