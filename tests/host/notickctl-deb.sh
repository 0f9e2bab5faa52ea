#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The form users install notickctl in: its Debian source package builds
# with dpkg-buildpackage (deploy/notickctl-deb.sh, as make deb does, in
# a build directory of its own), is lintian clean, and the binary package
# holds a working notickctl, its man page and bash completion, built
# with dpkg-buildflags' hardening.  Prints TAP.
. "$(dirname "${BASH_SOURCE[0]}")/../../qemu/lib.sh"
echo "TAP version 13"
echo "1..6"
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/notickctl-deb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
t0=$SECONDS
BUILD=$tmp NOTICK_LOCK_HELD=1 "$TOP/deploy/notickctl-deb.sh" > "$tmp/out" 2> "$tmp/err"
rc=$?
echo "# deploy/notickctl-deb.sh: $((SECONDS - t0)) s"
check "dpkg-buildpackage builds the source and binary packages" \
	'[ $rc = 0 ] && ls "$tmp"/deb/notickctl_*.dsc "$tmp"/deb/notickctl_*_*.deb > /dev/null 2>&1'
[ $rc = 0 ] || sed 's/^/# /' "$tmp/err" | tail -n 20
check "lintian: no error or warning" \
	'[ -f "$tmp/deb/lintian.log" ] && ! grep -Eq "^[EW]: " "$tmp/deb/lintian.log"'
deb=$(ls "$tmp"/deb/notickctl_*_*.deb 2> /dev/null | grep -v dbgsym | head -n 1)
mkdir -p "$tmp/root"
[ -n "$deb" ] && dpkg-deb -x "$deb" "$tmp/root"
check "the package installs /usr/sbin/notickctl, its man page and bash completion" \
	'[ -x "$tmp/root/usr/sbin/notickctl" ] && [ -f "$tmp/root/usr/share/man/man8/notickctl.8.gz" ] && [ -f "$tmp/root/usr/share/bash-completion/completions/notickctl" ]'
check "the installed notickctl runs: --version says its version" \
	'"$tmp/root/usr/sbin/notickctl" --version | grep -q "^notickctl [0-9]"'
check "the man page renders without warnings" \
	'[ -z "$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$tmp/root/usr/share/man/man8/notickctl.8.gz" 2>&1 > /dev/null)" ]'
check "built with dpkg-buildflags' hardening (_FORTIFY_SOURCE, stack protector, PIE)" \
	'grep -q -- "-D_FORTIFY_SOURCE=2 .*-fstack-protector-strong" "$tmp/deb/build.log" && file -L "$tmp/root/usr/sbin/notickctl" | grep -q "pie executable"'
[ $failed = 0 ]
