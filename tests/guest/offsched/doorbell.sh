# SPDX-License-Identifier: GPL-2.0
# Doorbells (sourced by run.sh; 13 tests): the echo service on CPU 1 rings
# CPU 0 after each answer, and the timer service after each event; a
# reader on CPU 0 sleeps in read() and poll() of /dev/offsched until they
# ring. Counts only: every ring answered is one ODB interrupt on CPU 0,
# and the reader's last count is the CPU's doorbells.

db=/tests/offsched/doorbell
# odb0: the ODB interrupts of CPU 0, from /proc/interrupts
odb0() { awk '$1 == "ODB:" { print $2 }' /proc/interrupts; }
# rang D0 I0: the doorbells since D0 were answered by as many ODB
# interrupts on CPU 0 since I0, and sets dd to them
rang() {
	dd=$(($(cat $C1/doorbells) - $1))
	[ $(($(odb0) - $2)) = "$dd" ]
}

$ctl write $C1/service echo > /dev/null
expect "doorbell: CPU 1's own number is refused" $C1/doorbell 1 EINVAL
expect "doorbell: a CPU that does not exist is refused" $C1/doorbell 4096 EINVAL
expect "doorbell: a word that is not a CPU is refused" $C1/doorbell cpu0 EINVAL
ktap_check "refused writes left none ($(cat $C1/doorbell)); ODB reads $(odb0) on CPU 0" \
	'[ "$(cat $C1/doorbell)" = none ] && [ -n "$(odb0)" ]'
expect "doorbell: CPU 0" $C1/doorbell 0 OK
expect "start echo with a doorbell" $C1/control start OK
expect "the doorbell cannot change while started" $C1/doorbell none EBUSY
d0=$(cat $C1/doorbells) i0=$(odb0)
taskset -c 0 $db wait 1 2000 > /tmp/db.out 2>&1 &
dp=$!
wait_for 'grep -q attached /tmp/db.out'
r=$($ctl ring 1 100)
wait $dp
w=$(tail -n 1 /tmp/db.out)
ktap_check "100 answers ($r) rang: doorbells +$(($(cat $C1/doorbells) - d0)), as many ODB interrupts on CPU 0 (+$(($(odb0) - i0)))" \
	'case "$r" in "OK n=100 "*) ;; *) false ;; esac && rang $d0 $i0 &&
	 [ "$dd" -ge 1 ] && [ "$dd" -le 100 ]'
ktap_check "a reader asleep in read() and poll() on CPU 0 woke for them ($w)" \
	'[ "$(field reads "$w")" -ge 1 ] && [ "$(field last "$w")" = "$(cat $C1/doorbells)" ] &&
	 [ "$(field sleeps "$w")" -ge "$(field reads "$w")" ]'
e=$($db errors 1)
ktap_check "read(): ENODATA and POLLERR unattached, EINVAL below 8 bytes, EAGAIN with O_NONBLOCK ($e)" \
	'[ "$e" = "noattach=ENODATA pollerr=1 short=EINVAL nonblock=EAGAIN" ]'
expect "stop" $C1/control stop OK

# Without a doorbell the services ring nothing
$ctl write $C1/doorbell none > /dev/null
$ctl write $C1/control start > /dev/null
d0=$(cat $C1/doorbells) i0=$(odb0)
r=$($ctl ring 1 100)
ktap_check "doorbell none: 100 answers ($r), no doorbell, no ODB interrupt" \
	'case "$r" in "OK n=100 "*) ;; *) false ;; esac && rang $d0 $i0 && [ "$dd" = 0 ]'
$ctl write $C1/control stop > /dev/null

# The timer service rings after each event
if [ "$(cat $TSC_KHZ)" -gt 0 ]; then
	$ctl write $C1/service timer > /dev/null
	$ctl write $C1/quantum_ns 1000000 > /dev/null
	$ctl write $C1/samples 100 > /dev/null
	$ctl write $C1/doorbell 0 > /dev/null
	d0=$(cat $C1/doorbells) i0=$(odb0)
	$ctl write $C1/control start > /dev/null
	wait_for '[ "$(cat $C1/state)" = stopped ]'
	ktap_check "timer: 100 events 1 ms apart rang $(($(cat $C1/doorbells) - d0)) doorbells, as many ODB interrupts" \
		'[ "$(cat $C1/samples_done)" = 100 ] && rang $d0 $i0 && [ "$dd" -ge 1 ] && [ "$dd" -le 100 ]'
	$ctl write $C1/control stop > /dev/null
	$ctl write $C1/doorbell none > /dev/null
else
	ktap_fail "timer: events ring the doorbell (not run: TSC frequency unknown)"
fi
$ctl write $C1/service echo > /dev/null
