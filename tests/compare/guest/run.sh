#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# compare-test, guest side: run the FTQ/FWQ probe on one CPU in each
# scenario and send everything the host needs to analyse it to the third
# serial port (/dev/ttyS2); progress goes to the KTAP port (/dev/ttyS1 is
# our stdout).  Parameters come from the kernel command line:
#   compare.scenarios=cfs,fifo,notick,offsched   compare.repeats=3
#   (nohz, mainline-cfs and mainline-fifo are cfs/fifo under other names,
#   for the boots of the reference kernel)
#   compare.duration=10 (s)  compare.quantum=1000 (us)  compare.cpu=1
#   compare.gap=2000 (ns)
scenarios=cfs,fifo,notick,offsched repeats=3 duration=10 quantum=1000 cpu=1 gap=2000
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	compare.scenarios=*) scenarios=${arg#*=} ;;
	compare.repeats=*) repeats=${arg#*=} ;;
	compare.duration=*) duration=${arg#*=} ;;
	compare.quantum=*) quantum=${arg#*=} ;;
	compare.cpu=*) cpu=${arg#*=} ;;
	compare.gap=*) gap=${arg#*=} ;;
	esac
done
samples=$((duration * 1000000 / quantum))
data=/dev/ttyS2
T=/sys/kernel/tracing

echo "# compare: scenarios=$scenarios repeats=$repeats duration=${duration}s quantum=${quantum}us cpu=$cpu"

trace_setup() {
	echo 0 > $T/tracing_on
	echo x86-tsc > $T/trace_clock
	echo 16384 > $T/buffer_size_kb
	echo > $T/set_event
	for e in irq_vectors irq sched:sched_switch exceptions:page_fault_user \
		 exceptions:page_fault_kernel; do
		echo "$e" >> $T/set_event 2>/dev/null
	done
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

# run_user SCENARIO LAUNCHER...: the probe as a user thread.
run_user() {
	sc=$1
	shift
	trace_setup
	snapshot before > /tmp/snap
	echo 1 > $T/tracing_on
	"$@" ./ftq -q "$quantum" -n "$samples" -g "$gap" > /tmp/ftq.out 2> /tmp/ftq.err
	rc=$?
	echo 0 > $T/tracing_on
	# The price of a system call on this kernel, launched the same way
	# (after the trace, so that it does not disturb the counts above).
	"$@" ./ftq --syscalls 9 > /tmp/sysc.out 2>&1
	{
		cat /tmp/snap
		snapshot after
		echo "@@ ftq rc=$rc"
		cat /tmp/ftq.out
		echo "@@ stderr"
		cat /tmp/ftq.err
		echo "@@ sysc"
		cat /tmp/sysc.out
		echo "@@ trace"
		cat $T/per_cpu/cpu$cpu/trace
	}
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

n=0
for sc in $(echo "$scenarios" | tr , ' '); do
	r=1
	while [ $r -le "$repeats" ]; do
		echo "# compare: scenario $sc, run $r of $repeats"
		{
			echo "@@ begin $sc $r"
			case $sc in
			cfs|mainline-cfs) run_user "$sc" taskset -c "$cpu" ;;
			fifo|nohz|mainline-fifo) run_user "$sc" taskset -c "$cpu" chrt -f 99 ;;
			notick) run_user notick notickctl --cpu "$cpu" -- ;;
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
