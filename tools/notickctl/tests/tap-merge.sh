#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tap-merge.sh NAME FILE STATUS [NAME FILE STATUS]...
# Merge the TAP streams FILE (each produced by a program that exited with
# STATUS) into one stream on stdout: one plan, results renumbered and
# prefixed with NAME.  A missing plan, a short run or a non-zero exit
# status of a producer become "not ok" results of their own, so that a
# consumer of the merged stream sees them.  Exits 1 on any "not ok".
tmp=$(mktemp "${TMPDIR:-/tmp}/tap-merge.XXXXXX") || exit 1
trap 'rm -f "$tmp"' EXIT
bad=0
total=0
while [ $# -ge 3 ]; do
	name=$1 f=$2 st=$3
	shift 3
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$f" | head -n 1)
	ran=$(grep -Ec '^(not )?ok ' "$f")
	failed=$(grep -c '^not ok ' "$f")
	awk -v name="$name" -v base="$total" '
		/^(not )?ok [0-9]+/ {
			st = ($1 == "not") ? "not ok" : "ok"
			sub(/^(not )?ok [0-9]+ (- )?/, "")
			printf "%s %d - %s: %s\n", st, base + (++n), name, $0
			next
		}
		/^#/ { print; next }' "$f" >> "$tmp"
	total=$((total + ran))
	problem=
	if [ -z "$plan" ]; then
		problem="no TAP plan"
	elif [ "$ran" -ne "$plan" ]; then
		problem="planned $plan tests, ran $ran"
	elif [ "$st" -ne 0 ] && [ "$failed" -eq 0 ]; then
		problem="exited with status $st"
	fi
	if [ -n "$problem" ]; then
		total=$((total + 1))
		echo "not ok $total - $name: $problem" >> "$tmp"
	fi
	[ "$failed" -eq 0 ] && [ -z "$problem" ] || bad=1
done
echo "TAP version 13"
echo "1..$total"
cat "$tmp"
[ $bad = 0 ]
