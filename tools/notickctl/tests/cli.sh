#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Host tests of the notickctl binary: usage, exit codes, error messages and
# "status" against fake /proc and /sys trees (NOTICKCTL_ROOT).  Safe on
# the host: the host kernel has no SCHED_NOTICK, and every conversion
# attempted here fails and must leave the target as it was.
# With tests/shim.c preloaded as a stand-in for a kernel with the class,
# the conversion, --report and rollback paths run for real as well.
# --isolate and --unisolate only ever run against a fake tree; the shim's
# NT_SHIM_WFAIL stands in for /proc refusing writes (EIO, EPERM, EACCES).
#   cli.sh BUILDDIR TMPDIR      prints TAP (BUILDDIR has notickctl,
#                               shim.so and ntprobe)
B=$1
NT=$B/notickctl
TMP=$2
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; sed 's/^/# /' "$TMP/err" "$TMP/out"; fi; }

rm -rf "$TMP"
mkdir -p "$TMP"

# run ARGS...: rc, $TMP/out, $TMP/err
run() { "$NT" "$@" > "$TMP/out" 2> "$TMP/err"; rc=$?; }

# fakeroot DIR POSSIBLE ONLINE [nosysctl]
fakeroot() {
	d=$1
	mkdir -p "$d/sys/devices/system/cpu" "$d/proc/sys/kernel"
	echo "$2" > "$d/sys/devices/system/cpu/possible"
	echo "$3" > "$d/sys/devices/system/cpu/online"
	[ "${4:-}" = nosysctl ] || echo 10000 > "$d/proc/sys/kernel/sched_notick_grace_us"
}
# notickdir ROOT CPU PID TICK STOPS RESTARTS YIELDS
notickdir() {
	nd=$1/sys/devices/system/cpu/cpu$2/notick
	mkdir -p "$nd"
	echo "$3" > "$nd/pid"; echo "$4" > "$nd/tick"
	echo "$5" > "$nd/tick_stops"; echo "$6" > "$nd/tick_restarts"
	echo "$7" > "$nd/yields"
}

echo "TAP version 13"

# --- help, version, usage errors ---
run --help
check "--help exits 0 with usage on stdout" \
	'[ $rc = 0 ] && grep -q "^Usage:" $TMP/out && [ ! -s $TMP/err ]'
check "--help shows --isolate and --unisolate" \
	'grep -q -- "--isolate" $TMP/out && grep -q -- "--unisolate --cpu <cpu>" $TMP/out'
check "--help documents every exit code" \
	'(for c in 0 1 2 3 4 5 6 126 127; do grep -Eq "^ +$c +[a-zA-Z]" $TMP/out || exit 1; done)'
run -V
check "--version prints name and version" \
	'[ $rc = 0 ] && grep -Eq "^notickctl [0-9]+\.[0-9]+" $TMP/out'
run
check "no arguments: exit 1, 'no program given'" \
	'[ $rc = 1 ] && grep -q "^notickctl: no program given" $TMP/err && grep -q -- "--help" $TMP/err'
run --frobnicate
check "unknown option: exit 1" \
	'[ $rc = 1 ] && grep -q "unrecognized option .--frobnicate." $TMP/err'
run --cpu x true
check "bad CPU number: exit 1" '[ $rc = 1 ] && grep -q "invalid CPU number" $TMP/err'
run --pid 1 --reset 1
check "--pid with --reset: exit 1" '[ $rc = 1 ] && [ ! -s $TMP/out ]'

# --- status against fake trees ---
R=$TMP/root1
fakeroot "$R" 0-3 0-2
notickdir "$R" 0 0 running 0 0 0
notickdir "$R" 1 4321 stopped 17 16 2
notickdir "$R" 2 0 running 5 5 0
mkdir -p "$R/proc/4321"; echo spinner > "$R/proc/4321/comm"
export NOTICKCTL_ROOT=$R
run status
check "status: exit 0" '[ $rc = 0 ]'
check "status: grace period line" 'grep -q "^grace period: 10000 us$" $TMP/out'
check "status: CPU 1 row names thread, tick state and counters" \
	'grep -Eq "^ +1 yes +stopped +4321 spinner +17 +16 +2 +- +-$" $TMP/out'
check "status: CPU 2 row without a thread" \
	'grep -Eq "^ +2 yes +running +- +- +5 +5 +0 +- +-$" $TMP/out'
check "status: offline CPU 3 listed as offline without notick state" \
	'grep -Eq "^ +3 no +- +- +- +- +- +- +- +-$" $TMP/out'
check "status: one row per possible CPU" '[ $(grep -Ec "^ +[0-9]+ (yes|no) " $TMP/out) = 4 ]'
run status --json
check "status --json: CPU 1 object" \
	'[ $rc = 0 ] && grep -q "{\"cpu\": 1, \"online\": true, \"pid\": 4321, \"command\": \"spinner\", \"tick\": \"stopped\", \"tick_stops\": 17, \"tick_restarts\": 16, \"yields\": 2, \"watchdog\": null, \"irqs\": null}" $TMP/out'
check "status --json: grace and offline CPU" \
	'grep -q "\"grace_us\": 10000," $TMP/out && grep -q "{\"cpu\": 3, \"online\": false, \"pid\": null" $TMP/out'
echo -1 > "$R/proc/sys/kernel/sched_notick_grace_us"
run status
check "status: grace -1 shown as never yield" 'grep -q "never yield" $TMP/out'

R2=$TMP/root2
fakeroot "$R2" 0-1 0-1 nosysctl
NOTICKCTL_ROOT=$R2
run status
check "status on a kernel without SCHED_NOTICK: exit 2" \
	'[ $rc = 2 ] && grep -q "^notickctl: SCHED_NOTICK is not supported by this kernel$" $TMP/err && [ ! -s $TMP/out ]'

# --- CPU checks (fake tree: possible 0-3, online 0-2) ---
NOTICKCTL_ROOT=$R
run --cpu 9 -- true
check "CPU out of range: exit 5" \
	'[ $rc = 5 ] && grep -q "CPU 9 is out of range (possible CPUs: 0-3)" $TMP/err'
run --cpu 3 -- true
check "offline CPU: exit 5" \
	'[ $rc = 5 ] && grep -q "CPU 3 is offline (online CPUs: 0-2)" $TMP/err'
run --cpu 0 -- true
check "CPU 0: exit 5" '[ $rc = 5 ] && grep -q "CPU 0 is the boot and timekeeping CPU" $TMP/err'
run --report --cpu 9 -- true
check "--report with CPU out of range: exit 5, no report" \
	'[ $rc = 5 ] && ! grep -q "report for" $TMP/err'

# --- program lookup, before anything is changed ---
run --cpu 1 -- /nonexistent/prog
check "program not found (path): exit 127" \
	'[ $rc = 127 ] && grep -q "/nonexistent/prog: program not found" $TMP/err'
PATH=/nonexistent-dir run --cpu 1 -- no-such-program-xyz
check "program not found (PATH search): exit 127" \
	'[ $rc = 127 ] && grep -q "no-such-program-xyz: program not found" $TMP/err'
printf '#!/bin/sh\nexit 0\n' > "$TMP/noexec"; chmod 644 "$TMP/noexec"
run --cpu 1 -- "$TMP/noexec"
check "program not executable: exit 126" \
	'[ $rc = 126 ] && grep -q "cannot execute: Permission denied" $TMP/err'
run --cpu 1 --report -- /
check "directory as program with --report: exit 126" '[ $rc = 126 ]'

# --- affinity: more than one allowed CPU and no --cpu ---
if taskset -c 0,1 true 2>/dev/null; then
	NOTICKCTL_ROOT=$R taskset -c 0,1 "$NT" -- true > "$TMP/out" 2> "$TMP/err"; rc=$?
	check "two allowed CPUs without --cpu: exit 1 names the CPUs" \
		'[ $rc = 1 ] && grep -q "may run on CPUs 0-1: SCHED_NOTICK needs exactly one" $TMP/err'
else
	skip "two allowed CPUs without --cpu" "host has fewer than 2 CPUs"
fi
unset NOTICKCTL_ROOT

# --- the real host kernel: no SCHED_NOTICK, nothing may change ---
if [ -e /proc/sys/kernel/sched_notick_grace_us ]; then
	skip "host kernel without SCHED_NOTICK: exit 2" "host kernel has SCHED_NOTICK"
	skip "failed --pid conversion restores the target's affinity" "host kernel has SCHED_NOTICK"
else
	run --cpu 1 -- true
	check "host kernel without SCHED_NOTICK: exit 2" \
		'[ $rc = 2 ] && grep -q "SCHED_NOTICK is not supported by this kernel" $TMP/err'
	run --report --cpu 1 -- true
	check "--report on a kernel without SCHED_NOTICK: exit 2, program not run" \
		'[ $rc = 2 ] && ! grep -q "report for" $TMP/err'
	sleep 30 &
	victim=$!
	before=$(taskset -p $victim | sed 's/.*: //')
	pol_before=$(chrt -p $victim | head -n 1 | sed 's/.*: //')
	run --pid $victim --cpu 1
	after=$(taskset -p $victim | sed 's/.*: //')
	pol_after=$(chrt -p $victim | head -n 1 | sed 's/.*: //')
	check "failed --pid --cpu 1: exit 2 and affinity restored ($before -> $after)" \
		'[ $rc = 2 ] && [ -n "$before" ] && [ "$before" = "$after" ] && [ "$before" != 2 ]'
	check "failed --pid: policy unchanged ($pol_before)" \
		'[ "$pol_before" = "$pol_after" ]'
	run --all-tasks --pid $victim --cpu 1
	after=$(taskset -p $victim | sed 's/.*: //')
	check "failed --all-tasks --pid: exit 2 and affinity restored" \
		'[ $rc = 2 ] && [ "$before" = "$after" ]'
	run --reset $victim
	check "--reset of a thread that is not SCHED_NOTICK: exit 0, unchanged" \
		'[ $rc = 0 ] && grep -q "pid $victim: not SCHED_NOTICK, unchanged" $TMP/out'
	kill $victim 2>/dev/null
	wait $victim 2>/dev/null
fi

# --- no such process ---
run --pid 2147483646
check "--pid of a missing process: exit 6" \
	'[ $rc = 6 ] && grep -q "PID 2147483646: no such process" $TMP/err'
run --all-tasks --pid 2147483646
check "--all-tasks --pid of a missing process: exit 6" '[ $rc = 6 ]'
run --reset 2147483646
check "--reset of a missing process: exit 6" '[ $rc = 6 ]'

# --- a stand-in kernel: the shim answers sched_setattr() ---
SHIM=$B/shim.so
PROBE=$B/ntprobe
LOG=$TMP/shim.log
# shim FAILSPEC ARGS...: run notickctl with the shim ("-": never fail)
shim() {
	fs=$1
	shift
	rm -f $LOG
	[ "$fs" = - ] && fs=
	LD_PRELOAD=$SHIM NT_SHIM_LOG=$LOG NT_SHIM_FAIL=$fs "$NT" "$@" \
		> "$TMP/out" 2> "$TMP/err"
	rc=$?
	touch $LOG
}
aff() { taskset -p "$1" | sed 's/.*: //'; }
if [ -f "$SHIM" ] && [ -x "$PROBE" ] && taskset -c 1 true 2> /dev/null &&
   [ "$(taskset -p $$ | sed 's/.*: //')" = 3 ]; then
	shim - --report --json -o $TMP/rep.json --cpu 1 -- \
		sh -c 'grep "^Cpus_allowed_list:" /proc/$$/status; exit 3'
	rpid=$(sed -n 's/^{$//; s/^  "pid": \([0-9]*\),$/\1/p' $TMP/rep.json)
	check "shim --report: child pinned to CPU 1, its exit status (3) returned" \
		'[ $rc = 3 ] && grep -q "^Cpus_allowed_list:.1$" $TMP/out'
	check "shim --report: the child (not notickctl) was switched, once" \
		'[ -n "$rpid" ] && [ "$(cat $LOG)" = "setattr $rpid 8" ]'
	check "shim --report --json: cpu, exit status, LOC and every source" \
		'grep -q "^  \"cpu\": 1,$" $TMP/rep.json && grep -q "^  \"exit_status\": 3,$" $TMP/rep.json && grep -q "^  \"local_timer_interrupts\": [0-9]*,$" $TMP/rep.json && grep -q "{\"name\": \"LOC\", \"description\": \"Local timer interrupts\", \"count\": [0-9]*}" $TMP/rep.json && grep -q "{\"name\": \"TIMER\", \"count\": [0-9]*}" $TMP/rep.json'
	shim - --report --json -o $TMP/rep2.json --cpu 1 -- \
		sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do sleep 0.01; done'
	vcs=$(sed -n 's/^  "voluntary_ctxt_switches": \([0-9]*\),$/\1/p' $TMP/rep2.json)
	check "shim --report: a shell that waits 10 times has >= 10 voluntary switches ($vcs)" \
		'[ $rc = 0 ] && [ -n "$vcs" ] && [ "$vcs" -ge 10 ]'
	shim - --report --cpu 1 -- sh -c 'kill -TERM $$'
	check "shim --report: killed by SIGTERM gives 143, text report on stderr" \
		'[ $rc = 143 ] && grep -Eq "^  killed by signal +15 " $TMP/err && grep -Eq "^  local timer interrupts \(LOC\) [0-9]+$" $TMP/err'
	shim 1:EBUSY --report --cpu 1 -- touch $TMP/ran
	check "shim --report, CPU busy: exit 4, program not run" \
		'[ $rc = 4 ] && [ ! -e $TMP/ran ] && ! grep -q "report for" $TMP/err'
	shim - --cpu 1 -- sh -c 'grep "^Cpus_allowed_list:" /proc/$$/status'
	check "shim exec: notickctl switches itself on CPU 1 and execs" \
		'[ $rc = 0 ] && grep -q "^Cpus_allowed_list:.1$" $TMP/out && [ "$(cat $LOG)" = "setattr 0 8" ]'
	printf 'garbage\n' > $TMP/badexec
	chmod 755 $TMP/badexec
	shim - --cpu 1 -- $TMP/badexec
	check "shim exec failure after the switch: exit 126, policy restored" \
		'[ $rc = 126 ] && [ "$(cat $LOG | tr "\n" " ")" = "setattr 0 8 setattr 0 0 " ]'

	sleep 30 &
	victim=$!
	NOTICKCTL_ROOT=$R shim 1:EBUSY --pid $victim --cpu 1
	check "shim EBUSY: exit 4 names the owner from sysfs, affinity restored" \
		'[ $rc = 4 ] && grep -q "CPU 1 is busy: PID 4321 (spinner) already runs SCHED_NOTICK there" $TMP/err && [ "$(aff $victim)" = 3 ]'
	shim 1:EPERM --pid $victim --cpu 1
	check "shim EPERM: exit 3 'permission denied', affinity restored" \
		'[ $rc = 3 ] && grep -q "permission denied (CAP_SYS_NICE needed)" $TMP/err && [ "$(aff $victim)" = 3 ]'
	echo 10000 > "$R/proc/sys/kernel/sched_notick_grace_us"
	NOTICKCTL_ROOT=$R shim 1:EINVAL --pid $victim --cpu 1
	check "shim EINVAL on a kernel with the class: exit 5 'kernel refused'" \
		'[ $rc = 5 ] && grep -q "kernel refused SCHED_NOTICK for PID $victim on CPU 1" $TMP/err && [ "$(aff $victim)" = 3 ]'
	NOTICKCTL_ROOT=$R2 shim 1:EINVAL --pid $victim --cpu 1
	check "shim EINVAL without the grace sysctl: exit 2 'not supported'" \
		'[ $rc = 2 ] && grep -q "not supported by this kernel" $TMP/err && [ "$(aff $victim)" = 3 ]'
	shim - --pid $victim --cpu 1
	check "shim --pid --cpu 1: pinned, switched, reported" \
		'[ $rc = 0 ] && [ "$(aff $victim)" = 2 ] && [ "$(cat $LOG)" = "setattr $victim 8" ] && grep -q "^pid $victim: SCHED_NOTICK on CPU 1$" $TMP/out'
	kill $victim 2> /dev/null
	wait $victim 2> /dev/null

	rm -f $TMP/tids
	$PROBE threads $TMP/tids - - &
	tp=$!
	i=0
	while [ ! -s $TMP/tids ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	read t1 t2 < $TMP/tids
	shim 2:EBUSY --all-tasks --cpu 1 --pid $tp
	check "shim --all-tasks, second thread busy: exit 4, first thread undone" \
		'[ $rc = 4 ] && [ "$(cat $LOG | tr "\n" " ")" = "setattr $t1 8 setattr $t2 8 setattr $t1 0 " ] && grep -q "PID $t1 restored" $TMP/err'
	check "shim --all-tasks rollback: both threads' affinity restored" \
		'[ "$($PROBE affinity $t1)" = 0,1 ] && [ "$($PROBE affinity $t2)" = 0,1 ]'
	kill $tp 2> /dev/null
	wait $tp 2> /dev/null

	rm -f $TMP/tids
	$PROBE threads $TMP/tids 1 - &
	tp=$!
	i=0
	while [ ! -s $TMP/tids ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	read t1 t2 < $TMP/tids
	shim - --all-tasks --pid $tp
	check "shim --all-tasks, second thread on CPUs 0-1: exit 1, first thread undone" \
		'[ $rc = 1 ] && [ "$(cat $LOG | tr "\n" " ")" = "setattr $t1 8 setattr $t1 0 " ] && grep -q "PID $t2 may run on CPUs 0-1" $TMP/err && [ "$($PROBE affinity $t1)" = 1 ]'
	kill $tp 2> /dev/null
	wait $tp 2> /dev/null
else
	for t in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
		skip "shim test $t" "needs shim.so, ntprobe and CPUs 0-1"
	done
fi


# --- --isolate / --unisolate against a fake /proc (never the host's) ---
# isoroot DIR: possible and online 0-3, the lockup detector's mask, the
# default IRQ affinity and six IRQs: 0 (0-3), 1 (CPU 1 only), 4 (0-3),
# 5 (1-2), 9 (2-3, not on CPU 1), 12 (1,3); effective affinities 0, 1, 1,
# 1, 2, 3.  $DIR.orig is a pristine copy to compare against (diff -r).
isoroot() {
	rm -rf "$1" "$1.orig"
	fakeroot "$1" 0-3 0-3
	echo 0-3 > "$1/proc/sys/kernel/watchdog_cpumask"
	mkdir -p "$1/proc/irq"
	echo f > "$1/proc/irq/default_smp_affinity"
	for spec in 0:0-3:0 1:1:1 4:0-3:1 5:1-2:1 9:2-3:2 12:1,3:3; do
		irq=${spec%%:*} rest=${spec#*:}
		mkdir -p "$1/proc/irq/$irq"
		echo "${rest%%:*}" > "$1/proc/irq/$irq/smp_affinity_list"
		echo "${rest#*:}" > "$1/proc/irq/$irq/effective_affinity_list"
	done
	cp -a "$1" "$1.orig"
}
# same DIR: the tree is byte-identical to its pristine copy
same() { diff -r "$1" "$1.orig" > "$TMP/diff" 2>&1; }
irqaff() { cat "$I/proc/irq/$1/smp_affinity_list"; }
I=$TMP/iso
isoroot $I
export NOTICKCTL_ROOT=$I
run status
check "status: WATCHDOG and IRQS columns (IRQs by effective affinity)" \
	'[ $rc = 0 ] && grep -Eq " WATCHDOG +IRQS$" $TMP/out && grep -Eq "^ +0 yes( +-){6} +yes +1$" $TMP/out && grep -Eq "^ +1 yes( +-){6} +yes +3$" $TMP/out && grep -Eq "^ +3 yes( +-){6} +yes +1$" $TMP/out'
run status --json
check "status --json: watchdog and irqs of each CPU" \
	'[ $rc = 0 ] && grep -q "\"cpu\": 1, .*\"yields\": null, \"watchdog\": true, \"irqs\": 3}" $TMP/out && grep -q "\"cpu\": 2, .*\"watchdog\": true, \"irqs\": 1}" $TMP/out'
run --unisolate
check "--unisolate without --cpu: exit 1" \
	'[ $rc = 1 ] && grep -q "^notickctl: --unisolate needs --cpu$" $TMP/err && same $I'
run --isolate --all-tasks --cpu 1 --pid $$
check "--isolate --all-tasks: exit 1, nothing changed" \
	'[ $rc = 1 ] && grep -q "not with --all-tasks" $TMP/err && same $I'
run --isolate --reset $$
check "--isolate --reset: exit 1" '[ $rc = 1 ] && same $I'
run --isolate --cpu 0 -- true
check "--isolate --cpu 0: exit 5, nothing changed" \
	'[ $rc = 5 ] && grep -q "CPU 0 is the boot and timekeeping CPU" $TMP/err && same $I'
run --isolate --cpu 9 -- true
check "--isolate --cpu 9 (out of range): exit 5, nothing changed" \
	'[ $rc = 5 ] && same $I'
run --isolate --cpu 1 -- /nonexistent/prog
check "--isolate with a missing program: exit 127, nothing changed" \
	'[ $rc = 127 ] && same $I'
run --unisolate --cpu 9
check "--unisolate --cpu 9: exit 5 'out of range', nothing changed" \
	'[ $rc = 5 ] && grep -q "CPU 9 is out of range (possible CPUs: 0-3)" $TMP/err && same $I'
rm "$I/proc/sys/kernel/sched_notick_grace_us"
run --isolate --cpu 1 -- true
check "--isolate on a kernel without SCHED_NOTICK: exit 2, nothing changed" \
	'[ $rc = 2 ] && grep -q "not supported by this kernel" $TMP/err && ! grep -q IRQ $TMP/err'
echo 10000 > "$I/proc/sys/kernel/sched_notick_grace_us"
check "--isolate on a kernel without SCHED_NOTICK: tree unchanged" 'same $I'
echo 'garbage' > "$I/proc/sys/kernel/watchdog_cpumask"
cp "$I/proc/sys/kernel/watchdog_cpumask" "$I.orig/proc/sys/kernel/"
run --isolate --cpu 1 -- true
check "--isolate with an unparsable watchdog_cpumask: exit 1, nothing changed" \
	'[ $rc = 1 ] && grep -q "cannot parse /proc/sys/kernel/watchdog_cpumask: .garbage." $TMP/err && same $I'
isoroot $I

if [ -f "$SHIM" ] && [ -x "$PROBE" ] && taskset -c 1 true 2> /dev/null &&
   [ "$(taskset -p $$ | sed 's/.*: //')" = 3 ]; then
	# shimw WFAIL FAILSPEC ARGS...: shim with refused /proc writes
	shimw() { w=$1; shift; NT_SHIM_WFAIL=$w shim "$@"; }
	shimw irq/5/smp_affinity_list:EIO - --isolate --cpu 1 -- \
		sh -c 'grep "^Cpus_allowed_list:" /proc/$$/status'
	check "--isolate --cpu 1: program runs pinned to CPU 1, switched once" \
		'[ $rc = 0 ] && grep -q "^Cpus_allowed_list:.1$" $TMP/out && [ "$(grep setattr $LOG)" = "setattr 0 8" ]'
	check "--isolate: watchdog_cpumask 0-3 -> 0,2-3, default_smp_affinity f -> d" \
		'[ "$(cat $I/proc/sys/kernel/watchdog_cpumask)" = 0,2-3 ] && [ "$(cat $I/proc/irq/default_smp_affinity)" = d ]'
	check "--isolate: IRQs 0 and 4 (0-3) and 1 (CPU 1 only) -> 0,2-3; 12 (1,3) -> 3" \
		'[ "$(irqaff 0)" = 0,2-3 ] && [ "$(irqaff 4)" = 0,2-3 ] && [ "$(irqaff 1)" = 0,2-3 ] && [ "$(irqaff 12)" = 3 ]'
	check "--isolate: IRQ 9 (not on CPU 1) not written" \
		'cmp -s $I/proc/irq/9/smp_affinity_list $I.orig/proc/irq/9/smp_affinity_list'
	check "--isolate: refused IRQ 5 warned with its number, left as it was, not fatal" \
		'grep -q "^notickctl: IRQ 5: cannot move it off CPU 1: Input/output error (per-CPU or managed interrupt); it stays on CPUs 1-2$" $TMP/err && [ "$(irqaff 5)" = 1-2 ] && [ $(wc -l < $TMP/err) = 1 ]'
	run status
	check "status after --isolate: CPU 1 not in the watchdog mask, CPU 0 is" \
		'[ $rc = 0 ] && grep -Eq "^ +1 yes( +-){6} +no +[0-9]+$" $TMP/out && grep -Eq "^ +0 yes( +-){6} +yes +[0-9]+$" $TMP/out'
	shimw irq/5/smp_affinity_list:EIO - --unisolate --cpu 1
	check "--unisolate --cpu 1: exit 0, watchdog_cpumask 0-3, default_smp_affinity f" \
		'[ $rc = 0 ] && [ "$(cat $I/proc/sys/kernel/watchdog_cpumask)" = 0-3 ] && [ "$(cat $I/proc/irq/default_smp_affinity)" = f ]'
	check "--unisolate: every movable IRQ set to the default (0-3), IRQ 9 too" \
		'[ "$(irqaff 0)" = 0-3 ] && [ "$(irqaff 1)" = 0-3 ] && [ "$(irqaff 4)" = 0-3 ] && [ "$(irqaff 9)" = 0-3 ] && [ "$(irqaff 12)" = 0-3 ]'
	check "--unisolate: refused IRQ 5 warned, not fatal" \
		'grep -q "^notickctl: IRQ 5: cannot set its affinity to CPUs 0-3: Input/output error" $TMP/err && [ "$(irqaff 5)" = 1-2 ]'
	isoroot $I
	shimw irq/5/smp_affinity_list:EIO 1:EBUSY --isolate --cpu 1 -- touch $TMP/ran
	check "--isolate, admission refused (EBUSY): exit 4, program not run" \
		'[ $rc = 4 ] && grep -q "CPU 1 is busy" $TMP/err && [ ! -e $TMP/ran ]'
	check "--isolate, admission refused: every file byte-identical again" 'same $I'
	sleep 30 &
	victim=$!
	shim 1:EBUSY --isolate --pid $victim --cpu 1
	check "--isolate --pid, admission refused: exit 4, affinity and files restored" \
		'[ $rc = 4 ] && [ "$(aff $victim)" = 3 ] && same $I'
	shim - --isolate --pid $victim --cpu 1
	check "--isolate --pid --cpu 1: thread converted, CPU 1 isolated" \
		'[ $rc = 0 ] && [ "$(aff $victim)" = 2 ] && grep -q "^pid $victim: SCHED_NOTICK on CPU 1$" $TMP/out && [ "$(irqaff 4)" = 0,2-3 ] && [ "$(irqaff 5)" = 2 ]'
	kill $victim 2> /dev/null
	wait $victim 2> /dev/null
	isoroot $I
	shimw irq/12/smp_affinity_list:EPERM - --isolate --cpu 1 -- touch $TMP/ran
	check "--isolate, EPERM on an IRQ: exit 3 'permission denied', never admitted" \
		'[ $rc = 3 ] && grep -q "^notickctl: cannot write /proc/irq/12/smp_affinity_list: permission denied (root needed)$" $TMP/err && [ ! -e $TMP/ran ] && ! grep -q setattr $LOG'
	check "--isolate, EPERM on an IRQ: earlier changes rolled back exactly" 'same $I'
	shimw kernel/watchdog_cpumask:EACCES - --isolate --cpu 1 -- touch $TMP/ran
	check "--isolate, EACCES on watchdog_cpumask: exit 3, nothing changed" \
		'[ $rc = 3 ] && grep -q "cannot write /proc/sys/kernel/watchdog_cpumask: permission denied" $TMP/err && [ ! -e $TMP/ran ] && same $I'
	shimw irq/default_smp_affinity:EIO - --isolate --cpu 1 -- touch $TMP/ran
	check "--isolate, default_smp_affinity refused (EIO): exit 1, nothing changed" \
		'[ $rc = 1 ] && grep -q "cannot write /proc/irq/default_smp_affinity: Input/output error" $TMP/err && [ ! -e $TMP/ran ] && same $I'
	shim - --isolate --cpu 1 -- $TMP/badexec
	check "--isolate, exec failure after admission: exit 126, files restored" \
		'[ $rc = 126 ] && same $I'
	shim - --isolate --report --cpu 1 -- true
	check "--isolate --report: report printed, isolation kept after the program" \
		'[ $rc = 0 ] && grep -q "report for PID" $TMP/err && [ "$(irqaff 4)" = 0,2-3 ]'
	shim 1:EBUSY --isolate --report --cpu 1 -- true
	check "--isolate --report on an isolated CPU, refused: the files stay isolated" \
		'[ $rc = 4 ] && [ "$(irqaff 4)" = 0,2-3 ] && [ "$(cat $I/proc/sys/kernel/watchdog_cpumask)" = 0,2-3 ]'
	isoroot $I
	rm "$I/proc/sys/kernel/watchdog_cpumask"
	echo 02 > "$I/proc/irq/default_smp_affinity"
	shim - --isolate --cpu 1 -- true
	check "--isolate without the lockup detector: silent; default 02 (CPU 1 only) -> 0d" \
		'[ $rc = 0 ] && [ ! -s $TMP/err ] && [ "$(cat $I/proc/irq/default_smp_affinity)" = 0d ] && [ ! -e $I/proc/sys/kernel/watchdog_cpumask ]'
	shim - --unisolate --cpu 1
	check "--unisolate without the lockup detector: default 0d -> 0f" \
		'[ $rc = 0 ] && [ ! -s $TMP/err ] && [ "$(cat $I/proc/irq/default_smp_affinity)" = 0f ] && [ "$(irqaff 1)" = 0-3 ]'
else
	for t in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22; do
		skip "isolate shim test $t" "needs shim.so, ntprobe and CPUs 0-1"
	done
fi
unset NOTICKCTL_ROOT

echo "1..$n"
[ $failed = 0 ]
