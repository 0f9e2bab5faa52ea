#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# OFFSCHED's ABI documentation against the code, in the patched tree
# (build/KVER/linux): every sysfs file of offsched_mgr and every parameter of
# the core has an entry in Documentation/ABI/testing/, every entry names a
# file that exists, scripts/get_abi.pl accepts the entries, and the ioctl
# code of <uapi/linux/offsched.h> is registered in ioctl-number.rst and
# used by nothing else there. Prints TAP.
set -uo pipefail
. "$(dirname "$0")/../../qemu/lib.sh"
T=$TREE
ABI=$T/Documentation/ABI/testing
MGR=$T/drivers/misc/offsched/mgr.c
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

echo "TAP version 13"
echo "1..6"
# The patched tree, made or brought up to date (a no-op when it is).
"$TOP/qemu/tree.sh" > /dev/null 2>&1 || echo "# qemu/tree.sh failed"
if [ ! -f "$MGR" ]; then
	echo "Bail out! no patched tree at $T (make tree)"
	exit 1
fi

# The attributes in the manager's group: the entries of offsched_attrs[]
# (&dev_attr_NAME.attr) and offsched_bin_attrs[] (&bin_attr_NAME).
code=$(sed -n '/^static struct \(bin_\)\?attribute \*offsched_\(bin_\)\?attrs\[\]/,/^};/p' "$MGR" |
	sed -nE 's/.*&(dev|bin)_attr_([a-z_0-9]+).*/\2/p' | sort -u)
doc=$(sed -nE 's|^What:[[:space:]]+/sys/devices/system/cpu/cpuX/offsched/([a-z_0-9]+)$|\1|p' \
	"$ABI/sysfs-devices-system-cpu-offsched" 2>/dev/null | sort -u)
missing=$(comm -23 <(echo "$code") <(echo "$doc") | grep . | tr '\n' ' ')
stale=$(comm -13 <(echo "$code") <(echo "$doc") | grep . | tr '\n' ' ')
check "every sysfs file of offsched_mgr ($(echo $code | wc -w)) is documented (missing: ${missing:-none})" \
	'[ -n "$code" ] && [ -z "$missing" ]'
check "every documented offsched_mgr file exists (stale: ${stale:-none})" '[ -z "$stale" ]'

params=$(sed -nE 's/^module_param(_cb)?\(([a-z_0-9]+),.*/\2/p' "$T/kernel/offsched.c" | sort -u)
pdoc=$(sed -nE 's|^What:[[:space:]]+/sys/module/offsched/parameters/([a-z_0-9]+)$|\1|p' \
	"$ABI/sysfs-module-offsched" 2>/dev/null | sort -u)
check "every parameter of the core ($params) is documented, and only those" \
	'[ -n "$params" ] && [ "$params" = "$pdoc" ]'

out=$(cd "$T" && perl scripts/get_abi.pl validate --dir Documentation/ABI/testing 2>&1 |
	grep -i offsched)
check "scripts/get_abi.pl validates the entries${out:+ ($out)}" '[ -z "$out" ]'

magic=$(sed -nE 's/^#define OFFSCHED_IOC_MAGIC[[:space:]]+(0x[0-9a-fA-F]+).*/\1/p' \
	"$T/include/uapi/linux/offsched.h")
code=$(printf '0x%02X' "$magic" 2>/dev/null)
rst=$T/Documentation/userspace-api/ioctl/ioctl-number.rst
rows=$(grep -E "^$code " "$rst")
check "the ioctl code $code is registered for uapi/linux/offsched.h" \
	'grep -qE "^$code .*uapi/linux/offsched\.h" <<< "$rows"'
check "and no other row of ioctl-number.rst uses $code ($(grep -vc offsched <<< "$rows") other)" \
	'[ -n "$rows" ] && ! grep -v "uapi/linux/offsched\.h" <<< "$rows" | grep -q .'
exit $fail
