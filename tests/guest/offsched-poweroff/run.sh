#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# OFFSCHED through a power-off, on three CPUs: CPU 1 runs an echo service
# that answers stop requests, CPU 2 a deaf one, when /init powers the
# guest off at the end of the suite; ./shutdown checks what the kernel
# printed on the way.
. ../lib/ktap.sh
. ../offsched/lib.sh

ktap_plan 6
C2=$SYS/cpu2/offsched

ktap_note "kernel $(uname -r)"
ktap_check "modprobe offsched_mgr" 'modprobe offsched_mgr'
echo 500 > /sys/module/offsched/parameters/stop_timeout_ms
$ctl write $C1/service echo > /dev/null
expect "start echo on CPU 1" $C1/control start OK
start_deaf 2
st=$?
ktap_check "start a deaf echo on CPU 2" \
	'[ $st = 0 ] && [ "$(cat $C2/state)" = running ]'
out=$($ctl ring 1 10)
ktap_check "echo on CPU 1 answers ($out)" \
	'case "$out" in "OK n=10 "*) true ;; *) false ;; esac'
l2=$(loops 2)
pause
ktap_check "the deaf echo on CPU 2 runs ($l2 -> $(loops 2))" \
	'[ "$(loops 2)" -gt "$l2" ] && [ "$(cat $SYS/online)" = 0 ]'
echo poweroff > /tmp/notick.end
ktap_check "the suite ends with a power-off" \
	'[ "$(cat /tmp/notick.end)" = poweroff ]'
