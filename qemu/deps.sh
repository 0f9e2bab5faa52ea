#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install, with apt, whatever the build and the tests need.  Does nothing
# (and needs no network) when everything is already installed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

PKGS="linux-source-$KVER build-essential bc bison flex libelf-dev libssl-dev
      cpio xz-utils rsync kmod ccache perl python3 qemu-system-x86
      busybox-static util-linux gnuplot-nox gdb stress-ng bash-completion
      dpkg-dev debhelper lintian file linux-config-$KVER python3-docutils
      iproute2 nftables"
[ "${1:-}" = "--list" ] && { echo $PKGS; exit 0; }
# --missing: print how many of them are not installed (for a run's record)
count=
[ "${1:-}" = "--missing" ] && { count=1; shift; }
# qemu/deps.sh PKG...: these too (make kernel-deb, make deb)
[ $# -gt 0 ] && PKGS="$PKGS $*"

missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing="$missing $p"
done
# shellcheck disable=SC2086
[ -n "$count" ] && { set -- $missing; echo $#; exit 0; }

# kexec-tools runs in the guest only. Installing its package would make the
# host's own reboots go through kexec (its debconf question load_kexec
# defaults to true), so it is downloaded and unpacked under build/debs/
# instead; the libraries it links (Xen's control library, opened to detect
# Xen) are ordinary packages and are installed.
debs=$BUILD/debs
deb=$(ls "$debs"/kexec-tools_*.deb 2>/dev/null | head -n 1 || true)
if [ -z "$deb" ] || [ ! -x "$debs/root/sbin/kexec" ]; then
	say "downloading kexec-tools for the guest"
	rm -rf "$debs" && mkdir -p "$debs"
	# As the caller: apt's sandbox user may not write build/.
	get() { (cd "$debs" && apt-get download -q -o APT::Sandbox::User="$(id -un)" kexec-tools) > /dev/null; }
	# A fresh system may have no package lists yet.
	get || { [ "$(id -u)" = 0 ] && apt-get update -qq && get; } ||
		die "apt-get download kexec-tools failed"
	deb=$(ls "$debs"/kexec-tools_*.deb)
	dpkg-deb -x "$deb" "$debs/root" || die "cannot unpack $deb"
fi
# Its library dependencies, from e.g. "libc6 (>= 2.34), libxenmisc4.17 (>= 4.17)".
for p in $(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed -E 's/^ *([^ (|]+).*/\1/' | grep '^lib'); do
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
