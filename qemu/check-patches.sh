#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check-patches: checkpatch --strict on every patch of every series,
# in series order, and a check that each series applies alone (fuzz 0) to
# the pristine tree.  Patches go to checkpatch on stdin: given a file name
# inside a git work tree, checkpatch checks the .patch file itself as
# source and reports blank diff context lines as trailing whitespace.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

cp=$PRISTINE/scripts/checkpatch.pl
[ -f "$cp" ] || die "no pristine tree (run make tree)"
rc=0

# covered PATCH: every file PATCH creates is under an F: pattern of a
# MAINTAINERS entry in the tree with every series applied (the series'
# own entries list their files and directories).
covered() {
	local f pats
	pats=$(sed -n 's/^F:[[:space:]]*//p' "$TREE/MAINTAINERS")
	for f in $(awk '/^diff --git /{f=$4} /^new file mode/{print substr(f, 3)}' "$1"); do
		while IFS= read -r pat; do
			case $pat in
			*/) [ "${f#"$pat"}" != "$f" ] && continue 2 ;;
			*) [ "$pat" = "$f" ] && continue 2 ;;
			esac
		done <<< "$pats"
		return 1
	done
}

for d in $(series_dirs); do
	for p in $(series_patches "$d"); do
		echo "== ${p#"$TOP"/}"
		# The changelogs cite mainline commits (Fixes: tags) that no
		# git history here holds: checkpatch would call each unknown.
		# Their form is still checked (GIT_COMMIT_ID); that they exist
		# is checked by hand against public sources.
		out=$(perl "$cp" --strict --no-tree --terse --ignore UNKNOWN_COMMIT_ID - < "$p")
		# One known false positive: checkpatch reads a linker script
		# line of include/asm-generic/vmlinux.lds.h, "*(__x_sched_class)"
		# as in the lines around it, as C multiplication.
		# Another: "does MAINTAINERS need updating?" for new files that
		# an entry already covers (see covered()).
		bad=$(while IFS= read -r l; do
			[[ $l =~ WARNING:\ added,\ moved\ or\ deleted\ file.*MAINTAINERS\ need\ updating ]] &&
				covered "$p" && continue
			[[ $l =~ ^-:([0-9]+):\ CHECK:\ spaces\ preferred\ around\ that\ \'\*\' ]] &&
				sed -n "${BASH_REMATCH[1]}p" "$p" | grep -qE '^\+\s*\*\(__[a-z]+_sched_class\)' &&
				continue
			[[ $l =~ ^total: ]] || echo "$l"
		done <<< "$out")
		echo "$out"
		[ -z "$bad" ] || rc=1
	done
	alone=$BUILD/check-alone
	rm -rf "$alone"
	cp -al "$PRISTINE" "$alone"
	for p in $(series_patches "$d"); do
		if ! patch -d "$alone" -p1 -F0 -N -s --no-backup-if-mismatch < "$p" > /dev/null 2>&1; then
			echo "${d#"$TOP"/}: ${p##*/} does not apply alone to the pristine tree"
			rc=1
			break
		fi
	done
	rm -rf "$alone"
done
exit $rc
