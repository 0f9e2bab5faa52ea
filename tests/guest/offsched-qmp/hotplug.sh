# SPDX-License-Identifier: GPL-2.0
# CPU hot-add and hot-remove (sourced by run.sh; 9 tests): QEMU adds and
# ejects CPU 2 (QMP device_add and device_del). A CPU added after
# offsched_mgr was loaded gets its directory and can run a service; its
# eject is refused while the service runs, which goes on unharmed, and
# goes through once it is stopped; unloading leaves nothing behind.
C2=$SYS/cpu2/offsched
ADD='{"execute": "device_add", "arguments": {"driver": "max-x86_64-cpu", "id": "cpu2", "socket-id": 0, "core-id": 2, "thread-id": 0}}'
DEL='{"execute": "device_del", "arguments": {"id": "cpu2"}}'
qmp "$ADD"
wait_for '[ -e $SYS/cpu2/online ]'
echo 1 > $SYS/cpu2/online
ktap_check "QEMU hot-adds CPU 2, which comes online ($(cat $SYS/online))" \
	'[ "$(cat $SYS/cpu2/online)" = 1 ] && [ "$(cat $SYS/online)" = 0-2 ]'
ktap_check "it has its offsched directory, idle" \
	'[ -d $C2 ] && [ "$(cat $C2/state)" = idle ]'

$ctl write $C2/service echo > /dev/null
ref0=$(refcnt)
expect "start echo on CPU 2" $C2/control start OK
out=$($ctl ring 2 10)
ktap_check "echo answers on CPU 2 ($out)" \
	'case "$out" in "OK n=10 "*) true ;; *) false ;; esac'

qmp "$DEL"
sleep 5
out=$($ctl ring 2 10)
ktap_check "an eject of CPU 2 while echo runs is refused: CPU 2 still there, echo running ($(cat $C2/state)) and answering ($out)" \
	'[ -d $SYS/cpu2 ] && [ "$(cat $C2/state)" = running ] &&
	 case "$out" in "OK n=10 "*) true ;; *) false ;; esac'

expect "stop echo on CPU 2" $C2/control stop OK
ktap_check "CPU 2 online, the module reference back ($(refcnt), was $ref0)" \
	'[ "$(cat $SYS/cpu2/online)" = 1 ] && [ "$(refcnt)" = "$ref0" ]'

qmp "$DEL"
wait_for '[ ! -e $SYS/cpu2 ]'
ktap_check "then the eject goes through: CPU 2 gone ($(cat $SYS/present) present)" \
	'[ ! -e $SYS/cpu2 ] && [ "$(cat $SYS/present)" = 0-1 ]'

# No CPU is added after the eject: QEMU 7.2 (TCG) itself crashes
# (SIGSEGV) on a CPU device_add that follows a CPU device_del.
ktap_check "rmmod offsched_mgr" 'rmmod offsched_mgr && [ ! -e $C1 ] && [ ! -e $SYS/cpu0/offsched ]'
