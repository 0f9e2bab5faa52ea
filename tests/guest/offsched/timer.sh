# SPDX-License-Identifier: GPL-2.0
# The timer service: events at absolute deadlines, published in
# samples_done, which a thread on CPU 0 polls while CPU 1 fires them
# (sourced by run.sh; 11 tests; skipped with the ftq tests when the TSC
# frequency is unknown). Counts and invariants only: how late the events
# come under the emulator is printed, and measured by make compare-test.

timer_q() { echo $(( ($(cat $C1/quantum_ns) * $(cat $TSC_KHZ) + 500000) / 1000000 )); }

$ctl write $C1/service timer > /dev/null
$ctl write $C1/quantum_ns 100000 > /dev/null
$ctl write $C1/samples 2000 > /dev/null
q=$(timer_q)
expect "start the timer service: 2000 events 100 us apart" $C1/control start OK
w=$($ctl timer 1)
wait_for '[ "$(cat $C1/state)" = stopped ]'
ktap_check "it ends by itself after 2000 events, CPU 1 stays offline ($(cat $C1/state), samples_done $(cat $C1/samples_done))" \
	'[ "$(cat $C1/state)" = stopped ] && [ "$(cat $C1/samples_done)" = 2000 ] &&
	 [ "$(cat $ONLINE1)" = 0 ]'
ktap_note "watcher on CPU 0: $w"
ktap_check "a thread on CPU 0 polling samples_done saw it only grow, to 2000 ($w)" \
	'[ "$(field backwards "$w")" = 0 ] && [ "$(field final "$w")" = 2000 ] &&
	 [ "$(field changes "$w")" -ge 1 ]'
l=$($ctl lateness $C1/results $q)
s=$($ctl shm 1)
ktap_note "lateness in TSC cycles (period $q): $l"
ktap_check "2000 results: each event fired on time (loops $(field loops "$s")) or missed, none a period late but the last ($l)" \
	'[ "$(field n "$l")" = 2000 ] && [ "$(field late "$l")" = 0 ] &&
	 [ $(( $(field loops "$s") + $(field missed "$l") )) = 2000 ] &&
	 [ "$(field status "$s")" = 2 ]'
run_tsc
last=$(field last "$l")
ktap_check "run_*_tsc: the last event fired 1999 periods after the first deadline, plus its lateness ($t1 - $t0 = 1999 x $q + $last)" \
	'[ "$t0" -gt 0 ] && [ "$last" != 4294967295 ] &&
	 [ $((t1 - t0)) = $((1999 * q + last)) ]'
expect "changing the period while started is refused" $C1/quantum_ns 5000 EBUSY
expect "stop" $C1/control stop OK
ktap_check "CPU 1 is online again, state stopped" \
	'[ "$(cat $ONLINE1)" = 1 ] && [ "$(cat $C1/state)" = stopped ]'

# A run of 10^6 events 1 ms apart (17 minutes) is stopped on request.
$ctl write $C1/quantum_ns 1000000 > /dev/null
$ctl write $C1/samples 1000000 > /dev/null
q=$(timer_q)
expect "start 10^6 events 1 ms apart" $C1/control start OK
wait_for '[ "$(cat $C1/samples_done)" -ge 10 ]'
expect "stop it after 10 events or more" $C1/control stop OK
d=$(cat $C1/samples_done)
s=$($ctl shm 1)
l=$($ctl lateness $C1/results $q)
ktap_check "it returned on request: CPU 1 online, $d events, as many results ($l)" \
	'[ "$(cat $ONLINE1)" = 1 ] && [ "$(field status "$s")" = 3 ] &&
	 [ "$d" -ge 10 ] && [ "$d" -lt 1000000 ] && [ "$(field n "$l")" = "$d" ]'
$ctl write $C1/quantum_ns 1000000 > /dev/null
$ctl write $C1/samples 1000 > /dev/null
