#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# OFFSCHED through a crash (kdump) and a reboot, on three CPUs: CPU 1 runs
# an echo service that answers stop requests, CPU 2 a deaf one. Stage 1
# crashes into a crash kernel loaded with kexec -p; booted with maxcpus=1,
# that kernel does not reset CPUs 1 and 2 itself, so the loop counters of
# the crashed kernel's services (memory outside the crash kernel's) must
# hold still. Stage 2 brings the CPUs up, starts the same two services
# and ends with /init's reboot: ./shutdown checks what the kernel printed.
. ../lib/ktap.sh
. ../lib/kexec.sh
. ../offsched/lib.sh

ktap_plan 14
C2=$SYS/cpu2/offsched

# two_services: echo on CPU 1, deaf echo on CPU 2; sets a1 and a2 to the
# physical addresses of their loop counters.
two_services() {
	ktap_check "modprobe offsched_mgr" 'modprobe offsched_mgr'
	echo 500 > /sys/module/offsched/parameters/stop_timeout_ms
	$ctl write $C1/service echo > /dev/null
	expect "start echo on CPU 1" $C1/control start OK
	a1=$($ctl phys 1)
	start_deaf 2
	st=$?
	a2=$deaf_addr
	ktap_check "start a deaf echo on CPU 2" \
		'[ $st = 0 ] && [ "$(cat $C2/state)" = running ]'
	l1=$(loops 1) l2=$(loops 2)
	pause
	ktap_check "both loop counters move (CPU 1 $l1 -> $(loops 1), CPU 2 $l2 -> $(loops 2))" \
		'[ "$(loops 1)" -gt "$l1" ] && [ "$(loops 2)" -gt "$l2" ] &&
		 [ "$(cat $SYS/online)" = 0 ]'
}

case ${NOTICK_STAGE:-1} in
1)
	ktap_note "kernel $(uname -r)"
	ktap_check "three CPUs online ($(cat $SYS/online))" \
		'[ "$(cat $SYS/online)" = 0-2 ]'
	two_services
	# Nothing may print a result between loading and the crash. The
	# counters as last seen here: the crash kernel must read at least
	# that (a 0 from the wrong page does not hold still).
	kexec_stage 2 -p maxcpus=1 notick.peek=$a1,$a2 \
		notick.peekmin=$(loops 1),$(loops 2) ||
		ktap_fail "load the crash kernel ($(tail -n 3 /tmp/kexec.log))"
	kexec_crash
	;;
2)
	peek=$(sed -n 's/.*notick\.peek=\([0-9a-fx,]*\).*/\1/p' /proc/cmdline)
	a1=${peek%,*} a2=${peek#*,}
	min=$(sed -n 's/.*notick\.peekmin=\([0-9,]*\).*/\1/p' /proc/cmdline)
	m1=${min%,*} m2=${min#*,}
	ktap_check "the crash kernel boots on CPU 0 alone ($(cat $SYS/online))" \
		'[ "$(cat $SYS/online)" = 0 ]'
	p1=$($ctl peek "$a1") p2=$($ctl peek "$a2")
	sleep 1
	q1=$($ctl peek "$a1") q2=$($ctl peek "$a2")
	ktap_check "the crashed kernel's services no longer run: their counters hold still (CPU 1 $p1 -> $q1, CPU 2 $p2 -> $q2), past what they last read ($m1, $m2)" \
		'[ -n "$p1" ] && [ "$p1" = "$q1" ] && [ -n "$p2" ] && [ "$p2" = "$q2" ] &&
		 [ "${m1:-0}" -gt 0 ] && [ "$p1" -ge "$m1" ] && [ "${m2:-0}" -gt 0 ] && [ "$p2" -ge "$m2" ]'
	expect "CPU 1 comes online" $SYS/cpu1/online 1 OK
	expect "CPU 2 comes online" $SYS/cpu2/online 1 OK
	r1=$(taskset -c 1 sh -c 'cat /proc/self/stat' | awk '{print $39}')
	r2=$(taskset -c 2 sh -c 'cat /proc/self/stat' | awk '{print $39}')
	ktap_check "every CPU online, tasks run on CPUs 1 and 2 (ran on $r1, $r2)" \
		'[ "$(cat $SYS/online)" = 0-2 ] && [ "$r1" = 1 ] && [ "$r2" = 2 ]'
	# The same two services for the reboot that ends the suite.
	two_services
	;;
esac
