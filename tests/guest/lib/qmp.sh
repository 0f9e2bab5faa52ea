# SPDX-License-Identifier: GPL-2.0
# Ask QEMU for a QMP command from inside the guest (busybox sh), in a suite
# that has a qmp file (tests/harness.sh; qemu/boot.sh -Q relays it):
#   qmp JSON      send one QMP command, e.g.
#                 qmp '{"execute": "device_del", "arguments": {"id": "cpu2"}}'
# Nothing comes back: the suite looks for the effect (a CPU appearing in
# sysfs, a machine check in the log); the host logs each command and its
# reply in build/test/SUITE/qmp.log.
qmp() { printf '%s\n' "$1" > /dev/ttyS3; }
