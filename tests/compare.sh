#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make compare-test: how much does the kernel disturb one thread, and which
# answer disturbs it least?  The same FTQ/FWQ loop runs on one CPU in each
# scenario:
#   cfs       taskset -c CPU                    (boot 1: the series' kernel)
#   fifo      taskset -c CPU chrt -f 99         (boot 1)
#   notick    notickctl --cpu CPU               (boot 1, no boot parameter)
#   notick-isolate  notickctl --isolate --cpu CPU (boot 1; on request)
#   notick-nocb-off  notick on the series' kernel built without
#             CONFIG_RCU_NOCB_CPU_DEFAULT_ALL, which "no boot parameter"
#             relies on (its own boot and kernel; on request)
#   offsched  the OFFSCHED ftq service          (boot 1, kernel callback)
#   nohz      taskset + chrt -f 99 on a nohz_full=CPU, RT throttling off
#   nohz-cfs  taskset alone on the nohz_full=CPU (mainline's usual answer)
#   nohz-throttled  as nohz with RT throttling left on (the default)
#             (boot 2: the same tree without the series, "mainline", tuned
#             as Red Hat's cpu-partitioning profile tunes a node:
#             nohz_full= rcu_nocbs= isolcpus=managed_irq,domain,
#             irqaffinity= nosoftlockup, with rcu_nocb_poll and
#             nmi_watchdog=0 as latency tuning adds, and at run time IRQs, unbound
#             workqueues and the watchdog kept on CPU 0, vm.stat_interval
#             10).  The best of nohz and nohz-cfs is the reference row.
#   mainline-cfs, mainline-fifo   cfs and fifo on mainline (boot 3): what
#             the series costs a kernel that does not use it
#   icount, mainline-icount   getppid() on one CPU under QEMU's -icount, on
#             each kernel (boots 4, 5): the same price counted in guest
#             instructions, free of the host's noise
#   icount-jump, mainline-icount-jump   the same on both kernels built with
#             JUMP_LABEL=y, as distributions build them (boots 6, 7; on
#             request: two kernels more to build)
#   steps-notick, steps-nohz, steps-nohz-cfs, steps-cfs, steps-mainline-cfs
#             getppid() on CPU, launched as notick, nohz, nohz-cfs, cfs and
#             mainline-cfs, in their boots: the host single-steps a few
#             calls through QEMU's gdb stub (tests/compare/steps.py) and
#             counts their kernel instructions, exactly, on the measured
#             CPU of the two-CPU guest
#   paired, paired-gettime   one boot of the series' kernel with a CPU more,
#             nohz_full=CPU+1 tuned as above: a SCHED_NOTICK probe on CPU
#             and a FIFO one on CPU+1 at the same time, so that both see
#             the same host; paired-gettime's work units add a
#             clock_gettime() (ftq --gettime).  On request only: with three
#             vCPUs on a two-core host, the host takes most of each
#             quantum from both probes.
#   paired-same  their control, in the same boot: a SCHED_NOTICK probe on
#             both CPUs, so that the ratio of the two is the emulator's
#   timer-hrtimer, timer-notick, timer-offsched, timer-doorbell, timer-nohz
#             periodic events on CPU
#             (boot 1; timer-nohz boot 2): TIMER_EVENTS deadlines TIMER_QUANTUM us apart, how
#             late each event comes and the period and jitter of their
#             times, from clock_nanosleep(TIMER_ABSTIME) in a FIFO 99
#             thread (ftq --timer, RT throttling off), from a SCHED_NOTICK
#             thread polling the TSC (ftq --tsc-timer), from the same
#             poller as a FIFO 99 thread on the tuned nohz_full= CPU
#             (timer-nohz: mainline's best answer to the same job), and
#             from the
#             OFFSCHED timer service on the offlined CPU, as it fired them
#             and as a SCHED_OTHER thread polling for them on CPU 0 (with
#             CPU 0's housekeeping) saw them (ftq --offsched-timer); and
#             timer-doorbell: the same service ringing its doorbell, a
#             reader asleep in read() of /dev/offsched on CPU 0 (ftq
#             --offsched-timer --doorbell)
#   pkt-none, pkt-nft, pkt-offsched   UDP over a veth pair into another
#             network namespace, sender and receiver on CPU 0 (boot 1):
#             no filter, four nftables rules at the receiving device's
#             ingress, and the same rules in the OFFSCHED pkt service on
#             the offlined CPU; pkt-nft-long, pkt-offsched-long: both
#             filters with 28 more rules ahead of the four (32, the pkt
#             service's most), none of which the flow matches. PKT_PACED
#             datagrams at PKT_RATE per second
#             (each one's latency, CPU 0's busy time per packet), then
#             PKT_FLOOD as fast as the sender goes (the rate received, the
#             losses): tests/compare/guest/pkt.sh
# Both kernels are built with the compare configuration (debugging off).
# Every user-space scenario also times getppid() (ftq --syscalls) after the probe.
# Options (make variables or environment):
#   DURATION=10 (s)  QUANTUM=1000 (us)  REPEATS=3  CPUS=2  CPU=1  GAP=2000 (ns)
#   TIMER_EVENTS=2000  TIMER_QUANTUM=1000 (us): the timer scenarios' events
#   PKT_PACED=20000  PKT_RATE=5000  PKT_FLOOD=100000: the packet scenarios'
#   SCENARIOS=cfs,fifo,nohz,nohz-cfs,nohz-throttled,notick,offsched,
#                    mainline-cfs,icount,mainline-icount,steps-notick,
#                    steps-nohz,steps-nohz-cfs,steps-cfs,
#                    steps-mainline-cfs,timer-hrtimer,timer-notick,
#                    timer-offsched,timer-doorbell,timer-nohz,pkt-none,
#                    pkt-nft,pkt-offsched,pkt-nft-long,pkt-offsched-long
#             (the default: two kernels, the series' and mainline;
#             icount-jump, mainline-icount-jump, which build both again
#             with JUMP_LABEL=y, notick-nocb-off, which builds a third,
#             mainline-fifo, notick-isolate, paired,
#             paired-gettime and paired-same on request)
#   CPUS=N, N>2: scale.  Every non-boot CPU runs a probe at once: N-1
#             SCHED_NOTICK threads, N-1 FIFO or CFS threads on
#             nohz_full=1-(N-1), N-1 OFFSCHED ftq services; CPU 0 runs a
#             timer-driven task meanwhile (ftq --timer, SCHED_FIFO, one
#             wakeup per quantum), whose lateness is the housekeeping
#             CPU's responsiveness.  Default SCENARIOS=notick,nohz,
#             nohz-cfs,offsched,cfs and DURATION=3: N vCPUs share the
#             host's cores under TCG (counts stay exact). No timer
#             scenario then.
# Output: a table, build/KVER/compare/results.md (the results page, with the
# commit, kernel, QEMU and host: tests/compare/report.py),
# build/KVER/compare/results.json, build/KVER/compare/ftq.png.
set -uo pipefail
. "$(dirname "$0")/../qemu/lib.sh"
# The run's start, before make built any kernel (the Makefile sets it),
# for the results page's time
started=${NOTICK_COMPARE_STARTED:-$(date +%s)}

CPUS=${CPUS:-2}
[[ $CPUS =~ ^[0-9]+$ ]] || die "CPUS must be a number (got '$CPUS')"
DEFAULT=cfs,fifo,nohz,nohz-cfs,nohz-throttled,notick,offsched,mainline-cfs,icount,mainline-icount,steps-notick,steps-nohz,steps-nohz-cfs,steps-cfs,steps-mainline-cfs,timer-hrtimer,timer-notick,timer-offsched,timer-doorbell,timer-nohz,pkt-none,pkt-nft,pkt-offsched,pkt-nft-long,pkt-offsched-long
known=",$DEFAULT,icount-jump,mainline-icount-jump,mainline-fifo,notick-isolate,notick-nocb-off,paired,paired-gettime,paired-same,"
scale= dur=10 nprobe=1
if [ "$CPUS" -gt 2 ]; then
	scale=$(seq -s, 1 $((CPUS - 1))) nprobe=$((CPUS - 1))
	DEFAULT=notick,nohz,nohz-cfs,offsched,cfs dur=3
	known=",cfs,fifo,nohz,nohz-cfs,nohz-throttled,notick,notick-isolate,offsched,mainline-cfs,mainline-fifo,"
fi
DURATION=${DURATION:-$dur} QUANTUM=${QUANTUM:-1000} REPEATS=${REPEATS:-3}
CPU=${CPU:-1} GAP=${GAP:-2000} TIMER_EVENTS=${TIMER_EVENTS:-2000} TIMER_QUANTUM=${TIMER_QUANTUM:-1000}
PKT_PACED=${PKT_PACED:-20000} PKT_RATE=${PKT_RATE:-5000} PKT_FLOOD=${PKT_FLOOD:-100000}
SCENARIOS=${SCENARIOS:-$DEFAULT}
for v in DURATION QUANTUM REPEATS CPU GAP TIMER_EVENTS TIMER_QUANTUM PKT_PACED PKT_RATE PKT_FLOOD; do
	[[ ${!v} =~ ^[0-9]+$ ]] || die "$v must be a number (got '${!v}')"
done
[ "$CPU" -ge 1 ] && [ "$CPU" -lt "$CPUS" ] || die "CPU must be between 1 and CPUS-1"
# the OFFSCHED timer service's bounds: 1 to 2^20 events, 1 us to 1 s apart
[ "$TIMER_EVENTS" -ge 1 ] && [ "$TIMER_EVENTS" -le 1048576 ] ||
	die "TIMER_EVENTS must be between 1 and 1048576"
[ "$TIMER_QUANTUM" -ge 1 ] && [ "$TIMER_QUANTUM" -le 1000000 ] ||
	die "TIMER_QUANTUM must be between 1 and 1000000 (us)"
# pktflow's receiver keeps 2^22 sequence numbers
for v in PKT_PACED PKT_RATE PKT_FLOOD; do
	[ "${!v}" -ge 1 ] && [ "${!v}" -le 4194304 ] || die "$v must be between 1 and 4194304"
done
for s in ${SCENARIOS//,/ }; do
	[[ $known = *",$s,"* ]] ||
		die "unknown scenario '$s'${scale:+ with CPUS=$CPUS} (${known//,/ })"
done

out=$BUILD/compare
rm -rf "$out"
mkdir -p "$out"
kver=$(cat "$BUILD/obj-compare/kernelrelease")
mver=$(cat "$BUILD/obj-compare-mainline/kernelrelease" 2>/dev/null || echo none)
where="CPU $CPU"
[ -n "$scale" ] && where="CPUs $scale at once"
timers=
[[ ,$SCENARIOS, = *,timer-* ]] && timers=", timer scenarios $TIMER_EVENTS events ${TIMER_QUANTUM}us apart"
say "compare-test on $kver and $mver (the same tree without the series): $SCENARIOS, $REPEATS x ${DURATION}s, ${QUANTUM}us quanta$timers, $where of $CPUS"

# boot NAME KERNEL SCENARIOS EXTRA-ARGS [CPUS]: one guest running some
# scenarios, with progress lines shown as the guest prints them, and a
# line every 30 s that it still runs (with_heartbeat) between them.
boot() {
	local name=$1 kobj=$2 sc=$3 extra=$4 n nsteps ntimer limit pid cpus=${5:-$CPUS} opt=()
	[[ $sc = *icount* ]] && cpus=1 opt=(-I)
	n=$(tr ',' '\n' <<< "$sc" | grep -c .)
	nsteps=$(tr ',' '\n' <<< "$sc" | grep -c '^steps-')
	ntimer=$(tr ',' '\n' <<< "$sc" | grep -c '^timer-')
	npkt=$(tr ',' '\n' <<< "$sc" | grep -c '^pkt-')
	# steps scenarios: a gdb stub, and 5 minutes for each count (ftq
	# --steps gives up after that)
	[ "$nsteps" -gt 0 ] && opt=(-g "$out/$name/gdb.sock")
	# timer scenarios: their events' time on top (DURATION + 30 covers
	# the rest, ftq --offsched-timer's 30 s wait for the service included)
	limit=$(( n * REPEATS * (DURATION + 30) + nsteps * REPEATS * 300 +
		  ntimer * REPEATS * (TIMER_EVENTS * TIMER_QUANTUM / 1000000 + 1) +
		  npkt * REPEATS * (PKT_PACED / PKT_RATE + PKT_FLOOD / 10000) + 120 ))
	# scale: every CPU's records, and N vCPUs on the host's cores
	[ -n "$scale" ] && limit=$(( n * REPEATS * (DURATION + 30) * CPUS / 2 + 300 ))
	say "boot $name ($kobj kernel): $sc ${extra:+($extra)}"
	with_heartbeat "boot $name" "$TOP/qemu/boot.sh" -f compare -k "$kobj" -s compare -o "$out/$name" -t "$limit" -c "$cpus" "${opt[@]}" -- \
		"compare.scenarios=$sc compare.repeats=$REPEATS compare.duration=$DURATION" \
		"compare.quantum=$QUANTUM compare.cpu=$CPU compare.gap=$GAP" \
		"compare.timer_events=$TIMER_EVENTS compare.timer_quantum=$TIMER_QUANTUM" \
		"compare.pkt_paced=$PKT_PACED compare.pkt_rate=$PKT_RATE compare.pkt_flood=$PKT_FLOOD" \
		"${scale:+compare.cpus=$scale} $extra" &
	pid=$!
	local shown=0 stepped=0
	while kill -0 $pid 2>/dev/null; do
		sleep 2
		shown=$(progress "$out/$name/ktap.log" "$shown")
		stepped=$(steps "$out/$name" "$kobj" "$stepped")
	done
	wait $pid
	local rc=$?
	progress "$out/$name/ktap.log" "$shown" > /dev/null
	local bad why="exit $rc"
	[ $rc = 124 ] && why="hung: killed after ${limit}s"
	# As tests/harness.sh: the guest must also shut down by itself, and
	# cleanly, after its last scenario.
	if ! grep -q '^# notick: end of suite compare' "$out/$name/ktap.log" 2>/dev/null; then
		failures+=("boot $name ($sc) did not finish ($why): see ${out#"$TOP"/}/$name/console.log")
	elif [ $rc != 0 ]; then
		failures+=("boot $name ($sc) finished its scenarios but did not shut down cleanly ($why): see ${out#"$TOP"/}/$name/console.log")
	fi
	bad=$(tr -d '\r' < "$out/$name/console.log" 2>/dev/null | grep -aE "$BAD_KMSG" | head -n 3)
	[ -z "$bad" ] ||
		failures+=("boot $name ($sc): the kernel complained: ${bad//$'\n'/ | } (${out#"$TOP"/}/$name/console.log)")
}
failures=()
progress() {	# progress FILE LINES-ALREADY-SHOWN -> prints new lines, echoes count
	local f=$1 shown=$2 total
	[ -f "$f" ] || { echo "$shown"; return; }
	total=$(wc -l < "$f")
	tail -n +$((shown + 1)) "$f" | head -n $((total - shown)) | tr -d '\r' |
		sed -n 's/^# compare: /==>   /p' >&2
	echo "$total"
}

# steps DIR KERNEL DONE: count, with gdb, the calls of each "steps ready"
# line of the guest after the first DONE; echoes how many it has seen.
# A count that fails is written as such for the analysis (steps.py).
steps() {
	local dir=$1 kobj=$2 done=$3 n=0 sc rep cpu flag
	while read -r _ _ _ _ sc rep cpu flag; do
		n=$((n + 1))
		[ "$n" -le "$done" ] && continue
		echo "==>   counting the instructions of getppid() ($sc, run $rep) with gdb" >&2
		SECONDS=0
		with_heartbeat "counting getppid() ($sc, run $rep) with gdb" \
			count_steps "$dir" "$kobj" "$sc" "$rep" "${cpu#cpu=}" "${flag#flag=}" ||
			echo "==>   gdb failed: ${dir#"$TOP"/}/steps-$sc-$rep.gdb.log" >&2
		echo "==>   counted in $SECONDS s" >&2
	done < <(tr -d '\r' < "$dir/ktap.log" 2>/dev/null | grep '^# compare: steps ready ')
	echo $((n > done ? n : done))
}
# count_steps DIR KERNEL SCENARIO RUN CPU FLAG: one count (steps.py), at
# most 5 minutes
count_steps() {
	STEPS_SOCKET=$1/gdb.sock STEPS_CPU=$5 STEPS_FLAG=$6 STEPS_OUT=$1/steps-$3-$4.txt timeout 300 \
		gdb -q -nx -batch -x "$TOP/tests/compare/steps.py" "$BUILD/obj-$2/vmlinux" \
		> "$1/steps-$3-$4.gdb.log" 2>&1
}

# pick REGEX: the scenarios of one boot, those measured with the kernel's
# defaults first (the guest turns the fair server off for the rest of a
# boot at the first scenario that is tuned: run.sh, fair_server_off)
DEFAULTS='^(fifo|mainline-fifo|nohz-throttled)$'
pick() {
	{ tr ',' '\n' <<< "$SCENARIOS" | grep -E "$1" | grep -E "$DEFAULTS"
	  tr ',' '\n' <<< "$SCENARIOS" | grep -E "$1" | grep -vE "$DEFAULTS"; } | paste -sd,
}
ours=$(pick '^(cfs|fifo|notick|notick-isolate|offsched|steps-notick|steps-cfs|timer-(hrtimer|notick|offsched|doorbell)|pkt-(none|nft|offsched|nft-long|offsched-long))$')
mainline=$(pick '^(mainline-(cfs|fifo)|steps-mainline-cfs)$')
[ -n "$ours" ] && boot plain compare "$ours" ""
nohz=$(pick '^((steps|timer)-)?nohz')
iso=$CPU
[ -n "$scale" ] && iso=1-$((CPUS - 1))
[ -n "$nohz" ] && boot nohz_full compare-mainline "$nohz" \
	"nohz_full=$iso rcu_nocbs=$iso rcu_nocb_poll isolcpus=managed_irq,domain,$iso irqaffinity=0 nosoftlockup nmi_watchdog=0"
[ -n "$mainline" ] && boot mainline compare-mainline "$mainline" ""
# SCHED_NOTICK without every CPU's RCU callbacks offloaded from boot
[ -n "$(pick '^notick-nocb-off$')" ] && boot nocb_off compare-nocb-off notick-nocb-off ""
paired=$(pick '^paired')
pair=$((CPU + 1))
# CPU's RCU callbacks are offloaded too, as sched-notick.rst recommends:
# rcu_nocbs= replaces the configuration's default of every CPU.
[ -n "$paired" ] && boot paired compare "$paired" \
	"nohz_full=$pair rcu_nocbs=$CPU,$pair rcu_nocb_poll isolcpus=managed_irq,domain,$pair irqaffinity=0 nosoftlockup nmi_watchdog=0 compare.pair=$pair" \
	$((CPUS > pair ? CPUS : pair + 1))
# The -icount scenarios, one boot each: SCENARIO:KERNEL
for ic in icount:compare mainline-icount:compare-mainline icount-jump:compare-jump \
	  mainline-icount-jump:compare-mainline-jump; do
	sc=${ic%%:*}
	[ -n "$(pick "^$sc\$")" ] && boot "$sc" "${ic#*:}" "$sc" ""
done

say "analysing"
with_heartbeat "analysing" \
	python3 "$TOP/tests/compare/analyze.py" "$out" "$CPU" "$out"/*/data.log > "$out/table.txt"
rc=$?
cat "$out/table.txt"
[ $rc = 0 ] || failures+=("analysis: some runs failed (the FAILED lines above)")
# Every scenario asked for must be there with every run.
while IFS= read -r l; do
	[ -n "$l" ] && failures+=("$l")
done < <(python3 - "$out/results.json" "$REPEATS" "$SCENARIOS" "$nprobe" <<-'PY' 2>&1
	import json, sys
	try:
	    got = json.load(open(sys.argv[1]))['scenarios']
	except (OSError, ValueError):
	    got = {}
	want = int(sys.argv[2]) * int(sys.argv[4])
	for sc in sys.argv[3].split(','):
	    # a paired run gives two, one for each probe
	    for name in [sc + '-notick', sc + '-nohz'] if sc.startswith('paired') else [sc]:
	        n = got.get(name, {}).get('runs', 0)
	        if n != want:
	            print('scenario %s: %s of %s runs in the data' % (name, n, want))
	PY
)

plots=()
for sc in offsched notick nohz nohz-cfs nohz-throttled fifo cfs mainline-fifo mainline-cfs; do
	[ -f "$out/ftq-$sc.dat" ] && plots+=("'$out/ftq-$sc.dat' using 1:2 with lines title '$sc'")
done
if [ ${#plots[@]} -gt 0 ]; then
	gnuplot <<-GP
	set terminal png size 1000,600
	set output '$out/ftq.png'
	set title 'FTQ samples, sorted (${QUANTUM} us quanta, CPU $CPU, first run of each scenario)'
	set xlabel 'quantum (sorted by work done)'
	set ylabel 'work done / best quantum of the run'
	set key bottom right
	set yrange [0:1.05]
	plot $(IFS=,; echo "${plots[*]}")
	GP
fi
# The results page, with the provenance (results.json gets it too)
status=ok
[ ${#failures[@]} -gt 0 ] && status=$(printf '%s\n' "${failures[@]}")
python3 "$TOP/tests/compare/report.py" "$out" "$TOP" "$started" "$status" \
	CPUS="$CPUS" CPU="$CPU" DURATION="$DURATION" QUANTUM="$QUANTUM" REPEATS="$REPEATS" \
	GAP="$GAP" TIMER_EVENTS="$TIMER_EVENTS" TIMER_QUANTUM="$TIMER_QUANTUM" \
	PKT_PACED="$PKT_PACED" PKT_RATE="$PKT_RATE" PKT_FLOOD="$PKT_FLOOD" SCENARIOS="$SCENARIOS" ||
	failures+=("the results page: tests/compare/report.py failed")
say "results: ${out#"$TOP"/}/results.md (the page), results.json, ftq.png, table.txt"
if [ ${#failures[@]} -gt 0 ]; then
	printf 'compare-test FAILED: %s\n' "${failures[@]}" >&2
	exit 1
fi
