#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host tests that every check of tests/harness.sh can fail (TAP): the
# harness sourced, its boot step replaced by one that writes the console,
# the KTAP stream and qemu.log it is given.  An empty console, a boot
# that never reached the suite, QEMU failing, a suite that shrinks or
# vanishes: each must be a FAIL, never a PASS.
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/notick harness.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; sed 's/^/# /' "$tmp/out" | tail -n 15; fi; }

echo "TAP version 13"
echo "1..20"

# guest SUITE: run_guest_suite SUITE on a fake boot that writes $KTAP to
# ktap.log, $CONSOLE (or the file $CONSOLEFILE) to console.log (neither
# when NOCONSOLE is set) and $QEMULOG
# to qemu.log, and exits $BRC; what the harness prints in $tmp/out.
HB="$tmp/build"
guest() {
	(
		BUILD=$HB
		. "$TOP/tests/harness.sh"
		[ -n "${FAKETOP:-}" ] && TOP=$FAKETOP
		boot() {
			local out=
			while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
			mkdir -p "$out"
			rm -f "$out"/*.log
			printf '%s' "${KTAP:-}" > "$out/ktap.log"
			if [ -n "${CONSOLEFILE:-}" ]; then
				cp "$CONSOLEFILE" "$out/console.log"
			elif [ -z "${NOCONSOLE:-}" ]; then
				printf '%s' "${CONSOLE:-}" > "$out/console.log"
			fi
			printf '%s' "${QEMULOG:-}" > "$out/qemu.log"
			return "${BRC:-0}"
		}
		run_guest_suite "$1"
	) > "$tmp/out" 2>&1
}
# ktap SUITE N: a KTAP stream of N passing checks that reaches the end
ktap() {
	local i
	printf 'TAP version 13\n1..%s\n' "$2"
	for ((i = 1; i <= $2; i++)); do printf 'ok %s - check %s\n' "$i" "$i"; done
	printf '# notick: end of suite %s\n' "$1"
}
# console SUITE [END...]: a console that ran SUITE, then the lines END
console() {
	local s=$1
	shift
	printf '[    0.000000] Linux version 6.1.0-notick\r\n'
	printf 'notick: kernel 6.1.0-notick, 2 CPUs, suite %s, stage 1\r\n' "$s"
	printf 'notick: end of suite %s\r\n' "$s"
	printf '%s\r\n' "$@"
}
P=offsched-poweroff
POWEROFF=(
	"[   20.1] offsched: CPU 2: callback echo_fn did not return within 500 ms: reset with INIT"
	"[   20.2] reboot: Power down")

# --- the console: missing, empty, or of a boot that never ran the suite ---
KTAP=$(ktap $P 14) CONSOLE=$(console $P "${POWEROFF[@]}") guest $P
check "harness: offsched-poweroff with a good console passes its console checks" \
	'! grep -q "^FAIL" "$tmp/out" && [ "$(grep -c "^PASS $P: shutdown: " "$tmp/out")" = 4 ] && grep -q "^PASS $P: kernel log clean" "$tmp/out"'
# A long console (a real boot's): the banner found whatever follows it.
console $P "${POWEROFF[@]}" $(seq -f "[   30.0] line %g" 1 20000) > "$tmp/long"
KTAP=$(ktap $P 14) CONSOLEFILE=$tmp/long guest $P
check "harness: a console of 300 kB passes its console checks too" \
	'! grep -q "^FAIL" "$tmp/out" && grep -q "^PASS $P: kernel log clean" "$tmp/out"'
KTAP=$(ktap $P 14) CONSOLE= guest $P
check "harness: an empty console fails every console check, none passes" \
	'[ "$(grep -c "^FAIL $P: shutdown: .*(the console log is empty" "$tmp/out")" = 4 ] &&
	 grep -q "^FAIL $P: kernel log clean  (the console log is empty" "$tmp/out" &&
	 ! grep -Eq "^PASS $P: (shutdown|kernel log)" "$tmp/out"'
KTAP=$(ktap $P 14) NOCONSOLE=1 guest $P
check "harness: a missing console fails every console check, none passes" \
	'[ "$(grep -c "^FAIL $P: shutdown: .*(no console log" "$tmp/out")" = 4 ] &&
	 grep -q "^FAIL $P: kernel log clean  (no console log" "$tmp/out" &&
	 ! grep -Eq "^PASS $P: (shutdown|kernel log)" "$tmp/out"'
KTAP= CONSOLE=$(printf '[    0.000000] Linux version 6.1.0-notick\r\n[    1.0] Run /init as init process\r\n') guest $P
check "harness: a boot that never reached the suite fails every console check" \
	'[ "$(grep -c "^FAIL $P: shutdown: .*never started the suite" "$tmp/out")" = 4 ] &&
	 grep -q "^FAIL $P: kernel log clean  (the guest never started the suite" "$tmp/out" &&
	 grep -q "^FAIL $P: guest finished the suite" "$tmp/out" && ! grep -q "^PASS" "$tmp/out"'
KTAP=$(ktap $P 14) CONSOLE=$(printf 'notick: kernel 6.1.0-notick, 4 CPUs, suite %s, stage 1\r\n' $P) guest $P
check "harness: a console without the end of the suite fails the shutdown checks" \
	'[ "$(grep -c "^FAIL $P: shutdown: .*no \"notick: end of suite\" on the console" "$tmp/out")" = 4 ]'
KTAP= CONSOLE=$(printf '[    0.5] Kernel panic - not syncing: VFS: Unable to mount root fs\r\n') guest $P
check "harness: a panic before /init is reported as such, not as a missing banner" \
	'grep -q "^FAIL $P: kernel log clean  (\[    0.5\] Kernel panic" "$tmp/out"'
KTAP=$(ktap smoke 6) CONSOLE= guest smoke
check "harness: smoke with an empty console fails its KUnit check" \
	'grep -q "^FAIL kunit: built-in KUnit results in the console  (the console log is empty)" "$tmp/out"'

# --- offsched-poweroff: the power-off read from the console ---
KTAP=$(ktap $P 14) CONSOLE=$(console $P "${POWEROFF[0]}" "[   20.2] reboot: Restarting system") guest $P
check "harness: offsched-poweroff that reboots instead fails 'reboot: Power down' and 'not reboot: Restarting'" \
	'grep -q "^FAIL $P: shutdown: reboot: Power down  (not in the console after the suite)" "$tmp/out" &&
	 grep -q "^FAIL $P: shutdown: not reboot: Restarting system" "$tmp/out"'
check "harness: offsched-poweroff's KTAP has no check of a file it wrote itself" \
	'! grep -q "notick.end)\" = poweroff" "$TOP/tests/guest/$P/run.sh"'

# --- QEMU failing, and a failed check's diagnostics ---
KTAP= CONSOLE= QEMULOG=$(printf 'qemu-system-x86_64: -cpu bogus: unable to find CPU model\n') BRC=1 guest smoke
check "harness: QEMU failing is said, with qemu.log's tail" \
	'grep -q "^FAIL smoke: QEMU ran  (exit 1; see .*qemu.log)" "$tmp/out" &&
	 grep -q "^     # qemu-system-x86_64: -cpu bogus: unable to find CPU model" "$tmp/out"'
KTAP=$(printf 'TAP version 13\n1..2\nok 1 - fine\n# a note of a pass\nnot ok 2 - broken\n# got 3, want 4\n# see there\n# notick: end of suite smoke\n') \
	CONSOLE=$(console smoke) guest smoke
check "harness: a failed check's diagnostics are printed under it, a passed one's not" \
	'grep -A2 "^FAIL smoke: broken" "$tmp/out" | grep -q "^     # got 3, want 4" &&
	 grep -q "^     # see there" "$tmp/out" && ! grep -q "a note of a pass" "$tmp/out"'
KTAP=$(ktap smoke 6 | sed '$s/end of suite smoke/end of/') CONSOLE=$(console smoke) guest smoke
check "harness: a KTAP port whose end line was cut short, the console's whole: both said" \
	'grep -q "^FAIL smoke: guest finished the suite  (exit 0, the console shows the suite.s end, the KTAP port.s last line is \"# notick: end of\"; see" "$tmp/out"'

# --- a suite's host-check: run after the boot, its checks the suite's ---
KTAP=$(ktap compare-smoke 1) CONSOLE=$(console compare-smoke) guest compare-smoke
check "harness: compare-smoke whose boot wrote no data.log fails both host checks" \
	'[ "$(grep -c "^FAIL compare-smoke: \(analyze.py trusts\|every scenario\)" "$tmp/out")" = 2 ] &&
	 grep -q "^PASS compare-smoke: check 1" "$tmp/out"'
H="$tmp/hc"
mkdir -p "$H/tests/guest/hc" "$H/tests/guest/lib"
cp "$TOP/tests/guest/lib/events" "$H/tests/guest/lib/"
touch "$H/tests/guest/hc/run.sh"
printf '#!/bin/sh\necho 1..2\necho "ok 1 - half"\nexit 3\n' > "$H/tests/guest/hc/host-check"
chmod +x "$H/tests/guest/hc/host-check"
FAKETOP=$H KTAP=$(ktap hc 1) CONSOLE=$(console hc) guest hc
check "harness: a host check that stops short of its plan fails the suite" \
	'grep -q "^PASS hc: half" "$tmp/out" &&
	 grep -q "^FAIL hc: host check.s plan  (planned 2, ran 1, exit 3" "$tmp/out"'

# --- tests/expected-suites: a suite that shrinks or vanishes ---
# main SUITE... on the fake boot: the end of the run included; exit status in rc.
run_main() {
	(
		BUILD=$HB
		. "$TOP/tests/harness.sh"
		[ -n "${FAKETOP:-}" ] && TOP=$FAKETOP
		boot() {
			local out= s=
			while [ $# -gt 0 ]; do
				case $1 in -o) out=$2 ;; -s) s=$2 ;; esac
				shift
			done
			mkdir -p "$out"
			ktap "$s" "${CHECKS:-6}" > "$out/ktap.log"
			console "$s" > "$out/console.log"
			: > "$out/qemu.log"
		}
		main "$@"
	) > "$tmp/out" 2>&1
	rc=$?
}
min=$(awk '$1 == "smoke" { print $2 }' "$TOP/tests/expected-suites")
CHECKS=$min run_main smoke
check "harness: smoke reporting its minimum ($min) passes the end of the run" \
	'[ $rc = 0 ] && grep -q "^PASS smoke: at least $min checks" "$tmp/out"'
CHECKS=$((min - 1)) run_main smoke
check "harness: smoke shrunk to $((min - 1)) checks (plan and all) fails make test" \
	'[ $rc != 0 ] && grep -q "^FAIL smoke: at least $min checks  (ran $((min - 1)) (tests/expected-suites))" "$tmp/out" &&
	 tail -n 1 "$tmp/out" | grep -qx "[0-9]* passed, 1 failed"'
F="$tmp/top"
mkdir -p "$F/tests/guest/one" "$F/tests/guest/new" "$F/tests/guest/lib"
touch "$F/tests/guest/one/run.sh" "$F/tests/guest/new/run.sh"
cp "$TOP/tests/guest/lib/events" "$F/tests/guest/lib/"
printf 'one 6\ngone 3\n' > "$F/tests/expected-suites"
FAKETOP=$F run_main one
check "harness: a listed suite gone from the tree fails" \
	'[ $rc != 0 ] && grep -q "^FAIL gone: in the tree  (listed in tests/expected-suites, no tests/guest/gone/run.sh)" "$tmp/out"'
check "harness: a suite in the tree but not in tests/expected-suites fails" \
	'grep -q "^FAIL new: listed in tests/expected-suites" "$tmp/out" && grep -q "^PASS one: at least 6 checks" "$tmp/out"'
(
	BUILD=$HB
	. "$TOP/tests/harness.sh"
	TOP=$F
	ran=()
	check_expected one
) > "$tmp/out" 2>&1
check "harness: a selected suite that reported nothing fails 'did not run'" \
	'grep -q "^FAIL one: at least 6 checks  (it did not run)" "$tmp/out"'
[ $failed = 0 ]
