#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Host tests of the notickctl binary: usage, exit codes, error messages and
# "status" against fake /proc and /sys trees (NOTICKCTL_ROOT, which only
# the test build test/notickctl honours; the installed notickctl must
# ignore it, checked first).  Safe on
# the host: the host kernel has no SCHED_NOTICK, and every conversion
# attempted here fails and must leave the target as it was.
# With tests/shim.c preloaded as a stand-in for a kernel with the class,
# the conversion, --report and rollback paths run for real as well.
# --isolate and --unisolate only ever run against a fake tree; the shim's
# NT_SHIM_WFAIL stands in for /proc refusing writes (EIO, EPERM, EACCES).
# The tests run pinned to CPUs 0 and 1 (taskset -c 0,1), so that they see
# the same CPUs on any host with at least two; TMPDIR may have spaces.
#   cli.sh BUILDDIR TMPDIR      prints TAP (BUILDDIR has notickctl,
#                               test/notickctl, shim.so and ntprobe)
B=$1
NT=$B/test/notickctl
REL=$B/notickctl
TMP=$2
if [ "${NT_CLI_PINNED:-}" != 1 ]; then
	if ! taskset -c 0,1 true 2> /dev/null; then
		echo "Bail out! the CLI tests need CPUs 0 and 1 (taskset -c 0,1)"
		exit 1
	fi
	NT_CLI_PINNED=1 exec taskset -c 0,1 sh "$0" "$@"
fi
n=0
failed=0
OUT=$TMP/out ERR=$TMP/err LOG=$TMP/shim.log
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
check() {
	if eval "$2"; then ok "$1"; else
		notok "$1"; echo "# rc=$rc"
		sed 's/^/# err: /' "$ERR"; sed 's/^/# out: /' "$OUT"
		[ -f "$LOG" ] && sed 's/^/# log: /' "$LOG"
	fi
}

rm -rf "$TMP"
mkdir -p "$TMP"

# run ARGS...: rc, $OUT, $ERR
run() { "$NT" "$@" > "$OUT" 2> "$ERR"; rc=$?; }

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

# The plan comes first and is fixed: a check that silently did not run
# shows as a short run (tap-merge.sh, the harness).  Add a check, raise it.
echo "TAP version 13"
echo "1..137"

# --- help, version, usage errors ---
run --help
check "--help exits 0 with usage on stdout" \
	'[ $rc = 0 ] && grep -q "^Usage:" "$OUT" && [ ! -s "$ERR" ]'
check "--help shows --isolate and --unisolate" \
	'grep -q -- "--isolate" "$OUT" && grep -q -- "--unisolate \[--force\] --cpu <cpu>" "$OUT" && grep -q -- "--show <pid>" "$OUT"'
check "--help documents every exit code" \
	'(for c in 0 1 2 3 4 5 6 125 126 127; do grep -Eq "^ +$c +[a-zA-Z]" "$OUT" || exit 1; done)'
for o in r R o i; do
	run -$o 1 true
	check "chrt's -$o is not an option of notickctl: exit 125, what it was named" \
		'[ $rc = 125 ] && grep -q "invalid option -- .$o. (chrt" "$ERR"'
done
run -V
check "--version prints name and version" \
	'[ $rc = 0 ] && grep -Eq "^notickctl [0-9]+\.[0-9]+" "$OUT"'
run
check "no arguments: exit 125 (usage), 'no program given'" \
	'[ $rc = 125 ] && grep -q "^notickctl: no program given" "$ERR" && grep -q -- "--help" "$ERR"'
run --frobnicate
check "unknown option: exit 125" \
	'[ $rc = 125 ] && grep -q "unrecognized option .--frobnicate." "$ERR"'
run --cpu x true
check "bad CPU number: exit 125" '[ $rc = 125 ] && grep -q "invalid CPU number" "$ERR"'
run --pid 1 --reset 1
check "--pid with --reset: exit 125" '[ $rc = 125 ] && [ ! -s "$OUT" ]'

# --- the installed binary has no NOTICKCTL_ROOT ---
R0="$TMP/root0"
fakeroot "$R0" 0-1 0-1
NOTICKCTL_ROOT=$R0 "$REL" status > "$OUT" 2> "$ERR"
rc=$?
if [ -e /proc/sys/kernel/sched_notick_grace_us ]; then
	skip "the installed notickctl ignores NOTICKCTL_ROOT" "host kernel has SCHED_NOTICK"
else
	check "the installed notickctl ignores NOTICKCTL_ROOT (a fake tree with the class): 'not supported', exit 2" \
		'[ $rc = 2 ] && grep -q "not supported by this kernel" "$ERR" && [ ! -s "$OUT" ]'
fi
NOTICKCTL_ROOT=$R0 "$NT" status > "$OUT" 2> "$ERR"
rc=$?
check "the test build honours NOTICKCTL_ROOT: status of the fake tree, exit 0" \
	'[ $rc = 0 ] && grep -q "^grace period: 10000 us$" "$OUT"'

# --- status against fake trees ---
R="$TMP/root1"
fakeroot "$R" 0-3 0-2
notickdir "$R" 0 0 running 0 0 0
notickdir "$R" 1 4321 stopped 17 16 2
notickdir "$R" 2 0 running 5 5 0
mkdir -p "$R/proc/4321"; echo spinner > "$R/proc/4321/comm"
export NOTICKCTL_ROOT=$R
run status
check "status: exit 0" '[ $rc = 0 ]'
check "status: grace period line" 'grep -q "^grace period: 10000 us$" "$OUT"'
check "status: CPU 1 row names thread, tick state and counters" \
	'grep -Eq "^ +1 yes +stopped +4321 spinner +17 +16 +2 +- +-$" "$OUT"'
check "status: CPU 2 row without a thread" \
	'grep -Eq "^ +2 yes +running +- +- +5 +5 +0 +- +-$" "$OUT"'
check "status: offline CPU 3 listed as offline without notick state" \
	'grep -Eq "^ +3 no +- +- +- +- +- +- +- +-$" "$OUT"'
check "status: one row per possible CPU" '[ $(grep -Ec "^ +[0-9]+ (yes|no) " "$OUT") = 4 ]'
run status --json
check "status --json: CPU 1 object" \
	'[ $rc = 0 ] && grep -q "{\"cpu\": 1, \"online\": true, \"pid\": 4321, \"command\": \"spinner\", \"tick\": \"stopped\", \"tick_stops\": 17, \"tick_restarts\": 16, \"yields\": 2, \"watchdog\": null, \"irqs\": null}" "$OUT"'
check "status --json: schema version first, grace and offline CPU" \
	'[ "$(sed -n 2p "$OUT")" = "  \"schema_version\": 2," ] && grep -q "\"grace_us\": 10000," "$OUT" && grep -q "{\"cpu\": 3, \"online\": false, \"pid\": null, \"command\": null, \"tick\": null" "$OUT"'
check "status --json: no thread is null as in text '-' (CPU 2: pid 0 in sysfs)" \
	'grep -q "{\"cpu\": 2, \"online\": true, \"pid\": null, \"command\": null, \"tick\": \"running\"" "$OUT"'
run status --noheadings
check "status --noheadings: the four rows only" \
	'[ $rc = 0 ] && [ $(wc -l < "$OUT") = 4 ] && [ $(grep -Ec "^ +[0-9]+ (yes|no) " "$OUT") = 4 ]'
echo -1 > "$R/proc/sys/kernel/sched_notick_grace_us"
run status
check "status: grace -1 shown as never yield" 'grep -q "never yield" "$OUT"'

R2="$TMP/root2"
fakeroot "$R2" 0-1 0-1 nosysctl
NOTICKCTL_ROOT=$R2
run status
check "status on a kernel without SCHED_NOTICK: exit 2" \
	'[ $rc = 2 ] && grep -q "^notickctl: SCHED_NOTICK is not supported by this kernel (Linux .*): it needs Linux 6.1 with the notick project.s sched-notick series and CONFIG_SCHED_NOTICK=y" "$ERR" && [ ! -s "$OUT" ]'

# --- CPU checks (fake tree: possible 0-3, online 0-2) ---
NOTICKCTL_ROOT=$R
run --cpu 9 -- true
check "running a program, CPU out of range: exit 125 (notickctl's own failure)" \
	'[ $rc = 125 ] && grep -q "CPU 9 is out of range (possible CPUs: 0-3)" "$ERR"'
run --cpu 3 -- true
check "offline CPU: exit 125" \
	'[ $rc = 125 ] && grep -q "CPU 3 is offline (online CPUs: 0-2)" "$ERR"'
run --cpu 0 -- true
check "CPU 0: exit 125" '[ $rc = 125 ] && grep -q "CPU 0 is the boot and timekeeping CPU" "$ERR"'
run --report --cpu 9 -- true
check "--report with CPU out of range: exit 125, no report" \
	'[ $rc = 125 ] && ! grep -q "report for" "$ERR"'

# --- program lookup, before anything is changed ---
run --cpu 1 -- /nonexistent/prog
check "program not found (path): exit 127" \
	'[ $rc = 127 ] && grep -q "/nonexistent/prog: program not found" "$ERR"'
PATH=/nonexistent-dir run --cpu 1 -- no-such-program-xyz
check "program not found (PATH search): exit 127" \
	'[ $rc = 127 ] && grep -q "no-such-program-xyz: program not found" "$ERR"'
printf '#!/bin/sh\nexit 0\n' > "$TMP/noexec"; chmod 644 "$TMP/noexec"
run --cpu 1 -- "$TMP/noexec"
check "program not executable: exit 126" \
	'[ $rc = 126 ] && grep -q "cannot execute: Permission denied" "$ERR"'
run --cpu 1 --report -- /
check "directory as program with --report: exit 126" '[ $rc = 126 ]'
run --pid $$ --cpu 9
check "--pid, CPU out of range: exit 5 (no program: the detailed code)" \
	'[ $rc = 5 ] && grep -q "CPU 9 is out of range (possible CPUs: 0-3)" "$ERR"'

# --- affinity: more than one allowed CPU and no --cpu ---
run -- true
check "two allowed CPUs without --cpu: exit 125 names the CPUs" \
	'[ $rc = 125 ] && grep -q "may run on CPUs 0-1: SCHED_NOTICK needs exactly one" "$ERR"'
unset NOTICKCTL_ROOT

# --- the real host kernel: no SCHED_NOTICK, nothing may change ---
if [ -e /proc/sys/kernel/sched_notick_grace_us ]; then
	# As many as the checks of the other branch, the plan being fixed.
	for d in "host kernel without SCHED_NOTICK: exit 125" \
		"--report on a kernel without SCHED_NOTICK" \
		"failed --pid --cpu 1: affinity restored" "failed --pid: policy unchanged" \
		"failed --all-tasks --pid: affinity restored" \
		"--reset of a thread that is not SCHED_NOTICK" \
		"no class: nothing pinned nor switched" "no class: the message" \
		"--show on a SCHED_OTHER thread" "--json --show on a FIFO 7 thread"; do
		skip "$d" "host kernel has SCHED_NOTICK"
	done
else
	run --cpu 1 -- true
	check "host kernel without SCHED_NOTICK: exit 125" \
		'[ $rc = 125 ] && grep -q "SCHED_NOTICK is not supported by this kernel" "$ERR"'
	run --report --cpu 1 -- true
	check "--report on a kernel without SCHED_NOTICK: exit 125, program not run" \
		'[ $rc = 125 ] && ! grep -q "report for" "$ERR"'
	sleep 30 &
	victim=$!
	before=$(taskset -p $victim | sed 's/.*: //')
	before_list=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$victim/status)
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
		'[ $rc = 0 ] && grep -q "pid $victim: not SCHED_NOTICK, unchanged" "$OUT"'
	# The class is checked before anything is changed: the shim logs
	# every sched_setaffinity() and sched_setattr() (none may come).
	rm -f "$TMP/pins"
	for args in "--pid $victim --cpu 1" "--all-tasks --pid $victim --cpu 1" \
		    "--cpu 1 -- true" "--report --cpu 1 -- true"; do
		# shellcheck disable=SC2086
		LD_PRELOAD=$B/shim.so NT_SHIM_NOCLASS=1 NT_SHIM_LOGPIN=1 \
			NT_SHIM_LOG="$TMP/pins" "$REL" $args > "$OUT" 2> "$ERR"
		echo "rc=$?" >> "$TMP/pins"
	done
	check "no class: --pid, --all-tasks, a program and --report never pin nor switch (exits 2 2 125 125)" \
		'[ "$(tr "\n" " " < "$TMP/pins")" = "rc=2 rc=2 rc=125 rc=125 " ]'
	check "no class: the message names the kernel needed" \
		'grep -q "not supported by this kernel (Linux $(uname -r)): it needs Linux 6.1 with the notick project.s sched-notick series and CONFIG_SCHED_NOTICK=y, such as the package .make kernel-deb. builds" "$ERR"'
	# --show works on any kernel and changes nothing.
	run --show $victim
	check "--show on a SCHED_OTHER thread: chrt -p's lines, exit 0" \
		'[ $rc = 0 ] && [ "$(cat "$OUT")" = "pid $victim'"'"'s current scheduling policy: SCHED_OTHER
pid $victim'"'"'s current nice value: 0
pid $victim'"'"'s current affinity list: $before_list" ]'
	chrt -f -p 7 $victim 2> /dev/null
	run --json --show $victim
	check "--json --show on a FIFO 7 thread: policy, priority, affinity, command" \
		'[ $rc = 0 ] && grep -q "{\"pid\": $victim, \"command\": \"sleep\", \"policy\": \"SCHED_FIFO\", \"policy_number\": 1, \"priority\": 7, \"nice\": 0, \"affinity\": \"$before_list\", \"notick_cpu\": null, \"tick\": null}" "$OUT"'
	kill $victim 2>/dev/null
	wait $victim 2>/dev/null
fi

# --- no such process ---
run --show 2147483646
check "--show of a missing process: exit 6" \
	'[ $rc = 6 ] && grep -q "PID 2147483646: no such process" "$ERR" && [ ! -s "$OUT" ]'
"$B/ntprobe" threads "$TMP/show-tids" - - &
sp=$!
i=0; while [ ! -s "$TMP/show-tids" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
read st1 st2 < "$TMP/show-tids"
run --all-tasks --show $st1
check "--all-tasks --show: a policy line for each of the 2 threads ($st1 $st2)" \
	'[ $rc = 0 ] && [ $(grep -c "current scheduling policy: SCHED_OTHER" "$OUT") = 2 ] && grep -q "^pid $st2.s current affinity list" "$OUT"'
kill $sp 2> /dev/null; wait $sp 2> /dev/null
LD_PRELOAD=$B/shim.so "$NT" --pid 2147483646 > "$OUT" 2> "$ERR"
rc=$?
check "--pid of a missing process: exit 6" \
	'[ $rc = 6 ] && grep -q "PID 2147483646: no such process" "$ERR"'
run --all-tasks --pid 2147483646
check "--all-tasks --pid of a missing process: exit 6" '[ $rc = 6 ]'
run --reset 2147483646
check "--reset of a missing process: exit 6" '[ $rc = 6 ]'

# --- a stand-in kernel: the shim answers sched_setattr() ---
SHIM=$B/shim.so
PROBE=$B/ntprobe
LOG="$TMP/shim.log"
# shim FAILSPEC ARGS...: run notickctl with the shim ("-": never fail);
# $ROOT, when set, is its NOTICKCTL_ROOT
shim() {
	fs=$1
	shift
	rm -f "$LOG"
	[ "$fs" = - ] && fs=
	LD_PRELOAD=$SHIM NT_SHIM_LOG="$LOG" NT_SHIM_FAIL=$fs NT_SHIM_WFAIL=$W \
		NOTICKCTL_ROOT=${ROOT:-$NOTICKCTL_ROOT} "$NT" "$@" \
		> "$OUT" 2> "$ERR"
	rc=$?
	touch "$LOG"
}
aff() { taskset -p "$1" | sed 's/.*: //'; }
# shim_bg SLOWSPEC FAILSPEC ARGS...: start notickctl with the shim in the
# background, with SIGINT, SIGQUIT and SIGHUP at their default action (a
# shell ignores the first two in its background jobs, nohup the third);
# sets bg
shim_bg() {
	sl=$1 fs=$2
	shift 2
	rm -f "$LOG"
	[ "$fs" = - ] && fs=
	LD_PRELOAD=$SHIM NT_SHIM_LOG="$LOG" NT_SHIM_FAIL=$fs NT_SHIM_SLOW=$sl \
		"$PROBE" dfl "$NT" "$@" > "$OUT" 2> "$ERR" &
	bg=$!
}
# wait_log PATTERN [COUNT]: poll up to 10 s for COUNT (1) lines of the
# shim's log matching PATTERN (a setup step, not a check)
wait_log() {
	i=0
	while [ "$(cat "$LOG" 2> /dev/null | grep -c -- "$1")" -lt "${2:-1}" ] &&
	      [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
}
# finish PID: wait up to 10 s for PID to end, its status in rc; a PID
# still running then is killed (rc=hung)
finish() {
	i=0
	while kill -0 "$1" 2> /dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	if kill -0 "$1" 2> /dev/null; then
		kill -KILL "$1" 2> /dev/null
		wait "$1" 2> /dev/null
		rc=hung
	else
		wait "$1"
		rc=$?
	fi
	touch "$LOG"
}
# gone PID: PID is no longer running within 2 s
gone() {
	i=0
	while kill -0 "$1" 2> /dev/null && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
	! kill -0 "$1" 2> /dev/null
}
# start_threads SPEC...: an ntprobe with one thread per SPEC; sets tp, t1, t2
start_threads() {
	rm -f "$TMP/tids"
	"$PROBE" threads "$TMP/tids" "$@" &
	tp=$!
	i=0
	while [ ! -s "$TMP/tids" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	read t1 t2 < "$TMP/tids"
}

shim - --report --json -O "$TMP/rep.json" --cpu 1 -- \
	sh -c 'grep "^Cpus_allowed_list:" /proc/$$/status; exit 3'
rpid=$(sed -n 's/^  "pid": \([0-9]*\),$/\1/p' "$TMP/rep.json")
check "shim --report: child pinned to CPU 1, its exit status (3) returned" \
	'[ $rc = 3 ] && grep -q "^Cpus_allowed_list:.1$" "$OUT"'
check "shim --report: the child (not notickctl) was switched, once" \
	'[ -n "$rpid" ] && [ "$(cat "$LOG")" = "setattr $rpid 8" ]'
check "shim --report --json: schema version, cpu, exit status, LOC and every source" \
	'[ "$(sed -n 2p "$TMP/rep.json")" = "  \"schema_version\": 2," ] && grep -q "^  \"cpu\": 1,$" "$TMP/rep.json" && grep -q "^  \"exit_status\": 3,$" "$TMP/rep.json" && grep -q "^  \"local_timer_interrupts\": [0-9]*,$" "$TMP/rep.json" && grep -q "{\"name\": \"LOC\", \"description\": \"Local timer interrupts\", \"count\": [0-9]*}" "$TMP/rep.json" && grep -q "{\"name\": \"TIMER\", \"count\": [0-9]*}" "$TMP/rep.json"'
ROOT=$R0; shim - --report --noise --json -O "$TMP/rep3.json" --cpu 1 -- \
	sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done' "$(printf 'x\377y')"; ROOT=
check "shim --report --json: argv with a non-UTF-8 byte escaped as \\ufffd" \
	'[ $rc = 0 ] && grep -q "^  \"argv\": \[\"sh\", \"-c\", \"i=0; .*\", \"x\\\\ufffdy\"\],$" "$TMP/rep3.json"'
cpu=$(sed -n 's/^  "cpu_percent": \([0-9.]*\),$/\1/p' "$TMP/rep3.json")
want=$(awk -F'[:,]' '/"elapsed_ns"/ { e = $2 } /"user_us"/ { u = $2 } /"system_us"/ { s = $2 }
	END { printf "%.1f", (u + s) * 100000 / e }' "$TMP/rep3.json")
check "shim --report --json: cpu_percent ($cpu) is (user_us + system_us) / elapsed ($want)" \
	'[ -n "$cpu" ] && [ "$cpu" = "$want" ]'
check "shim --report --noise --json without tracefs: noise null, and why" \
	'grep -q "^  \"noise\": null,$" "$TMP/rep3.json" && grep -q "^  \"noise_unavailable\": \"no tracefs (mount -t tracefs nodev /sys/kernel/tracing)\",$" "$TMP/rep3.json"'
check "shim --report --json without --noise: noise null, not asked for" \
	'grep -q "^  \"noise\": null,$" "$TMP/rep.json" && grep -q "^  \"noise_unavailable\": \"not asked for (--noise)\",$" "$TMP/rep.json"'
shim - --report --json -O "$TMP/rep2.json" --cpu 1 -- \
	sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do sleep 0.01; done'
vcs=$(sed -n 's/^  "voluntary_ctxt_switches": \([0-9]*\),$/\1/p' "$TMP/rep2.json")
check "shim --report: a shell that waits 10 times has >= 10 voluntary switches ($vcs)" \
	'[ $rc = 0 ] && [ -n "$vcs" ] && [ "$vcs" -ge 10 ]'
shim - --report --cpu 1 -- sh -c 'kill -TERM $$'
check "shim --report: killed by SIGTERM gives 143, text report on stderr" \
	'[ $rc = 143 ] && grep -Eq "^  killed by signal +15 " "$ERR" && grep -Eq "^  local timer interrupts \(LOC\) [0-9]+$" "$ERR"'
shim - --report --cpu 1 -- sh -c 'exit 4'
check "shim --report: a program's status 4 passes through as 4" '[ $rc = 4 ]'
shim 1:EBUSY --report -O "$TMP/never.json" --cpu 1 -- touch "$TMP/ran"
check "shim --report, CPU busy: exit 125, program not run, -O file not created" \
	'[ $rc = 125 ] && grep -q "CPU 1 is busy" "$ERR" && [ ! -e "$TMP/ran" ] && [ ! -e "$TMP/never.json" ] && ! grep -q "report for" "$ERR"'
shim - --cpu 1 -- sh -c 'grep "^Cpus_allowed_list:" /proc/$$/status'
check "shim exec: notickctl switches itself on CPU 1 and execs" \
	'[ $rc = 0 ] && grep -q "^Cpus_allowed_list:.1$" "$OUT" && [ "$(cat "$LOG")" = "setattr 0 8" ]'
shim - --cpu 1 -- sh -c 'exit 5'
check "shim exec: a program's status 5 passes through as 5" '[ $rc = 5 ]'
shim 1:EBUSY --cpu 1 -- touch "$TMP/ran"
check "shim exec, CPU busy: exit 125 (notickctl's), program not run" \
	'[ $rc = 125 ] && grep -q "CPU 1 is busy" "$ERR" && [ ! -e "$TMP/ran" ]'
printf 'echo "run by sh: $1"\n' > "$TMP/noshebang"
chmod 755 "$TMP/noshebang"
shim - --cpu 1 -- "$TMP/noshebang" arg1
check "shim exec, a script without #! (ENOEXEC): run by /bin/sh, as execvp does" \
	'[ $rc = 0 ] && [ "$(cat "$OUT")" = "run by sh: arg1" ]'
shim - --report --cpu 1 -- "$TMP/noshebang" arg2
check "shim --report, a script without #!: run by /bin/sh" \
	'[ $rc = 0 ] && [ "$(cat "$OUT")" = "run by sh: arg2" ] && grep -q "report for" "$ERR"'
# ETXTBSY: an executable open for writing cannot be executed.
cp /bin/true "$TMP/busyexec"
exec 7>> "$TMP/busyexec"
shim - --cpu 1 -- "$TMP/busyexec"
check "shim exec failure after the switch (ETXTBSY): exit 126, policy restored" \
	'[ $rc = 126 ] && grep -q "Text file busy" "$ERR" && [ "$(cat "$LOG" | tr "\n" " ")" = "setattr 0 8 setattr 0 0 " ]'
shim - --report --cpu 1 -- "$TMP/busyexec"
check "shim --report, exec failure (ETXTBSY): exit 126, no report" \
	'[ $rc = 126 ] && ! grep -q "report for" "$ERR"'
exec 7>&-

# --report passes termination signals on and still reports.
# report_bg SCRIPT: notickctl --report --cpu 1 in the background ($bg) runs
# sh -c SCRIPT, which writes its pid to $TMP/ppid; wait for that pid.
report_bg() {
	shim_bg - - --report --cpu 1 -- sh -c "$1" sh "$TMP/ppid"
	i=0; while [ ! -s "$TMP/ppid" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
}
report_bg 'echo $$ > "$1"; exec sleep 30'
kill -TERM $bg
finish $bg
check "--report, SIGTERM to notickctl: passed on, program killed by 15, report, exit 143" \
	'[ $rc = 143 ] && grep -Eq "^  killed by signal +15 " "$ERR" && gone "$(cat "$TMP/ppid")"'
rm -f "$TMP/ppid"
report_bg 'echo $$ > "$1"; exec sleep 30'
kill -HUP $bg
finish $bg
check "--report, SIGHUP: passed on, program killed by 1, report, exit 129" \
	'[ $rc = 129 ] && grep -Eq "^  killed by signal +1 " "$ERR" && gone "$(cat "$TMP/ppid")"'
rm -f "$TMP/ppid"
report_bg 'trap "exit 7" INT; echo $$ > "$1"; while :; do sleep 0.1; done'
kill -INT $bg
finish $bg
check "--report, SIGINT: passed on, the program's handler exits 7, report, exit 7" \
	'[ $rc = 7 ] && grep -Eq "^  exit status +7$" "$ERR"'
rm -f "$TMP/ppid"
report_bg 'echo $$ > "$1"; exec sleep 30'
kill -KILL $bg
finish $bg
pp=$(cat "$TMP/ppid")
check "--report, notickctl killed by SIGKILL: its SCHED_NOTICK child does not run on" \
	'[ $rc = 137 ] && [ -n "$pp" ] && gone "$pp"'
kill -KILL "$pp" 2> /dev/null

sleep 30 &
victim=$!
ROOT=$R; shim 1:EBUSY --pid $victim --cpu 1; ROOT=
check "shim EBUSY: exit 4 names the owner from sysfs, affinity restored" \
	'[ $rc = 4 ] && grep -q "CPU 1 is busy: PID 4321 (spinner) already runs SCHED_NOTICK there" "$ERR" && [ "$(aff $victim)" = 3 ]'
shim 1:EPERM --pid $victim --cpu 1
check "shim EPERM: exit 3 'permission denied', affinity restored" \
	'[ $rc = 3 ] && grep -q "permission denied (CAP_SYS_NICE needed)" "$ERR" && [ "$(aff $victim)" = 3 ]'
echo 10000 > "$R/proc/sys/kernel/sched_notick_grace_us"
ROOT=$R; shim 1:EINVAL --pid $victim --cpu 1; ROOT=
check "shim EINVAL on a kernel with the class: exit 5 'kernel refused'" \
	'[ $rc = 5 ] && grep -q "kernel refused SCHED_NOTICK for PID $victim on CPU 1" "$ERR" && [ "$(aff $victim)" = 3 ]'
ROOT=$R2; shim 1:EINVAL --pid $victim --cpu 1; ROOT=
check "shim EINVAL without the grace sysctl: exit 2 'not supported'" \
	'[ $rc = 2 ] && grep -q "not supported by this kernel" "$ERR" && [ "$(aff $victim)" = 3 ]'
shim - --pid $victim --cpu 1
check "shim --pid --cpu 1: pinned, switched, reported" \
	'[ $rc = 0 ] && [ "$(aff $victim)" = 2 ] && [ "$(cat "$LOG")" = "setattr $victim 8" ] && grep -q "^pid $victim: SCHED_NOTICK on CPU 1$" "$OUT"'
kill $victim 2> /dev/null
wait $victim 2> /dev/null

start_threads - -
shim 2:EBUSY --all-tasks --cpu 1 --pid $tp
check "shim --all-tasks, second thread busy: exit 4, first thread undone" \
	'[ $rc = 4 ] && [ "$(cat "$LOG" | tr "\n" " ")" = "setattr $t1 8 setattr $t2 8 setattr $t1 0 " ] && grep -q "PID $t1 restored" "$ERR"'
check "shim --all-tasks rollback: both threads' affinity restored" \
	'[ "$("$PROBE" affinity $t1)" = 0,1 ] && [ "$("$PROBE" affinity $t2)" = 0,1 ]'
run --all-tasks --reset $tp
check "--all-tasks --reset, no thread SCHED_NOTICK: exit 0, says so" \
	'[ $rc = 0 ] && [ "$(cat "$OUT")" = "pid $tp: no thread was SCHED_NOTICK, unchanged" ]'
shim_bg setattr2:3000 - --all-tasks --cpu 1 --pid $tp
wait_log "^slow setattr $t2$"
kill -TERM $bg
finish $bg
check "SIGTERM while --all-tasks converts the second thread: dies by it (143), both threads undone" \
	'[ $rc = 143 ] && [ "$(grep ^setattr "$LOG" | tr "\n" " ")" = "setattr $t1 8 setattr $t2 8 setattr $t2 0 setattr $t1 0 " ] && [ "$("$PROBE" affinity $t1)" = 0,1 ] && [ "$("$PROBE" affinity $t2)" = 0,1 ] && [ ! -s "$OUT" ]'
kill $tp 2> /dev/null
wait $tp 2> /dev/null

start_threads 1 -
shim - --all-tasks --pid $tp
check "shim --all-tasks, second thread on CPUs 0-1: exit 1, first thread undone" \
	'[ $rc = 1 ] && [ "$(cat "$LOG" | tr "\n" " ")" = "setattr $t1 8 setattr $t1 0 " ] && grep -q "PID $t2 may run on CPUs 0-1" "$ERR" && [ "$("$PROBE" affinity $t1)" = 1 ]'
kill $tp 2> /dev/null
wait $tp 2> /dev/null


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
# same DIR: the tree is byte-identical to its pristine copy (the --isolate
# record under run/ apart)
same() { diff -r -x run "$1" "$1.orig" > "$TMP/diff" 2>&1; }
irqaff() { cat "$I/proc/irq/$1/smp_affinity_list"; }
I="$TMP/iso"
isoroot "$I"
export NOTICKCTL_ROOT=$I
run status
check "status: WATCHDOG and IRQS columns (IRQs by effective affinity)" \
	'[ $rc = 0 ] && grep -Eq " WATCHDOG +IRQS$" "$OUT" && grep -Eq "^ +0 yes( +-){6} +yes +1$" "$OUT" && grep -Eq "^ +1 yes( +-){6} +yes +3$" "$OUT" && grep -Eq "^ +3 yes( +-){6} +yes +1$" "$OUT"'
run status --json
check "status --json: watchdog and irqs of each CPU" \
	'[ $rc = 0 ] && grep -q "\"cpu\": 1, .*\"yields\": null, \"watchdog\": true, \"irqs\": 3}" "$OUT" && grep -q "\"cpu\": 2, .*\"watchdog\": true, \"irqs\": 1}" "$OUT"'
run --unisolate
check "--unisolate without --cpu: exit 125" \
	'[ $rc = 125 ] && grep -q "^notickctl: --unisolate needs --cpu$" "$ERR" && same "$I"'
run --isolate --all-tasks --cpu 1 --pid $$
check "--isolate --all-tasks: exit 125, nothing changed" \
	'[ $rc = 125 ] && grep -q "not with --all-tasks" "$ERR" && same "$I"'
run --isolate --reset $$
check "--isolate --reset: exit 125" '[ $rc = 125 ] && same "$I"'
run --isolate --cpu 0 -- true
check "--isolate --cpu 0: exit 125, nothing changed" \
	'[ $rc = 125 ] && grep -q "CPU 0 is the boot and timekeeping CPU" "$ERR" && same "$I"'
run --isolate --cpu 9 -- true
check "--isolate --cpu 9 (out of range): exit 125, nothing changed" \
	'[ $rc = 125 ] && same "$I"'
run --isolate --cpu 1 -- /nonexistent/prog
check "--isolate with a missing program: exit 127, nothing changed" \
	'[ $rc = 127 ] && same "$I"'
run --unisolate --cpu 9
check "--unisolate --cpu 9: exit 5 'out of range', nothing changed" \
	'[ $rc = 5 ] && grep -q "CPU 9 is out of range (possible CPUs: 0-3)" "$ERR" && same "$I"'
rm "$I/proc/sys/kernel/sched_notick_grace_us"
run --isolate --cpu 1 -- true
check "--isolate on a kernel without SCHED_NOTICK: exit 125, nothing changed" \
	'[ $rc = 125 ] && grep -q "not supported by this kernel" "$ERR" && ! grep -q IRQ "$ERR"'
echo 10000 > "$I/proc/sys/kernel/sched_notick_grace_us"
check "--isolate on a kernel without SCHED_NOTICK: tree unchanged" 'same "$I"'
echo 'garbage' > "$I/proc/sys/kernel/watchdog_cpumask"
cp "$I/proc/sys/kernel/watchdog_cpumask" "$I.orig/proc/sys/kernel/"
run --isolate --cpu 1 -- true
check "--isolate with an unparsable watchdog_cpumask: exit 125, nothing changed" \
	'[ $rc = 125 ] && grep -q "cannot parse /proc/sys/kernel/watchdog_cpumask: .garbage." "$ERR" && same "$I"'
isoroot "$I"

# shimw WFAIL FAILSPEC ARGS...: shim with refused /proc writes
# (no VAR=value before a function call: dash keeps the value afterwards)
shimw() { W=$1; shift; shim "$@"; W=; }
REC=$I/run/notickctl/cpu1
shimw irq/5/smp_affinity_list:EIO - --isolate --cpu 1 -- \
	sh -c 'grep "^Cpus_allowed_list:" /proc/$$/status'
check "--isolate --cpu 1: program runs pinned to CPU 1, switched once" \
	'[ $rc = 0 ] && grep -q "^Cpus_allowed_list:.1$" "$OUT" && [ "$(grep setattr "$LOG")" = "setattr 0 8" ]'
check "--isolate: watchdog_cpumask 0-3 -> 0,2-3, default_smp_affinity f -> d" \
	'[ "$(cat "$I/proc/sys/kernel/watchdog_cpumask")" = 0,2-3 ] && [ "$(cat "$I/proc/irq/default_smp_affinity")" = d ]'
check "--isolate: IRQs 0 and 4 (0-3) and 1 (CPU 1 only) -> 0,2-3; 12 (1,3) -> 3" \
	'[ "$(irqaff 0)" = 0,2-3 ] && [ "$(irqaff 4)" = 0,2-3 ] && [ "$(irqaff 1)" = 0,2-3 ] && [ "$(irqaff 12)" = 3 ]'
check "--isolate: IRQ 9 (not on CPU 1) not written" \
	'cmp -s "$I/proc/irq/9/smp_affinity_list" "$I.orig/proc/irq/9/smp_affinity_list"'
check "--isolate: refused IRQ 5 warned with its number, left as it was, not fatal" \
	'grep -q "^notickctl: IRQ 5: cannot move it off CPU 1: Input/output error (per-CPU or managed interrupt); it stays on CPUs 1-2$" "$ERR" && [ "$(irqaff 5)" = 1-2 ] && [ $(wc -l < "$ERR") = 1 ]'
check "--isolate: the changes are recorded in /run/notickctl/cpu1 (6 files)" \
	'[ "$(head -n 2 "$REC" | tr "\n" " ")" = "notickctl isolate record 1 cpu 1 " ] && [ $(wc -l < "$REC") = 8 ] && grep -q "^/proc/irq/12/smp_affinity_list	1,3\\\\n	3\\\\n$" "$REC"'
run status
check "status after --isolate: CPU 1 not in the watchdog mask, CPU 0 is" \
	'[ $rc = 0 ] && grep -Eq "^ +1 yes( +-){6} +no +[0-9]+$" "$OUT" && grep -Eq "^ +0 yes( +-){6} +yes +[0-9]+$" "$OUT"'
shimw irq/5/smp_affinity_list:EIO - --unisolate --cpu 1
check "--unisolate --cpu 1: exit 0, every file as before --isolate, byte for byte" \
	'[ $rc = 0 ] && [ ! -s "$ERR" ] && same "$I"'
check "--unisolate: hand-tuned IRQs kept: 9 still 2-3, 12 back to 1,3 (not the default)" \
	'[ "$(irqaff 9)" = 2-3 ] && [ "$(irqaff 12)" = 1,3 ]'
check "--unisolate: the record is removed" '[ ! -e "$REC" ]'

# 6.12 answers EPERM where 6.1 answered EIO for an interrupt whose
# affinity user space may not set: a refused IRQ still, not "root needed".
isoroot "$I"
shimw irq/5/smp_affinity_list:EPERM - --isolate --cpu 1 -- true
check "--isolate, IRQ 5 refused with EPERM (6.12): warned as refused, left as it was, exit 0" \
	'[ $rc = 0 ] && grep -q "^notickctl: IRQ 5: cannot move it off CPU 1: Operation not permitted (per-CPU or managed interrupt); it stays on CPUs 1-2$" "$ERR" && [ "$(irqaff 5)" = 1-2 ] && [ "$(irqaff 4)" = 0,2-3 ]'
shim - --unisolate --cpu 1

isoroot "$I"
shim - --isolate --cpu 1 -- true
echo 2 > "$I/proc/irq/4/smp_affinity_list"
echo 3 > "$I/proc/irq/1/smp_affinity_list"
echo 0,2 > "$I/proc/sys/kernel/watchdog_cpumask"
shim - --unisolate --cpu 1
check "--unisolate after a tuner moved IRQ 4 (0-3 -> 0,2-3) to 2: only CPU 1 given back (1-2), said" \
	'[ $rc = 0 ] && [ "$(irqaff 4)" = 1-2 ] && grep -q "^notickctl: /proc/irq/4/smp_affinity_list changed since --isolate (now 2): CPU 1 given back (1-2)$" "$ERR"'
check "--unisolate after a tuner moved IRQ 1 (1 -> 0,2-3) to 3: left on 3, warned; IRQ 0 and 12 restored" \
	'[ "$(irqaff 1)" = 3 ] && grep -q "^notickctl: /proc/irq/1/smp_affinity_list changed since --isolate (now 3, --isolate wrote 0,2-3): left as it is$" "$ERR" && [ "$(irqaff 0)" = 0-3 ] && [ "$(irqaff 12)" = 1,3 ]'
check "--unisolate after CPU 3 also left watchdog_cpumask (0,2): only CPU 1 given back (0-2)" \
	'[ "$(cat "$I/proc/sys/kernel/watchdog_cpumask")" = 0-2 ]'

isoroot "$I"
shim - --isolate --cpu 1 -- true
rm "$REC"
cp -a "$I" "$I.isolated"
shim - --unisolate --cpu 1
check "--unisolate without a record: exit 1, nothing changed, --force named" \
	'[ $rc = 1 ] && grep -q "^notickctl: no record of --isolate for CPU 1 (/run/notickctl/cpu1): nothing changed; --force puts CPU 1 back" "$ERR" && diff -r "$I" "$I.isolated" > /dev/null'
rm -rf "$I.isolated"
shim - --unisolate --force --cpu 1
check "--unisolate --force without a record: watchdog and default mask get CPU 1 back, warned" \
	'[ $rc = 0 ] && grep -q "^notickctl: no record of --isolate for CPU 1 (/run/notickctl/cpu1), --force: putting it back into" "$ERR" && [ "$(cat "$I/proc/sys/kernel/watchdog_cpumask")" = 0-3 ] && [ "$(cat "$I/proc/irq/default_smp_affinity")" = f ]'
check "--unisolate --force without a record: every IRQ left as it is" \
	'[ "$(irqaff 0)" = 0,2-3 ] && [ "$(irqaff 4)" = 0,2-3 ] && [ "$(irqaff 12)" = 3 ] && [ "$(irqaff 9)" = 2-3 ]'

isoroot "$I"
shim - --isolate --cpu 1 -- true
shimw irq/12/smp_affinity_list:EPERM - --unisolate --cpu 1
check "--unisolate, EPERM on a file: exit 3, the record kept for another try" \
	'[ $rc = 3 ] && grep -q "permission denied (root needed)" "$ERR" && [ -s "$REC" ]'
shim - --unisolate --cpu 1
check "--unisolate again: the rest restored, byte for byte" '[ $rc = 0 ] && same "$I" && [ ! -e "$REC" ]'

isoroot "$I"
shimw irq/5/smp_affinity_list:EIO 1:EBUSY --isolate --cpu 1 -- touch "$TMP/ran"
check "--isolate, admission refused (EBUSY): exit 125, program not run" \
	'[ $rc = 125 ] && grep -q "CPU 1 is busy" "$ERR" && [ ! -e "$TMP/ran" ]'
check "--isolate, admission refused: every file byte-identical again, no record" \
	'same "$I" && [ ! -e "$REC" ]'
sleep 30 &
victim=$!
shim 1:EBUSY --isolate --pid $victim --cpu 1
check "--isolate --pid, admission refused: exit 4, affinity and files restored" \
	'[ $rc = 4 ] && [ "$(aff $victim)" = 3 ] && same "$I" && [ ! -e "$REC" ]'
shim - --isolate --pid $victim --cpu 1
check "--isolate --pid --cpu 1: thread converted, CPU 1 isolated and recorded" \
	'[ $rc = 0 ] && [ "$(aff $victim)" = 2 ] && grep -q "^pid $victim: SCHED_NOTICK on CPU 1$" "$OUT" && [ "$(irqaff 4)" = 0,2-3 ] && [ "$(irqaff 5)" = 2 ] && [ -s "$REC" ]'
kill $victim 2> /dev/null
wait $victim 2> /dev/null
isoroot "$I"
# Without privilege a write is refused with EACCES (an EPERM from an IRQ's
# own file is the kernel refusing that IRQ, above)
shimw irq/12/smp_affinity_list:EACCES - --isolate --cpu 1 -- touch "$TMP/ran"
check "--isolate, EACCES on an IRQ: exit 125 'permission denied', never admitted" \
	'[ $rc = 125 ] && grep -q "^notickctl: cannot write /proc/irq/12/smp_affinity_list: permission denied (root needed)$" "$ERR" && [ ! -e "$TMP/ran" ] && ! grep -q setattr "$LOG"'
check "--isolate, EACCES on an IRQ: earlier changes rolled back exactly" 'same "$I"'
shimw kernel/watchdog_cpumask:EACCES - --isolate --cpu 1 -- touch "$TMP/ran"
check "--isolate, EACCES on watchdog_cpumask: exit 125, nothing changed" \
	'[ $rc = 125 ] && grep -q "cannot write /proc/sys/kernel/watchdog_cpumask: permission denied" "$ERR" && [ ! -e "$TMP/ran" ] && same "$I"'
shimw irq/default_smp_affinity:EIO - --isolate --cpu 1 -- touch "$TMP/ran"
check "--isolate, default_smp_affinity refused (EIO): exit 125, nothing changed" \
	'[ $rc = 125 ] && grep -q "cannot write /proc/irq/default_smp_affinity: Input/output error" "$ERR" && [ ! -e "$TMP/ran" ] && same "$I"'
rm -f "$LOG"
LD_PRELOAD=$SHIM NT_SHIM_LOG="$LOG" NT_SHIM_NOMEM=1 "$NT" --isolate --cpu 1 -- touch "$TMP/ran" > "$OUT" 2> "$ERR"
rc=$?
check "--isolate, out of memory after the first write: exit 125, every file restored" \
	'[ $rc = 125 ] && grep -qi "cannot allocate memory" "$ERR" && [ ! -e "$TMP/ran" ] && same "$I" && [ ! -e "$REC" ]'
exec 7>> "$TMP/busyexec"
shim - --isolate --cpu 1 -- "$TMP/busyexec"
exec 7>&-
check "--isolate, exec failure after admission: exit 126, files restored, no record" \
	'[ $rc = 126 ] && same "$I" && [ ! -e "$REC" ]'

# Signals in the middle of a change: it is undone, then notickctl dies by
# the signal.
shim_bg irq/4/smp_affinity_list:3000 - --isolate --cpu 1 -- touch "$TMP/ran"
wait_log "^slow .*/irq/4/smp_affinity_list$"
kill -INT $bg
finish $bg
check "SIGINT while --isolate moves IRQs: dies by SIGINT (130), nothing changed, never admitted" \
	'[ $rc = 130 ] && same "$I" && [ ! -e "$REC" ] && ! grep -q "^setattr" "$LOG" && [ ! -e "$TMP/ran" ]'
shim_bg setattr:3000 - --isolate --cpu 1 -- touch "$TMP/ran"
wait_log "^slow setattr"
kill -TERM $bg
finish $bg
check "SIGTERM during admission after --isolate: dies by it (143), policy and files restored" \
	'[ $rc = 143 ] && same "$I" && [ ! -e "$REC" ] && [ "$(grep ^setattr "$LOG" | tr "\n" " ")" = "setattr 0 8 setattr 0 0 " ] && [ ! -e "$TMP/ran" ]'
sleep 30 &
victim=$!
shim_bg pin:3000 - --isolate --pid $victim --cpu 1
wait_log "^slow pin $victim$"
kill -TERM $bg
finish $bg
check "SIGTERM while --isolate --pid pins the thread: 143, affinity and files restored, never admitted" \
	'[ $rc = 143 ] && [ "$(aff $victim)" = 3 ] && same "$I" && [ ! -e "$REC" ] && ! grep -q "^setattr" "$LOG" && [ ! -s "$OUT" ]'
kill $victim 2> /dev/null
wait $victim 2> /dev/null
shim_bg irq/0/smp_affinity_list:1500 1:EBUSY --isolate --cpu 1 -- touch "$TMP/ran"
wait_log "^slow .*/irq/0/smp_affinity_list$" 2
kill -INT $bg
finish $bg
check "SIGINT during the rollback of a refused admission: the rollback completes, then 130" \
	'[ $rc = 130 ] && same "$I" && [ ! -e "$REC" ]'
shim_bg irq/4/smp_affinity_list:3000 - --isolate --report -O "$TMP/never.txt" --cpu 1 -- touch "$TMP/ran"
wait_log "^slow .*/irq/4/smp_affinity_list$"
kill -TERM $bg
finish $bg
check "SIGTERM while --isolate --report isolates: 143, nothing changed, program not run, no -O file" \
	'[ $rc = 143 ] && same "$I" && [ ! -e "$TMP/ran" ] && [ ! -e "$TMP/never.txt" ]'
shim - --isolate --cpu 1 -- true
shim_bg irq/4/smp_affinity_list:3000 - --unisolate --cpu 1
wait_log "^slow .*/irq/4/smp_affinity_list$"
kill -INT $bg
finish $bg
check "SIGINT during --unisolate: it completes (files as before, record removed), then 130" \
	'[ $rc = 130 ] && same "$I" && [ ! -e "$REC" ]'

isoroot "$I"
mkdir -p "$I/proc/4711"
echo irqbalance > "$I/proc/4711/comm"
shim - --isolate --cpu 1 -- true
check "--isolate with irqbalance running: warned, with the CPU to ban and how" \
	'[ $rc = 0 ] && grep -q "^notickctl: irqbalance (PID 4711) runs and will move interrupts back onto CPU 1: ban the CPU with IRQBALANCE_BANNED_CPULIST=1 in /etc/default/irqbalance and restart it (systemctl restart irqbalance)$" "$ERR"'
shim - --unisolate --cpu 1
rm -rf "$I/proc/4711"
check "--isolate without irqbalance: no such warning" '! grep -q irqbalance "$ERR"'
isoroot "$I"
shim - --isolate --report --cpu 1 -- true
check "--isolate --report: report printed, isolation kept after the program" \
	'[ $rc = 0 ] && grep -q "report for PID" "$ERR" && [ "$(irqaff 4)" = 0,2-3 ] && [ -s "$REC" ]'
shim 1:EBUSY --isolate --report --cpu 1 -- true
check "--isolate --report on an isolated CPU, refused: the files stay isolated" \
	'[ $rc = 125 ] && [ "$(irqaff 4)" = 0,2-3 ] && [ "$(cat "$I/proc/sys/kernel/watchdog_cpumask")" = 0,2-3 ] && [ -s "$REC" ]'
isoroot "$I"
rm "$I/proc/sys/kernel/watchdog_cpumask" "$I.orig/proc/sys/kernel/watchdog_cpumask"
echo 02 > "$I/proc/irq/default_smp_affinity"
cp "$I/proc/irq/default_smp_affinity" "$I.orig/proc/irq/default_smp_affinity"
shim - --isolate --cpu 1 -- true
check "--isolate without the lockup detector: silent; default 02 (CPU 1 only) -> 0d" \
	'[ $rc = 0 ] && [ ! -s "$ERR" ] && [ "$(cat "$I/proc/irq/default_smp_affinity")" = 0d ] && [ ! -e "$I/proc/sys/kernel/watchdog_cpumask" ]'
shim - --unisolate --cpu 1
check "--unisolate without the lockup detector: default 0d -> 02 again, IRQs as before" \
	'[ $rc = 0 ] && [ ! -s "$ERR" ] && [ "$(cat "$I/proc/irq/default_smp_affinity")" = 02 ] && same "$I"'
unset NOTICKCTL_ROOT

# Every key of every JSON output is documented in notickctl(8).
MAN=$(dirname "$0")/../notickctl.8
LD_PRELOAD=$SHIM "$NT" --json --show $$ > "$TMP/show.json" 2> /dev/null
NOTICKCTL_ROOT=$R "$NT" status --json > "$TMP/status.json" 2> /dev/null
cat "$TMP/rep.json" "$TMP/rep3.json" "$TMP/show.json" "$TMP/status.json" |
	grep -o '"[a-z_]*":' | tr -d '":' | sort -u > "$TMP/keys"
undoc=$(while read -r k; do
	grep -Eq "^\.[BIR]+ .*\b$k\b" "$MAN" || printf '%s ' "$k"
done < "$TMP/keys")
check "every JSON key of --report, status and --show ($(wc -l < "$TMP/keys") keys) is in notickctl(8)${undoc:+; missing: $undoc}" \
	'[ -z "$undoc" ] && [ $(wc -l < "$TMP/keys") -ge 40 ]'

[ $failed = 0 ]
