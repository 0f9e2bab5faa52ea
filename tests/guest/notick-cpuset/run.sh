#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# cpusets around an owned CPU, in a 4-CPU guest (cgroup v2): a cpuset that
# shrinks while it still allows the thread's CPU keeps the thread admitted
# there, whether it shrinks because a partition is made of other CPUs or
# because another of its CPUs goes offline; one that loses the thread's
# CPU demotes it (notick-paths tests that in 2 CPUs).
. ../lib/ktap.sh
. ../lib/nt.sh

NTT=/tests/notick/ntt
CPU=1
SYS=/sys/devices/system/cpu/cpu$CPU/notick
CG=/sys/fs/cgroup
T=/tmp/notick-cpuset
mkdir -p $T

ktap_plan 6
ktap_note "kernel $(uname -r); cmdline: $(cat /proc/cmdline)"

admitted() { [ "$(policy_of $1)" = 8 ] && [ "$(cat $SYS/pid)" = "$1" ]; }
allowed_of() { awk '/^Cpus_allowed_list/ { print $2 }' /proc/$1/status 2>/dev/null; }
hold() {
	"$NTT" spinhold $CPU > $T/hold 2>&1 &
	hold_pid=$!
	wait_for "grep -q ADMITTED $T/hold" || dump $T/hold
}
unhold() { kill -9 $hold_pid 2>/dev/null; wait $hold_pid 2>/dev/null; }

mkdir -p $CG
if ! mount -t cgroup2 none $CG 2>/dev/null ||
   ! wait_for "echo +cpuset > $CG/cgroup.subtree_control 2>/dev/null"; then
	for i in 1 2 3 4 5 6; do ktap_fail "cgroup v2 cpuset controller unavailable"; done
	exit 0
fi
ktap_setup "4 CPUs online ($(cat /sys/devices/system/cpu/online))" \
	'[ "$(cat /sys/devices/system/cpu/online)" = 0-3 ]'

# A partition of CPU 3: the root cpuset, where the thread is, loses CPU 3
hold
mkdir $CG/part
echo 3 > $CG/part/cpuset.cpus
echo root > $CG/part/cpuset.cpus.partition
sleep 0.3
p=$(cat $CG/part/cpuset.cpus.partition)
ktap_check "a partition made of CPU 3 ($p, root now $(cat $CG/cpuset.cpus.effective)): the root cpuset's thread stays admitted on CPU $CPU (policy $(policy_of $hold_pid), allowed $(allowed_of $hold_pid))" \
	'[ "$p" = root ] && admitted $hold_pid && [ "$(allowed_of $hold_pid)" = $CPU ]'
echo member > $CG/part/cpuset.cpus.partition
wait_for "rmdir $CG/part 2>/dev/null; [ ! -d $CG/part ]"
ktap_check "the partition undone: still admitted" 'admitted $hold_pid'
unhold

# A child cpuset of CPUs 1-2: CPU 2 goes offline and back
mkdir $CG/pair
echo 1-2 > $CG/pair/cpuset.cpus
hold
echo $hold_pid > $CG/pair/cgroup.procs
kept=0; admitted $hold_pid && kept=1
echo 0 > /sys/devices/system/cpu/cpu2/online
sleep 0.3
e=$(cat $CG/pair/cpuset.cpus.effective)
off=0; admitted $hold_pid && [ "$(allowed_of $hold_pid)" = $CPU ] && off=1
echo 1 > /sys/devices/system/cpu/cpu2/online
sleep 0.3
ktap_check "in a cpuset of CPUs 1-2 (kept $kept), CPU 2 offline (cpuset now $e): still admitted on CPU $CPU ($off)" \
	'[ $kept = 1 ] && [ "$e" = $CPU ] && [ $off = 1 ]'
ktap_check "CPU 2 back (cpuset $(cat $CG/pair/cpuset.cpus.effective)): still admitted on CPU $CPU (allowed $(allowed_of $hold_pid))" \
	'admitted $hold_pid && [ "$(allowed_of $hold_pid)" = $CPU ]'
# The cpuset loses CPU 1: that demotes the thread
echo 2 > $CG/pair/cpuset.cpus
sleep 0.3
ktap_check "the cpuset changed to CPU 2 alone: demoted (policy $(policy_of $hold_pid), allowed $(allowed_of $hold_pid), CPU $CPU owner $(cat $SYS/pid))" \
	'[ "$(policy_of $hold_pid)" = 0 ] && [ "$(allowed_of $hold_pid)" = 2 ] && [ "$(cat $SYS/pid)" = 0 ]'
unhold
wait_for "rmdir $CG/pair 2>/dev/null; [ ! -d $CG/pair ]"
umount $CG
