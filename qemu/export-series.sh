#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Write a kernel git work tree's commits as a series under patches/:
#   qemu/export-series.sh WORKTREE BASE patches/NAME
# git format-patch BASE..HEAD, then the quilt series file.  The context
# line of a blank source line (a lone space) is written as an empty line,
# which patch(1), quilt and git apply/am all read as the same context, so
# that the stored patches carry no trailing whitespace.
#
# A cover letter, patches/NAME/0000-cover-letter.patch, is not part of
# the series file (quilt, qemu/tree.sh and make check-patches read only
# the patches it lists).  When there is one, its subject and text are
# kept and what git format-patch --cover-letter generates, the [PATCH
# 00/N] count, the shortlog and the diffstat, is written again for the
# new series.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# = 3 ] || die "usage: export-series.sh WORKTREE BASE patches/NAME"
wt=$1 base=$2 out=$3
cover=0000-cover-letter.patch
git -C "$wt" rev-parse -q --verify "$base^{commit}" > /dev/null || die "no commit $base in $wt"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$wt" format-patch -q --no-signature --cover-letter -o "$tmp" "$base..HEAD"
mkdir -p "$out"
find "$out" -maxdepth 1 -name '*.patch' ! -name "$cover" -delete
if [ -f "$out/$cover" ]; then
	# Header and shortlog on from the new one; sender, subject and text
	# from the old one (the text ends where its shortlog, "Name (N):",
	# starts; the sender is the old From: header, not whoever exports).
	awk -v old="$out/$cover" '
		function title(s) { sub(/^Subject: \[[^]]*\] */, "", s); return s }
		BEGIN {
			while ((getline l < old) > 0) {
				if (!hdr) {
					if (l ~ /^Subject: /) subj = title(l)
					if (l ~ /^From: /) { from = l; infrom = 1 } else if (infrom && l ~ /^[ \t]/) from = from "\n" l; else infrom = 0
					if (l == "") hdr = 1
					continue
				}
				if (prev == "" && l ~ /^[^ ].* \([0-9]+\):$/) break
				text = text l "\n"; prev = l
			}
		}
		!body && /^Subject: / { skip = 0; match($0, /^Subject: \[[^]]*\] */); print substr($0, 1, RLENGTH) subj; next }
		!body && /^From: / && from != "" { print from; skip = 1; next }
		!body && skip && /^[ \t]/ { next }
		!body { skip = 0 }
		!body { print; if ($0 == "") { body = 1; printf "%s", text }; next }
		!short && prev == "" && /^[^ ].* \([0-9]+\):$/ { short = 1 }
		short { print }
		{ prev = $0 }
	' "$tmp/$cover" > "$out/$cover.new"
	mv "$out/$cover.new" "$out/$cover"
fi
for p in "$tmp"/*.patch; do
	[ "${p##*/}" = "$cover" ] && continue
	sed 's/^ $//' "$p" > "$out/${p##*/}"
done
(cd "$out" && ls -- *.patch | grep -vx "$cover" > series)
say "$(wc -l < "$out/series") patches in ${out#"$TOP"/}"
