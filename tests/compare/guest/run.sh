#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# compare-test, guest side: run the FTQ/FWQ probe on one CPU in each
# scenario and send everything the host needs to analyse it to the third
# serial port (/dev/ttyS2); progress goes to the KTAP port (/dev/ttyS1 is
# our stdout).  Parameters come from the kernel command line:
#   compare.scenarios=cfs,fifo,notick,offsched   compare.repeats=3
#   (nohz, nohz-throttled, nohz-cfs, mainline-cfs and mainline-fifo are
#   fifo/cfs under other names, for the boots of the reference kernel;
#   steps-notick, steps-nohz, steps-nohz-cfs, steps-cfs, steps-mainline-cfs:
#   getppid() for the host to single-step, launched as notick, nohz, ...)
#   compare.duration=10 (s)  compare.quantum=1000 (us)  compare.cpu=1
#   compare.gap=2000 (ns)
#   compare.pair=CPU2: the paired scenarios' second CPU (nohz_full=CPU2)
#   compare.cpus=1,2,...: probe all these CPUs at once (CPUS>2 in
#   compare.sh), with a timer-driven task on the housekeeping CPU 0
#   compare.timer_events=2000 compare.timer_quantum=1000 (us): the timer
#   scenarios' periodic events on the CPU (run_timer, run_timer_offsched):
#   timer-hrtimer, timer-notick, timer-nohz, timer-offsched, timer-doorbell
#   compare.pkt_paced=20000 compare.pkt_rate=5000 compare.pkt_flood=100000:
#   the packet scenarios' flows (pkt.sh): pkt-none, pkt-nft, pkt-offsched,
#   pkt-nft-long, pkt-offsched-long
scenarios=cfs,fifo,notick,offsched repeats=3 duration=10 quantum=1000 cpu=1 gap=2000 pair= cpus=
tevents=2000 tquantum=1000 pkt_paced=20000 pkt_rate=5000 pkt_flood=100000
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	compare.scenarios=*) scenarios=${arg#*=} ;;
	compare.repeats=*) repeats=${arg#*=} ;;
	compare.duration=*) duration=${arg#*=} ;;
	compare.quantum=*) quantum=${arg#*=} ;;
	compare.cpu=*) cpu=${arg#*=} ;;
	compare.gap=*) gap=${arg#*=} ;;
	compare.pair=*) pair=${arg#*=} ;;
	compare.cpus=*) cpus=${arg#*=} ;;
	compare.timer_events=*) tevents=${arg#*=} ;;
	compare.timer_quantum=*) tquantum=${arg#*=} ;;
	compare.pkt_paced=*) pkt_paced=${arg#*=} ;;
	compare.pkt_rate=*) pkt_rate=${arg#*=} ;;
	compare.pkt_flood=*) pkt_flood=${arg#*=} ;;
	esac
done
cpulist=$(echo "$cpus" | tr , ' ')
samples=$((duration * 1000000 / quantum))
data=/dev/ttyS2
T=/sys/kernel/tracing

echo "# compare: scenarios=$scenarios repeats=$repeats duration=${duration}s quantum=${quantum}us cpu=$cpu"

# The events are enabled once, before the first run: enabling one patches
# kernel text (static calls), and QEMU 7.2's multi-threaded TCG may run
# the old translation of patched text on another vCPU (qemu/boot.sh),
# which became an int3 oops in __schedule() in a three-CPU boot. Each run
# then only clears the buffer and turns tracing on and off.
trace_events() {
	echo 0 > $T/tracing_on
	echo x86-tsc > $T/trace_clock
	echo 16384 > $T/buffer_size_kb
	# On from boot (trace_event=: the compare-smoke suite of make test,
	# on multi-threaded TCG): leave them so.
	grep -q 'trace_event=' /proc/cmdline && return
	echo > $T/set_event
	for e in irq_vectors irq sched:sched_switch exceptions:page_fault_user \
		 exceptions:page_fault_kernel; do
		echo "$e" >> $T/set_event 2>/dev/null
	done
}

trace_setup() {
	echo 0 > $T/tracing_on
	echo > $T/trace
}

snapshot() {	# snapshot TAG
	echo "@@ interrupts $1"
	cat /proc/interrupts
	echo "@@ softirqs $1"
	cat /proc/softirqs
	if [ -d /sys/devices/system/cpu/cpu$cpu/notick ]; then
		echo "@@ notick $1"
		for f in /sys/devices/system/cpu/cpu$cpu/notick/*; do
			echo "${f##*/} $(cat "$f")"
		done
	fi
}

# emit CPU RC OUT ERR: a user-space run's records for CPU, from the
# snapshots and the trace taken around it.
emit() {
	echo "@@ cpu"
	echo "$1"
	cat /tmp/snap /tmp/snap.after
	echo "@@ ftq rc=$2"
	cat "$3"
	echo "@@ stderr"
	cat "$4"
	# What the host checks before it trusts the trace: the events
	# enabled, the clock, and that the ring buffer lost nothing.
	echo "@@ set_event"
	cat $T/set_event
	echo "@@ trace_clock"
	cat $T/trace_clock
	echo "@@ trace_stats"
	cat $T/per_cpu/cpu$1/stats
	echo "@@ trace"
	cat $T/per_cpu/cpu$1/trace
}

# launch SCENARIO CPU CMD...: CMD on CPU, started as SCENARIO starts its
# probe.
launch() {
	l_sc=$1 l_cpu=$2
	shift 2
	case $l_sc in
	cfs|mainline-cfs|nohz-cfs|steps-cfs|steps-mainline-cfs|steps-nohz-cfs)
		taskset -c "$l_cpu" "$@" ;;
	fifo|mainline-fifo|nohz|nohz-throttled|steps-nohz)
		taskset -c "$l_cpu" chrt -f 99 "$@" ;;
	notick|notick-nocb-off|steps-notick) notickctl --cpu "$l_cpu" -- "$@" ;;
	notick-isolate) notickctl --isolate --cpu "$l_cpu" -- "$@" ;;
	*) echo "no launcher for $l_sc" >&2; return 125 ;;
	esac
}

# run_user SCENARIO: the probe as a user thread.
run_user() {
	sc=$1
	trace_setup
	snapshot before > /tmp/snap
	echo 1 > $T/tracing_on
	launch "$sc" "$cpu" ./ftq -q "$quantum" -n "$samples" -g "$gap" > /tmp/ftq.out 2> /tmp/ftq.err
	rc=$?
	# The probe's last context switch on its CPU follows the wakeup of
	# its parent: let it reach the trace.
	sleep 0.2
	echo 0 > $T/tracing_on
	snapshot after > /tmp/snap.after
	# The price of a system call on this kernel, launched the same way
	# (after the trace and the counts, so that it disturbs neither); its
	# exit status goes with it (a failure fails the run on the host).
	launch "$sc" "$cpu" ./ftq --syscalls 9 > /tmp/sysc.out 2>&1
	src=$?
	emit "$cpu" "$rc" /tmp/ftq.out /tmp/ftq.err
	echo "@@ sysc rc=$src"
	cat /tmp/sysc.out
	return $rc
}

# fair_server_off: where the kernel has a fair server (6.12: a deadline
# entity that runs queued fair tasks on a CPU an RT thread holds, 50 ms
# in each second, with the tick on meanwhile), its runtime on the
# measured CPUs is 0, as a tuner of a CPU given to one thread sets it
# there, once in the boot and for the rest of it. 6.12.118 dequeues the
# server when its runtime is written, running or not, and one that was
# not running underflows the CPU's deadline bandwidth (a warning,
# "dl_rq->running_bw > old", from task_non_contending()): so a fair
# spinner runs on the CPU meanwhile, which starts the server, and the
# runtime is written once, never restored; a scenario that wants the
# kernel's default runs first in its boot (compare.sh). A kernel with a
# fair server and no debugfs to set it fails the run loudly.
FS=/sys/kernel/debug/sched/fair_server
fair_server_off() {
	local c sp rc=0
	[ -e /tmp/fs.off ] && return 0
	if [ ! -d $FS ]; then
		grep -q ' dl_server_start$' /proc/kallsyms 2> /dev/null || return 0
		echo "@@ unavailable a fair server and no $FS to turn it off"
		return 1
	fi
	for c in ${cpulist:-$cpu} $pair; do
		taskset -c "$c" sh -c 'while :; do :; done' &
		sp=$!
		sleep 0.2
		echo 0 > $FS/cpu$c/runtime || rc=1
		kill $sp
		wait $sp 2> /dev/null
		[ $rc = 0 ] || {
			echo "@@ unavailable the fair server's runtime of CPU $c"
			return 1
		}
	done
	: > /tmp/fs.off
}

# rt_unthrottled CMD...: CMD with RT throttling off, as any tuner of a
# FIFO thread sets it (nohz-throttled keeps the default, labelled so),
# and the fair server off (fair_server_off); CMD's exit status.
rt_unthrottled() {
	local rt_saved rt_rc
	fair_server_off || return 1
	rt_saved=$(cat /proc/sys/kernel/sched_rt_runtime_us)
	echo -1 > /proc/sys/kernel/sched_rt_runtime_us
	"$@"
	rt_rc=$?
	echo "$rt_saved" > /proc/sys/kernel/sched_rt_runtime_us
	return $rt_rc
}

# run_paired SCENARIO fifo|notick [FTQ-OPTION]: two probes at once on one
# kernel, in the same host conditions: a SCHED_NOTICK thread on CPU (made
# full dynticks at run time) and a FIFO thread (with notick, the control:
# a second SCHED_NOTICK thread) on the nohz_full= CPU pair, as the runs
# SCENARIO-notick and SCENARIO-nohz.
run_paired() {
	sc=$1 how=$2
	shift 2
	trace_setup
	snapshot before > /tmp/snap
	echo 1 > $T/tracing_on
	if [ "$how" = notick ]; then
		notickctl --cpu "$pair" -- ./ftq "$@" -q "$quantum" -n "$samples" -g "$gap" \
			> /tmp/ftq2.out 2> /tmp/ftq2.err &
	else
		taskset -c "$pair" chrt -f 99 ./ftq "$@" -q "$quantum" -n "$samples" -g "$gap" \
			> /tmp/ftq2.out 2> /tmp/ftq2.err &
	fi
	p2=$!
	notickctl --cpu "$cpu" -- ./ftq "$@" -q "$quantum" -n "$samples" -g "$gap" \
		> /tmp/ftq.out 2> /tmp/ftq.err
	rc=$?
	wait $p2
	rc2=$?
	sleep 0.2
	echo 0 > $T/tracing_on
	snapshot after > /tmp/snap.after
	echo "@@ begin $sc-notick $r"
	emit "$cpu" "$rc" /tmp/ftq.out /tmp/ftq.err
	echo "@@ end $sc-notick $r rc=$rc"
	echo "@@ begin $sc-nohz $r"
	emit "$pair" "$rc2" /tmp/ftq2.out /tmp/ftq2.err
	echo "@@ end $sc-nohz $r rc=$rc2"
}

# hk_start: the timer-driven task on the housekeeping CPU 0 (ftq
# --timer, SCHED_FIFO as such tasks run) while several CPUs are probed;
# hk_once, after "wait $hkpid; hkrc=$?": its records, the first time only.
hk_start() {
	taskset -c 0 chrt -f 50 ./ftq --timer "$samples" -q "$quantum" > /tmp/hk.out 2>&1 &
	hkpid=$!
}
hk_once() {
	[ -n "$hkrc" ] || return 0
	echo "@@ hk rc=$hkrc"
	cat /tmp/hk.out
	hkrc=
}

# run_multi SCENARIO: the probe on every CPU of compare.cpus at once,
# each started as SCENARIO starts it, and meanwhile the timer-driven task
# on CPU 0. One record per CPU; the first also has the timer's lateness.
run_multi() {
	sc=$1
	trace_setup
	snapshot before > /tmp/snap
	echo 1 > $T/tracing_on
	hk_start
	for c in $cpulist; do
		launch "$sc" "$c" ./ftq -q "$quantum" -n "$samples" -g "$gap" \
			> /tmp/ftq.$c.out 2> /tmp/ftq.$c.err &
		echo $! > /tmp/pid.$c
	done
	for c in $cpulist; do
		wait "$(cat /tmp/pid.$c)"
		echo $? > /tmp/rc.$c
	done
	wait $hkpid
	hkrc=$?
	sleep 0.2
	echo 0 > $T/tracing_on
	snapshot after > /tmp/snap.after
	for c in $cpulist; do
		echo "@@ begin $sc $r"
		emit "$c" "$(cat /tmp/rc.$c)" /tmp/ftq.$c.out /tmp/ftq.$c.err
		hk_once
		echo "@@ end $sc $r rc=$(cat /tmp/rc.$c)"
	done
}

# run_steps: getppid() in a loop on the CPU until the host,
# single-stepping the guest through QEMU's gdb stub, has counted the
# instructions of a few calls and set the loop's flag (steps.py); the
# "steps ready" line on the KTAP port tells the host where the flag is.
run_steps() {
	rm -f /tmp/steps.out
	launch "$sc" "$cpu" ./ftq --steps 300 > /tmp/steps.out 2> /tmp/steps.err &
	pid=$!
	flag=
	while [ -z "$flag" ] && kill -0 $pid 2> /dev/null; do
		sleep 0.1
		flag=$(sed -n 's/^P //p' /tmp/steps.out 2> /dev/null)
	done
	[ -n "$flag" ] &&
		echo "# compare: steps ready $sc $r cpu=$cpu flag=$flag" > /dev/ttyS1
	wait $pid
	rc=$?
	echo "@@ steps rc=$rc"
	cat /tmp/steps.out /tmp/steps.err
	return $rc
}

# The OFFSCHED ftq service: kernel callback on the offlined CPU.
# offsched_setup CPU: the service configured there.
offsched_setup() {
	d=/sys/devices/system/cpu/cpu$1/offsched
	modprobe offsched_mgr 2>/dev/null
	[ -d $d ] || { echo "@@ unavailable no $d"; return 1; }
	echo ftq > $d/service || return 1
	echo $((quantum * 1000)) > $d/quantum_ns || return 1
	echo "$samples" > $d/samples || return 1
	echo "$gap" > $d/gap_ns || return 1
}

# offsched_wait CPU: until the service on CPU has all its samples (it
# runs with the CPU offline), then stop it.
offsched_wait() {
	d=/sys/devices/system/cpu/cpu$1/offsched
	while [ "$(cat $d/samples_done)" -lt "$samples" ]; do sleep 1; done
	echo stop > $d/control
}

run_offsched() {
	offsched_setup "$cpu" || return 1
	snapshot before > /tmp/snap
	echo start > $d/control || return 1
	offsched_wait "$cpu"
	snapshot after > /tmp/snap.after
	offsched_record "$cpu"
}

# run_offsched_multi: the service on every CPU of compare.cpus at once,
# with the timer-driven task on CPU 0; one record per CPU, as run_multi.
run_offsched_multi() {
	sc=offsched
	for c in $cpulist; do
		offsched_setup "$c" > /tmp/setup.$c ||
			echo "@@ unavailable offsched setup failed on CPU $c" >> /tmp/setup.$c
	done
	snapshot before > /tmp/snap
	hk_start
	for c in $cpulist; do
		[ -s /tmp/setup.$c ] ||
			echo start > /sys/devices/system/cpu/cpu$c/offsched/control
	done
	for c in $cpulist; do
		[ -s /tmp/setup.$c ] || offsched_wait "$c"
	done
	wait $hkpid
	hkrc=$?
	snapshot after > /tmp/snap.after
	for c in $cpulist; do
		echo "@@ begin $sc $r"
		if [ -s /tmp/setup.$c ]; then
			cat /tmp/setup.$c
			rc=1
		else
			offsched_record "$c"
			rc=0
		fi
		hk_once
		echo "@@ end $sc $r rc=$rc"
	done
}

# offsched_record CPU: the records of the service's run on CPU.
offsched_record() {
	d=/sys/devices/system/cpu/cpu$1/offsched
	{
		echo "@@ cpu"
		echo "$1"
		cat /tmp/snap /tmp/snap.after
		echo "@@ offsched state=$(cat $d/state)"
		# The same records as the user probe's output.
		set -- $(cat $d/run_start_tsc) $(cat $d/run_end_tsc)
		echo "# ftq quantum_us=$quantum samples=$samples gap_ns=$gap tsc_hz=$(($(cat /sys/devices/system/cpu/offsched/tsc_khz) * 1000))"
		echo "# run start_tsc=$1 end_tsc=$2 gaps=$(cat $d/gaps_done) gaps_lost=$(cat $d/gaps_lost)"
		od -An -tu4 -v $d/results | tr -s ' ' '\n' | sed '/^$/d; s/^/S /'
		od -An -tu8 -v $d/gaps | tr -s ' ' '\n' | sed '/^$/d' |
			awk 'NR % 2 { a = $0; next } { print "G " a " " $0 }'
		od -An -tu8 -v $d/fwq | tr -s ' ' '\n' | sed '/^$/d; s/^/W /'
	}
}

# The timer scenarios: compare.timer_events periodic events on the CPU,
# compare.timer_quantum us apart, each one's lateness and TSC (ftq's
# timer modes; the same records in all three):
#   timer-hrtimer   ftq --timer: clock_nanosleep(TIMER_ABSTIME) in a FIFO
#                   99 thread (as fifo, RT throttling off: rt_unthrottled)
#   timer-notick    ftq --tsc-timer: a SCHED_NOTICK thread polling the TSC
#   timer-nohz      the same poller as a FIFO 99 thread on mainline's tuned
#                   nohz_full= CPU (RT throttling off)
#   timer-offsched  the OFFSCHED timer service on the offlined CPU, its
#                   events polled by ftq --offsched-timer on CPU 0 as
#                   SCHED_OTHER, beside this script and CPU 0's kernel work
#   timer-doorbell  the same, the service ringing its doorbell on CPU 0
#                   after each event, ftq --offsched-timer --doorbell asleep
#                   in read() of /dev/offsched until it rings
# ftq converts the TSC with the kernel's tsc_khz, which the OFFSCHED
# module shows (loaded for that in every timer scenario).

# run_timer SCENARIO: timer-hrtimer, timer-notick or timer-nohz, recorded as run_user
# records the probe (no getppid() timing), but untraced: each hrtimer
# wakeup goes through a timer interrupt and two context switches, whose
# trace events the tickless poller would not pay, and a deployment does
# not trace.
run_timer() {
	sc=$1
	modprobe offsched_mgr 2>/dev/null
	snapshot before > /tmp/snap
	case $sc in
	timer-hrtimer) launch fifo "$cpu" ./ftq --timer "$tevents" -q "$tquantum" ;;
	timer-notick) launch notick "$cpu" ./ftq --tsc-timer "$tevents" -q "$tquantum" ;;
	timer-nohz) launch nohz "$cpu" ./ftq --tsc-timer "$tevents" -q "$tquantum" ;;
	esac > /tmp/ftq.out 2> /tmp/ftq.err
	rc=$?
	snapshot after > /tmp/snap.after
	echo "@@ cpu"
	echo "$cpu"
	cat /tmp/snap /tmp/snap.after
	echo "@@ ftq rc=$rc"
	cat /tmp/ftq.out
	echo "@@ stderr"
	cat /tmp/ftq.err
	return $rc
}

# run_timer_offsched [doorbell]: the timer service on the CPU; its poller
# starts first and maps the shared memory that this start makes (events
# fired before its first look are counted as unwatched); with doorbell,
# the service rings CPU 0 after each event and the poller sleeps until it
# does. The service returns after its last event; the stop brings the CPU
# back online.
run_timer_offsched() {
	local bell=none opt=
	d=/sys/devices/system/cpu/cpu$cpu/offsched stopped=
	[ "$1" = doorbell ] && bell=0 opt=--doorbell
	modprobe offsched_mgr 2>/dev/null
	[ -d $d ] || { echo "@@ unavailable no $d"; return 1; }
	{ echo timer > $d/service && echo $((tquantum * 1000)) > $d/quantum_ns &&
	  echo "$tevents" > $d/samples && echo $bell > $d/doorbell; } 2> /tmp/setup.err ||
		{ echo "@@ unavailable timer service setup failed: $(cat /tmp/setup.err)"; return 1; }
	snapshot before > /tmp/snap
	taskset -c 0 ./ftq --offsched-timer "$cpu" $opt > /tmp/ftq.out 2> /tmp/ftq.err &
	pid=$!
	if ! echo start 2> /tmp/setup.err > $d/control; then
		kill $pid 2>/dev/null
		wait $pid
		echo "@@ unavailable timer service start failed: $(cat /tmp/setup.err)"
		return 1
	fi
	wait $pid
	rc=$?
	state=$(cat $d/state)
	echo stop 2> /tmp/setup.err > $d/control ||
		stopped="could not stop the timer service on CPU $cpu: $(cat /tmp/setup.err)"
	snapshot after > /tmp/snap.after
	echo "@@ cpu"
	echo "$cpu"
	cat /tmp/snap /tmp/snap.after
	echo "@@ offsched state=$state"
	echo "@@ ftq rc=$rc"
	cat /tmp/ftq.out
	echo "@@ stderr"
	cat /tmp/ftq.err
	if [ -n "$stopped" ]; then
		echo "@@ unavailable $stopped"
		return 1
	fi
	return $rc
}

. "$(dirname "$0")/pkt.sh"

# The nohz_full= boot is tuned as a real deployment is (Red Hat's
# cpu-partitioning profile: the kernel arguments come from compare.sh; at
# run time, interrupts, unbound workqueues and the lockup watchdog stay on
# the housekeeping CPUs, vmstat folds every 10 s).  Only the launcher's
# placement applies to every boot.
ncpu=$(grep -c ^processor /proc/cpuinfo)
# the CPUs measured, one at a time or all at once (compare.cpus)
measured=$(echo "${cpus:-$cpu}${pair:+,$pair}" | tr , '\n')
hk=0 hklist=
for c in $(seq 0 $((ncpu - 1))); do
	echo "$measured" | grep -qx "$c" && continue
	hk=$((hk | (1 << c)))
	hklist=${hklist:+$hklist,}$c
done
hk=$(printf '%x' $hk)
# In every boot, this script and what it starts run on the housekeeping
# CPUs, as a partitioned node runs its services (cpu-partitioning sets
# systemd's CPUAffinity): each launcher moves itself to the measured CPU.
taskset -p "$hk" $$ > /dev/null
if grep -q 'nohz_full=' /proc/cmdline; then
	for f in /proc/irq/*/smp_affinity; do
		echo "$hk" > "$f" 2>/dev/null
	done
	echo "$hk" > /sys/devices/virtual/workqueue/cpumask
	[ -f /proc/sys/kernel/watchdog_cpumask ] &&
		echo "$hklist" > /proc/sys/kernel/watchdog_cpumask
	echo 10 > /proc/sys/vm/stat_interval
	echo "# compare: tuned for nohz_full=${pair:-${cpus:-$cpu}}: housekeeping CPUs $hklist;" \
		$(tr ' ' '\n' < /proc/cmdline | grep -E '^(nohz_full|rcu_nocbs|isolcpus|irqaffinity|nosoftlockup)=?')
fi

# The kernel replaces its early TSC clocksource with the calibrated one a
# second or two after boot, under stop_machine(): that stops every CPU for
# milliseconds. Let it happen before the first run (up to 20 s).
cs=/sys/devices/system/clocksource/clocksource0/current_clocksource
i=0
while [ "$(cat $cs)" = tsc-early ] && [ $i -lt 200 ]; do
	sleep 0.1
	i=$((i + 1))
done
echo "# compare: clocksource $(cat $cs), $(cut -d' ' -f1 /proc/uptime) s after boot"

trace_events
n=0
for sc in $(echo "$scenarios" | tr , ' '); do
	r=1
	while [ $r -le "$repeats" ]; do
		echo "# compare: scenario $sc, run $r of $repeats"
		if [ -n "$cpus" ]; then
			case $sc in
			offsched) run_offsched_multi ;;
			nohz) rt_unthrottled run_multi "$sc" ;;
			nohz-cfs) fair_server_off && run_multi "$sc" ;;
			cfs|fifo|notick|notick-isolate|nohz-throttled|mainline-cfs|mainline-fifo)
				run_multi "$sc" ;;
			*)
				echo "@@ begin $sc $r"
				echo "@@ unavailable not with compare.cpus="
				echo "@@ end $sc $r rc=1" ;;
			esac > $data 2>&1
			n=$((n + 1)) r=$((r + 1))
			continue
		fi
		case $sc in
		paired|paired-gettime|paired-same)
			if [ -z "$pair" ]; then
				echo "@@ begin $sc $r"
				echo "@@ unavailable no compare.pair="
				echo "@@ end $sc $r rc=1"
			elif [ $sc = paired ]; then
				rt_unthrottled run_paired paired fifo
			elif [ $sc = paired-same ]; then
				run_paired paired-same notick
			else
				rt_unthrottled run_paired paired-gettime fifo --gettime
			fi > $data 2>&1
			n=$((n + 1)) r=$((r + 1))
			continue ;;
		esac
		{
			echo "@@ begin $sc $r"
			case $sc in
			nohz) rt_unthrottled run_user "$sc" ;;
			nohz-cfs) fair_server_off && run_user "$sc" ;;
			cfs|mainline-cfs|fifo|mainline-fifo|nohz-throttled|notick|notick-isolate|\
			notick-nocb-off)
				run_user "$sc" ;;
			steps-nohz) rt_unthrottled run_steps ;;
			steps-nohz-cfs) fair_server_off && run_steps ;;
			steps-*) run_steps ;;
			icount|mainline-icount|icount-jump|mainline-icount-jump)
				# One CPU under QEMU's -icount: only the exact
				# price of getppid(), in guest instructions.
				echo "@@ sysc"
				taskset -c 0 ./ftq --syscalls 10 ;;
			offsched) run_offsched ;;
			timer-hrtimer|timer-nohz) rt_unthrottled run_timer "$sc" ;;
			timer-notick) run_timer "$sc" ;;
			timer-offsched) run_timer_offsched ;;
			timer-doorbell) run_timer_offsched doorbell ;;
			pkt-none|pkt-nft|pkt-offsched|pkt-nft-long|pkt-offsched-long) run_pkt "$sc" ;;
			*) echo "@@ unavailable unknown scenario" ;;
			esac
			echo "@@ end $sc $r rc=$?"
		} > $data 2>&1
		n=$((n + 1))
		r=$((r + 1))
	done
done
echo "# compare: $n runs done"
