#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot a guest kernel and initramfs in QEMU (x86_64, TCG), always under a
# hard time limit.
#   qemu/boot.sh [options] [-- extra kernel args]
#     -f FLAVOUR   test (default) or compare
#     -s SUITE     run tests/guest/SUITE in the guest (default: interactive shell)
#     -o DIR       with -s: write console.log (ttyS0), ktap.log (ttyS1) and
#                  data.log (ttyS2, bulk data from the guest) into DIR
#     -t SECONDS   time limit (default 300; 0 = none, interactive only)
#     -c CPUS      number of CPUs (default 2), or any -smp argument
#     -C MODEL     QEMU CPU model and flags (default max)
#     -d DEVICE    a QEMU -device present from boot (repeatable), e.g. a CPU
#                  beyond -c's count that QMP may eject later
#     -k KERNEL    boot build/KVER/obj-KERNEL's bzImage instead of the flavour's
#                  (e.g. compare-mainline, the tree without the series)
#     -g SOCKET    a gdb stub on the Unix socket SOCKET (compare-test's
#                  steps scenarios single-step the guest through it)
#     -Q           with -s: the guest may ask QEMU for QMP commands (CPU
#                  hot-add and hot-remove, machine checks): each JSON line
#                  it writes to its fourth serial port (/dev/ttyS3,
#                  tests/guest/lib/qmp.sh) goes to QEMU's QMP socket
#                  (qemu/qmp-relay.py); DIR/qmp.log has them and the replies
#     -I           deterministic timing: QEMU's -icount shift=0,sleep=off
#                  (one guest instruction = one virtual ns; QEMU 7.2 brings
#                  up only one CPU that way, so use it with -c 1)
# Exit status: QEMU's, or 124 when the time limit killed the guest; killed
# by the signal (SIGINT, SIGTERM, SIGHUP) that stopped it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

flavour=test suite= outdir= limit=300 cpus=2 kobj= cpu=max icount=() gdb=() qmp= devices=()
while getopts "f:s:o:t:c:C:d:k:g:QI" opt; do
	case $opt in
	f) flavour=$OPTARG ;;
	s) suite=$OPTARG ;;
	o) outdir=$OPTARG ;;
	t) limit=$OPTARG ;;
	c) cpus=$OPTARG ;;
	C) cpu=$OPTARG ;;
	d) devices+=(-device "$OPTARG") ;;
	k) kobj=$OPTARG ;;
	g) gdb=(-gdb "unix:$OPTARG,server=on,wait=off") ;;
	Q) qmp=1 ;;
	I) icount=(-icount shift=0,sleep=off) ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" = -- ] && shift

kernel=$BUILD/obj-${kobj:-$flavour}/arch/x86/boot/bzImage
initrd=$BUILD/initramfs-$flavour/initramfs.cpio.gz
[ -f "$kernel" ] || die "no kernel $kernel (make kernel first)"
[ -f "$initrd" ] || die "no initramfs $initrd"

# QEMU 7.2's multi-threaded TCG can go on running its old translation of
# kernel text that another vCPU has just patched: a kernel built with
# JUMP_LABEL=y, mainline 6.1 included, takes an int3 oops at its first
# run-time static key change (text_poke_bp()), such as enabling a trace
# event while another CPU runs. Such a kernel runs with one TCG thread for
# all vCPUs, which serializes translation and patching (slower when both
# CPUs are busy).
# A suite that patches text itself (tests/guest/SUITE/tcg-single: the
# notickctl suite's --report enables trace events) runs so as well.
accel=tcg
grep -qs '^CONFIG_JUMP_LABEL=y' "${kernel%/arch/x86/boot/bzImage}/.config" &&
	accel=tcg,thread=single
[ -n "$suite" ] && [ -f "$TOP/tests/guest/$suite/tcg-single" ] &&
	accel=tcg,thread=single

# tsc=reliable is a clock setting, not an isolation one: under TCG the guest
# would otherwise call its TSC unstable and fall back to the HPET.
# mce=ignore_ce: a kernel with machine checks (the test kernel) polls the
# banks of every CPU every 5 minutes from a timer, a tick no guest wants;
# uncorrected errors are handled all the same.
append="console=ttyS0 panic=-1 oops=panic softlockup_panic=0 tsc=reliable mce=ignore_ce $*"
qemu=(qemu-system-x86_64 -machine pc -accel "$accel" -cpu "$cpu" -smp "$cpus" -m 1024
      -kernel "$kernel" -initrd "$initrd" -no-reboot -nodefaults "${devices[@]}" "${icount[@]}" "${gdb[@]}")

if [ -z "$suite" ]; then
	append="$append notick.suite=shell"
	run=("${qemu[@]}" -nographic -serial mon:stdio -append "$append")
	[ "$limit" = 0 ] && exec "${run[@]}"
	exec timeout --foreground "$limit" "${run[@]}"
fi

[ -n "$outdir" ] || die "-s needs -o DIR"
mkdir -p "$outdir"
rm -f "$outdir/console.log" "$outdir/ktap.log" "$outdir/data.log" "$outdir/qmp.req" \
	"$outdir/qmp.log" "$outdir/qmp.sock"
extra=()
[ -n "$qmp" ] && extra=(-serial "file:$outdir/qmp.req" -qmp "unix:$outdir/qmp.sock,server=on,wait=off")
append="$append notick.suite=$suite notick.limit=$limit"
# QEMU stays in our process group (--foreground), so that a Ctrl-C on the
# terminal reaches it at once; a signal sent to this script alone stops it
# too (the trap), and the script then dies by that signal, so that a
# calling shell stops as well instead of going on with its next step.
# The traps come first: a signal right after QEMU starts must find them.
guest= relay=
stop() {
	trap '' INT TERM HUP
	[ -n "$relay" ] && kill "$relay" 2> /dev/null
	if [ -n "$guest" ]; then
		kill -TERM "$guest" 2> /dev/null
		wait "$guest" || :
	fi
	trap - "$1"
	kill -"$1" $$
}
trap 'stop INT' INT
trap 'stop TERM' TERM
trap 'stop HUP' HUP
timeout --foreground -k 10 "$limit" "${qemu[@]}" -display none -monitor none \
	-serial "file:$outdir/console.log" -serial "file:$outdir/ktap.log" \
	-serial "file:$outdir/data.log" "${extra[@]}" \
	-append "$append" < /dev/null > "$outdir/qemu.log" 2>&1 &
guest=$!
if [ -n "$qmp" ]; then
	python3 "$TOP/qemu/qmp-relay.py" "$outdir/qmp.req" "$outdir/qmp.sock" \
		> "$outdir/qmp.log" 2>&1 &
	relay=$!
fi
set +e
wait "$guest"
rc=$?
[ -n "$relay" ] && { kill "$relay" 2> /dev/null; wait "$relay"; }
set -e
exit $rc
