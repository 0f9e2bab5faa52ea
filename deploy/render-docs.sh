#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Render the series' Documentation/ pages, as the patched tree has them,
# to docs/ (make docs): docs/sched-notick.rst and docs/offsched.rst, each
# with a header naming its source; the default base's only (qemu/lib.sh).
# Never edit those two by hand.
#   deploy/render-docs.sh [--check]   --check: fail if docs/ differs
set -euo pipefail
. "$(dirname "$0")/../qemu/lib.sh"
[ "$KVER" = "$DEFAULT_KVER" ] ||
	die "docs/ renders the default base, $DEFAULT_KVER: run it without KVER=$KVER"
[ -f "$TREE/Makefile" ] || die "no patched tree ${TREE#"$TOP"/} (make tree)"
check=
[ "${1:-}" = --check ] && check=1
bad=0
for page in scheduler/sched-notick.rst admin-guide/offsched.rst; do
	src=$TREE/Documentation/$page
	dst=$TOP/docs/$(basename "$page")
	[ -f "$src" ] || die "the patched tree has no Documentation/$page"
	tmp=$(mktemp)
	{
		echo ".. Rendered by deploy/render-docs.sh from Documentation/$page"
		echo "   of the patched tree (patches/*/$KVER/series on linux-source-$KVER); do not edit."
		echo
		# The kernel's own cross-references have no target outside it.
		sed -E 's/:(ref|doc):`([^`<]*)( <[^>]*>)?`/\2/g' "$src"
	} > "$tmp"
	if [ -n "$check" ]; then
		cmp -s "$tmp" "$dst" || { echo "docs/$(basename "$page") is not what the patched tree renders (make docs)" >&2; bad=1; }
		rm -f "$tmp"
	else
		mv "$tmp" "$dst"
		chmod 644 "$dst"
		say "docs/$(basename "$page") from Documentation/$page"
	fi
done
exit $bad
