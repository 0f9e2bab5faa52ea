#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of the build and test scripts (TAP), against fake trees in a
# directory whose path has a space: qemu/kernel.sh's config check,
# tests/harness.sh's suite runner (sourced, with its boot step replaced),
# and tools/notickctl/tests/tap-merge.sh's temporary file.
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/notick scripts.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; sed 's/^/# /' "$tmp/err" 2> /dev/null | tail -n 5; fi; }

echo "TAP version 13"
echo "1..24"

# --- qemu/kernel.sh: a fragment option that does not stick ---
# A fake kernel tree: "make tinyconfig" writes an empty .config and the
# fake merge_config.sh turns every "=y" of the fragments into "not set".
B="$tmp/build dir"
mkdir -p "$B/linux/scripts/kconfig"
printf 'tinyconfig:\n\t@echo "# tiny" > "$(O)/.config"\nolddefconfig:\n\t@true\n' > "$B/linux/Makefile"
cat > "$B/linux/scripts/kconfig/merge_config.sh" <<'EOS'
#!/bin/sh
out=$KCONFIG_CONFIG
shift 3	# -m -O DIR
for f; do sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=y$/# \1 is not set/p' "$f"; done > "$out.new"
mv "$out.new" "$out"
EOS
chmod +x "$B/linux/scripts/kconfig/merge_config.sh"
echo fake > "$B/linux.stamp"
BUILD=$B NOTICK_LOCK_HELD=1 "$TOP/qemu/kernel.sh" test > "$tmp/out" 2> "$tmp/err"
rc=$?
check "kernel.sh, an option that did not stick: names it and fails" \
	'[ $rc != 0 ] && grep -q "^config: CONFIG_[A-Z0-9_]*=y did not stick$" "$tmp/err"'
check "kernel.sh, config mismatch: its own message, not an unbound variable" \
	'grep -q "^error: the test kernel config does not match its fragments$" "$tmp/err" && ! grep -q "unbound variable" "$tmp/err"'

# --- qemu/kernel.sh: a warning of the series' own fails the build ---
# A fake tree whose configuration sticks and whose build warns about a
# file the OFFSCHED series touches, and objtool about a function it adds
# (series_warnings reads the real patches/), beside an upstream warning.
W="$tmp/warn build"
mkdir -p "$W/linux/scripts/kconfig"
cat > "$W/linux/Makefile" <<'EOS'
tinyconfig:
	@: > "$(O)/.config"
olddefconfig:
	@true
bzImage:
	@mkdir -p "$(O)/kernel" "$(O)/arch/x86/boot" && touch "$(O)/kernel/offsched.o" "$(O)/vmlinux.o"
	@[ -n "$(NOOP)" ] || touch "$(O)/arch/x86/boot/bzImage"
	@echo "../linux/fs/select.c:612:1: warning: the frame size of 1088 bytes is larger than 1024 bytes" >&2
	@echo "$(WARN)" >&2
modules modules_install:
	@true
kernelrelease:
	@echo 6.1.0-fake
EOS
cat > "$W/linux/scripts/kconfig/merge_config.sh" <<'EOS'
#!/bin/sh
out=$KCONFIG_CONFIG
shift 3	# -m -O DIR
awk '/^CONFIG_/ { o = $0; sub(/=.*/, "", o); v[o] = $0 }
     /^# CONFIG_.* is not set$/ { v[$2] = $0 } END { for (o in v) print v[o] }' "$@" > "$out.new"
mv "$out.new" "$out"
EOS
chmod +x "$W/linux/scripts/kconfig/merge_config.sh"
echo fake > "$W/linux.stamp"
BUILD=$W NOTICK_LOCK_HELD=1 "$TOP/qemu/kernel.sh" test > "$tmp/out" 2> "$tmp/err"
rc=$?
check "kernel.sh, a build with only an upstream file's warning: built ($rc)" \
	'[ $rc = 0 ] && grep -q "kernel 6.1.0-fake" "$tmp/err"'
# The records' build time (tests/provenance.py) is that of a build that
# made a new image: a later make that changed nothing leaves it.
first=$(cat "$W/obj-test/build-seconds" 2> /dev/null)
echo 1234 > "$W/obj-test/build-seconds"
BUILD=$W NOTICK_LOCK_HELD=1 NOOP=1 "$TOP/qemu/kernel.sh" test > "$tmp/out" 2> "$tmp/err"
rc=$?
check "kernel.sh: a build that made the image wrote its time (${first:-none}), a no-op one leaves it ($rc, $(cat "$W/obj-test/build-seconds"))" \
	'[ -n "$first" ] && [ $rc = 0 ] && [ "$(cat "$W/obj-test/build-seconds")" = 1234 ]'
warn() {
	BUILD=$W NOTICK_LOCK_HELD=1 WARN="$1" "$TOP/qemu/kernel.sh" test > "$tmp/out" 2> "$tmp/err"
	rc=$?
}
warn "../linux/kernel/offsched.c:1106:12: warning: 'offsched_refuse' defined but not used"
c=$rc o=$([ -e "$W/obj-test/kernel/offsched.o" ] && echo kept || echo removed)
warn "vmlinux.o: warning: objtool: offsched_arch_halt+0x16: call to native_wbinvd() leaves .noinstr.text section"
check "kernel.sh: a warning in kernel/offsched.c ($c, object $o) or objtool's about offsched_arch_halt ($rc) fails the build" \
	'[ $c != 0 ] && [ $o = removed ] && [ $rc != 0 ] && [ ! -e "$W/obj-test/vmlinux.o" ] &&
	 grep -q "^error: the test kernel: the series. own code warns (vmlinux.o: warning: objtool: offsched_arch_halt" "$tmp/err"'

# --- tests/harness.sh: sourced, its boot step replaced ---
HB="$tmp/harness build"
mkdir -p "$HB"
# run_suite SUITE CALLER_S: run one guest suite with the caller's $s set
run_suite() {
	(
		BUILD=$HB
		. "$TOP/tests/harness.sh"
		boot() {
			local out= a
			printf '%s\n' "$@" > "$tmp/boot-args"
			while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
			mkdir -p "$out"
			printf 'TAP version 13\n1..1\nok 1 - fine\n# notick: end of suite %s\n' "$SUITE" > "$out/ktap.log"
			printf '%s' "${CONSOLE-notick: kernel x, 2 CPUs, suite $SUITE, stage 1}" > "$out/console.log"
		}
		SUITE=$1
		s=$2
		run_guest_suite "$1"
	)
}
run_suite smoke elsewhere > "$tmp/out" 2> "$tmp/err"
check "harness: a suite's logs go to build/test/SUITE whatever the caller's \$s" \
	'[ -f "$HB/test/smoke/ktap.txt" ] && [ ! -e "$HB/test/elsewhere" ] && grep -q "^PASS smoke: fine" "$tmp/out"'
check "harness: sourcing it runs no suite" '[ ! -e "$HB/test/host" ] && [ ! -e "$HB/test/notick" ]'
check "harness: the guest's CPU count defaults to 2" \
	'grep -qx -- -c "$tmp/boot-args" && [ "$(grep -x -A1 -- -c "$tmp/boot-args" | tail -n 1)" = 2 ]'
# Trace events are never turned on at run time in the guest (it patches
# kernel text): every one the suites record is on from boot.
check "harness: the guest boots with every event of tests/guest/lib/events on (trace_event=)" \
	'[ "$(grep -c "^trace_event=" "$tmp/boot-args")" = 1 ] &&
	 [ "$(sed -n "s/^trace_event=//p" "$tmp/boot-args" | tr , "\n" | tr : /)" = "$(grep -v "^#" "$TOP/tests/guest/lib/events")" ]'
# A BUG_ON() in interrupt: its header names no "BUG:"; the report is
# printed whole, since CI keeps only what make test prints.
CONSOLE=$(printf '%s\r\n' '[   31.60] ------------[ cut here ]------------' \
	'[   31.61] kernel BUG at kernel/sched/rt.c:1114!' \
	'[   31.62] invalid opcode: 0000 [#1] PREEMPT SMP' \
	'[   31.63] RIP: 0010:dequeue_top_rt_rq+0x3c/0x40' \
	'[   31.64] Call Trace:' '[   31.65]  <IRQ>' \
	'[   31.66] Kernel panic - not syncing: Fatal exception in interrupt') \
	run_suite smoke smoke > "$tmp/out" 2> "$tmp/err"
check "harness: a BUG_ON() fails the kernel log, its report printed whole" \
	'grep -q "^FAIL smoke: kernel log clean  (\[   31.61\] kernel BUG at kernel/sched/rt.c:1114!)$" "$tmp/out" &&
	 grep -q "^       \[   31.63\] RIP: 0010:dequeue_top_rt_rq+0x3c/0x40$" "$tmp/out" &&
	 grep -q "^       \[   31.66\] Kernel panic" "$tmp/out"'

# A suite with a kernels file (notickctl: notick-off) boots once more on
# that kernel, built first; the boot step and the build are replaced.
variants() {	# variants BUILD_RC [ONLY]: run_suite notickctl (with -x ONLY), boots logged to boots
	(
		BUILD=$HB
		. "$TOP/tests/harness.sh"
		boot() {
			local out=
			echo "boot $*" >> "$tmp/boots"
			while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
			mkdir -p "$out"
			printf 'TAP version 13\n1..1\nok 1 - fine\n# notick: end of suite notickctl\n' > "$out/ktap.log"
			echo "notick: kernel x, 2 CPUs, suite notickctl, stage 1" > "$out/console.log"
		}
		build_kernel() { echo "build $*" >> "$tmp/boots"; return "$BRC"; }
		BRC=$1 only=${2:-}
		run_suite notickctl
	)
}
rm -f "$tmp/boots"
variants 0 > "$tmp/out" 2> "$tmp/err"
check "harness: notickctl boots on the test kernel, then on test-notick-off (built first)" \
	'[ "$(cut -d " " -f 1 "$tmp/boots" | tr "\n" " ")" = "boot build boot " ] && grep -q "^build notick-off$" "$tmp/boots" && [ "$(sed -n 3p "$tmp/boots" | grep -c -- "-k test-notick-off .*-- trace_event=[^ ]* notick.kernel=notick-off$")" = 1 ] && ! sed -n 1p "$tmp/boots" | grep -q -- "-k "'
check "harness: the second boot's results are notickctl[notick-off], its logs apart" \
	'grep -q "^PASS notickctl\[notick-off\]: fine$" "$tmp/out" && grep -q "^PASS notickctl: fine$" "$tmp/out" && [ -f "$HB/test/notickctl-notick-off/ktap.txt" ]'
rm -f "$tmp/boots"
variants 1 > "$tmp/out" 2> "$tmp/err"
check "harness: a variant kernel that does not build is a failure, not a skip" \
	'grep -q "^FAIL notickctl\[notick-off\]: the test-notick-off kernel builds" "$tmp/out" && [ "$(grep -c "^boot" "$tmp/boots")" = 1 ]'
# -x FRAG (make test KASAN=1): only the FRAG kernel, three times the limit.
rm -f "$tmp/boots"
variants 0 kasan > "$tmp/out" 2> "$tmp/err"
check "harness: -x kasan boots notickctl once, on test-kasan, with 3x its limit" \
	'[ "$(grep -c "^boot" "$tmp/boots")" = 1 ] && grep -q -- "-k test-kasan .*-t $((3 * $(cat "$TOP/tests/guest/notickctl/timeout" 2>/dev/null || echo 300))) .*notick.kernel=kasan$" "$tmp/boots" && grep -q "^PASS notickctl\[kasan\]: fine$" "$tmp/out"'

# A load suite (a load file: notick-load) runs NOTICK_LOAD seconds of load
# when it is set (make soak), its limit raised by twice that; else neither.
load_boot() {	# load_boot [NOTICK_LOAD]: run_suite notick-load, its boot's arguments in boot-args
	(
		BUILD=$HB
		. "$TOP/tests/harness.sh"
		boot() {
			local out=
			printf '%s\n' "$@" > "$tmp/boot-args"
			while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
			mkdir -p "$out"
			printf 'TAP version 13\n1..1\nok 1 - fine\n# notick: end of suite notick-load\n' > "$out/ktap.log"
			echo "notick: kernel x, 2 CPUs, suite notick-load, stage 1" > "$out/console.log"
		}
		if [ $# = 1 ]; then NOTICK_LOAD=$1; else unset NOTICK_LOAD; fi
		run_guest_suite notick-load
	)
}
limit=$(cat "$TOP/tests/guest/notick-load/timeout")
rm -f "$tmp/boot-args"
load_boot > "$tmp/out" 2> "$tmp/err"
check "harness: a load suite boots with its own load and limit by default" \
	'! grep -q "^notick.load=" "$tmp/boot-args" && grep -qx -- "$limit" "$tmp/boot-args" && grep -q "^PASS notick-load: fine$" "$tmp/out"'
load_boot 600 > "$tmp/out" 2> "$tmp/err"
check "harness: NOTICK_LOAD=600 (make soak): notick.load=600, limit raised by 1200" \
	'grep -qx "notick.load=600" "$tmp/boot-args" && grep -qx -- "$((limit + 1200))" "$tmp/boot-args"'
rm -f "$tmp/boot-args"
load_boot 10m > "$tmp/out" 2> "$tmp/err"
check "harness: NOTICK_LOAD=10m is refused, nothing booted" \
	'[ ! -e "$tmp/boot-args" ] && grep -q "^FAIL notick-load: NOTICK_LOAD=10m is not a number of seconds" "$tmp/out"'

# --- tap-merge.sh: its temporary file ---
TM=$TOP/tools/notickctl/tests/tap-merge.sh
printf 'TAP version 13\n1..2\nok 1 - a\nok 2 - b\n' > "$tmp/one.tap"
mkdir -p "$tmp/td"
echo precious > "$tmp/victim"
# A symlink planted at the name a PID-based temporary file would take.
( ln -s "$tmp/victim" "$tmp/td/tap-merge.$BASHPID"
  TMPDIR=$tmp/td exec sh "$TM" one "$tmp/one.tap" 0 ) > "$tmp/out" 2> "$tmp/err"
rc=$?
check "tap-merge.sh: merges (exit 0, plan 1..2, both results)" \
	'[ $rc = 0 ] && grep -qx "1..2" "$tmp/out" && grep -qx "ok 2 - one: b" "$tmp/out"'
check "tap-merge.sh: a symlink at a predictable name is not followed" \
	'[ "$(cat "$tmp/victim")" = precious ]'
check "tap-merge.sh: leaves no temporary file" \
	'[ -z "$(find "$tmp/td" -newer "$tmp/one.tap" ! -type l ! -path "$tmp/td")" ]'
printf 'TAP version 13\n1..3\nok 1 - a\n' > "$tmp/short.tap"
TMPDIR=$tmp/td sh "$TM" "one two" "$tmp/short.tap" 0 > "$tmp/out" 2> "$tmp/err"
rc=$?
check "tap-merge.sh: a short run is a failure of its own" \
	'[ $rc = 1 ] && grep -qx "not ok 2 - one two: planned 3 tests, ran 1" "$tmp/out"'

# --- qemu/export-series.sh: a work tree's commits as a series ---
# Two commits on a base, the second with a blank context line; an old
# cover letter whose sender, subject and text must stay.
X="$tmp/export tree"
mkdir -p "$X" "$tmp/xs"
xgit() { git -C "$X" -c user.name="Some One" -c user.email=one@example.org "$@" > /dev/null; }
printf 'a\n\nb\n' > "$X/f"
xgit init -q && xgit add f && xgit commit -qm base && xgit tag base
printf 'a\n\nb\nc\n' > "$X/f" && xgit commit -qam "first change"
printf 'a\nx\n\nb\nc\n' > "$X/f" && xgit commit -qam "second change"
printf '%s\n' "From 0 Mon Sep 17 00:00:00 2001" "From: The Authors" " <authors@example.org>" \
	"Subject: [PATCH 0/1] the old subject" "" "The old text." "" "Some One (1):" "  first change" > "$tmp/xs/0000-cover-letter.patch"
(cd "$TOP" && qemu/export-series.sh "$X" base "$tmp/xs") > "$tmp/out" 2>&1
rc=$?
c=$tmp/xs/0000-cover-letter.patch
check "export-series.sh: both commits in the series file, the cover's sender, subject and text kept, its shortlog new ($rc)" \
	'[ $rc = 0 ] && [ "$(wc -l < "$tmp/xs/series")" = 2 ] && ! grep -q cover "$tmp/xs/series" &&
	 grep -qx "From: The Authors" "$c" && grep -qx " <authors@example.org>" "$c" && ! grep -q "Some One <" "$c" &&
	 grep -qx "Subject: \[PATCH 0/2\] the old subject" "$c" && grep -qx "The old text." "$c" &&
	 grep -qx "Some One (2):" "$c" && grep -qx "  second change" "$c" &&
	 ! grep -qx " " "$tmp/xs/"0002-*.patch'

# --- Makefile: what "make test" builds first (make -n prints, runs nothing;
# make itself cannot have a space in a target's path) ---
MB=$(mktemp -d "${TMPDIR:-/tmp}/notick-make.XXXXXX")
make -n -C "$TOP" test SUITES=host BUILD="$MB" > "$tmp/out" 2> "$tmp/err"
check "make test SUITES=host: runs the harness, builds no kernel nor initramfs" \
	'grep -q "tests/harness.sh -f test host" "$tmp/out" && ! grep -Eq "qemu/(kernel|initramfs|tree)\.sh" "$tmp/out"'
make -n -C "$TOP" test SUITES="smoke host" BUILD="$MB" > "$tmp/out" 2> "$tmp/err"
check "make test SUITES=\"smoke host\": builds the kernel and initramfs first" \
	'grep -q "qemu/kernel.sh test" "$tmp/out" && grep -q "qemu/initramfs.sh test" "$tmp/out"'
rm -rf "$MB"
[ $failed = 0 ]
