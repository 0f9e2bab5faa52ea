#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The deployment examples of deploy/examples/ (docs/deployment.md), as
# far as the host can check them without installing them: the systemd
# units pass systemd-analyze verify (with the built notickctl in
# ExecStart), the sysctl.d file names the sysctl of sched-notick.rst, and
# the irqbalance and tuned excerpts name their real variables.  Prints TAP.
. "$(dirname "${BASH_SOURCE[0]}")/../../qemu/lib.sh"
ex=$TOP/deploy/examples
echo "TAP version 13"
echo "1..5"
n=0 failed=0
check() {
	n=$((n + 1))
	if eval "$2"; then echo "ok $n - $1"; else failed=$((failed + 1)); echo "not ok $n - $1"; fi
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/deploy.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
make -s -C "$TOP/tools/notickctl" BUILD="$tmp/nt" > /dev/null 2>&1
cp "$ex"/*.service "$tmp/"
sed -i "s|/usr/sbin/notickctl|$tmp/nt/notickctl|; s|/usr/local/bin/app|/bin/sleep|" "$tmp"/*.service
systemd-analyze verify --man=no "$tmp/notick-app.service" "$tmp/notick-isolate@.service" > "$tmp/verify" 2>&1
rc=$?
sed 's/^/# /' "$tmp/verify"
check "systemd-analyze verify: notick-app.service and notick-isolate@.service" '[ $rc = 0 ]'
check "notick-app.service: CAP_SYS_NICE only, ambient, and no new privileges" \
	'grep -qx "AmbientCapabilities=CAP_SYS_NICE" "$ex/notick-app.service" && grep -qx "CapabilityBoundingSet=CAP_SYS_NICE" "$ex/notick-app.service" && grep -qx "NoNewPrivileges=yes" "$ex/notick-app.service"'
doc=$TOP/docs/sched-notick.rst
check "90-notick.conf sets kernel.sched_notick_grace_us, the sysctl sched-notick.rst documents" \
	'grep -qx "kernel.sched_notick_grace_us = [0-9-]*" "$ex/90-notick.conf" && grep -q "sched_notick_grace_us" "$doc"'
check "the irqbalance excerpt sets IRQBALANCE_BANNED_CPULIST, as notickctl --isolate says" \
	'grep -qx "IRQBALANCE_BANNED_CPULIST=3" "$ex/irqbalance" && grep -q "IRQBALANCE_BANNED_CPULIST=%d in /etc/default/irqbalance" "$TOP/tools/notickctl/isolate.c"'
check "the tuned excerpt sets cpu-partitioning's isolated_cores" \
	'grep -qx "isolated_cores=3" "$ex/cpu-partitioning-variables.conf"'
[ $failed = 0 ]
