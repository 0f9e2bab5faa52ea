#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Smoke test of the build-and-boot pipeline: the guest runs the kernel we
# built, sees two CPUs, and can take CPU 1 offline and bring it back.
. ../lib/ktap.sh

ktap_plan 6

release=$(uname -r)
case "$release" in
*-notick*) ktap_ok "setup: runs the notick kernel ($release)" ;;
*) ktap_fail "setup: runs the notick kernel (uname -r says $release)" ;;
esac

online=$(cat /sys/devices/system/cpu/online)
ncpu=$(grep -c '^processor' /proc/cpuinfo)
ktap_setup "sees 2 CPUs (online: $online, cpuinfo: $ncpu)" \
	'[ "$online" = 0-1 ] && [ "$ncpu" = 2 ]'

cpu1=/sys/devices/system/cpu/cpu1/online
echo 0 > $cpu1
ktap_setup "CPU 1 goes offline" \
	'[ "$(cat $cpu1)" = 0 ] && [ "$(cat /sys/devices/system/cpu/online)" = 0 ]'

# A task pinned to an offline CPU must be refused.
if taskset -c 1 true 2>/dev/null; then
	ktap_fail "setup: taskset to offline CPU 1 is refused"
else
	ktap_ok "setup: taskset to offline CPU 1 is refused"
fi

echo 1 > $cpu1
ktap_setup "CPU 1 comes back online" \
	'[ "$(cat $cpu1)" = 1 ] && [ "$(cat /sys/devices/system/cpu/online)" = 0-1 ]'

out=$(taskset -c 1 sh -c 'cat /proc/self/stat' | awk '{print $39}')
ktap_setup "a task pinned to CPU 1 runs there (ran on CPU $out)" '[ "$out" = 1 ]'
