#!/bin/sh
# tap-check.sh FILE STATUS: fail unless FILE is a complete, passing TAP
# stream (plan present, as many results as planned, no "not ok") and the
# producer exited with STATUS 0.
f=$1
st=${2:-0}
plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$f" | head -n 1)
okn=$(grep -c '^ok ' "$f")
bad=$(grep -c '^not ok ' "$f")
if [ -z "$plan" ]; then
	echo "tap-check: $f: no plan" >&2
	exit 1
fi
if [ $((okn + bad)) -ne "$plan" ]; then
	echo "tap-check: $f: planned $plan, ran $((okn + bad))" >&2
	exit 1
fi
if [ "$bad" -ne 0 ] || [ "$st" -ne 0 ]; then
	echo "tap-check: $f: $bad failed (exit status $st)" >&2
	exit 1
fi
echo "# $f: all $plan passed"
