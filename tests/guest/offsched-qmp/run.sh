#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# OFFSCHED and what QEMU does to a guest from outside, on the guest's
# request (QMP, ../lib/qmp.sh): CPU hot-add and hot-remove (./hotplug.sh),
# in a guest started with 3 of QEMU's 4 CPUs (-smp 2,maxcpus=4 and CPU 2 as
# a -device, which QEMU may eject), and machine checks (./mce.sh).
. ../lib/ktap.sh
. ../lib/qmp.sh
. ../offsched/lib.sh

ktap_plan 18
refcnt() { cat /sys/module/offsched_mgr/refcnt; }

ktap_note "kernel $(uname -r); present $(cat $SYS/present), possible $(cat $SYS/possible)"
ktap_check "modprobe offsched_mgr with CPUs $(cat $SYS/present) present" \
	'modprobe offsched_mgr && [ "$(cat $SYS/present)" = 0-2 ]'
# What is left once CPU 2 is ejected: CPU 3 too where it could be added.
present_after=0-1
[ "$(cat $SYS/possible)" = 0-3 ] && present_after=0-1,3

# --- machine checks on CPU 1 while it runs a service (./mce.sh) -------------
. ./mce.sh

# --- CPU hot-add and hot-remove (./hotplug.sh) --------------------------------
. ./hotplug.sh
