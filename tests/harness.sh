#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the in-guest test suites (one QEMU boot each) and the host-side unit
# tests; print one line per test and a last line "N passed, N failed".
#   tests/harness.sh [-f FLAVOUR] [-x FRAG] [SUITE...]
# -x FRAG: every suite boots only on the kernel built with the config
# fragment FRAG (make test KASAN=1: -x kasan), with three times its time
# limit (the sanitizers slow the guest), and not on its kernels file's.
# Guest suites are the directories tests/guest/<suite>/ that have a run.sh;
# every boot has the trace events of tests/guest/lib/events on from boot
# (trace_event=; suites pick theirs with filters, lib/trace.sh);
# optional files there: timeout (seconds, default 300), cmdline (extra
# kernel arguments for the suite's boot), cpus (the guest's CPU count,
# default 2), cpu (QEMU's CPU model, default max), devices (QEMU -device
# arguments, one a line, present from boot: a CPU the suite ejects), kernels (one config
# fragment name a line, e.g. notick-off: the suite boots once more on the
# kernel built with qemu/kernel.sh -x NAME, built here only when the suite
# runs, with the kernel argument notick.kernel=NAME; reported as
# SUITE[NAME]), qmp (the guest may send QEMU QMP commands through its
# fourth serial port: qemu/boot.sh -Q, tests/guest/lib/qmp.sh) and
# shutdown (extended regular expressions, one per line,
# that the console must show after the end of the suite, while the guest
# shuts down, or must not show when the line starts with "!"; each is a
# test) and tcg-single (the suite patches kernel text at run time: it
# boots on single-threaded TCG, qemu/boot.sh) and host-check (a program
# run on the host after the boot, given the boot's output directory, whose
# TAP checks what the guest wrote to data.log; its checks count as the
# suite's; it failing to run or to finish its plan is a failure).  Host tests: each tool's `make check` and every tests/host/*.sh,
# all printing TAP.
# A suite's boot fails when the guest panics, hangs past its time limit
# (also after the end of the suite: the guest must shut down by itself),
# stops before the end of its plan, or logs a kernel warning; its console
# log is kept in build/KVER/test/<suite>/console.log.  Every check that reads
# the console fails when it is missing, empty or shows no start of the
# suite; QEMU failing is a failure of its own, with qemu.log's tail; a
# failed check's KTAP diagnostics are printed under it.  At the end of the
# run, tests/expected-suites: every suite listed and in the tree, each one
# run reporting at least its minimum of checks.
# A suite may span kexecs (tests/guest/lib/kexec.sh): its KTAP is the
# stream of every kernel it runs; each stage announced by "# notick: kexec
# to stage N" must start ("# notick: stage N of suite S"). A crash the suite
# asks for (a console line "notick: crash expected") is not held against
# it, up to the banner of the kernel that boots next.
# Sourced (tests/host/scripts.sh), it only defines its functions.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../qemu/lib.sh"

flavour=test only=
pass=0 fail=0 skip=0 xfail=0
declare -A ran=()	# checks reported, by suite name (SUITE, SUITE[FRAG], host/T)
result() {	# result PASS|FAIL|SKIP|XFAIL name [detail]
	case $1 in
	PASS) pass=$((pass + 1)) ;;
	FAIL) fail=$((fail + 1)) ;;
	SKIP) skip=$((skip + 1)) ;;
	XFAIL) xfail=$((xfail + 1)) ;;
	esac
	printf '%-4s %s%s\n' "$1" "$2" "${3:+  ($3)}"
}

# Parse top-level KTAP/TAP result lines of one stream (stdin) as tests of
# $1; sets ktap_count, ktap_plan.  The diagnostics ("# ..." lines) after a
# failed result are printed under it, up to 40 lines: CI keeps only what
# make test prints (VERBOSE=1: every diagnostic line).
parse_ktap() {
	local prefix=$1 line n desc directive diag=-1
	ktap_count=0 ktap_plan=
	while IFS= read -r line; do
		line=${line%$'\r'}
		case "$line" in
		"ok "*|"not ok "*) diag=-1 ;;
		esac
		case "$line" in
		1..*) ktap_plan=${line#1..} ;;
		"ok "*|"not ok "*)
			ktap_count=$((ktap_count + 1))
			desc=$(sed -E 's/^(not )?ok [0-9]+ (- )?//' <<< "$line")
			directive=
			case "$desc" in *" # "*) directive=${desc#* # }; desc=${desc%% # *} ;; esac
			case "$line" in
			"not ok"*)
				# TODO: a known failure, tracked in an open issue; it
				# is shown and counted apart, never as passed.
				case "$directive" in
				[Tt][Oo][Dd][Oo]*) result XFAIL "$prefix: $desc" "$directive" ;;
				*) result FAIL "$prefix: $desc" "$directive"; diag=0 ;;
				esac ;;
			*)
				case "$directive" in
				[Ss][Kk][Ii][Pp]*) result SKIP "$prefix: $desc" "${directive#[Ss][Kk][Ii][Pp]}" ;;
				[Tt][Oo][Dd][Oo]*) result PASS "$prefix: $desc" "now passes: remove its TODO" ;;
				*) result PASS "$prefix: $desc" ;;
				esac ;;
			esac ;;
		"#"*)
			if [ -n "${VERBOSE:-}" ]; then
				echo "     $line"
			elif [ $diag -ge 0 ] && [ $diag -lt 40 ]; then
				echo "     $line"
				diag=$((diag + 1))
			elif [ $diag = 40 ]; then
				echo "     # ... (more in the log)"
				diag=41
			fi ;;
		esac
	done
}

# KUnit results in a console log, one line per test case.
parse_kunit() {
	local prefix=$1
	sed -E 's/^\[[ 0-9.]+\] ?//' "$2" | awk -v prefix="$prefix" '
		/^    # Subtest: / { suite = $3; next }
		/^    (not )?ok [0-9]+ / && suite != "" {
			line = $0; sub(/^    /, "", line)
			st = (line ~ /^not ok/) ? "not ok" : "ok"
			sub(/^(not )?ok [0-9]+ (- )?/, "", line)
			printf "%s 1 - %s.%s\n", st, suite, line
		}'
}

# console_problem SUITE LOG: why LOG cannot be read as the console of a
# boot that ran SUITE (nothing when it can): missing, empty, or without
# /init's banner for SUITE.  Every check that reads the console fails then:
# an empty console shows no warning and no shutdown message either.
console_problem() {
	if [ ! -f "$2" ]; then
		echo "no console log"
	elif [ ! -s "$2" ]; then
		echo "the console log is empty"
	elif ! grep -aqE "^notick: kernel .*, suite $1, stage [0-9]+" "$2"; then
		echo "the guest never started the suite (no \"suite $1\" banner of /init on the console)"
	fi
}

# boot ARGS...: qemu/boot.sh (a function, so that a test can replace it)
boot() { "$TOP/qemu/boot.sh" "$@"; }

# run_guest_suite SUITE [FRAG]: boot SUITE on the flavour's kernel, or on
# the one built with the config fragment FRAG (results as SUITE[FRAG]).
run_guest_suite() {
	local s=$1 frag=${2:-}
	local out=$BUILD/test/$s limit=300 cpus=2 cpu=max rc name=$s kernel=() kdesc=$flavour qmp=() dev=()
	[ -f "$TOP/tests/guest/$s/run.sh" ] || { result FAIL "$s: no such suite"; return; }
	local args=()
	[ -f "$TOP/tests/guest/$s/timeout" ] && limit=$(cat "$TOP/tests/guest/$s/timeout")
	[ -f "$TOP/tests/guest/$s/cpus" ] && cpus=$(cat "$TOP/tests/guest/$s/cpus")
	[ -f "$TOP/tests/guest/$s/cpu" ] && cpu=$(cat "$TOP/tests/guest/$s/cpu")
	[ -f "$TOP/tests/guest/$s/qmp" ] && qmp=(-Q)
	local d
	if [ -f "$TOP/tests/guest/$s/devices" ]; then
		while read -r d; do
			[ -n "$d" ] && dev+=(-d "$d")
		done < "$TOP/tests/guest/$s/devices"
	fi
	# cmdline: extra kernel arguments for this suite's boot, if any
	[ -f "$TOP/tests/guest/$s/cmdline" ] && read -ra args < "$TOP/tests/guest/$s/cmdline"
	# load: a load suite, which runs notick.load= seconds of load (its own
	# default unless NOTICK_LOAD is set, as make soak does), given that
	# time twice over on top of its limit.
	if [ -f "$TOP/tests/guest/$s/load" ] && [ -n "${NOTICK_LOAD:-}" ]; then
		[[ $NOTICK_LOAD =~ ^[1-9][0-9]*$ ]] || { result FAIL "$s: NOTICK_LOAD=$NOTICK_LOAD is not a number of seconds"; return; }
		args+=("notick.load=$NOTICK_LOAD") limit=$((limit + 2 * NOTICK_LOAD))
	fi
	if [ -n "$frag" ]; then
		name="$s[$frag]" out=$BUILD/test/$s-$frag kernel=(-k "$flavour-$frag")
		kdesc="$flavour-$frag" args+=("notick.kernel=$frag")
		[ "$frag" = "$only" ] && limit=$((limit * 3))
	fi
	say "suite $name: booting ($kdesc kernel, -cpu $cpu -smp $cpus${args[*]:+, ${args[*]}}, limit ${limit}s)"
	# Every trace event a suite may record, on from boot: turning one on
	# at run time patches kernel text (tests/guest/lib/trace.sh).
	local tev t0=$SECONDS
	tev="trace_event=$(grep -v '^#' "$TOP/tests/guest/lib/events" | tr / : | paste -sd,)"
	with_heartbeat "suite $name" boot -f "$flavour" "${kernel[@]}" "${qmp[@]}" "${dev[@]}" -s "$s" -o "$out" \
		-t "$limit" -c "$cpus" -C "$cpu" -- "$tev" "${args[@]}"
	rc=$?
	# Each boot's share of make test's time budget
	say "suite $name: booted and ran in $((SECONDS - t0)) s"
	# QEMU exits 0 when the guest reboots or powers off (-no-reboot), 124
	# when the time limit killed it: anything else is QEMU (or boot.sh)
	# failing, whose words are in qemu.log (boot.sh's own on stderr).
	if [ $rc != 0 ] && [ $rc != 124 ]; then
		if [ -s "$out/qemu.log" ]; then
			result FAIL "$name: QEMU ran" "exit $rc; see ${out#"$TOP"/}/qemu.log"
			tail -n 20 "$out/qemu.log" | sed 's/^/     # /'
		else
			result FAIL "$name: QEMU ran" "exit $rc, qemu.log empty or missing: any message of qemu/boot.sh's is above"
		fi
	fi
	local cproblem
	cproblem=$(console_problem "$s" "$out/console.log")
	{ tr -d '\r' < "$out/ktap.log"; } > "$out/ktap.txt" 2>/dev/null || : > "$out/ktap.txt"
	parse_ktap "$name" < "$out/ktap.txt"
	ran[$name]=$ktap_count
	if ! grep -q "^# notick: end of suite $s" "$out/ktap.txt"; then
		local why="exit $rc"
		[ $rc = 124 ] && why="hung: killed after ${limit}s"
		grep -q 'Kernel panic' "$out/console.log" 2>/dev/null && why="kernel panic"
		# The console's own end line tells a suite that ended from a
		# KTAP port that lost its last line.
		grep -aq "^notick: end of suite $s" "$out/console.log" 2>/dev/null &&
			why="$why, the console shows the suite's end, the KTAP port's last line is \"$(tail -n 1 "$out/ktap.txt" | cut -c1-60)\""
		result FAIL "$name: guest finished the suite" "$why; see ${out#"$TOP"/}/console.log"
		# What the guest's watchdog (qemu/init) saw still running.
		grep -a '^notick: watchdog' "$out/console.log" 2>/dev/null | head -n 40 | sed 's/^/     # /'
	elif [ -z "$ktap_plan" ] || [ "$ktap_count" != "$ktap_plan" ]; then
		result FAIL "$name: KTAP plan" "planned ${ktap_plan:-none}, ran $ktap_count"
	elif [ $rc = 124 ]; then
		result FAIL "$name: guest shut down after the suite" "killed after ${limit}s; see ${out#"$TOP"/}/console.log"
	fi
	local n
	for n in $(sed -nE 's/^# notick: (kexec|crash) to stage ([0-9]+).*/\2/p' "$out/ktap.txt"); do
		grep -q "^# notick: stage $n of suite $s\$" "$out/ktap.txt" ||
			result FAIL "$name: stage $n booted" "no stage $n after the kexec; see ${out#"$TOP"/}/console.log"
	done
	if [ -x "$TOP/tests/guest/$s/host-check" ]; then
		local hrc guest=${ran[$name]}
		"$TOP/tests/guest/$s/host-check" "$out" > "$out/host-check.log" 2>&1
		hrc=$?
		parse_ktap "$name" < "$out/host-check.log"
		ran[$name]=$((guest + ktap_count))
		if [ -z "$ktap_plan" ] || [ "$ktap_count" != "$ktap_plan" ]; then
			result FAIL "$name: host check's plan" "planned ${ktap_plan:-none}, ran $ktap_count, exit $hrc; see ${out#"$TOP"/}/host-check.log"
		elif [ $hrc != 0 ] && [ $hrc != 1 ]; then
			result FAIL "$name: host check ran" "exit $hrc; see ${out#"$TOP"/}/host-check.log"
		fi
	fi
	if [ -f "$TOP/tests/guest/$s/shutdown" ]; then
		local re after unseen=$cproblem
		after=$(sed -n '/^notick: end of suite /,$p' "$out/console.log" 2>/dev/null)
		[ -n "$unseen" ] || [ -n "$after" ] ||
			unseen="no \"notick: end of suite\" on the console"
		while IFS= read -r re; do
			case "$re" in
			''|'#'*) continue ;;
			esac
			if [ -n "$unseen" ]; then
				result FAIL "$name: shutdown: ${re/#!/not }" "$unseen; see ${out#"$TOP"/}/console.log"
				continue
			fi
			case "$re" in
			'!'*)	# must not be there
				if grep -qE -- "${re#!}" <<< "$after"; then
					result FAIL "$name: shutdown: not ${re#!}" "$(grep -E -- "${re#!}" <<< "$after" | head -n 1 | cut -c1-120)"
				else
					result PASS "$name: shutdown: not ${re#!}"
				fi ;;
			*)
				if grep -qE -- "$re" <<< "$after"; then
					result PASS "$name: shutdown: $re"
				else
					result FAIL "$name: shutdown: $re" "not in the console after the suite"
				fi ;;
			esac
		done < "$TOP/tests/guest/$s/shutdown"
	fi
	if [ "$s" = smoke ] && [ -z "$frag" ]; then
		parse_ktap "kunit" < <(parse_kunit kunit "$out/console.log" 2>/dev/null)
		if [ -n "$cproblem" ]; then
			result FAIL "kunit: built-in KUnit results in the console" "$cproblem"
		elif [ "$ktap_count" = 0 ] &&
		   grep -qs '^CONFIG_KUNIT=y' "$BUILD/obj-$flavour/.config"; then
			result FAIL "kunit: built-in KUnit results in the console" "none found"
		fi
	elif parse_kunit kunit "$out/console.log" 2>/dev/null | grep -q '^not ok'; then
		result FAIL "$name: KUnit in this boot" "see console.log"
	fi
	local kmsg bad
	# An expected crash, up to the banner of the kernel booted after it.
	kmsg=$(awk '/notick: crash expected/ { skip = 1 } /Linux version / { skip = 0 } !skip' \
		"$out/console.log" 2>/dev/null | tr -d '\r')
	bad=$(grep -aE "$BAD_KMSG" <<< "$kmsg" | head -n 3)
	if [ -z "$bad" ] && [ -n "$cproblem" ]; then
		result FAIL "$name: kernel log clean" "$cproblem; see ${out#"$TOP"/}/console.log"
	elif [ -n "$bad" ]; then
		result FAIL "$name: kernel log clean" "$(head -n 1 <<< "$bad" | cut -c1-160)"
		# The first report whole (header, RIP, call trace): CI keeps
		# only what make test prints, not the console log.
		grep -aE -m 1 -A 40 "$BAD_KMSG" <<< "$kmsg" | sed "s/^/       /"
	else
		result PASS "$name: kernel log clean"
	fi
}

# build_kernel FRAG: the flavour's kernel with qemu/config/FRAG.config
# (a function, so that a test can replace it)
build_kernel() { "$TOP/qemu/kernel.sh" -x "$1" "$flavour"; }

# run_suite SUITE: its boot, then one per line of its kernels file
run_suite() {
	local s=$1 frag
	if [ -n "$only" ]; then
		run_guest_suite "$s" "$only"
		return
	fi
	run_guest_suite "$s"
	[ -f "$TOP/tests/guest/$s/kernels" ] || return 0
	while read -r frag; do
		frag=${frag%%#*} frag=${frag//[[:space:]]/}
		[ -n "$frag" ] || continue
		if build_kernel "$frag" < /dev/null; then
			run_guest_suite "$s" "$frag"
		else
			result FAIL "$s[$frag]: the $flavour-$frag kernel builds" "see the lines above and ${BUILD#"$TOP"/}/obj-$flavour-$frag/build.log"
		fi
	done < "$TOP/tests/guest/$s/kernels"
}

run_host_tests() {
	local m out=$BUILD/test/host
	mkdir -p "$out"
	for m in "$TOP"/tools/*/Makefile; do
		[ -f "$m" ] || continue
		local t; t=$(basename "$(dirname "$m")")
		say "host unit tests: tools/$t"
		make -s -C "$(dirname "$m")" check BUILD="$BUILD/$t" > "$out/$t.log" 2>&1
		local rc=$?
		parse_ktap "host/$t" < "$out/$t.log"
		ran[host/$t]=$ktap_count
		if [ $rc != 0 ] && [ "$ktap_count" = 0 ]; then
			result FAIL "host/$t: make check" "exit $rc; see ${out#"$TOP"/}/$t.log"
		elif [ -n "$ktap_plan" ] && [ "$ktap_count" != "$ktap_plan" ]; then
			result FAIL "host/$t: TAP plan" "planned $ktap_plan, ran $ktap_count"
		fi
	done
	for m in "$TOP"/tests/host/*.sh; do
		[ -f "$m" ] || continue
		local t; t=$(basename "$m" .sh)
		say "host tests: tests/host/$t.sh"
		bash "$m" > "$out/$t.log" 2>&1
		local rc=$?
		parse_ktap "host/$t" < "$out/$t.log"
		ran[host/$t]=$ktap_count
		if [ -z "$ktap_plan" ] || [ "$ktap_count" != "$ktap_plan" ]; then
			result FAIL "host/$t: TAP plan" "planned ${ktap_plan:-none}, ran $ktap_count; exit $rc; see ${out#"$TOP"/}/$t.log"
		elif [ $rc != 0 ]; then
			result FAIL "host/$t: exit status" "exit $rc; see ${out#"$TOP"/}/$t.log"
		fi
	done
}

# check_expected SUITE...: the suites of this run against
# tests/expected-suites (lines "NAME MINIMUM"; NAME a guest suite, a
# variant SUITE[FRAG] or host/T): every suite in the tree is listed and
# every listed one is in the tree; each suite this run should have run
# reported at least its minimum of checks (a variant without a line of
# its own, that of its suite).  A suite that vanishes or shrinks fails.
check_expected() {
	local list=$TOP/tests/expected-suites name min s f want=() d
	local -A mins=()
	if [ ! -f "$list" ]; then
		result FAIL "expected suites: tests/expected-suites" "missing"
		return
	fi
	while read -r name min _; do
		case "$name" in ''|'#'*) continue ;; esac
		mins[$name]=$min
		case "$name" in
		*"["*) ;;
		host/*)	[ -f "$TOP/tests/host/${name#host/}.sh" ] ||
			[ -f "$TOP/tools/${name#host/}/Makefile" ] ||
				result FAIL "$name: in the tree" "listed in tests/expected-suites, not found" ;;
		*)	[ -f "$TOP/tests/guest/$name/run.sh" ] ||
				result FAIL "$name: in the tree" "listed in tests/expected-suites, no tests/guest/$name/run.sh" ;;
		esac
	done < "$list"
	for d in "$TOP"/tests/guest/*/run.sh "$TOP"/tests/host/*.sh "$TOP"/tools/*/Makefile; do
		[ -f "$d" ] || continue
		case "$d" in
		*/run.sh) name=$(basename "$(dirname "$d")") ;;
		*/Makefile) name=host/$(basename "$(dirname "$d")") ;;
		*) name=host/$(basename "$d" .sh) ;;
		esac
		[ -n "${mins[$name]:-}" ] ||
			result FAIL "$name: listed in tests/expected-suites" "a suite with no minimum of checks"
	done
	# What this run should have run: the boots of run_suite, the host tests.
	for s in "$@"; do
		if [ "$s" = host ]; then
			for d in "$TOP"/tools/*/Makefile; do [ -f "$d" ] && want+=("host/$(basename "$(dirname "$d")")"); done
			for d in "$TOP"/tests/host/*.sh; do [ -f "$d" ] && want+=("host/$(basename "$d" .sh)"); done
		elif [ -n "$only" ]; then
			want+=("$s[$only]")
		else
			want+=("$s")
			[ -f "$TOP/tests/guest/$s/kernels" ] || continue
			while read -r f; do
				f=${f%%#*} f=${f//[[:space:]]/}
				[ -n "$f" ] && want+=("$s[$f]")
			done < "$TOP/tests/guest/$s/kernels"
		fi
	done
	for name in "${want[@]}"; do
		min=${mins[$name]:-${mins[${name%%\[*}]:-}}
		[ -n "$min" ] || continue	# reported above
		if [ -z "${ran[$name]:-}" ]; then
			result FAIL "$name: at least $min checks" "it did not run"
		elif [ "${ran[$name]}" -lt "$min" ]; then
			result FAIL "$name: at least $min checks" "ran ${ran[$name]} (tests/expected-suites)"
		else
			result PASS "$name: at least $min checks" "ran ${ran[$name]}"
		fi
	done
}

# write_record RESULT SUITES: make test's record of the run,
# build/KVER/test/summary.md (tests/record.py), when the Makefile started it
write_record() {
	[ -n "${NOTICK_TEST_STARTED:-}" ] || return 0
	if python3 "$TOP/tests/record.py" "$BUILD/test/summary.md" "$TOP" \
		"$NOTICK_TEST_STARTED" "$@"; then
		say "the run's record: ${BUILD#"$TOP"/}/test/summary.md"
	else
		echo "make test: its record (tests/record.py) could not be written" >&2
	fi
}

main() {
	local s suites
	if [ "${1:-}" = -f ]; then flavour=$2; shift 2; fi
	if [ "${1:-}" = -x ]; then only=$2; shift 2; fi
	suites=("$@")
	local asked=${*:-all}
	if [ ${#suites[@]} = 0 ]; then
		for s in "$TOP"/tests/guest/*/; do
			[ -f "$s/run.sh" ] && suites+=("$(basename "$s")")
		done
		suites+=(host)
	fi
	# A Ctrl-C stops the whole run, not just the current step.
	trap 'echo "interrupted" >&2; trap - INT; kill -INT $$' INT
	trap 'trap - TERM; kill -TERM $$' TERM
	if [ -n "$only" ] && ! build_kernel "$only" < /dev/null; then
		result FAIL "the $flavour-$only kernel builds" "see the lines above and ${BUILD#"$TOP"/}/obj-$flavour-$only/build.log"
		echo "$pass passed, $fail failed"
		return 1
	fi
	say "kernel $(cat "$BUILD/obj-$flavour${only:+-$only}/kernelrelease" 2>/dev/null) ($flavour${only:+-$only}), suites: ${suites[*]}"
	for s in "${suites[@]}"; do
		if [ "$s" = host ]; then run_host_tests; else run_suite "$s"; fi
	done
	check_expected "${suites[@]}"
	[ $xfail -gt 0 ] && echo "($xfail known failure(s) marked TODO, counted as skipped)"
	skip=$((skip + xfail))
	local line="$pass passed, $fail failed"
	[ $skip -gt 0 ] && line="$line, $skip skipped"
	write_record "$line" "$asked${only:+ on the $flavour-$only kernel}"
	echo "$line"
	[ $fail = 0 ]
}

[ "${BASH_SOURCE[0]}" = "$0" ] || return 0
main "$@"
