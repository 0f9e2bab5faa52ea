#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every C program of the guests builds against the patched tree
# (build/KVER/linux) as qemu/initramfs.sh builds it: the test suites' helpers,
# which make test boots anyway, and compare-test's probe
# (tests/compare/guest/ftq.c), which nothing else in make test builds, so
# that a change of the series' headers that breaks it fails here rather
# than an hour into make compare-test. Prints TAP.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../qemu/lib.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$TOP/qemu/tree.sh" > /dev/null 2>&1 || echo "# qemu/tree.sh failed"
progs=("$TOP"/tests/compare/guest/*.c "$TOP"/tests/guest/*/*.c)
echo "TAP version 13"
echo "1..${#progs[@]}"
n=0
for f in "${progs[@]}"; do
	n=$((n + 1))
	if gcc "${GUEST_CFLAGS[@]}" -o "$out/prog" "$f" > "$out/log" 2>&1; then
		echo "ok $n - ${f#"$TOP"/} builds"
	else
		echo "not ok $n - ${f#"$TOP"/} builds"
		sed 's/^/# /' "$out/log" | head -n 20
	fi
done
