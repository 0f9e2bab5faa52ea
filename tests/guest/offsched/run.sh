#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# OFFSCHED in the guest: the core's KUnit suite, then offsched_mgr driving
# the ftq and echo services on CPU 1 through sysfs and /dev/offsched.
. ../lib/ktap.sh

ktap_plan 68

SYS=/sys/devices/system/cpu
C0=$SYS/cpu0/offsched
C1=$SYS/cpu1/offsched
ONLINE1=$SYS/cpu1/online
ctl=./osctl

# pause: a short sleep between polls.
pause() { usleep 100000 2>/dev/null || sleep 1; }

# wait_for EXPR: poll EXPR up to 600 times. The bound only keeps a broken
# kernel from hanging the suite; the result of EXPR is what is checked.
wait_for() {
	local n=0
	while [ $n -lt 600 ]; do
		eval "$1" && return 0
		pause
		n=$((n + 1))
	done
	return 1
}

# expect DESC FILE VALUE ERRNO: write VALUE to FILE, expect ERRNO (or OK).
expect() {
	got=$($ctl write "$2" "$3")
	want=$4
	ktap_check "$1 ($got, want $want)" '[ "$got" = "$want" ]'
}

# field NAME LINE: value of NAME=value in LINE.
field() { echo "$2" | sed -n "s/.*\\b$1=\\([0-9]*\\).*/\\1/p"; }

offsched_lines() { dmesg | grep -c "CPU 1 is now offline and OFFSCHED"; }

ktap_note "kernel $(uname -r)"

# --- the core API: KUnit suite ----------------------------------------------
ktap_check "modprobe offsched_kunit" 'modprobe offsched_kunit'
for c in offsched_test_bad_args offsched_test_register offsched_test_kmem \
	offsched_test_run offsched_test_pkt; do
	r=$(dmesg | sed 's/^\[[^]]*\] //' | grep -E "^    (not )?ok [0-9]+ $c\$" |
		tail -n 1)
	case "$r" in
	"    ok "*) ktap_ok "KUnit $c" ;;
	*) ktap_fail "KUnit $c (${r:-no result})" ;;
	esac
done
ktap_check "KUnit offsched suite: all 5 passed, none skipped" \
	'dmesg | grep -q "# offsched: pass:5 fail:0 skip:0 total:5"'
rmmod offsched_kunit
ktap_check "the KUnit run printed 'CPU 1 is now offline and OFFSCHED' once" \
	'[ "$(offsched_lines)" = 1 ]'
ktap_check "CPU 1 is online after the KUnit suite" '[ "$(cat $ONLINE1)" = 1 ]'

# --- loading --------------------------------------------------------------
ktap_check "modprobe offsched_mgr" 'modprobe offsched_mgr'
ktap_check "sysfs directories for CPU 0 and CPU 1, and /dev/offsched" \
	'[ -d $C0 ] && [ -d $C1 ] && [ -c /dev/offsched ]'
ktap_check "CPU 1 starts idle with no service ($(cat $C1/state) $(cat $C1/service))" \
	'[ "$(cat $C1/state)" = idle ] && [ "$(cat $C1/service)" = none ]'

# --- bad input --------------------------------------------------------------
expect "unknown service is refused" $C1/service bogus EINVAL
expect "quantum below 1 us is refused" $C1/quantum_ns 999 ERANGE
expect "quantum that is not a number is refused" $C1/quantum_ns 1ms EINVAL
expect "zero samples are refused" $C1/samples 0 ERANGE
expect "start without a service is refused" $C1/control start EINVAL
expect "stop while idle is refused" $C1/control stop EINVAL
expect "unknown command is refused" $C1/control launch EINVAL
ktap_check "refused writes changed nothing" \
	'[ "$(cat $C1/service)" = none ] && [ "$(cat $C1/quantum_ns)" = 1000000 ] &&
	 [ "$(cat $C1/samples)" = 1000 ] && [ "$(cat $C1/state)" = idle ] &&
	 [ "$(cat $ONLINE1)" = 1 ]'
$ctl write $C0/service echo > /dev/null
expect "start on CPU 0 is refused by the core" $C0/control start EPERM
ktap_check "CPU 0 is still online and idle" \
	'[ "$(cat $SYS/online)" = 0-1 ] && [ "$(cat $C0/state)" = idle ]'
got=$($ctl attach 4096)
ktap_check "attaching /dev/offsched to CPU 4096 is refused ($got, want EINVAL)" \
	'[ "$got" = EINVAL ]'
got=$($ctl attach 1)
ktap_check "attaching to a CPU never started is refused ($got, want ENODATA)" \
	'[ "$got" = ENODATA ]'

# --- ftq that ends by itself, then ftq stopped while it runs ---------------
# ftq needs the TSC frequency; a kernel that could not calibrate the TSC
# must refuse it with ENODEV, and the ftq checks are then skipped.
$ctl write $C1/service ftq > /dev/null
if dmesg | grep -q "could not calculate TSC khz"; then
	expect "ftq is refused when the TSC frequency is unknown" \
		$C1/control start ENODEV
	ktap_check "the refused start changed nothing" \
		'[ "$(cat $C1/state)" = idle ] && [ "$(cat $ONLINE1)" = 1 ]'
	for d in "CPU 1 is offline" "kernel message" "ftq finishes by itself" \
		"200 samples recorded" "ftq counted work" "shared memory complete" \
		"rmmod refused while registered" "second start refused" \
		"service change refused" "samples change refused" "stop" \
		"CPU 1 online again" "results intact after re-online" \
		"task runs on CPU 1" "start 10^6 samples" "state running" \
		"samples readable while offline" "stop the running ftq" \
		"ftq returned on request"; do
		ktap_skip "ftq: $d" "TSC frequency unknown (no PM timer or HPET)"
	done
else
	n0=$(offsched_lines)
	$ctl write $C1/service ftq > /dev/null
	$ctl write $C1/samples 200 > /dev/null
	expect "start ftq with 200 samples of 1 ms" $C1/control start OK
	ktap_check "CPU 1 is offline" '[ "$(cat $ONLINE1)" = 0 ] && [ "$(cat $SYS/online)" = 0 ]'
	ktap_check "kernel says CPU 1 is now offline and OFFSCHED" \
		'[ "$(offsched_lines)" = $((n0 + 1)) ]'
	wait_for '[ "$(cat $C1/state)" = stopped ]'
	ktap_check "ftq finishes by itself, CPU 1 stays offline ($(cat $C1/state))" \
		'[ "$(cat $C1/state)" = stopped ] && [ "$(cat $ONLINE1)" = 0 ]'
	r1=$($ctl results $C1/results)
	ktap_note "ftq 200 x 1 ms: $r1"
	ktap_check "200 samples recorded ($(cat $C1/samples_done))" \
		'[ "$(cat $C1/samples_done)" = 200 ] && [ "$(field n "$r1")" = 200 ]'
	ktap_check "ftq counted work in its quanta (max $(field max "$r1"))" \
		'[ "$(field max "$r1")" -gt 0 ]'
	s=$($ctl shm 1)
	ktap_check "shared memory says complete ($s)" \
		'[ "$(field status "$s")" = 2 ] && [ "$(field samples_done "$s")" = 200 ]'
	got=$($ctl rmmod offsched_mgr)
	ktap_check "rmmod while a service is registered is refused ($got, want EAGAIN)" \
		'[ "$got" = EAGAIN ] && [ -d $C1 ]'
	expect "a second start is refused" $C1/control start EBUSY
	expect "changing the service while started is refused" $C1/service echo EBUSY
	expect "changing the samples while started is refused" $C1/samples 5 EBUSY
	expect "stop" $C1/control stop OK
	ktap_check "CPU 1 is online again, state stopped" \
		'[ "$(cat $ONLINE1)" = 1 ] && [ "$(cat $SYS/online)" = 0-1 ] &&
		 [ "$(cat $C1/state)" = stopped ]'
	r2=$($ctl results $C1/results)
	ktap_check "results intact after re-online ($r2)" '[ "$r2" = "$r1" ]'
	ran=$(taskset -c 1 sh -c 'cat /proc/self/stat' | awk '{print $39}')
	ktap_check "a task pinned to CPU 1 runs there again (ran on CPU $ran)" '[ "$ran" = 1 ]'

	# --- ftq stopped while it runs ----------------------------------------------
	$ctl write $C1/samples 1000000 > /dev/null
	expect "start ftq with 10^6 samples" $C1/control start OK
	ktap_check "state is running ($(cat $C1/state))" '[ "$(cat $C1/state)" = running ]'
	wait_for '[ "$(cat $C1/samples_done)" -gt 0 ]'
	d1=$(cat $C1/samples_done)
	wait_for '[ "$(cat $C1/samples_done)" -gt "$d1" ]'
	d2=$(cat $C1/samples_done)
	ktap_check "samples readable while CPU 1 is offline ($d1 then $d2)" \
		'[ "$d1" -gt 0 ] && [ "$d2" -gt "$d1" ]'
	expect "stop the running ftq" $C1/control stop OK
	d3=$(cat $C1/samples_done)
	r3=$($ctl results $C1/results)
	s=$($ctl shm 1)
	ktap_check "ftq returned on request with $d3 samples ($s)" \
		'[ "$d3" -ge "$d2" ] && [ "$d3" -lt 1000000 ] &&
		 [ "$(field status "$s")" = 3 ] && [ "$(field n "$r3")" = "$d3" ]'
	ktap_check "nothing records after the stop" \
		'[ "$(cat $C1/samples_done)" = "$d3" ] && [ "$($ctl results $C1/results)" = "$r3" ]'
fi

# --- 20 start -> run -> stop -> online cycles, with echo ----------------------
$ctl write $C1/service echo > /dev/null
n0=$(offsched_lines)
runs0=$(cat $C1/runs)
bad=0
cycle=0
while [ $cycle -lt 20 ]; do
	cycle=$((cycle + 1))
	[ "$($ctl write $C1/control start)" = OK ] || { bad=$((bad + 1)); continue; }
	[ "$(cat $ONLINE1)" = 0 ] || bad=$((bad + 1))
	[ "$(cat $C1/state)" = running ] || bad=$((bad + 1))
	case "$($ctl ring 1 10)" in "OK n=10 "*) ;; *) bad=$((bad + 1)) ;; esac
	[ "$($ctl write $C1/control stop)" = OK ] || bad=$((bad + 1))
	[ "$(cat $ONLINE1)" = 1 ] && [ "$(cat $C1/state)" = stopped ] || bad=$((bad + 1))
	[ "$(field messages "$($ctl shm 1)")" = 10 ] || bad=$((bad + 1))
	[ "$(taskset -c 1 sh -c 'cat /proc/self/stat' | awk '{print $39}')" = 1 ] ||
		bad=$((bad + 1))
done
ktap_check "20 start/ring/stop cycles, every step as expected ($bad failed steps)" \
	'[ $bad = 0 ]'
ktap_check "20 more runs counted ($(cat $C1/runs) after $runs0)" \
	'[ "$(cat $C1/runs)" = $((runs0 + 20)) ]'
ktap_check "20 more 'now offline and OFFSCHED' messages" \
	'[ "$(offsched_lines)" = $((n0 + 20)) ]'
ktap_check "no warning in dmesg so far" \
	'! dmesg | grep -E -q "WARNING:|BUG:|possible circular|inconsistent lock|RCU used illegally|suspicious RCU"'

# --- onlining through the CPU's own online file stops the service too -------
expect "start echo again" $C1/control start OK
expect "echo 1 > cpu1/online stops the service cooperatively" $ONLINE1 1 OK
ktap_check "service returned on request, CPU 1 online, still armed" \
	'[ "$(field status "$($ctl shm 1)")" = 3 ] && [ "$(cat $ONLINE1)" = 1 ] &&
	 [ "$(cat $C1/state)" = armed ]'
expect "stop after the manual online unregisters" $C1/control stop OK

# --- echo: the ring round trip ------------------------------------------------
expect "start echo" $C1/control start OK
got=$($ctl private 1)
ktap_check "MAP_PRIVATE is refused ($got, want EINVAL)" '[ "$got" = EINVAL ]'
out=$($ctl ring 1 1000)
ktap_note "ring: $out"
ktap_check "1000 words go round the rings, each answered + 1 in order" \
	'case "$out" in "OK n=1000 "*) true ;; *) false ;; esac'
ktap_check "the service counted 1000 messages" \
	'[ "$(field messages "$($ctl shm 1)")" = 1000 ]'

# --- a service that does not answer the stop ----------------------------------
echo 300 > /sys/module/offsched/parameters/stop_timeout_ms
to0=$(cat $C1/stop_timeouts)
ktap_check "make echo deaf to stop requests" \
	'[ "$($ctl send 1 0xdeafdeafdeafdeaf)" = OK ]'
expect "stop of a deaf service times out" $C1/control stop ETIMEDOUT
ktap_check "CPU 1 stays offline, state stopping, timeout counted" \
	'[ "$(cat $ONLINE1)" = 0 ] && [ "$(cat $C1/state)" = stopping ] &&
	 [ "$(cat $C1/stop_timeouts)" = $((to0 + 1)) ]'
ktap_check "the timeout is reported in the kernel log" \
	'dmesg | grep -q "CPU 1: callback .* did not return within 300 ms"'
out=$($ctl ring 1 10)
ktap_check "the service still runs with its data ($out)" \
	'case "$out" in "OK n=10 "*) true ;; *) false ;; esac'
expect "onlining through cpu1/online times out as well" $ONLINE1 1 ETIMEDOUT
ktap_check "make echo hear stop requests again" \
	'[ "$($ctl send 1 0x4ea54ea54ea54ea5)" = OK ]'
expect "stop now succeeds" $C1/control stop OK
ktap_check "CPU 1 online, echo stopped with 1012 messages" \
	'[ "$(cat $ONLINE1)" = 1 ] && [ "$(cat $C1/state)" = stopped ] &&
	 [ "$(field messages "$($ctl shm 1)")" = 1012 ]'
echo 2000 > /sys/module/offsched/parameters/stop_timeout_ms

# --- unloading ----------------------------------------------------------------
got=$($ctl rmmod offsched_mgr)
ktap_check "rmmod after the stop succeeds ($got)" \
	'[ "$got" = OK ] && [ ! -e $C1 ] && [ ! -e /dev/offsched ]'
ktap_check "CPU 1 online after unload" '[ "$(cat $SYS/online)" = 0-1 ]'
