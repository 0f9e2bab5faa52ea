#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# OFFSCHED and SMT control, then a power-off, on two cores of two threads
# (CPUs 0 and 2 are the primary threads, 1 and 3 their siblings). SMT
# control "on" brings the siblings up: a deaf service on CPU 1 must not
# keep it from bringing up CPU 3. Then CPU 1 runs an echo service that
# answers stop requests and CPU 2 a deaf one when /init powers the guest off at
# the end of the suite; ./shutdown checks what the kernel printed, the
# power-off itself included.
# QEMU's TCG CPU has the vendor Intel here (./cpu): with its default AMD
# family 0xf identity the kernel finds no SMT siblings. Without the
# hypervisor bit, the microcode loader runs.
. ../lib/ktap.sh
. ../offsched/lib.sh
. ../lib/kver.sh

ktap_plan 34
C2=$SYS/cpu2/offsched

ktap_note "kernel $(uname -r)"
ktap_check "modprobe offsched_mgr" 'modprobe offsched_mgr'
echo 500 > /sys/module/offsched/parameters/stop_timeout_ms

# --- SMT control -----------------------------------------------------------
SMT=$SYS/smt/control
ktap_check "two cores of two threads, SMT control on ($(cat $SMT), online $(cat $SYS/online))" \
	'[ "$(cat $SMT)" = on ] && [ "$(cat $SYS/online)" = 0-3 ]'
start_deaf 1
st=$?
ktap_check "a deaf echo runs on CPU 1" '[ $st = 0 ] && [ "$(cat $C1/state)" = running ]'
expect "SMT control off takes CPU 3 down" $SMT off OK
ktap_check "CPU 3 offline, CPU 1 still runs its service ($(cat $SYS/online))" \
	'[ "$(cat $SYS/online)" = 0,2 ] && [ "$(cat $C1/state)" = running ]'
expect "SMT control on reports the deaf service" $SMT on ETIMEDOUT
ktap_check "but brings CPU 3 up; CPU 1 keeps its service ($(cat $SYS/online), $(cat $C1/state))" \
	'[ "$(cat $SYS/online)" = 0,2-3 ] && [ "$(cat $SMT)" = on ] &&
	 [ "$(cat $C1/state)" = running ]'
ktap_check "make echo on CPU 1 hear stop requests again" \
	'[ "$($ctl send 1 0x4ea54ea54ea54ea5)" = OK ]'
expect "stop it" $C1/control stop OK
ktap_check "every CPU online" '[ "$(cat $SYS/online)" = 0-3 ]'

# --- SMT control and threads with callbacks -----------------------------------
# An armed callback (its thread online) keeps SMT control from taking the
# thread down, which would start it: EBUSY, nothing taken down. A running
# one (its thread offline) stays when SMT goes off, and onlining its
# thread then fails with EPERM before the callback is asked to stop.
C3=$SYS/cpu3/offsched
$ctl write $C3/service echo > /dev/null
expect "start echo on CPU 3" $C3/control start OK
expect "echo 1 > cpu3/online: the run stops, the callback stays armed" $SYS/cpu3/online 1 OK
expect "SMT control off while CPU 3 has an armed callback is refused" $SMT off EBUSY
ktap_check "CPU 3 online, its callback not started ($(cat $C3/state)), SMT control on, every CPU online" \
	'[ "$(cat $SYS/cpu3/online)" = 1 ] && [ "$(cat $C3/state)" = armed ] &&
	 [ "$(cat $SMT)" = on ] && [ "$(cat $SYS/online)" = 0-3 ] &&
	 dmesg | grep -q "SMT: CPU 3 has an OFFSCHED callback"'
expect "stop it" $C3/control stop OK
$ctl write $C1/service echo > /dev/null
expect "start echo on CPU 1" $C1/control start OK
expect "SMT control off with echo running on CPU 1" $SMT off OK
expect "echo 1 > cpu1/online with SMT off is refused" $ONLINE1 1 EPERM
out=$($ctl ring 1 10)
ktap_check "echo on CPU 1 was not asked to stop: running, answering ($out)" \
	'[ "$(cat $C1/state)" = running ] && [ "$(field status "$($ctl shm 1)")" = 1 ] &&
	 case "$out" in "OK n=10 "*) true ;; *) false ;; esac'
expect "SMT control on" $SMT on OK
expect "stop echo on CPU 1" $C1/control stop OK
ktap_check "every CPU online again" '[ "$(cat $SYS/online)" = 0-3 ]'

# --- late microcode loading ----------------------------------------------------
# The loader runs on this Intel CPU without the hypervisor bit (./cpu).
# A late load rendezvouses the online CPUs only: a sibling thread that
# runs a callback would run through the update of its core, so the load
# is refused (EBUSY), while a sibling simply offline does not stop it.
# There is no firmware here: 6.1 then loads nothing and the write
# succeeds, 6.12 says so (ENOENT, from request_microcode_fw()).
uc_none=OK
kernel_at_least 6 12 && uc_none=ENOENT
UC=$SYS/microcode/reload
ktap_check "the late microcode loader is there ($UC)" '[ -w $UC ]'
$ctl write $C1/service echo > /dev/null
expect "start echo on CPU 1" $C1/control start OK
expect "a late microcode load while echo runs on CPU 1 is refused" $UC 1 EBUSY
out=$($ctl ring 1 10)
ktap_check "echo on CPU 1 goes on ($out); the log names it" \
	'case "$out" in "OK n=10 "*) true ;; *) false ;; esac &&
	 dmesg | grep -q "microcode: CPU 1 runs an OFFSCHED callback"'
expect "stop echo on CPU 1" $C1/control stop OK
expect "CPU 1 offline by hand, no callback" $ONLINE1 0 OK
expect "then a late load is not refused: no firmware" $UC 1 $uc_none
expect "CPU 1 online again" $ONLINE1 1 OK

# --- the power-off -----------------------------------------------------------
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
	'[ "$(loops 2)" -gt "$l2" ] && [ "$(cat $SYS/online)" = 0,3 ]'
# /init powers off instead of rebooting; that it did is read on the
# console by the harness (./shutdown: "reboot: Power down", and no restart).
echo poweroff > /tmp/notick.end
