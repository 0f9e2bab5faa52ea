# SPDX-License-Identifier: GPL-2.0
# The ftq service keeps to the quantum set through sysfs, whatever user
# space writes to the shared memory, and a stop request cuts a quantum
# short (sourced by run.sh; 11 tests; skipped with the other ftq tests
# when the TSC frequency is unknown).
#
# span_ok N: the last FTQ run took N quanta: with S = t1 - t0 from run_tsc
# (t1 is the loop's last TSC read), Q the quantum in cycles as the kernel
# computes it and E = S - N * Q, E is not negative and is below one
# quantum plus the time the service recorded as lost in gaps (the host
# taking the vCPU away: a gap across quantum boundaries, a last read that
# came late).
span_ok() {
	local n=$1 q g lost
	q=$(( $(cat $C1/quantum_ns) * $(cat $TSC_KHZ) / 1000000 ))
	run_tsc
	span_e=$((t1 - t0 - n * q))
	g=$($ctl gaps $C1/gaps "$t0" "$t1")
	lost=${g##*lost=} lost=${lost%% *}
	span_note="span $((t1 - t0)) = $n x $q + $span_e cycles; gaps ${g#*n=}"
	[ $span_e -ge 0 ] && [ $span_e -lt $((q + lost)) ]
}

$ctl write $C1/service ftq > /dev/null
$ctl write $C1/quantum_ns 250000 > /dev/null
$ctl write $C1/samples 400 > /dev/null
$ctl write $C1/fwq_reps 0 > /dev/null
expect "start ftq with quantum_ns 250000 and 400 samples" $C1/control start OK
wait_for '[ "$(cat $C1/state)" = stopped ]'
ktap_check "the run completes ($(cat $C1/samples_done) samples)" \
	'[ "$(cat $C1/samples_done)" = 400 ]'
span_ok 400
st=$?
ktap_check "its TSC span is 400 quanta of 250 us within one quantum ($span_note)" \
	'[ $st = 0 ]'

# Run it again on the same memory, after user space halved the quantum.
expect "echo 1 > cpu1/online: the run is over, the service armed again" $ONLINE1 1 OK
run_tsc
t_first=$t0
ktap_check "user space halves quantum_cycles in the shared memory" \
	'[ "$($ctl setq 1 $(( $(cat $C1/quantum_ns) * $(cat $TSC_KHZ) / 2000000 )))" = OK ]'
expect "echo 0 > cpu1/online runs the service again" $ONLINE1 0 OK
# A new start TSC first, then the end of the run.
wait_for 'run_tsc; [ "$t0" != "$t_first" ] && [ "$(field status "$($ctl shm 1)")" = 2 ]'
span_ok 400
st=$?
ktap_check "the second run still takes 400 quanta of 250 us ($span_note)" \
	'[ $st = 0 ]'
expect "stop" $C1/control stop OK

# A stop during a long quantum.
to0=$(cat /sys/module/offsched/parameters/stop_timeout_ms)
echo 300 > /sys/module/offsched/parameters/stop_timeout_ms
$ctl write $C1/quantum_ns 1000000000 > /dev/null
$ctl write $C1/samples 10 > /dev/null
expect "start ftq with 10 quanta of 1 s" $C1/control start OK
got=$($ctl write $C1/control stop)
ktap_check "a stop right away returns within stop_timeout_ms 300 ($got, want OK)" \
	'[ "$got" = OK ]'
[ "$got" = OK ] || { sleep 2; $ctl write $C1/control stop > /dev/null; }
s=$($ctl shm 1)
ktap_check "the quantum cut short is not recorded ($s)" \
	'[ "$(field status "$s")" = 3 ] && [ "$(cat $C1/samples_done)" = 0 ] &&
	 [ "$(cat $ONLINE1)" = 1 ]'
echo "$to0" > /sys/module/offsched/parameters/stop_timeout_ms
$ctl write $C1/quantum_ns 1000000 > /dev/null
$ctl write $C1/samples 1000 > /dev/null
$ctl write $C1/fwq_reps 1000 > /dev/null
