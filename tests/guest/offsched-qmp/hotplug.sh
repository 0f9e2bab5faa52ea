# SPDX-License-Identifier: GPL-2.0
# CPU hot-add and hot-remove (sourced by run.sh; 12 tests). QEMU adds CPU 3
# after offsched_mgr was loaded (QMP device_add): it gets its directory and
# can run a service. CPU 2, present from boot as a device of its own (the
# suite's devices file), is ejected (QMP device_del): refused while a
# service runs there, which goes on unharmed, and done once it is stopped.
# Unloading leaves nothing behind.
#
# The add comes first: QEMU 7.2 (TCG) itself crashes (SIGSEGV or a heap
# corruption) on a CPU device_add that follows a CPU device_del. It needs a
# slot: 6.1 makes QEMU's disabled MADT entries hotplug CPUs, 6.12 only
# under a hypervisor it knows (acpi_is_processor_usable()), and TCG is
# none, so 6.12 has 3 possible CPUs and the hot-add's 5 checks are skipped
# there; the eject needs no slot and runs on every base.
C2=$SYS/cpu2/offsched
C3=$SYS/cpu3/offsched
ADD3='{"execute": "device_add", "arguments": {"driver": "max-x86_64-cpu", "id": "cpu3", "socket-id": 0, "core-id": 3, "thread-id": 0}}'
DEL2='{"execute": "device_del", "arguments": {"id": "cpu2"}}'

# --- CPU 3, added after modprobe ----------------------------------------------
if [ "$(cat $SYS/possible)" = 0-3 ]; then
	qmp "$ADD3"
	wait_for '[ -e $SYS/cpu3/online ]'
	echo 1 > $SYS/cpu3/online
	ktap_check "QEMU hot-adds CPU 3, which comes online ($(cat $SYS/online))" \
		'[ "$(cat $SYS/cpu3/online)" = 1 ] && [ "$(cat $SYS/online)" = 0-3 ]'
	ktap_check "it has its offsched directory, idle" \
		'[ -d $C3 ] && [ "$(cat $C3/state)" = idle ]'
	$ctl write $C3/service echo > /dev/null
	expect "start echo on CPU 3" $C3/control start OK
	out=$($ctl ring 3 10)
	ktap_check "echo answers on CPU 3 ($out)" \
		'case "$out" in "OK n=10 "*) true ;; *) false ;; esac'
	expect "stop echo on CPU 3" $C3/control stop OK
else
	why="no hotplug slot: possible CPUs $(cat $SYS/possible) (this kernel counts QEMU's disabled MADT entries only under a known hypervisor)"
	for t in "QEMU hot-adds CPU 3, which comes online" \
		"it has its offsched directory, idle" "start echo on CPU 3" \
		"echo answers on CPU 3" "stop echo on CPU 3"; do
		ktap_skip "$t" "$why"
	done
fi

# --- CPU 2, ejected -------------------------------------------------------------
$ctl write $C2/service echo > /dev/null
ref0=$(refcnt)
expect "start echo on CPU 2" $C2/control start OK
out=$($ctl ring 2 10)
ktap_check "echo answers on CPU 2 ($out)" \
	'case "$out" in "OK n=10 "*) true ;; *) false ;; esac'

qmp "$DEL2"
sleep 5
out=$($ctl ring 2 10)
ktap_check "an eject of CPU 2 while echo runs is refused: CPU 2 still there, echo running ($(cat $C2/state)) and answering ($out)" \
	'[ -d $SYS/cpu2 ] && [ "$(cat $C2/state)" = running ] &&
	 case "$out" in "OK n=10 "*) true ;; *) false ;; esac'

expect "stop echo on CPU 2" $C2/control stop OK
ktap_check "CPU 2 online, the module reference back ($(refcnt), was $ref0)" \
	'[ "$(cat $SYS/cpu2/online)" = 1 ] && [ "$(refcnt)" = "$ref0" ]'

qmp "$DEL2"
wait_for '[ ! -e $SYS/cpu2 ]'
ktap_check "then the eject goes through: CPU 2 gone ($(cat $SYS/present) present)" \
	'[ ! -e $SYS/cpu2 ] && [ "$(cat $SYS/present)" = "$present_after" ]'

ktap_check "rmmod offsched_mgr" \
	'rmmod offsched_mgr && [ ! -e $C1 ] && [ ! -e $SYS/cpu0/offsched ] && [ ! -e $C3 ]'
