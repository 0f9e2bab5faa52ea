#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make deb: the notickctl Debian source and binary packages, built with
# dpkg-buildpackage from tools/notickctl (its debian/) into build/KVER/deb/,
# then checked with lintian (warnings and errors fail).
#   deploy/notickctl-deb.sh     prints the files made
set -euo pipefail
. "$(dirname "$0")/../qemu/lib.sh"

ver=$(dpkg-parsechangelog -l "$TOP/tools/notickctl/debian/changelog" -S Version)
out=$BUILD/deb
rm -rf "$out"
mkdir -p "$out"
# A native source package is its directory: copy it, without build output.
cp -a "$TOP/tools/notickctl" "$out/notickctl-$ver"
say "dpkg-buildpackage notickctl $ver"
if ! (cd "$out/notickctl-$ver" && dpkg-buildpackage -us -uc) > "$out/build.log" 2>&1; then
	tail -n 40 "$out/build.log" >&2
	die "dpkg-buildpackage failed; full log: ${out#"$TOP"/}/build.log"
fi
changes=$(ls "$out"/notickctl_"$ver"_*.changes)
say "lintian ${changes#"$TOP"/}"
if ! lintian --fail-on error,warning --display-info "$changes" > "$out/lintian.log" 2>&1; then
	cat "$out/lintian.log" >&2
	die "lintian: see ${out#"$TOP"/}/lintian.log"
fi
cat "$out/lintian.log" >&2
ls "$out"/*.deb "$out"/*.dsc "$out"/*.tar.* 2>/dev/null
