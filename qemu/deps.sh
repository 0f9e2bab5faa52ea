#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install, with apt, whatever the build and the tests need.  Does nothing
# (and needs no network) when everything is already installed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

PKGS="linux-source-6.1 build-essential bc bison flex libelf-dev libssl-dev
      cpio xz-utils rsync kmod ccache perl python3 qemu-system-x86
      busybox-static util-linux gnuplot-nox"
[ "${1:-}" = "--list" ] && { echo $PKGS; exit 0; }

missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

say "installing:$missing"
[ "$(id -u)" = 0 ] || die "need root to install:$missing (or install them and rerun)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || die "apt-get update failed"
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
	die "apt-get install failed for:$missing"
