#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make kernel-deb's CI check (its full build is about an hour): the
# series' fragment on Debian's own configuration (linux-config-$KVER, with
# the key files a Debian /boot/config-* names) keeps every option the
# series needs after olddefconfig, names no Debian key file, signs the
# modules with a key of the build's own, and every file the series touch
# compiles with that configuration as a single object (-Werror).  And a
# configuration the series cannot have (no SMP) fails.  Prints TAP.
. "$(dirname "${BASH_SOURCE[0]}")/../../qemu/lib.sh"
echo "TAP version 13"
echo "1..3"
n=0 failed=0
check() {
	n=$((n + 1))
	if eval "$2"; then echo "ok $n - $1"; else failed=$((failed + 1)); echo "not ok $n - $1"; fi
}
out=$BUILD/test/host
mkdir -p "$out"
t0=$SECONDS
"$TOP/qemu/tree.sh" > "$out/kernel-deb.tree.log" 2>&1
rc=$?
echo "# the patched tree: $((SECONDS - t0)) s"
t0=$SECONDS
[ $rc = 0 ] && "$TOP/deploy/kernel-deb.sh" --check > "$out/kernel-deb.check.log" 2>&1
rc=$?
echo "# deploy/kernel-deb.sh --check: $((SECONDS - t0)) s"
sed 's/^/# /' "$out/kernel-deb.check.log" | tail -n 8
check "the fragment on Debian's configuration: every option the series needs stuck, no Debian key file, modules signed" \
	'grep -q "^==> configuration: every option of qemu/config/deb.config set" "$out/kernel-deb.check.log"'
check "every file the series touch compiles as a single object on Debian's configuration (-Werror)" \
	'[ $rc = 0 ] && grep -q "^==> compiled in " "$out/kernel-deb.check.log"'
# A configuration without SMP cannot have SCHED_NOTICK: the check fails.
nosmp=$(mktemp "${TMPDIR:-/tmp}/nosmp.XXXXXX")
xzcat /usr/src/linux-config-$KVER/config.amd64_none_amd64.xz | sed 's/^CONFIG_SMP=y$/# CONFIG_SMP is not set/' > "$nosmp"
KDEB_CONFIG=$nosmp KDEB_OBJ=$BUILD/obj-deb-nosmp "$TOP/deploy/kernel-deb.sh" --check > "$out/kernel-deb.nosmp.log" 2>&1
rc2=$?
rm -f "$nosmp"
check "a configuration without SMP fails the check: SCHED_NOTICK did not stick" \
	'[ $rc2 != 0 ] && grep -q "config: CONFIG_SCHED_NOTICK is not in this configuration" "$out/kernel-deb.nosmp.log"'
[ $failed = 0 ]
