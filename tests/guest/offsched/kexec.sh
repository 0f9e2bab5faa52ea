# SPDX-License-Identifier: GPL-2.0
# kexec with an OFFSCHED service (sourced by run.sh, after ../lib/kexec.sh).
# Stage 1 ends by kexecing from a running echo service, stage 2 from a deaf
# one (it ignores stop requests) into a kernel booted with maxcpus=1, so
# that the new kernel does not reset CPU 1 itself: the old service's loop
# counter, on a page that stage 3 keeps out of its memory (memmap=), must
# then hold still. Stage 3, booted with tsc=unstable too, checks that ftq
# and timer refuse a TSC the kernel does not trust, and ends with a deaf
# service, and /init's reboot: tests/guest/offsched/shutdown checks what the
# kernel printed.

kexec_stage1() {
	ktap_check "modprobe offsched_mgr again" 'modprobe offsched_mgr'
	$ctl write $C1/service echo > /dev/null
	expect "start echo to kexec from" $C1/control start OK
	out=$($ctl ring 1 10)
	ktap_check "echo runs before the kexec ($out)" \
		'case "$out" in "OK n=10 "*) true ;; *) false ;; esac'
	kexec_stage 2
	ktap_fail "kexec into stage 2 ($(tail -n 3 /tmp/kexec.log))"
}

kexec_stage2() {
	ktap_check "kexec from a running service: the new kernel boots with every CPU ($(cat $SYS/online))" \
		'[ "$(cat $SYS/online)" = 0-1 ]'
	# /init's watchdog counts from the suite's start, not this boot's
	spent=$(sed -n 's/.* notick\.spent=\([0-9]*\).*/\1/p' /proc/cmdline)
	ktap_check "the first stage's time is passed on (notick.spent=$spent s)" \
		'[ "${spent:-0}" -ge 10 ]'
	ktap_check "modprobe offsched_mgr in the new kernel" 'modprobe offsched_mgr'
	echo 500 > /sys/module/offsched/parameters/stop_timeout_ms
	ktap_check "CPU 1 starts idle there ($(cat $C1/state))" \
		'[ "$(cat $C1/state)" = idle ]'
	start_deaf 1
	st=$?
	ktap_check "a deaf echo runs on CPU 1 (counter at $deaf_addr)" \
		'[ $st = 0 ] && [ "$(cat $C1/state)" = running ]'
	l0=$(loops 1)
	pause
	l1=$(loops 1)
	ktap_check "its loop counter moves ($l0, then $l1)" '[ "$l1" -gt "$l0" ]'
	keep_clear "$deaf_addr"
	# The counter as last seen here: the next kernel must read at least
	# that, so that a 0 read from the wrong page cannot pass for one that
	# holds still.
	kexec_stage 3 maxcpus=1 "memmap=4K\$$clear_page" notick.peek=$deaf_addr \
		notick.peekmin=$(loops 1) tsc=unstable
	ktap_fail "kexec into stage 3 ($(tail -n 3 /tmp/kexec.log))"
}

kexec_stage3() {
	addr=$(sed -n 's/.*notick\.peek=\([0-9a-fx]*\).*/\1/p' /proc/cmdline)
	min=$(sed -n 's/.*notick\.peekmin=\([0-9]*\).*/\1/p' /proc/cmdline)
	ktap_check "kexec from a deaf service with maxcpus=1: CPU 1 stays offline ($(cat $SYS/online))" \
		'[ "$(cat $SYS/online)" = 0 ] && [ "$(cat $ONLINE1)" = 0 ]'
	p0=$($ctl peek "$addr")
	sleep 1
	p1=$($ctl peek "$addr")
	ktap_check "the old kernel's deaf service no longer runs: its counter at $addr holds still ($p0, then $p1), past what it last read ($min)" \
		'[ -n "$p0" ] && [ "$p0" = "$p1" ] && [ "${min:-0}" -gt 0 ] && [ "$p0" -ge "$min" ]'
	expect "CPU 1 comes online" $ONLINE1 1 OK
	ran=$(taskset -c 1 sh -c 'cat /proc/self/stat' | awk '{print $39}')
	ktap_check "every CPU online, a task runs on CPU 1 (ran on CPU $ran)" \
		'[ "$(cat $SYS/online)" = 0-1 ] && [ "$ran" = 1 ]'
	ktap_check "modprobe offsched_mgr in the third kernel" 'modprobe offsched_mgr'
	# tsc=unstable: the TSC is known (tsc_khz) but not trusted
	for s in ftq timer; do
		$ctl write $C1/service $s > /dev/null
		expect "tsc=unstable: $s refused" $C1/control start EOPNOTSUPP
	done
	ktap_check "nothing started: CPU 1 online and idle, tsc_khz $(cat $TSC_KHZ)" \
		'[ "$(cat $ONLINE1)" = 1 ] && [ "$(cat $C1/state)" = idle ] &&
		 [ "$(cat $TSC_KHZ)" -gt 0 ]'
	# A deaf service for the reboot that ends the suite (see ./shutdown).
	echo 500 > /sys/module/offsched/parameters/stop_timeout_ms
	start_deaf 1
	st=$?
	ktap_check "a deaf echo runs on CPU 1 for the reboot" \
		'[ $st = 0 ] && [ "$(cat $C1/state)" = running ]'
}
