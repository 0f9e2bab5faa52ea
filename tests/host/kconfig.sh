#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Kconfig of the series, on the patched tree (qemu/tree.sh), without
# building a kernel: SCHED_NOTICK can be enabled on x86_64 and cannot on
# arm64, whose 6.1 entry code is not the generic one that stops the tick
# of a run-time full dynticks CPU.  TAP on stdout.
set -uo pipefail
. "$(dirname "$0")/../../qemu/lib.sh"

echo "1..2"
if ! "$TOP/qemu/tree.sh" > /dev/null 2>&1; then
	echo "not ok 1 - kconfig: the patched tree (qemu/tree.sh failed)"
	echo "not ok 2 - kconfig: the patched tree (qemu/tree.sh failed)"
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# value ARCH: CONFIG_SCHED_NOTICK after defconfig + NO_HZ_FULL + SCHED_NOTICK
value() {
	local o=$tmp/$1
	make -s -C "$TREE" O="$o" ARCH="$1" defconfig > "$o.log" 2>&1 &&
	"$TREE/scripts/config" --file "$o/.config" -d NO_HZ_IDLE -e NO_HZ_FULL \
		-e SCHED_NOTICK &&
	make -s -C "$TREE" O="$o" ARCH="$1" olddefconfig >> "$o.log" 2>&1 ||
		{ echo "error"; return; }
	sed -n 's/^CONFIG_SCHED_NOTICK=//p' "$o/.config" | grep . || echo "n"
}
n=0
for t in "x86_64 y generic entry: SCHED_NOTICK can be enabled" \
	 "arm64 n no generic entry in 6.1: SCHED_NOTICK cannot be enabled"; do
	set -- $t
	arch=$1 want=$2
	shift 2
	got=$(value "$arch")
	n=$((n + 1))
	if [ "$got" = "$want" ]; then
		echo "ok $n - kconfig: $arch, $* (CONFIG_SCHED_NOTICK=$got)"
	else
		echo "not ok $n - kconfig: $arch, $* (CONFIG_SCHED_NOTICK=$got, want $want)"
	fi
done
