#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Prepare the kernel source trees of the base KVER (6.1: Debian's
# linux-source-6.1) under build/KVER/:
#   linux-KVER/  the pristine tree from Debian's linux-source-KVER tarball,
#                extracted once and never modified;
#   linux/       the pristine tree with every patches/*/KVER/series applied.
# linux/ is updated with rsync --checksum, so only files whose content
# changed get a new mtime and an O= build recompiles only what depends on
# them.  Nothing is redone when neither the tarball nor a patch changed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
build_lock

pkg=linux-source-$KVER
tarball=$(dpkg-query -L "$pkg" 2>/dev/null | grep -E "/$pkg\\.tar\\.(xz|bz2|gz)\$" | head -n 1)
[ -n "$tarball" ] && [ -f "$tarball" ] || die "$pkg is not installed (run qemu/deps.sh)"
tar_id="$tarball $(stat -c '%s %Y' "$tarball") $(dpkg-query -W -f='${Version}' "$pkg")"

mkdir -p "$BUILD"
if [ "$(cat "$PRISTINE.stamp" 2>/dev/null)" != "$tar_id" ]; then
	say "extracting $tarball"
	rm -rf "$PRISTINE" "$PRISTINE.stamp" "$TREE.stamp"
	mkdir -p "$PRISTINE"
	tar -xf "$tarball" -C "$PRISTINE" --strip-components=1
	echo "$tar_id" > "$PRISTINE.stamp"
fi
kver="$(make -s -C "$PRISTINE" kernelversion) (Debian $pkg $(dpkg-query -W -f='${Version}' "$pkg"))"
[ -n "$(series_dirs)" ] || die "no series for the base $KVER (patches/*/$KVER/series)"

# Identify the patch stack: tarball plus every patch's name and content.
stack_id() {
	echo "$tar_id"
	local d p
	for d in $(series_dirs); do
		for p in $(series_patches "$d"); do
			[ -f "$p" ] || die "${p#"$TOP"/}: listed in ${d#"$TOP"/}/series but missing"
			echo "${p#"$TOP"/} $(sha256sum < "$p")"
		done
	done
}
id=$(stack_id | sha256sum | cut -d' ' -f1)
if [ "$(cat "$TREE.stamp" 2>/dev/null)" = "$id" ] && [ -f "$TREE/Makefile" ]; then
	say "kernel tree $kver: up to date"
	exit 0
fi

staging=$TREE.staging
rm -rf "$staging"
# Hard links are safe: patch(1) writes a new file and renames it over the
# old name, so the pristine tree is never changed through them.
cp -al "$PRISTINE" "$staging"
n=0
for d in $(series_dirs); do
	for p in $(series_patches "$d"); do
		if ! out=$(patch -d "$staging" -p1 -F0 -N -s --no-backup-if-mismatch < "$p" 2>&1); then
			printf '%s\n' "$out" >&2
			rm -rf "$staging"
			die "patch ${p#"$TOP"/} does not apply to linux $kver"
		fi
		n=$((n + 1))
	done
done
say "linux $kver with $n patch(es) applied; syncing ${TREE#"$TOP"/}"
if [ -f "$TREE/Makefile" ]; then
	rsync -rlc --delete "$staging/" "$TREE/"
	rm -rf "$staging"
else
	# First time: the staging tree becomes the tree.  Files it shares with
	# the pristine tree are only ever replaced, never written in place.
	rm -rf "$TREE"
	mv "$staging" "$TREE"
fi
echo "$id" > "$TREE.stamp"
