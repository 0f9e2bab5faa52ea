#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The floors of notickctl.h, checked on the objects: a file calls only
# into the floors below its own, never into its own floor's other files
# nor up (main() on top, the commands, then shared helpers).
#   layers.sh OBJDIR "FLOOR0 NAMES" "FLOOR1 NAMES" ...   prints TAP
dir=$1
shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/layers.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
floor=0 objs=
for names in "$@"; do
	for n in $names; do
		echo "$n $floor" >> "$tmp/floors"
		objs="$objs $n"
		nm --defined-only "$dir/$n.o" | awk -v f=$n '$2 ~ /^[TDBR]$/ { print $3, f }' >> "$tmp/defs"
	done
	floor=$((floor + 1))
done
echo "TAP version 13"
echo "1..$(echo $objs | wc -w)"
n=0 failed=0
for o in $objs; do
	n=$((n + 1))
	bad=$(nm -u "$dir/$o.o" | awk '{ print $2 }' |
		awk -v me=$o 'FILENAME == ARGV[1] { fl[$1] = $2; next }
			FILENAME == ARGV[2] { def[$1] = $2; next }
			($1 in def) && def[$1] != me && fl[def[$1]] <= fl[me] {
				printf "%s (%s, floor %d) ", $1, def[$1], fl[def[$1]] }' \
			"$tmp/floors" "$tmp/defs" -)
	fl=$(awk -v me=$o '$1 == me { print $2 }' "$tmp/floors")
	if [ -z "$bad" ]; then
		echo "ok $n - $o.c (floor $fl) calls only into the floors below"
	else
		failed=$((failed + 1))
		echo "not ok $n - $o.c (floor $fl) calls into its own floor or up: $bad"
	fi
done
[ $failed = 0 ]
