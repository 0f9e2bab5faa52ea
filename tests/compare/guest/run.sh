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
scenarios=cfs,fifo,notick,offsched repeats=3 duration=10 quantum=1000 cpu=1 gap=2000 pair=
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	compare.scenarios=*) scenarios=${arg#*=} ;;
	compare.repeats=*) repeats=${arg#*=} ;;
	compare.duration=*) duration=${arg#*=} ;;
	compare.quantum=*) quantum=${arg#*=} ;;
	compare.cpu=*) cpu=${arg#*=} ;;
	compare.gap=*) gap=${arg#*=} ;;
	compare.pair=*) pair=${arg#*=} ;;
	esac
done
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
	# What the host checks before it trusts the trace: the clock,
	# and that the ring buffer lost nothing.
	echo "@@ trace_clock"
	cat $T/trace_clock
	echo "@@ trace_stats"
	cat $T/per_cpu/cpu$1/stats
	echo "@@ trace"
	cat $T/per_cpu/cpu$1/trace
}

# run_user SCENARIO LAUNCHER...: the probe as a user thread.
run_user() {
	sc=$1
	shift
	trace_setup
	snapshot before > /tmp/snap
	echo 1 > $T/tracing_on
	"$@" ./ftq -q "$quantum" -n "$samples" -g "$gap" > /tmp/ftq.out 2> /tmp/ftq.err
	rc=$?
	# The probe's last context switch on its CPU follows the wakeup of
	# its parent: let it reach the trace.
	sleep 0.2
	echo 0 > $T/tracing_on
	snapshot after > /tmp/snap.after
	# The price of a system call on this kernel, launched the same way
	# (after the trace and the counts, so that it disturbs neither).
	"$@" ./ftq --syscalls 9 > /tmp/sysc.out 2>&1
	emit "$cpu" "$rc" /tmp/ftq.out /tmp/ftq.err
	echo "@@ sysc"
	cat /tmp/sysc.out
	return $rc
}

# rt_unthrottled CMD...: CMD with RT throttling off, as any tuner of a
# FIFO thread sets it (nohz-throttled keeps the default, labelled so);
# CMD's exit status.
rt_unthrottled() {
	rt_saved=$(cat /proc/sys/kernel/sched_rt_runtime_us)
	echo -1 > /proc/sys/kernel/sched_rt_runtime_us
	"$@"
	rt_rc=$?
	echo "$rt_saved" > /proc/sys/kernel/sched_rt_runtime_us
	return $rt_rc
}

# run_paired SCENARIO [FTQ-OPTION]: two probes at once on one kernel, in
# the same host conditions: a SCHED_NOTICK thread on CPU (made full
# dynticks at run time) and a FIFO thread on the nohz_full= CPU pair, as
# the runs SCENARIO-notick and SCENARIO-nohz.
run_paired() {
	sc=$1
	shift
	trace_setup
	snapshot before > /tmp/snap
	echo 1 > $T/tracing_on
	taskset -c "$pair" chrt -f 99 ./ftq "$@" -q "$quantum" -n "$samples" -g "$gap" \
		> /tmp/ftq2.out 2> /tmp/ftq2.err &
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

# run_steps LAUNCHER...: getppid() in a loop on the CPU until the host,
# single-stepping the guest through QEMU's gdb stub, has counted the
# instructions of a few calls and set the loop's flag (steps.py); the
# "steps ready" line on the KTAP port tells the host where the flag is.
run_steps() {
	rm -f /tmp/steps.out
	"$@" ./ftq --steps 300 > /tmp/steps.out 2> /tmp/steps.err &
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
run_offsched() {
	d=/sys/devices/system/cpu/cpu$cpu/offsched
	modprobe offsched_mgr 2>/dev/null
	[ -d $d ] || { echo "@@ unavailable no $d"; return 1; }
	echo ftq > $d/service || return 1
	echo $((quantum * 1000)) > $d/quantum_ns || return 1
	echo "$samples" > $d/samples || return 1
	echo "$gap" > $d/gap_ns || return 1
	snapshot before > /tmp/snap
	echo start > $d/control || return 1
	# The service runs with the CPU offline; wait for its samples.
	while [ "$(cat $d/samples_done)" -lt "$samples" ]; do sleep 1; done
	echo stop > $d/control
	{
		cat /tmp/snap
		snapshot after
		echo "@@ offsched state=$(cat $d/state)"
		# The same records as the user probe's output.
		set -- $(cat $d/run_tsc)
		echo "# ftq quantum_us=$quantum samples=$samples gap_ns=$gap tsc_hz=$(($(cat $d/tsc_khz) * 1000))"
		echo "# run start_tsc=$1 end_tsc=$2 gaps=$(cat $d/gaps_done) gaps_lost=$(cat $d/gaps_lost)"
		od -An -tu4 -v $d/results | tr -s ' ' '\n' | sed '/^$/d; s/^/S /'
		od -An -tu8 -v $d/gaps | tr -s ' ' '\n' | sed '/^$/d' |
			awk 'NR % 2 { a = $0; next } { print "G " a " " $0 }'
		od -An -tu8 -v $d/fwq | tr -s ' ' '\n' | sed '/^$/d; s/^/W /'
	}
}

# The nohz_full= boot is tuned as a real deployment is (Red Hat's
# cpu-partitioning profile: the kernel arguments come from compare.sh; at
# run time, interrupts, unbound workqueues and the lockup watchdog stay on
# the housekeeping CPUs, vmstat folds every 10 s).  Only the launcher's
# placement applies to every boot.
ncpu=$(grep -c ^processor /proc/cpuinfo)
hk=$(printf '%x' $(( ((1 << ncpu) - 1) & ~(1 << cpu) & ~(1 << ${pair:-$cpu}) )))
hklist=$(seq 0 $((ncpu - 1)) | grep -vx -e "$cpu" -e "${pair:-$cpu}" | paste -sd,)
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
	echo "# compare: tuned for nohz_full=${pair:-$cpu}: housekeeping CPUs $hklist;" \
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
		case $sc in
		paired|paired-gettime)
			if [ -z "$pair" ]; then
				echo "@@ begin $sc $r"
				echo "@@ unavailable no compare.pair="
				echo "@@ end $sc $r rc=1"
			elif [ $sc = paired ]; then
				rt_unthrottled run_paired paired
			else
				rt_unthrottled run_paired paired-gettime --gettime
			fi > $data 2>&1
			n=$((n + 1)) r=$((r + 1))
			continue ;;
		esac
		{
			echo "@@ begin $sc $r"
			case $sc in
			cfs|mainline-cfs) run_user "$sc" taskset -c "$cpu" ;;
			fifo|mainline-fifo) run_user "$sc" taskset -c "$cpu" chrt -f 99 ;;
			nohz) rt_unthrottled run_user "$sc" taskset -c "$cpu" chrt -f 99 ;;
			nohz-throttled) run_user "$sc" taskset -c "$cpu" chrt -f 99 ;;
			steps-notick) run_steps notickctl --cpu "$cpu" -- ;;
			steps-nohz-cfs|steps-cfs|steps-mainline-cfs) run_steps taskset -c "$cpu" ;;
			steps-nohz) rt_unthrottled run_steps taskset -c "$cpu" chrt -f 99 ;;
			nohz-cfs) run_user "$sc" taskset -c "$cpu" ;;
			notick) run_user notick notickctl --cpu "$cpu" -- ;;
			notick-isolate)
				run_user notick-isolate notickctl --isolate --cpu "$cpu" -- ;;
			icount|mainline-icount|icount-jump|mainline-icount-jump)
				# One CPU under QEMU's -icount: only the exact
				# price of getppid(), in guest instructions.
				echo "@@ sysc"
				taskset -c 0 ./ftq --syscalls 10 ;;
			offsched) run_offsched ;;
			*) echo "@@ unavailable unknown scenario" ;;
			esac
			echo "@@ end $sc $r rc=$?"
		} > $data 2>&1
		n=$((n + 1))
		r=$((r + 1))
	done
done
echo "# compare: $n runs done"
