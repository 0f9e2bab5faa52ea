#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# OFFSCHED in the guest: the core's KUnit suite, then offsched_mgr driving
# the ftq and echo services on CPU 1 through sysfs and /dev/offsched.
. ../lib/ktap.sh

ktap_plan 220

. ./lib.sh
. ../lib/kexec.sh
. ./kexec.sh

# Stages 2 and 3 run in kernels kexec'd into at the end of stage 1 and 2.
case ${NOTICK_STAGE:-1} in
2) kexec_stage2; exit 0 ;;
3) kexec_stage3; exit 0 ;;
esac

ktap_note "kernel $(uname -r)"

# --- the core API: KUnit suite ----------------------------------------------
ktap_check "modprobe offsched_kunit" 'modprobe offsched_kunit'
for c in offsched_test_ftq_probe offsched_test_ftq_step offsched_test_fwq \
	offsched_test_bad_args offsched_test_register offsched_test_kmem \
	offsched_test_run offsched_test_notify offsched_test_lock_wait \
	offsched_test_tlb offsched_test_pkt; do
	r=$(dmesg | sed 's/^\[[^]]*\] //' | grep -E "^    (not )?ok [0-9]+ $c\$" |
		tail -n 1)
	case "$r" in
	"    ok "*) ktap_ok "KUnit $c" ;;
	*) ktap_fail "KUnit $c (${r:-no result})" ;;
	esac
done
ktap_check "KUnit offsched suite: all 11 passed, none skipped" \
	'dmesg | grep -q "# offsched: pass:11 fail:0 skip:0 total:11"'
rmmod offsched_kunit
ktap_check "the KUnit run printed 'CPU 1 is now offline and OFFSCHED' seven times" \
	'[ "$(offsched_lines)" = 7 ]'
ktap_check "CPU 1 is online after the KUnit suite" '[ "$(cat $ONLINE1)" = 1 ]'

# --- loading --------------------------------------------------------------
ktap_check "modprobe offsched_mgr" 'modprobe offsched_mgr'
ktap_check "sysfs directories for CPU 0 and CPU 1, and /dev/offsched" \
	'[ -d $C0 ] && [ -d $C1 ] && [ -c /dev/offsched ]'
ktap_check "CPU 1 starts idle with no service ($(cat $C1/state) $(cat $C1/service))" \
	'[ "$(cat $C1/state)" = idle ] && [ "$(cat $C1/service)" = none ]'
# One value per file: every readable text file of cpuN/offsched reads one
# word on one line (the binary files and the pkt rule table aside), and
# what is the same for every CPU is in one place.
one_value() {
	for f in $C1/*; do
		case ${f##*/} in results | gaps | fwq | pkt_rules | control) continue ;; esac
		v=$(cat $f) || return 1
		case "$v" in *[![:graph:]]* | "") bad_file=${f##*/}; return 1 ;; esac
	done
}
bad_file=
one_value || bad_file=${bad_file:-unreadable}
ktap_check "one value per file in cpu1/offsched${bad_file:+, not in $bad_file}" \
	'[ -z "$bad_file" ]'
ktap_check "tsc_khz once, in $SYS/offsched ($(cat $TSC_KHZ)), not per CPU" \
	'[ -r $TSC_KHZ ] && [ ! -e $C1/tsc_khz ] && [ ! -e $C0/tsc_khz ] &&
	 [ "$(ls $SYS/offsched)" = tsc_khz ]'

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

# --- an unprivileged user (uid/gid 65534, no capabilities) ------------------
# Every write to the management files and opening /dev/offsched (for its
# ioctl and mmap) is refused by their modes (root's, 0644/0200 and 0600):
# EACCES, and nothing changes.
DROP=/tests/notickctl/ntprobe
snap_files() { for f in $C0/* $C1/*; do [ -r "$f" ] && [ ! -d "$f" ] && echo "$f $(cat "$f" 2>/dev/null | head -c 64)"; done; }
snap_files > /tmp/os.before
bad=
for f in service control quantum_ns samples gap_ns fwq_work fwq_reps; do
	for d in $C0 $C1; do
		r=$($DROP drop $ctl write $d/$f 1000 2>&1)
		[ "$r" = EACCES ] || bad="$bad ${d##*/cpu/}/$f:$r"
	done
done
r=$($DROP drop $ctl attach 1 2>&1)
snap_files > /tmp/os.after
ktap_check "uid 65534: every management write refused (EACCES)${bad:+, not:$bad}" '[ -z "$bad" ]'
ktap_check "uid 65534: /dev/offsched refused, so no ioctl or mmap ($r)" '[ "$r" = EACCES ]'
ktap_check "uid 65534: nothing changed ($(wc -l < /tmp/os.before) files read back the same)" \
	'cmp -s /tmp/os.before /tmp/os.after && [ "$(cat $ONLINE1)" = 1 ]'

# --- ftq gap and FWQ settings -------------------------------------------------
ktap_check "ftq defaults: gap_ns 2000, fwq_work 100000, fwq_reps 1000 ($(cat $C1/gap_ns) $(cat $C1/fwq_work) $(cat $C1/fwq_reps))" \
	'[ "$(cat $C1/gap_ns)" = 2000 ] && [ "$(cat $C1/fwq_work)" = 100000 ] &&
	 [ "$(cat $C1/fwq_reps)" = 1000 ]'
run_tsc
ktap_check "nothing recorded before the first run (run_*_tsc $rt)" \
	'[ "$(cat $C1/gaps_done)" = 0 ] && [ "$(cat $C1/gaps_lost)" = 0 ] &&
	 [ "$(cat $C1/fwq_done)" = 0 ] && [ "$rt" = "0 0" ] &&
	 [ "$($ctl gaps $C1/gaps 0 0)" = "bytes=0 n=0 bad=0 unordered=0 lost=0 last=0,0" ] &&
	 [ "$(field bytes "$($ctl fwq $C1/fwq)")" = 0 ]'
expect "gap threshold below 100 ns is refused" $C1/gap_ns 99 ERANGE
expect "gap threshold above 1 s is refused" $C1/gap_ns 1000000001 ERANGE
expect "gap threshold that is not a number is refused" $C1/gap_ns 2us EINVAL
expect "zero FWQ work is refused" $C1/fwq_work 0 ERANGE
expect "FWQ work above 10^7 is refused" $C1/fwq_work 10000001 ERANGE
expect "FWQ repetitions above 2^20 are refused" $C1/fwq_reps 1048577 ERANGE
expect "negative FWQ repetitions are refused" $C1/fwq_reps -1 EINVAL
ktap_check "refused ftq writes changed nothing" \
	'[ "$(cat $C1/gap_ns)" = 2000 ] && [ "$(cat $C1/fwq_work)" = 100000 ] &&
	 [ "$(cat $C1/fwq_reps)" = 1000 ]'
bad=
for w in gap_ns=100 gap_ns=1000000000 fwq_work=1 fwq_work=10000000 \
	fwq_reps=0 fwq_reps=1048576; do
	f=${w%=*} v=${w#*=}
	[ "$($ctl write $C1/$f $v)" = OK ] && [ "$(cat $C1/$f)" = "$v" ] ||
		bad="$bad $w"
done
$ctl write $C1/gap_ns 2000 > /dev/null
$ctl write $C1/fwq_work 100000 > /dev/null
$ctl write $C1/fwq_reps 1000 > /dev/null
ktap_check "the bounds themselves are accepted (refused:${bad:- none})" \
	'[ -z "$bad" ]'

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
# must refuse it with ENODEV. The test guest has a PM timer and an HPET to
# calibrate against: if its TSC frequency is still unknown, each ftq and
# timer check that cannot run is a failure, not a skip (a skip would
# leave make test green).
$ctl write $C1/service ftq > /dev/null
if dmesg | grep -q "could not calculate TSC khz"; then
	expect "ftq is refused when the TSC frequency is unknown" \
		$C1/control start ENODEV
	ktap_check "the refused start changed nothing" \
		'[ "$(cat $C1/state)" = idle ] && [ "$(cat $ONLINE1)" = 1 ]'
	ktap_check "tsc_khz reads 0 ($(cat $TSC_KHZ))" \
		'[ "$(cat $TSC_KHZ)" = 0 ]'
	for d in "CPU 1 is offline" "kernel message" \
		"all FWQ done when samples_done is complete" "ftq finishes by itself" \
		"200 samples recorded" "ftq counted work" "shared memory complete" \
		"run_*_tsc" "gaps_done and gaps_lost" "gaps within run_*_tsc" \
		"1000 FWQ results" \
		"rmmod refused while registered" "second start refused" \
		"service change refused" "samples change refused" \
		"gap_ns change refused" "fwq_work change refused" \
		"fwq_reps change refused" "stop" \
		"CPU 1 online again" "results intact after re-online" \
		"gaps, fwq and run_*_tsc intact after re-online" \
		"task runs on CPU 1" "start 10^6 samples" "state running" \
		"settings refused while running" \
		"samples readable while offline" "stop the running ftq" \
		"ftq returned on request" "no FWQ after a stop during FTQ" \
		"gaps of a stopped run" "start a long FWQ" \
		"samples_done incomplete during FWQ" "stop during FWQ" \
		"FWQ returned on request" "start ftq without FWQ" \
		"run without FWQ complete" "stop the run without FWQ" \
		"start with quantum_ns 250000" "run completes" \
		"TSC span is samples x quantum" "online: armed again" \
		"user space halves quantum_cycles" "offline: runs again" \
		"second span still samples x quantum" "stop" \
		"start 10 quanta of 1 s" "stop within stop_timeout_ms" \
		"quantum cut short not recorded"; do
		ktap_fail "ftq: $d (not run: TSC frequency unknown, no PM timer or HPET)"
	done
	for d in "start 2000 events" "ends by itself" "polled from CPU 0" \
		"2000 results" "run_*_tsc" "period change refused" "stop" \
		"CPU 1 online again" "start 10^6 events" "stop after 10" \
		"returned on request"; do
		ktap_fail "timer: $d (not run: TSC frequency unknown, no PM timer or HPET)"
	done
else
	ktap_check "tsc_khz is known ($(cat $TSC_KHZ))" \
		'[ "$(cat $TSC_KHZ)" -gt 0 ]'
	n0=$(offsched_lines)
	$ctl write $C1/service ftq > /dev/null
	$ctl write $C1/samples 200 > /dev/null
	expect "start ftq with 200 samples of 1 ms" $C1/control start OK
	ktap_check "CPU 1 is offline" '[ "$(cat $ONLINE1)" = 0 ] && [ "$(cat $SYS/online)" = 0 ]'
	ktap_check "kernel says CPU 1 is now offline and OFFSCHED" \
		'[ "$(offsched_lines)" = $((n0 + 1)) ]'
	# samples_done reaches samples only once every result is in place.
	wait_for '[ "$(cat $C1/samples_done)" = 200 ]'
	fd=$(cat $C1/fwq_done)
	ktap_check "when samples_done reads 200, all 1000 FWQ repetitions are done ($fd)" \
		'[ "$fd" = 1000 ]'
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
		'[ "$(field status "$s")" = 2 ] && [ "$(field samples_done "$s")" = 200 ] &&
		 [ "$(field fwq_done "$s")" = 1000 ]'
	run_tsc
	ktap_check "run_start_tsc and run_end_tsc give the start and end of the FTQ run ($rt)" \
		'[ "$t0" -gt 0 ] && [ "$t1" -gt "$t0" ]'
	gd=$(cat $C1/gaps_done)
	gl=$(cat $C1/gaps_lost)
	ktap_check "gaps_done and gaps_lost consistent ($gd recorded, $gl lost)" \
		'[ "$gd" -le 65536 ] && { [ "$gl" = 0 ] || [ "$gd" = 65536 ]; } &&
		 [ "$(field gaps_done "$s")" = "$gd" ] &&
		 [ "$(field gaps_lost "$s")" = "$gl" ]'
	g1=$($ctl gaps $C1/gaps "$t0" "$t1")
	ktap_check "gaps: 16 bytes per gap, start < end, in order, within run_*_tsc ($g1)" \
		'[ "$(field bytes "$g1")" = $((16 * gd)) ] &&
		 [ "$(field bad "$g1")" = 0 ] && [ "$(field unordered "$g1")" = 0 ]'
	w1=$($ctl fwq $C1/fwq)
	ktap_check "fwq: 1000 nonzero results of 8 bytes ($w1)" \
		'[ "$(field bytes "$w1")" = 8000 ] && [ "$(field zero "$w1")" = 0 ] &&
		 [ "$(cat $C1/fwq_done)" = 1000 ]'
	cat $C1/gaps > /tmp/gaps1
	cat $C1/fwq > /tmp/fwq1
	got=$($ctl rmmod offsched_mgr)
	ktap_check "rmmod while a service is registered is refused ($got, want EAGAIN)" \
		'[ "$got" = EAGAIN ] && [ -d $C1 ]'
	expect "a second start is refused" $C1/control start EBUSY
	expect "changing the service while started is refused" $C1/service echo EBUSY
	expect "changing the samples while started is refused" $C1/samples 5 EBUSY
	expect "changing gap_ns while started is refused" $C1/gap_ns 5000 EBUSY
	expect "changing fwq_work while started is refused" $C1/fwq_work 5 EBUSY
	expect "changing fwq_reps while started is refused" $C1/fwq_reps 5 EBUSY
	expect "stop" $C1/control stop OK
	ktap_check "CPU 1 is online again, state stopped" \
		'[ "$(cat $ONLINE1)" = 1 ] && [ "$(cat $SYS/online)" = 0-1 ] &&
		 [ "$(cat $C1/state)" = stopped ]'
	r2=$($ctl results $C1/results)
	ktap_check "results intact after re-online ($r2)" '[ "$r2" = "$r1" ]'
	ktap_check "gaps, fwq and run_*_tsc intact after re-online" \
		'cat $C1/gaps | cmp -s - /tmp/gaps1 && cat $C1/fwq | cmp -s - /tmp/fwq1 &&
		 (rt1=$rt; run_tsc; [ "$rt" = "$rt1" ])'
	ran=$(taskset -c 1 sh -c 'cat /proc/self/stat' | awk '{print $39}')
	ktap_check "a task pinned to CPU 1 runs there again (ran on CPU $ran)" '[ "$ran" = 1 ]'

	# --- ftq stopped while it runs ----------------------------------------------
	$ctl write $C1/samples 1000000 > /dev/null
	expect "start ftq with 10^6 samples" $C1/control start OK
	ktap_check "state is running ($(cat $C1/state))" '[ "$(cat $C1/state)" = running ]'
	ktap_check "gap_ns, fwq_work and fwq_reps refused with EBUSY while running" \
		'[ "$($ctl write $C1/gap_ns 5000)" = EBUSY ] &&
		 [ "$($ctl write $C1/fwq_work 5)" = EBUSY ] &&
		 [ "$($ctl write $C1/fwq_reps 5)" = EBUSY ]'
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
	ktap_check "a run stopped during FTQ does no FWQ ($(cat $C1/fwq_done))" \
		'[ "$(cat $C1/fwq_done)" = 0 ] &&
		 [ "$(field bytes "$($ctl fwq $C1/fwq)")" = 0 ]'
	run_tsc
	g3=$($ctl gaps $C1/gaps "$t0" "$t1")
	ktap_check "its gaps lie within its run_*_tsc ($rt: $g3)" \
		'[ "$t1" -gt "$t0" ] &&
		 [ "$(field bytes "$g3")" = $((16 * $(cat $C1/gaps_done))) ] &&
		 [ "$(field bad "$g3")" = 0 ] && [ "$(field unordered "$g3")" = 0 ]'

	# --- FWQ stopped while it runs, then a run without FWQ ---------------------
	$ctl write $C1/samples 1 > /dev/null
	$ctl write $C1/fwq_reps 1048576 > /dev/null
	$ctl write $C1/fwq_work 1000000 > /dev/null
	expect "start ftq with 1 sample and 2^20 FWQ repetitions" \
		$C1/control start OK
	wait_for '[ "$(cat $C1/fwq_done)" -gt 0 ]'
	d=$(cat $C1/samples_done)
	ktap_check "while FWQ runs, samples_done stays below samples ($d)" \
		'[ "$(cat $C1/fwq_done)" -gt 0 ] && [ "$d" = 0 ]'
	expect "stop ftq during FWQ" $C1/control stop OK
	f=$(cat $C1/fwq_done)
	s=$($ctl shm 1)
	w=$($ctl fwq $C1/fwq)
	ktap_check "FWQ returned on request after $f repetitions ($s; $w)" \
		'[ "$f" -gt 0 ] && [ "$f" -lt 1048576 ] &&
		 [ "$(field status "$s")" = 3 ] && [ "$(cat $C1/samples_done)" = 1 ] &&
		 [ "$(field bytes "$w")" = $((8 * f)) ] && [ "$(field zero "$w")" = 0 ]'
	$ctl write $C1/fwq_reps 0 > /dev/null
	$ctl write $C1/samples 20 > /dev/null
	expect "start ftq with 20 samples and no FWQ" $C1/control start OK
	wait_for '[ "$(cat $C1/state)" = stopped ]'
	s=$($ctl shm 1)
	ktap_check "fwq_reps 0: the run completes with no FWQ ($s)" \
		'[ "$(field status "$s")" = 2 ] && [ "$(cat $C1/samples_done)" = 20 ] &&
		 [ "$(cat $C1/fwq_done)" = 0 ] &&
		 [ "$(field bytes "$($ctl fwq $C1/fwq)")" = 0 ]'
	expect "stop the run without FWQ" $C1/control stop OK
	$ctl write $C1/fwq_reps 1000 > /dev/null
	$ctl write $C1/fwq_work 100000 > /dev/null

	# --- the quantum is the kernel's; a stop cuts a quantum short ----------
	. ./ftqparams.sh

	# --- the timer service ---------------------------------------------------
	. ./timer.sh
fi

# --- doorbells: the services wake a reader on CPU 0 (./doorbell.sh) ----------
. ./doorbell.sh

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
ktap_check "the last run's shared memory says which run it is ($(field run "$($ctl shm 1)"), runs $(cat $C1/runs))" \
	'[ "$(field run "$($ctl shm 1)")" = "$(cat $C1/runs)" ] && [ "$(cat $C1/runs)" -gt 20 ]'
ktap_check "20 more 'now offline and OFFSCHED' messages" \
	'[ "$(offsched_lines)" = $((n0 + 20)) ]'
ktap_check "no warning in dmesg so far" \
	'! dmesg | grep -E -q "WARNING:|BUG:|possible circular|inconsistent lock|RCU used illegally|suspicious RCU"'

# --- start and stop racing with writes to cpu1/online (./race.sh) ----------
. ./race.sh

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

# --- waiting for a deaf service holds no CPU hotplug lock (./lockwait.sh) ---
. ./lockwait.sh

# --- offsched.stop_timeout_ms is bounded (./stoptimeout.sh) -------------------
. ./stoptimeout.sh

# --- full rings (./ring.sh) ------------------------------------------------------
. ./ring.sh

# --- suspend and hibernation ---------------------------------------------------
. ./pm.sh

# --- start on an offline CPU; start/stop cycles with readers (./cycles.sh) ---
. ./cycles.sh

# --- unloading refused while a service runs or a run is mapped (./unload.sh) --
. ./unload.sh

# --- kprobes and what the offline CPU runs (./kprobe.sh) ----------------------
$ctl write $C1/service echo > /dev/null
. ./kprobe.sh

# --- a kexec jump is refused while a callback runs (./kjump.sh) ---------------
. ./kjump.sh

# --- unloading ----------------------------------------------------------------
got=$($ctl rmmod offsched_mgr)
ktap_check "rmmod after the stop succeeds ($got)" \
	'[ "$got" = OK ] && [ ! -e $C1 ] && [ ! -e /dev/offsched ]'
ktap_check "CPU 1 online after unload" '[ "$(cat $SYS/online)" = 0-1 ]'

# --- kexec into stages 2 and 3 (./kexec.sh) -------------------------------------
kexec_stage1
