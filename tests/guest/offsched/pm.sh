# SPDX-License-Identifier: GPL-2.0
# Suspend and hibernation with an OFFSCHED service (sourced by run.sh; 15
# tests). S3 and S4 cannot run under QEMU's TCG here, so they go through
# /sys/power/pm_test: "processors" takes the other CPUs down and up again
# as a suspend does; "core" goes on to the last step before the platform
# sleeps (syscore suspend and resume, interrupts off), for S3 ("mem") and
# for hibernation ("disk", where it also preallocates the image).
PM=/sys/power
# No need to wait at the test point: what is tested is what comes before.
echo 0 > /sys/module/suspend/parameters/pm_test_delay

# pm_cycle LEVEL STATE: one suspend or hibernation at a pm_test level;
# prints OK or the errno of the write to /sys/power/state.
pm_cycle() {
	echo "$1" > $PM/pm_test || { echo "no pm_test level $1"; return; }
	$ctl write $PM/state "$2"
	echo none > $PM/pm_test
}

# pm_refused DESC LEVEL STATE: the transition is refused with EBUSY.
pm_refused() {
	got=$(pm_cycle "$2" "$3")
	ktap_check "$1 ($got, want EBUSY)" '[ "$got" = EBUSY ]'
}

ktap_check "suspend to RAM and hibernation with pm_test processors and core ($(cat $PM/state); $(cat $PM/pm_test))" \
	'grep -qw mem $PM/state && grep -qw disk $PM/state &&
	 grep -qw processors $PM/pm_test && grep -qw core $PM/pm_test'

$ctl write $C1/service echo > /dev/null
expect "start echo before suspending" $C1/control start OK
n0=$(offsched_lines)
m0=$(dmesg | grep -c "offsched: .*CPU 1.*refus")
pm_refused "suspend (pm_test processors) is refused while a service runs" processors mem
pm_refused "suspend (pm_test core) is refused while a service runs" core mem
pm_refused "hibernation (pm_test core) is refused while a service runs" core disk
m1=$(dmesg | grep -c "offsched: .*CPU 1.*refus")
ktap_check "each refusal names CPU 1 in the kernel log ($((m1 - m0)) lines)" \
	'[ $((m1 - m0)) = 3 ]'
out=$($ctl ring 1 10)
ktap_check "the service is unharmed: CPU 1 offline, running, answers ($out)" \
	'[ "$(cat $ONLINE1)" = 0 ] && [ "$(cat $C1/state)" = running ] &&
	 case "$out" in "OK n=10 "*) true ;; *) false ;; esac'

# Armed: the callback is registered and CPU 1 online; a suspend would take
# CPU 1 down, which must not start the service.
expect "echo 1 > cpu1/online leaves the service armed" $ONLINE1 1 OK
pm_refused "suspend (pm_test processors) is refused while a service is armed" processors mem
ktap_check "CPU 1 still online and armed, the service did not run again" \
	'[ "$(cat $ONLINE1)" = 1 ] && [ "$(cat $C1/state)" = armed ] &&
	 [ "$(offsched_lines)" = $((n0)) ]'
expect "stop the armed service" $C1/control stop OK

got="$(pm_cycle processors mem) $(pm_cycle core mem) $(pm_cycle core disk)"
ktap_check "after the stop: suspend (processors, core) and hibernation (core) succeed ($got)" \
	'[ "$got" = "OK OK OK" ]'
ran=$(taskset -c 1 sh -c 'cat /proc/self/stat' | awk '{print $39}')
ktap_check "CPU 1 online after them and a task runs there (ran on CPU $ran)" \
	'[ "$(cat $SYS/online)" = 0-1 ] && [ "$ran" = 1 ]'
expect "a service starts on CPU 1 after them" $C1/control start OK
out=$($ctl ring 1 10)
got=$($ctl write $C1/control stop)
ktap_check "and answers and stops ($out; stop $got)" \
	'case "$out" in "OK n=10 "*) true ;; *) false ;; esac && [ "$got" = OK ] &&
	 [ "$(cat $ONLINE1)" = 1 ]'
