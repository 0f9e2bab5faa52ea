#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make compare-test: the noise benchmark (issue 6).  Not written yet.
. "$(dirname "$0")/../qemu/lib.sh"
die "compare-test is not implemented yet (issue 6); the compare kernel and initramfs are built in build/obj-compare and build/compare"
