#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of qemu/boot.sh and tests/harness.sh under signals, and of
# boot.sh's TCG mode and gdb stub (TAP).
# A tiny multiboot image that spins at its entry point stands in for the
# kernel, so no kernel build is needed (QEMU's multiboot loader reads a
# space in -initrd as module arguments: the build directory has none, the
# output directories have one).  Every QEMU started here is found by that
# directory in its command line; any left over at the end is killed by PID.
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/notick-boot.XXXXXX") || exit 1
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }

# qemus DIR: PIDs of the QEMU processes whose command line names DIR
qemus() { pgrep -f -- "^qemu-system-x86_64 .*$1/"; }
# wait_qemu DIR SECONDS: poll until a QEMU of DIR runs (setup, not a check)
wait_qemu() {
	local i=0
	while [ -z "$(qemus "$1")" ] && [ $i -lt $(($2 * 10)) ]; do sleep 0.1; i=$((i + 1)); done
	[ -n "$(qemus "$1")" ]
}
# gone DIR SECONDS: no QEMU of DIR is left within SECONDS
gone() {
	local i=0
	while [ -n "$(qemus "$1")" ] && [ $i -lt $(($2 * 10)) ]; do sleep 0.1; i=$((i + 1)); done
	[ -z "$(qemus "$1")" ]
}
cleanup() {
	local p
	for p in $(qemus "$tmp"); do kill -KILL "$p" 2> /dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT

# fake_build DIR: a "test" flavour build with the spinning image
fake_build() {
	mkdir -p "$1/obj-test/arch/x86/boot" "$1/initramfs-test"
	# multiboot header (load at 1 MiB, entry after the header), then "jmp ."
	printf '\002\260\255\033\000\000\001\000\376\117\121\344\000\000\020\000\000\000\020\000\000\000\000\000\000\000\000\000\040\000\020\000\353\376' \
		> "$1/obj-test/arch/x86/boot/bzImage"
	echo initrd > "$1/initramfs-test/initramfs.cpio.gz"
}

echo "TAP version 13"
echo "1..12"
if ! command -v qemu-system-x86_64 > /dev/null; then
	echo "Bail out! qemu-system-x86_64 not installed (qemu/deps.sh installs it)"
	exit 1
fi

# 1. Ctrl-C: the terminal sends SIGINT to the whole foreground job.
b=$tmp/ctrl-c
fake_build "$b"
set -m
# A terminal delivers Ctrl-C to a job whose SIGINT is not ignored; when
# this test itself runs in the background, SIGINT comes in ignored.
BUILD=$b env --default-signal=INT "$TOP/qemu/boot.sh" -s smoke -o "$b/out dir" -t 120 > "$tmp/boot1.log" 2>&1 &
job=$!
set +m
if wait_qemu "$b" 20; then
	kill -INT -- -"$job"
	check "Ctrl-C on boot.sh: its QEMU is gone within 3 s" 'gone "$b" 3'
	wait "$job"
	rc=$?
	check "Ctrl-C on boot.sh: boot.sh dies by SIGINT (status $rc)" '[ $rc = 130 ]'
else
	notok "boot.sh started QEMU (see $tmp/boot1.log)"
	notok "Ctrl-C on boot.sh: boot.sh dies by SIGINT"
fi

# 2. SIGTERM to boot.sh alone (a script stopping it), not to its children.
b=$tmp/term
fake_build "$b"
BUILD=$b "$TOP/qemu/boot.sh" -s smoke -o "$b/out dir" -t 120 > "$tmp/boot2.log" 2>&1 &
pid=$!
if wait_qemu "$b" 20; then
	kill -TERM "$pid"
	check "SIGTERM to boot.sh alone: its QEMU is gone within 3 s" 'gone "$b" 3'
	wait "$pid"
	rc=$?
	check "SIGTERM to boot.sh: boot.sh dies by SIGTERM (status $rc)" '[ $rc = 143 ]'
else
	notok "boot.sh started QEMU (see $tmp/boot2.log)"
	notok "SIGTERM to boot.sh: boot.sh dies by SIGTERM"
fi

# 3. The time limit still ends the guest: exit 124.
b=$tmp/limit
fake_build "$b"
BUILD=$b "$TOP/qemu/boot.sh" -s smoke -o "$b/out dir" -t 2 > "$tmp/boot3.log" 2>&1
rc=$?
check "time limit of 2 s: boot.sh exits 124, no QEMU left" '[ $rc = 124 ] && gone "$b" 1'

# 4. Ctrl-C on the harness: the running boot stops and no later suite boots.
b=$tmp/harness
fake_build "$b"
set -m
BUILD=$b env --default-signal=INT "$TOP/tests/harness.sh" smoke smoke > "$tmp/harness.log" 2>&1 &
job=$!
set +m
if wait_qemu "$b" 20; then
	kill -INT -- -"$job"
	check "Ctrl-C on the harness: its QEMU is gone within 3 s" 'gone "$b" 3'
	i=0
	while kill -0 "$job" 2> /dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	sleep 1
	check "Ctrl-C on the harness: it exits and boots no further suite" \
		'! kill -0 "$job" 2> /dev/null && [ -z "$(qemus "$b")" ] && [ "$(grep -c "booting" "$tmp/harness.log")" = 1 ]'
	wait "$job"
	rc=$?
	check "Ctrl-C on the harness: non-zero exit status ($rc)" '[ $rc != 0 ]'
else
	notok "the harness started QEMU (see $tmp/harness.log)"
	notok "Ctrl-C on the harness: it exits and boots no further suite"
	notok "Ctrl-C on the harness: non-zero exit status"
fi
# 5. The TCG mode follows the kernel's JUMP_LABEL: multi-threaded without,
# one thread for every vCPU with it (qemu/boot.sh says why).
for jl in n y; do
	b=$tmp/jump-$jl
	fake_build "$b"
	[ $jl = y ] && echo CONFIG_JUMP_LABEL=y > "$b/obj-test/.config"
	BUILD=$b "$TOP/qemu/boot.sh" -s smoke -o "$b/out dir" -t 5 > "$tmp/jump-$jl.log" 2>&1 &
	job=$!
	cmd=
	wait_qemu "$b" 20 && cmd=$(ps -o args= -p "$(qemus "$b" | head -n 1)")
	kill -TERM "$job" 2> /dev/null
	wait "$job" 2> /dev/null
	if [ $jl = y ]; then
		check "JUMP_LABEL=y kernel: QEMU runs with -accel tcg,thread=single" \
			'[[ $cmd = *"-accel tcg,thread=single "* ]]'
	else
		check "kernel without JUMP_LABEL: QEMU runs with -accel tcg (multi-threaded)" \
			'[[ $cmd = *"-accel tcg "* ]]'
	fi
done
# 6. -g SOCKET: a gdb stub there (compare-test's steps scenarios): gdb
# finds both vCPUs, the boot CPU spinning at the image's "jmp ."
# (0x100020), and the guest runs on once gdb detaches.
b=$tmp/gdb
fake_build "$b"
BUILD=$b "$TOP/qemu/boot.sh" -s smoke -o "$b/out dir" -t 20 -g "$b/gdb.sock" > "$tmp/gdb.log" 2>&1 &
job=$!
out=
if wait_qemu "$b" 20; then
	i=0
	while [ ! -S "$b/gdb.sock" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	out=$(timeout 60 gdb -q -nx -batch -ex "target remote $b/gdb.sock" -ex 'info threads' \
		-ex 'thread 1' -ex 'p/x $pc' -ex detach 2>&1)
fi
check "boot.sh -g: gdb sees both vCPUs through the socket, CPU 0 at the image's entry" \
	'[[ $out = *"CPU#1"* && $out = *"= 0x100020"* ]]'
sleep 1
check "boot.sh -g: the guest runs on after gdb detaches" '[ -n "$(qemus "$b")" ]'
kill -TERM "$job" 2> /dev/null
wait "$job" 2> /dev/null
[ $failed = 0 ]
