#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# SCHED_NOTICK on several CPUs at once (a 4-CPU guest): two and three
# tickless CPUs side by side, admission races between CPUs, a cpuset
# that moves an admitted thread onto another owned CPU, and where wakeups
# steered off an owned CPU go.
. ../lib/ktap.sh
. ../lib/nt.sh

NTT=/tests/notick/ntt
T=/tmp/notick-smp
mkdir -p $T

ktap_plan 15
ktap_note "kernel $(uname -r); $(grep -c ^processor /proc/cpuinfo) CPUs; cmdline: $(cat /proc/cmdline)"

housekeeping_on_cpu0
pid_of_cpu() { cat /sys/devices/system/cpu/cpu$1/notick/pid; }

ktap_setup "4 CPUs online" '[ "$(grep -c ^processor /proc/cpuinfo)" = 4 ]'

# --- two, then three tickless CPUs side by side ----------------------------
"$NTT" multi 3 1 2 > $T/multi2 2>&1
dump $T/multi2
ktap_check "two SCHED_NOTICK threads (CPUs 1, 2): their ticks stopped, then 0 LOC on each ($(kv $T/multi2 loc_delta_1), $(kv $T/multi2 loc_delta_2) in 3 s)" \
	'[ "$(kv $T/multi2 tick_stop_ms_1)" != -1 ] && [ "$(kv $T/multi2 tick_stop_ms_2)" != -1 ] &&
	 [ "$(kv $T/multi2 loc_delta_1)" = 0 ] && [ "$(kv $T/multi2 loc_delta_2)" = 0 ] &&
	 [ "$(kv $T/multi2 cpu_seen_1)" = 1 ] && [ "$(kv $T/multi2 cpu_seen_2)" = 2 ]'
"$NTT" multi 3 1 2 3 > $T/multi3 2>&1
dump $T/multi3
ktap_check "three SCHED_NOTICK threads (CPUs 1-3): their ticks stopped, then 0 LOC on each ($(kv $T/multi3 loc_delta_1), $(kv $T/multi3 loc_delta_2), $(kv $T/multi3 loc_delta_3) in 3 s)" \
	'! grep -q "^tick_stop_ms_.=-1$" $T/multi3 && [ "$(grep -c ^tick_stop_ms_ $T/multi3)" = 3 ] &&
	 [ "$(kv $T/multi3 loc_delta_1)" = 0 ] && [ "$(kv $T/multi3 loc_delta_2)" = 0 ] &&
	 [ "$(kv $T/multi3 loc_delta_3)" = 0 ] && [ "$(kv $T/multi3 cpu_seen_3)" = 3 ]'

# --- admission races from two CPUs ----------------------------------------
"$NTT" race 1 1000 2 3 > $T/race 2>&1
dump $T/race
ktap_check "1000 rounds of two admissions for CPU 1 from CPUs 2 and 3: one winner and one EBUSY each time ($(kv $T/race one_winner))" \
	'[ "$(kv $T/race one_winner)" = 1000 ] && [ "$(kv $T/race sysfs_pid)" = 0 ]'

# Admission against the target's exit, and against an affinity change,
# each from another CPU at the same moment: every round ends one of the
# documented ways, the state is consistent, and an exit releases the CPU.
"$NTT" race2 exit 1 1000 2 3 > $T/race_exit 2>&1
dump $T/race_exit
# Each race must really have been run both ways: a tenth of the rounds
# at least on each side (about half each, seen so far).
ktap_check "1000 rounds of admission vs exit (admitted $(kv $T/race_exit admitted), ESRCH $(kv $T/race_exit esrch); 100 of each at least): no other errno, CPU 1 released each time" \
	'[ "$(kv $T/race_exit rounds)" = 1000 ] && [ "$(kv $T/race_exit other)" = 0 ] &&
	 [ "$(kv $T/race_exit admitted)" -ge 100 ] && [ "$(kv $T/race_exit esrch)" -ge 100 ] &&
	 [ "$(kv $T/race_exit einval)" = 0 ] && [ "$(kv $T/race_exit eagain)" = 0 ] &&
	 [ "$(kv $T/race_exit leaked)" = 0 ] && [ "$(kv $T/race_exit sysfs_pid)" = 0 ]'
"$NTT" race2 affinity 1 1000 2 3 > $T/race_aff 2>&1
dump $T/race_aff
ktap_check "1000 rounds of admission vs sched_setaffinity (admitted $(kv $T/race_aff admitted), EINVAL $(kv $T/race_aff einval), EAGAIN $(kv $T/race_aff eagain); affinity EBUSY $(kv $T/race_aff affinity_ebusy); 100 admitted and 100 refused at least): consistent, no other errno, none leaked" \
	'[ "$(kv $T/race_aff rounds)" = 1000 ] && [ "$(kv $T/race_aff inconsistent)" = 0 ] &&
	 [ "$(kv $T/race_aff admitted)" -ge 100 ] &&
	 [ $(($(kv $T/race_aff einval) + $(kv $T/race_aff eagain))) -ge 100 ] &&
	 [ "$(kv $T/race_aff other)" = 0 ] && [ "$(kv $T/race_aff esrch)" = 0 ] &&
	 [ "$(kv $T/race_aff leaked)" = 0 ] && [ "$(kv $T/race_aff sysfs_pid)" = 0 ]'

# An admitted thread forks 1000 times (each child SCHED_NORMAL, the parent
# keeps the class and the CPU), and execs 1000 times in a chain, every
# other exec made by a second thread that took the CPU over from the
# leader (exec makes that thread the leader, under the process's PID).
"$NTT" forkloop 1 1000 > $T/forkloop 2>&1
dump $T/forkloop
ktap_check "1000 forks by a SCHED_NOTICK thread: every child SCHED_NORMAL, the parent still CPU 1's ($(cat $T/forkloop))" \
	'[ "$(cat $T/forkloop)" = "forks=1000 bad_child=0 bad_parent=0" ]'
"$NTT" execloop 1 1000 > $T/execloop 2>&1
dump $T/execloop
ktap_check "1000 execs, 500 from a second thread: each image SCHED_NOTICK and CPU 1's owner under its PID ($(cat $T/execloop))" \
	'[ "$(cat $T/execloop)" = "execs=1000 bad=0" ]'
ktap_check "CPU 1 released after the fork and exec loops ($(cat /sys/devices/system/cpu/cpu1/notick/pid))" \
	'wait_for "[ \"\$(cat /sys/devices/system/cpu/cpu1/notick/pid)\" = 0 ]"'

# --- a cpuset moves an admitted thread onto another owned CPU --------------
CG=/sys/fs/cgroup
mkdir -p $CG
if mount -t cgroup2 none $CG && echo +cpuset > $CG/cgroup.subtree_control; then
	mkdir $CG/two
	echo 2 > $CG/two/cpuset.cpus
	"$NTT" hold 1 > $T/a 2>&1 & a=$!
	"$NTT" spinhold 2 > $T/b 2>&1 & b=$!
	wait_for "grep -q ADMITTED $T/a && grep -q ADMITTED $T/b"
	ktap_check "threads admitted on CPUs 1 and 2 ($(pid_of_cpu 1), $(pid_of_cpu 2))" \
		'[ "$(pid_of_cpu 1)" = $a ] && [ "$(pid_of_cpu 2)" = $b ]'
	echo $a > $CG/two/cgroup.procs
	sleep 0.5
	ktap_check "CPU 1's thread moved into a cpuset of CPU 2: demoted (policy $(policy_of $a)), CPU 1 free" \
		'[ -d /proc/$a ] && [ "$(policy_of $a)" = 0 ] && [ "$(pid_of_cpu 1)" = 0 ]'
	u0=$(utime_of $b); sleep 1; u1=$(utime_of $b)
	ktap_check "CPU 2's thread still owns CPU 2 and runs (policy $(policy_of $b), utime $u0 -> $u1)" \
		'[ "$(policy_of $b)" = 8 ] && [ "$(pid_of_cpu 2)" = $b ] && [ "$u1" -gt "$u0" ]'
	kill -9 $a $b; wait $a $b 2>/dev/null
	wait_for '[ "$(pid_of_cpu 2)" = 0 ]'
	ktap_check "both released (CPU 1: $(pid_of_cpu 1), CPU 2: $(pid_of_cpu 2))" \
		'[ "$(pid_of_cpu 1)" = 0 ] && [ "$(pid_of_cpu 2)" = 0 ]'
	wait_for "rmdir $CG/two 2>/dev/null; [ ! -d $CG/two ]"
	umount $CG
else
	for t in "admitted on 1 and 2" "moved onto CPU 2: demoted" "CPU 2's thread runs" "released"; do
		ktap_fail "cpuset: $t (cpuset controller unavailable)"
	done
fi

# --- wakeups steered off an owned CPU land on idle CPUs, not on CPU 0 ------
# Two sleepers last ran on CPU 1, which is then owned by a sleeping thread:
# the fair class picks idle CPU 1 for their wakeups, and steering must
# choose an idle CPU nearby (2, then 3) rather than the first one allowed
# (CPU 0, busy with a spinner and the waker). A kworker that happens to
# run on CPU 3 at the second wakeup leaves no idle CPU to steer to (CI saw
# one such round), so eight rounds are made and five must keep the two
# apart and off CPUs 0 and 1. Steering to the first allowed CPU keeps none
# apart; a random free CPU, one round in three. No wakeup may ever land on
# the owned CPU.
./ntsteer 1 2 8 > $T/steer 2>&1
dump $T/steer
ktap_check "wakeups steered off owned CPU 1: in $(kv $T/steer apart) of 8 rounds (5 at least) the two landed apart on idle CPUs; $(kv $T/steer on_cpu0) of 16 on busy CPU 0, $(kv $T/steer on_owned) on CPU 1" \
	'[ "$(kv $T/steer rounds)" = 8 ] && [ "$(kv $T/steer bad_owner)" = 0 ] &&
	 [ "$(kv $T/steer on_owned)" = 0 ] && [ "$(kv $T/steer apart)" -ge 5 ]'

dmesg > $T/dmesg
ktap_check "no RCU stall reported in the kernel log, after the suite's admissions (the fork loop's: $(cat $T/forkloop))" \
	'[ "$(cat $T/forkloop)" = "forks=1000 bad_child=0 bad_parent=0" ] && ! grep -qi "rcu.*stall" $T/dmesg'
