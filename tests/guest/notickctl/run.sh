#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In-guest tests of notickctl (/usr/bin/notickctl): every command and every
# error path, with exit codes, messages and the state left behind (policy,
# affinity, sysfs owner).  The harness boots this suite twice: on the test
# kernel, which must have the SCHED_NOTICK class, and on the same kernel
# built without it (tests/guest/notickctl/kernels: notick-off, booted with
# notick.kernel=notick-off), where only the "not supported" paths run.
# Nothing is skipped on either.  --report --noise, which enables trace
# events at run time, has a suite of its own (notickctl-noise).
. ../lib/ktap.sh
. ../lib/hz.sh

NT=/usr/bin/notickctl
P=$PWD/ntprobe
T=/tmp/notickctl-test
CPU1=/sys/devices/system/cpu/cpu1
HAVE=0
[ -e /proc/sys/kernel/sched_notick_grace_us ] && HAVE=1
KERNEL=$(sed -n 's/.*notick\.kernel=\([^ ]*\).*/\1/p' /proc/cmdline)
rm -rf $T
mkdir -p $T

# nt ARGS...: run notickctl; rc, $T/out, $T/err
nt() { "$NT" "$@" > $T/out 2> $T/err; rc=$?; }
dump() {
	sed 's/^/# out: /' $T/out
	sed 's/^/# err: /' $T/err
	echo "# rc=$rc"
}
# T DESC EXPR: one test
T() { if eval "$2"; then ktap_ok "$1"; else ktap_fail "$1"; dump; fi; }
nap() { sleep 0.1 2> /dev/null || sleep 1; }
# wait_for COND: poll up to 10 s (a setup step, not a pass/fail criterion)
wait_for() {
	i=0
	while [ $i -lt 100 ] && ! eval "$1"; do nap; i=$((i + 1)); done
}
pol() { $P policy "$1"; }
aff() { $P affinity "$1"; }
owner() { cat $CPU1/notick/pid 2> /dev/null || echo none; }
loc1() {
	awk 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "CPU1") c = i; next }
	     $1 == "LOC:" { print $(c + 1) }' /proc/interrupts
}
# threads FILE SPEC...: start ntprobe threads, sets tp (pid) and tids
threads() {
	f=$1
	shift
	rm -f $f
	$P threads $f "$@" &
	tp=$!
	wait_for "[ -s $f ]"
	tids=$(cat $f 2> /dev/null)
}
stop() { kill "$@" 2> /dev/null; wait "$@" 2> /dev/null; }
WD=/proc/sys/kernel/watchdog_cpumask
DEF=/proc/irq/default_smp_affinity
# snap FILE: the exact contents of every file --isolate may write
snap() {
	for f in $WD $DEF /proc/irq/[0-9]*/smp_affinity_list; do
		echo "== $f"
		cat $f 2> /dev/null
	done > $1
}
# was SNAP FILE: the contents of FILE in a snapshot
was() { awk -v h="== $2" 'p { print; exit } $0 == h { p = 1 }' $1; }
# restore FILE: write back every file of a snapshot (guest state for later checks)
restore() {
	awk '/^== / { f = $2; next } { print f " " $0 }' $1 |
	while read -r f v; do echo "$v" > $f 2> /dev/null; done
}
# has1 LISTFILE: the CPU list in LISTFILE contains CPU 1
has1() {
	awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-");
		if (r[1] <= 1 && 1 <= (n > 1 ? r[2] : r[1])) f = 1 } }
		END { exit !f }' "$1" 2> /dev/null
}
# irqs1: IRQs whose effective affinity contains CPU 1
irqs1() {
	for d in /proc/irq/[0-9]*; do
		has1 $d/effective_affinity_list && echo ${d##*/}
	done
}
# refused FILE: IRQ numbers notickctl warned it could not move
refused() { sed -n 's/^notickctl: IRQ \([0-9]*\): cannot .*/\1/p' "$1"; }

# A thread of root's that error paths must leave alone.
sleep 600 &
victim=$!

# ---- the kernel built without the class (notick.kernel=notick-off) ----
if [ "$KERNEL" = notick-off ]; then
	ktap_plan 9
	ktap_note "kernel $(uname -r), booted as $KERNEL, SCHED_NOTICK class: $([ $HAVE = 1 ] && echo yes || echo no)"
	T "kernel built without SCHED_NOTICK: no sched_notick_grace_us" '[ $HAVE = 0 ]'
	nt --cpu 1 -- touch $T/ran
	T "--cpu 1 without SCHED_NOTICK: exit 125 'not supported by this kernel', program not run" \
		'[ $rc = 125 ] && grep -q "SCHED_NOTICK is not supported by this kernel" $T/err && [ ! -e $T/ran ]'
	T "the message names the kernel needed (sched-notick series, CONFIG_SCHED_NOTICK=y)" \
		'grep -q "it needs Linux 6.1 with the notick project.s sched-notick series and CONFIG_SCHED_NOTICK=y" $T/err'
	nt --show $victim
	T "--show works without the class: SCHED_OTHER, affinity 0-1" \
		'[ $rc = 0 ] && grep -q "^pid $victim.s current scheduling policy: SCHED_OTHER$" $T/out && grep -q "^pid $victim.s current affinity list: 0-1$" $T/out'
	nt status
	T "status without SCHED_NOTICK: exit 2" \
		'[ $rc = 2 ] && grep -q "not supported by this kernel" $T/err'
	nt --pid $victim --cpu 1
	T "--pid --cpu 1 without SCHED_NOTICK: exit 2, affinity restored" \
		'[ $rc = 2 ] && [ "$(aff $victim)" = 0,1 ] && [ "$(pol $victim)" = 0 ]'
	nt --report --cpu 1 -- touch $T/ran
	T "--report without SCHED_NOTICK: exit 125, program not run" \
		'[ $rc = 125 ] && [ ! -e $T/ran ] && ! grep -q "report for" $T/err'
	threads $T/tids0 - -
	nt --all-tasks --cpu 1 --pid $tp
	read t1 t2 <<EOT
$tids
EOT
	T "--all-tasks --cpu 1 without SCHED_NOTICK: exit 2, all threads unchanged" \
		'[ $rc = 2 ] && [ "$(aff $t1)" = 0,1 ] && [ "$(aff $t2)" = 0,1 ]'
	stop $tp
	snap $T/iso0
	nt --isolate --cpu 1 -- touch $T/ran
	snap $T/iso1
	T "--isolate without SCHED_NOTICK: exit 125 before any change (files byte-identical)" \
		'[ $rc = 125 ] && grep -q "not supported by this kernel" $T/err && cmp -s $T/iso0 $T/iso1 && [ ! -e /run/notickctl/cpu1 ]'
	stop $victim
	rm -rf $T
	exit 0
fi

ktap_plan 67
ktap_note "kernel $(uname -r), SCHED_NOTICK class: $([ $HAVE = 1 ] && echo yes || echo no)"
T "the test kernel has the SCHED_NOTICK class" '[ $HAVE = 1 ]'

# The usage, the program lookup (exit 127, 126) and the replies about
# missing processes and threads outside the class do not depend on the
# kernel: they passed on the kernel without the class too, and are
# checked on the host (make -C tools/notickctl check, tests/cli.sh).
# What follows needs the class or the guest's real CPUs and interrupts.

# ---- CPU checks ----
nt --cpu 2 -- touch $T/ran
T "--cpu 2 on a 2-CPU guest: exit 125 'out of range', program not run" \
	'[ $rc = 125 ] && grep -q "CPU 2 is out of range (possible CPUs: 0-1)" $T/err && [ ! -e $T/ran ]'
nt --cpu 0 -- touch $T/ran
T "--cpu 0 (timekeeping CPU): exit 125, program not run" \
	'[ $rc = 125 ] && grep -q "CPU 0 is the boot and timekeeping CPU" $T/err && [ ! -e $T/ran ]'
nt --cpu 99999 --pid $victim
T "--pid with CPU out of range: exit 5, thread unchanged" \
	'[ $rc = 5 ] && [ "$(aff $victim)" = 0,1 ] && [ "$(pol $victim)" = 0 ]'

echo 0 > $CPU1/online
nt --cpu 1 -- touch $T/ran
rc_off=$rc; cp $T/err $T/err_off
nt --report --cpu 1 -- touch $T/ran
rc_offr=$rc; cp $T/err $T/err_offr
nt --pid $victim --cpu 1
rc_offp=$rc
echo 1 > $CPU1/online
wait_for '[ "$(cat /sys/devices/system/cpu/online)" = 0-1 ]'
T "offline CPU 1: exit 125 'CPU 1 is offline', program not run" \
	'[ $rc_off = 125 ] && grep -q "CPU 1 is offline (online CPUs: 0)" $T/err_off && [ ! -e $T/ran ]'
T "offline CPU 1 with --report: exit 125 'CPU 1 is offline', program not run" \
	'[ $rc_offr = 125 ] && grep -q "CPU 1 is offline" $T/err_offr && [ ! -e $T/ran ]'
T "offline CPU 1 with --pid: exit 5, thread unchanged" \
	'[ $rc_offp = 5 ] && [ "$(aff $victim)" = 0,1 ] && [ "$(pol $victim)" = 0 ]'

taskset -c 0,1 $NT -- touch $T/ran > $T/out 2> $T/err
rc=$?
T "two allowed CPUs and no --cpu: exit 125 names CPUs 0-1" \
	'[ $rc = 125 ] && grep -q "may run on CPUs 0-1: SCHED_NOTICK needs exactly one" $T/err && [ ! -e $T/ran ]'
nt --pid $victim
T "--pid without --cpu on a thread allowed on 0-1: exit 1, unchanged" \
	'[ $rc = 1 ] && grep -q "PID $victim may run on CPUs 0-1" $T/err && [ "$(aff $victim)" = 0,1 ] && [ "$(pol $victim)" = 0 ]'

# ---- processes ----
nt --pid 2147483600
T "--pid of a missing process: exit 6 'no such process'" \
	'[ $rc = 6 ] && grep -q "PID 2147483600: no such process" $T/err'
$P drop $NT --pid $victim --cpu 1 > $T/out 2> $T/err
rc=$?
T "unprivileged --pid on root's thread: exit 3 'permission denied', unchanged" \
	'[ $rc = 3 ] && grep -q "permission denied" $T/err && [ "$(aff $victim)" = 0,1 ] && [ "$(pol $victim)" = 0 ]'

# ---- running a program as SCHED_NOTICK ----
nt --cpu 1 -- $P info
T "--cpu 1: program runs as SCHED_NOTICK (8) on CPU 1 only" \
	'[ $rc = 0 ] && grep -q "^policy=8 cpu=1 allowed=1$" $T/out'
# notickctl is admitted from a helper thread kept off the CPU while it
# sleeps, so its process first runs on CPU 1 as the SCHED_NOTICK thread
# (prio 0 in sched_switch), never before as the CFS task it started as
# (120), and the CPU's stopper never has to push it there.
. ../lib/trace.sh
echo 0 > $TR/tracing_on
echo > $TR/trace
trace_only sched/sched_switch
echo 1 > $TR/tracing_on
taskset -c 0 $NT --cpu 1 -- sh -c 'echo $$' > $T/out 2> $T/err
rc=$?
echo 0 > $TR/tracing_on
trace_only
# Counted from its exec of notickctl (the shell's child may have been
# placed on CPU 1 before taskset moved it); the release at its exit
# makes it CFS again, so a later switch may be 120.
pid=$(cat $T/out)
awk -v pid="_pid=$pid " -v task="notickctl-$pid " '
	index($0, "next_comm=notickctl next" pid) || index($0, task) { go = 1 }
	go && /\[001\]/ && index($0, "next" pid) {
		sub(/.*next_prio=/, ""); printf "%s ", $0 }' $TR/trace > $T/switches
T "--cpu 1 from CPU 0: the process first runs on CPU 1 as SCHED_NOTICK (prio of each switch onto CPU 1: $(cat $T/switches))" \
	'[ $rc = 0 ] && [ "$(cut -d" " -f1 $T/switches)" = 0 ]'
nt --cpu 1 -- $P exit 7
T "the program's exit status (7) is returned" '[ $rc = 7 ]'
taskset -c 1 $NT -- $P info > $T/out 2> $T/err
rc=$?
T "taskset -c 1 notickctl: uses the inherited single CPU" \
	'[ $rc = 0 ] && grep -q "^policy=8 cpu=1 allowed=1$" $T/out'
taskset -c 1 chrt -f 10 $NT -- $P info > $T/out 2> $T/err
rc=$?
T "taskset + chrt -f + notickctl: the FIFO thread becomes SCHED_NOTICK" \
	'[ $rc = 0 ] && grep -q "^policy=8 cpu=1 allowed=1$" $T/out'
printf 'echo "run by sh: $1"\n' > $T/noshebang
chmod 755 $T/noshebang
nt --cpu 1 -- $T/noshebang x
T "a script without #! (ENOEXEC) runs with /bin/sh, as execvp does" \
	'[ $rc = 0 ] && [ "$(cat $T/out)" = "run by sh: x" ]'
# ETXTBSY: an executable that is open for writing cannot be executed.
cp $P $T/busyexec
exec 7>> $T/busyexec
nt --cpu 1 -- $T/busyexec info
exec 7>&-
T "exec failure after switching (ETXTBSY): exit 126, CPU 1 left free" \
	'[ $rc = 126 ] && grep -q "Text file busy" $T/err && [ "$(owner)" = 0 ]'
$P drop $NT --cpu 1 -- $P info > $T/out 2> $T/err
rc=$?
T "unprivileged: exit 125 'permission denied', program not run" \
	'[ $rc = 125 ] && grep -q "permission denied" $T/err && ! grep -q policy= $T/out'

# ---- a SCHED_NOTICK thread owns CPU 1: status, busy, reset ----
$NT --cpu 1 -- sleep 600 > /dev/null 2>&1 &
own=$!
wait_for '[ "$(owner)" = $own ]'
T "sysfs cpu1/notick/pid names the SCHED_NOTICK thread" \
	'[ "$(owner)" = $own ] && [ "$(pol $own)" = 8 ]'
nt status
T "status: CPU 1 row with the thread's PID and command" \
	'[ $rc = 0 ] && grep -Eq "^ +1 yes +(running|stopped) +$own sleep +[0-9]+ +[0-9]+ +[0-9]+ +(yes|no|-) +([0-9]+|-)$" $T/out && grep -q "^grace period: " $T/out'
nt status --json
T "status --json: schema version, CPU 1 object with the thread" \
	'[ $rc = 0 ] && [ "$(sed -n 2p $T/out)" = "  \"schema_version\": 2," ] && grep -q "{\"cpu\": 1, \"online\": true, \"pid\": $own, \"command\": \"sleep\", \"tick\": \"" $T/out'
nt status --noheadings
T "status --noheadings: one row per CPU, no heading" \
	'[ $rc = 0 ] && [ $(wc -l < $T/out) = 2 ] && grep -Eq "^ +1 yes +(running|stopped) +$own sleep " $T/out'
nt --show $own
T "--show on the owner: SCHED_NOTICK, affinity 1, owns CPU 1 and its tick" \
	'[ $rc = 0 ] && grep -q "^pid $own.s current scheduling policy: SCHED_NOTICK$" $T/out && grep -q "^pid $own.s current affinity list: 1$" $T/out && grep -Eq "^pid $own owns CPU 1, tick (running|stopped)$" $T/out'
nt --json --show $own
T "--json --show on the owner: \"notick_cpu\": 1" \
	'[ $rc = 0 ] && grep -q "{\"pid\": $own, \"command\": \"sleep\", \"policy\": \"SCHED_NOTICK\", \"policy_number\": 8, .*\"notick_cpu\": 1, \"tick\": \"" $T/out'
nt --cpu 1 -- touch $T/ran
T "busy CPU: exit 125 'CPU 1 is busy' names the owner, program not run" \
	'[ $rc = 125 ] && grep -q "CPU 1 is busy: PID $own (sleep) already runs SCHED_NOTICK there" $T/err && [ ! -e $T/ran ]'
nt --pid $victim --cpu 1
T "busy CPU with --pid: exit 4, the thread's affinity restored" \
	'[ $rc = 4 ] && [ "$(aff $victim)" = 0,1 ] && [ "$(pol $victim)" = 0 ]'
nt --reset $own
T "--reset: exit 0, SCHED_NORMAL, CPU 1 free" \
	'[ $rc = 0 ] && [ "$(pol $own)" = 0 ] && [ "$(owner)" = 0 ]'
stop $own

# ---- converting existing threads ----
nt --pid $victim --cpu 1
T "--pid --cpu 1: running thread becomes SCHED_NOTICK on CPU 1" \
	'[ $rc = 0 ] && [ "$(pol $victim)" = 8 ] && [ "$(aff $victim)" = 1 ] && [ "$(owner)" = $victim ]'
nt --reset $victim
T "--reset after --pid: SCHED_NORMAL again" \
	'[ $rc = 0 ] && [ "$(pol $victim)" = 0 ] && [ "$(owner)" = 0 ]'
taskset -c 1 sleep 600 &
s1=$!
# taskset pins itself, then executes sleep: wait for the pin (setup)
wait_for '[ "$(aff $s1)" = 1 ]'
nt --pid $s1
T "--pid without --cpu: uses the thread's single CPU" \
	'[ $rc = 0 ] && [ "$(pol $s1)" = 8 ] && [ "$(owner)" = $s1 ]'
stop $s1
wait_for '[ "$(owner)" != $s1 ]'

threads $T/tids1 1
nt --all-tasks --pid $tp
T "--all-tasks: every thread converted (one thread on CPU 1)" \
	'[ $rc = 0 ] && [ "$(pol $tp)" = 8 ] && [ "$(owner)" = $tp ]'
nt --all-tasks --reset $tp
reset=0
[ $rc = 0 ] && [ "$(pol $tp)" = 0 ] && [ "$(owner)" = 0 ] && reset=1
T "--all-tasks --reset: every thread SCHED_NORMAL" '[ $reset = 1 ]'
nt --all-tasks --reset $tp
T "--all-tasks --reset again, after that reset: exit 0, 'no thread was SCHED_NOTICK'" \
	'[ $reset = 1 ] && [ $rc = 0 ] && [ "$(cat $T/out)" = "pid $tp: no thread was SCHED_NOTICK, unchanged" ]'
stop $tp

threads $T/tids2 1 -
nt --all-tasks --pid $tp
read t1 t2 <<EOT
$tids
EOT
T "--all-tasks, second thread on two CPUs: exit 1, first thread restored" \
	'[ $rc = 1 ] && [ "$(pol $t1)" = 0 ] && [ "$(pol $t2)" = 0 ] && [ "$(aff $t1)" = 1 ] && [ "$(owner)" = 0 ]'
stop $tp

threads $T/tids3 1 1
nt --all-tasks --pid $tp
read t1 t2 <<EOT
$tids
EOT
T "--all-tasks, two threads on CPU 1: exit 4, first thread restored" \
	'[ $rc = 4 ] && [ "$(pol $t1)" = 0 ] && [ "$(pol $t2)" = 0 ] && [ "$(owner)" = 0 ]'
stop $tp

threads $T/tids4 - -
nt --all-tasks --cpu 1 --pid $tp
read t1 t2 <<EOT
$tids
EOT
T "--all-tasks --cpu 1, two threads: exit 4, policy and affinity of both restored" \
	'[ $rc = 4 ] && [ "$(pol $t1)" = 0 ] && [ "$(pol $t2)" = 0 ] && [ "$(aff $t1)" = 0,1 ] && [ "$(aff $t2)" = 0,1 ] && [ "$(owner)" = 0 ]'
stop $tp

# ---- --report ----
# The program spins beside a child of its own bound to CPU 1, so that the
# tick runs there for the whole run. The report counts from the program's
# start to its exit; CPU 1's LOC delta around notickctl also has the
# ticks of its launch and of its end there: at most HZ per second of the
# difference between the two windows (the report's elapsed, the shell's
# from /proc/uptime, 10 ms more for its resolution), and 2.
measure_hz
u0=$(cut -d' ' -f1 /proc/uptime) l0=$(loc1)
nt --report --cpu 1 -O $T/rep.txt -- $P spinpair 300
l1=$(loc1) u1=$(cut -d' ' -f1 /proc/uptime)
el=$(sed -n 's/^ *elapsed *\([0-9.]*\) s$/\1/p' $T/rep.txt 2> /dev/null)
slack=$(awk -v a=$u0 -v b=$u1 -v e="${el:-0}" -v hz=$hz 'BEGIN {
	s = (b - a - e + 0.01) * hz; if (s < 0) s = 0; printf "%d", s + 1 + 2 }')
rloc=$(sed -n 's/^ *local timer interrupts (LOC) *//p' $T/rep.txt 2> /dev/null)
T "--report: program runs as SCHED_NOTICK, exit 0" \
	'[ $rc = 0 ] && grep -q "^policy=8 cpu=1 allowed=1$" $T/out'
T "--report: text report with LOC, other interrupts, softirqs, context switches" \
	'grep -q "SCHED_NOTICK report for PID [0-9]* ($P) on CPU 1:" $T/rep.txt && grep -Eq "^  other interrupts +[0-9]+$" $T/rep.txt && grep -Eq "^  softirqs +[0-9]+$" $T/rep.txt && grep -Eq "^  nonvoluntary ctxt switches +[0-9]+$" $T/rep.txt && grep -Eq "^  elapsed +[0-9]+\.[0-9]{6} s$" $T/rep.txt'
T "--report: LOC count ($rloc in $el s) is CPU 1's LOC delta around notickctl ($l0 -> $l1 in $u0..$u1 s) but $slack at most (HZ=$hz), and the tick ran" \
	'[ -n "$rloc" ] && [ -n "$l0" ] && [ -n "$el" ] && [ "$rloc" -le $((l1 - l0)) ] &&
	 [ "$rloc" -ge $((l1 - l0 - slack)) ] && [ "$rloc" -ge 10 ]'
[ -f $T/rep.txt ] && sed 's/^/# /' $T/rep.txt
taskset -c 1 $NT --report --json -O $T/rep.json -- $P sleeploop 20 10 > $T/out 2> $T/err
rc=$?
vcs=$(sed -n 's/^ *"voluntary_ctxt_switches": \([0-9]*\),$/\1/p' $T/rep.json 2> /dev/null)
T "--report --json: schema version, all keys present, cpu 1, exit_status 0" \
	'[ $rc = 0 ] && grep -q "^  \"schema_version\": 2,$" $T/rep.json && grep -q "\"cpu\": 1," $T/rep.json && grep -q "\"exit_status\": 0," $T/rep.json && grep -q "\"local_timer_interrupts\": [0-9]*," $T/rep.json && grep -q "\"interrupts\": \[" $T/rep.json && grep -q "{\"name\": \"LOC\", \"description\": \"Local timer interrupts\", \"count\": [0-9]*}" $T/rep.json && grep -q "{\"name\": \"TIMER\", \"count\": [0-9]*}" $T/rep.json'
T "--report --json: 20 sleeps give >= 20 voluntary context switches ($vcs)" \
	'[ -n "$vcs" ] && [ "$vcs" -ge 20 ]'
T "--report --json without --noise: no noise, not asked for, no tracefs instance made" \
	'grep -q "^  \"noise\": null,$" $T/rep.json && grep -q "^  \"noise_unavailable\": \"not asked for (--noise)\",$" $T/rep.json && ! ls -d /sys/kernel/tracing/instances/notickctl.* > /dev/null 2>&1'
T "--report --json: cpu_percent of a program that sleeps 20 x 10 ms is below 50 ($(sed -n 's/^  "cpu_percent": \(.*\),$/\1/p' $T/rep.json))" \
	'c=$(sed -n "s/^  \"cpu_percent\": \([0-9]*\).*/\1/p" $T/rep.json); [ -n "$c" ] && [ "$c" -lt 50 ]'
nt --report --cpu 1 -- $P exit 3
T "--report: program's exit status (3) returned, report on stderr" \
	'[ $rc = 3 ] && grep -q "report for PID" $T/err && grep -Eq "^  exit status +3$" $T/err'
nt --report --cpu 1 -- $P kill
T "--report: program killed by SIGTERM gives 143 and 'killed by signal 15'" \
	'[ $rc = 143 ] && grep -Eq "^  killed by signal +15 " $T/err'
$NT --report --cpu 1 -- sleep 600 > $T/out 2> $T/err &
rp=$!
wait_for '[ "$(owner)" != 0 ]'
kill -TERM $rp
wait $rp
rc=$?
T "--report, SIGTERM to notickctl: passed on to the program, report, exit 143, CPU 1 free" \
	'[ $rc = 143 ] && grep -Eq "^  killed by signal +15 " $T/err && [ "$(owner)" = 0 ]'
$NT --report --cpu 1 -- sleep 600 > $T/out 2> $T/err &
rp=$!
wait_for '[ "$(owner)" != 0 ]'
prog=$(owner)
kill -KILL $rp
wait $rp 2> /dev/null
wait_for '[ "$(owner)" = 0 ]'
T "--report, notickctl killed (SIGKILL): its SCHED_NOTICK program ($prog) is gone, CPU 1 free" \
	'[ "$prog" != 0 ] && [ "$(owner)" = 0 ] && ! kill -0 $prog 2> /dev/null'
kill -KILL $prog 2> /dev/null

# ---- --isolate: watchdog and device interrupts off CPU 1 ----
snap $T/isob
# Give CPU 1 a device IRQ of its own: ttyS1's, the KTAP port's, which
# fires with every line written (the move happens at its next interrupt).
SIRQ=$(awk '/ttyS1/ { sub(":", "", $1); print $1; exit }' /proc/interrupts)
echo 1 > /proc/irq/$SIRQ/smp_affinity_list
ktap_note "IRQ $SIRQ (ttyS1) set to CPU 1 only"
wait_for 'has1 /proc/irq/$SIRQ/effective_affinity_list'
T "setup: IRQ $SIRQ (ttyS1) allowed and effective on CPU 1 only" \
	'[ "$(cat /proc/irq/$SIRQ/smp_affinity_list)" = 1 ] && [ "$(cat /proc/irq/$SIRQ/effective_affinity_list)" = 1 ]'
snap $T/iso0
ktap_note "before --isolate: watchdog_cpumask $(cat $WD 2> /dev/null || echo absent), default_smp_affinity $(cat $DEF), IRQs on CPU 1: $(irqs1 | tr '\n' ' ')"
$P drop $NT --isolate --cpu 1 -- $P info > $T/out 2> $T/err
rc=$?
snap $T/iso1
T "unprivileged --isolate: exit 125 'permission denied', nothing changed" \
	'[ $rc = 125 ] && grep -q "permission denied" $T/err && ! grep -q policy= $T/out && cmp -s $T/iso0 $T/iso1'
$NT --cpu 1 -- sleep 600 > /dev/null 2>&1 &
own=$!
wait_for '[ "$(owner)" = $own ]'
nt --isolate --cpu 1 -- touch $T/ran
snap $T/iso1
T "--isolate on a busy CPU: exit 125 'CPU 1 is busy', program not run" \
	'[ $rc = 125 ] && grep -q "CPU 1 is busy: PID $own" $T/err && [ ! -e $T/ran ]'
T "--isolate refused admission (CPU 1 busy): watchdog_cpumask, default and IRQ affinities byte-identical, no record" \
	'grep -q "CPU 1 is busy: PID $own" $T/err && cmp -s $T/iso0 $T/iso1 && [ ! -e /run/notickctl/cpu1 ]'
[ -s $T/iso0 ] && ! cmp -s $T/iso0 $T/iso1 && diff $T/iso0 $T/iso1 | sed 's/^/# /'
vaff=$(aff $victim)
nt --isolate --pid $victim --cpu 1
snap $T/iso1
T "--isolate --pid on a busy CPU: exit 4, thread ($vaff) and files as they were" \
	'[ $rc = 4 ] && [ "$(aff $victim)" = "$vaff" ] && [ "$(pol $victim)" = 0 ] && cmp -s $T/iso0 $T/iso1'
$NT --reset $own > /dev/null 2>&1
stop $own
wait_for '[ "$(owner)" = 0 ]'

# counts of interrupts per IRQ, to tell a move the kernel defers until
# the IRQ next fires (x86 IO-APIC) from one that was not made
irqcount() { awk -v n="$1:" '$1 == n { print $2 + $3 }' /proc/interrupts; }
for d in /proc/irq/[0-9]*; do echo "${d##*/} $(irqcount ${d##*/})"; done > $T/cnt0
$NT --isolate --cpu 1 -- $P spin 600000 > $T/spin.out 2> $T/iso.err &
spin=$!
wait_for '[ "$(owner)" = $spin ]'
for d in /proc/irq/[0-9]*; do echo "${d##*/} $(irqcount ${d##*/})"; done > $T/cnt1
sed 's/^/# stderr: /' $T/iso.err 2> /dev/null
refused $T/iso.err > $T/refused 2> /dev/null
ktap_note "after --isolate: watchdog_cpumask $(cat $WD), default_smp_affinity $(cat $DEF), IRQs on CPU 1: $(irqs1 | tr '\n' ' '), refused: $(tr '\n' ' ' < $T/refused 2> /dev/null)"
T "--isolate --cpu 1 -- spinner: SCHED_NOTICK owner of CPU 1" \
	'[ "$(owner)" = $spin ] && [ "$(pol $spin)" = 8 ] && [ "$(aff $spin)" = 1 ]'
T "--isolate: CPU 1 gone from watchdog_cpumask ($(cat $WD))" '[ "$(cat $WD)" = 0 ]'
T "--isolate: default_smp_affinity is CPU 0 only ($(cat $DEF))" '[ "$(cat $DEF)" = 1 ]'
movable_ok() {
	for d in /proc/irq/[0-9]*; do
		grep -qx "${d##*/}" $T/refused && continue
		has1 $d/smp_affinity_list && return 1
	done
	return 0
}
T "--isolate: no movable IRQ allows CPU 1 in smp_affinity_list; IRQ $SIRQ (CPU 1 only) -> 0" \
	'movable_ok && [ "$(cat /proc/irq/$SIRQ/smp_affinity_list)" = 0 ]'
# A move that the kernel defers (no interrupt since) is no failure.
effective_ok() {
	for i in $(irqs1); do
		grep -qx $i $T/refused && continue
		c0=$(awk -v i=$i '$1 == i { print $2 }' $T/cnt0)
		c1=$(irqcount $i)
		[ "$c0" = "$c1" ] || { echo "# IRQ $i on CPU 1, fired ($c0 -> $c1)"; return 1; }
		echo "# IRQ $i still on CPU 1: move pending until it fires"
	done
	return 0
}
T "--isolate: no movable IRQ that fired since has CPU 1 in effective_affinity (IRQ $SIRQ: $(cat /proc/irq/$SIRQ/effective_affinity_list))" \
	'effective_ok && ! has1 /proc/irq/$SIRQ/effective_affinity_list'
nt status
n1=$(irqs1 | wc -l)
T "status: CPU 1 row 'no' in WATCHDOG and its IRQ count ($n1)" \
	'[ $rc = 0 ] && grep -Eq "^ +1 yes +(running|stopped) +$spin ntprobe .* no +$n1$" $T/out && grep -Eq "^ +0 yes .* yes +[0-9]+$" $T/out'
nt status --json
T "status --json: CPU 1 \"watchdog\": false, \"irqs\": $n1" \
	'[ $rc = 0 ] && grep -q "{\"cpu\": 1, .*, \"watchdog\": false, \"irqs\": $n1}" $T/out'
stop $spin
wait_for '[ "$(owner)" = 0 ]'
T "isolation stays after the program exits, recorded in /run/notickctl/cpu1" \
	'[ "$(owner)" = 0 ] && [ "$(cat $WD)" = 0 ] && [ "$(cat $DEF)" = 1 ] && [ -s /run/notickctl/cpu1 ]'

nt --unisolate --cpu 1
sed 's/^/# stderr: /' $T/err
snap $T/iso1
unisolated=0
[ $rc = 0 ] && cmp -s $T/iso0 $T/iso1 && [ ! -e /run/notickctl/cpu1 ] && unisolated=1
T "--unisolate --cpu 1: exit 0, every file --isolate wrote as before it, byte for byte" \
	'[ $unisolated = 1 ]'
nt --unisolate --cpu 1
snap $T/iso3
T "--unisolate again, no record left: exit 1, nothing changed, --force named" \
	'[ $unisolated = 1 ] && [ $rc = 1 ] && grep -q "no record of --isolate for CPU 1 (/run/notickctl/cpu1): nothing changed; --force" $T/err && cmp -s $T/iso1 $T/iso3'
[ -s $T/iso0 ] && ! cmp -s $T/iso0 $T/iso1 && diff $T/iso0 $T/iso1 | sed 's/^/# /'
T "--unisolate: the hand-tuned IRQ $SIRQ (ttyS1) is on CPU 1 again, not the default" \
	'[ $unisolated = 1 ] && [ "$(cat /proc/irq/$SIRQ/smp_affinity_list)" = 1 ]'
snap $T/iso1
cmp -s $T/isob $T/iso1 || { ktap_note "differences to the boot state, restored:"; diff $T/isob $T/iso1 | sed 's/^/# /'; }
restore $T/isob
snap $T/iso1
T "setup: guest state restored for later checks (files byte-identical to boot)" 'cmp -s $T/isob $T/iso1'

# deploy/examples/90-notick.conf, as systemd-sysctl would apply it.
g0=$(cat /proc/sys/kernel/sched_notick_grace_us)
want=$(sed -n 's/^kernel.sched_notick_grace_us *= *//p' 90-notick.conf)
echo 1234 > /proc/sys/kernel/sched_notick_grace_us
sysctl -p 90-notick.conf > $T/out 2> $T/err
rc=$?
g1=$(cat /proc/sys/kernel/sched_notick_grace_us)
echo $g0 > /proc/sys/kernel/sched_notick_grace_us
T "deploy/examples/90-notick.conf applied with sysctl -p sets the grace to $want ($g1)" \
	'[ $rc = 0 ] && [ -n "$want" ] && [ "$g1" = "$want" ] && [ ! -s $T/err ]'

T "no SCHED_NOTICK thread left behind on CPU 1" '[ "$(owner)" = 0 ]'

stop $victim
rm -rf $T
