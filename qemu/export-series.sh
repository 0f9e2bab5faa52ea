#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Write a kernel git work tree's commits as a series under patches/:
#   qemu/export-series.sh WORKTREE BASE patches/NAME
# git format-patch BASE..HEAD, then the quilt series file.  The context
# line of a blank source line (a lone space) is written as an empty line,
# which patch(1), quilt and git apply/am all read as the same context, so
# that the stored patches carry no trailing whitespace.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# = 3 ] || die "usage: export-series.sh WORKTREE BASE patches/NAME"
wt=$1 base=$2 out=$3
git -C "$wt" rev-parse -q --verify "$base^{commit}" > /dev/null || die "no commit $base in $wt"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$wt" format-patch -q --no-signature -o "$tmp" "$base..HEAD"
mkdir -p "$out"
rm -f "$out"/*.patch
for p in "$tmp"/*.patch; do
	sed 's/^ $//' "$p" > "$out/${p##*/}"
done
(cd "$out" && ls -- *.patch > series)
say "$(wc -l < "$out/series") patches in ${out#"$TOP"/}"
