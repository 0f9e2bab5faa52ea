#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build a guest kernel of the base KVER out of tree, in build/KVER/:
#   qemu/kernel.sh test      tinyconfig + base.config + test.config  -> obj-test
#   qemu/kernel.sh compare   tinyconfig + base.config + compare.config -> obj-compare
# Each fragment qemu/config/NAME.config is followed by qemu/config/KVER/NAME.config
# when the base has one: what differs on that base (options it does not
# have, or cannot turn off).
# Options, before the flavour:
#   -m         build the mainline tree (linux-KVER, no series applied)
#              into obj-FLAVOUR-mainline: the reference kernel
#   -x FRAG    merge qemu/config/FRAG.config last (may repeat), into
#              obj-FLAVOUR-FRAG: e.g. -x notick-off builds without
#              the SCHED_NOTICK option
#   -t DIR     build the source tree DIR instead of linux/; DIR.stamp
#              must exist, and the configuration is made again when it
#              changes (qemu/build-steps.sh builds each step of the series
#              this way)
# The .config is regenerated only when a fragment or the tree changed; the
# rest is make's incremental build through ccache.  Modules are installed
# into obj-*/modroot for the initramfs.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
build_lock

suffix= extra=() steps=
while getopts "mt:x:" opt; do
	case $opt in
	t) TREE=$OPTARG steps=1 ;;
	m) TREE=$PRISTINE; suffix=$suffix-mainline
	   extra+=("$TOP/qemu/config/mainline.config") ;;
	x) [ -f "$TOP/qemu/config/$OPTARG.config" ] || die "no fragment qemu/config/$OPTARG.config"
	   extra+=("$TOP/qemu/config/$OPTARG.config"); suffix=$suffix-$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
flavour=${1:?usage: kernel.sh [-m] [-t DIR] [-x FRAG]... test|compare}
frag=$TOP/qemu/config/$flavour.config
[ -f "$frag" ] || die "no config fragment $frag"
frags=()
# Each fragment, then what the base says differently (qemu/config/KVER/,
# read after it: the last value of an option wins)
for f in "$TOP/qemu/config/base.config" "$frag" "${extra[@]}"; do
	frags+=("$f")
	[ -f "$TOP/qemu/config/$KVER/${f##*/}" ] && frags+=("$TOP/qemu/config/$KVER/${f##*/}")
done
name=$flavour$suffix
obj=$BUILD/obj-$name
stamp=$TREE.stamp
[ "$TREE" = "$PRISTINE" ] && stamp=$PRISTINE.stamp
[ -f "$stamp" ] || die "no tree ${TREE#"$TOP"/} (run qemu/tree.sh)"
mkdir -p "$obj"

export CCACHE_DIR=${CCACHE_DIR:-$HOME/.ccache}
# Relative paths in the cache keys: hits across clones and work trees.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$TOP}
export KBUILD_BUILD_TIMESTAMP=notick KBUILD_BUILD_USER=notick KBUILD_BUILD_HOST=notick
kmake() { make -s -C "$TREE" O="$obj" CC="ccache gcc" HOSTCC="ccache gcc" "$@"; }

cfg_id=$(cat "$stamp" "${frags[@]}" | sha256sum | cut -d' ' -f1)
if [ "$(cat "$obj/.config.stamp" 2>/dev/null)" != "$cfg_id" ] || [ ! -f "$obj/.config" ]; then
	say "configuring $flavour$suffix kernel"
	kmake tinyconfig >/dev/null
	KCONFIG_CONFIG=$obj/.config "$TREE/scripts/kconfig/merge_config.sh" -m -O "$obj" \
		"$obj/.config" "${frags[@]}" > "$obj/merge.log" 2>&1 ||
		{ cat "$obj/merge.log" >&2; die "merge_config.sh failed"; }
	kmake olddefconfig > /dev/null 2>&1
	# Every option the fragments ask for must have stuck; one this tree
	# does not know at all (a series that is not applied, the mainline
	# tree) is only reported.
	quiet=
	[ "$TREE" = "$PRISTINE" ] && quiet=1
	CONFIG_QUIET_ABSENT=$quiet config_stuck "$obj/.config" "${frags[@]}" ||
		die "the $name kernel config does not match its fragments"
	echo "$cfg_id" > "$obj/.config.stamp"
fi

say "building $name kernel (-j$JOBS)"
t0=$SECONDS
old=$(stat -c %Y "$obj/arch/x86/boot/bzImage" 2> /dev/null || echo none)
build() { kmake -j"$JOBS" bzImage modules > "$obj/build.log" 2>&1; }
if ! with_heartbeat "building $name kernel" build; then
	tail -n 40 "$obj/build.log" >&2
	die "the $name kernel did not build; full log: ${obj#"$TOP"/}/build.log"
fi
grep -E 'warning:' "$obj/build.log" >&2 || true
# A warning of the series' own (series_warnings: about a file it touches,
# or objtool's about a function it adds) fails the build. The object is
# removed, so that the next build compiles or links it, and warns, again.
# A step of the series (-t: qemu/build-steps.sh, W=1 there) is judged by
# qemu/build-steps.sh instead, against the pristine tree's own warnings:
# W=1 warns about upstream code in files the series touches.
if [ "$TREE" != "$PRISTINE" ] && [ -z "$steps" ]; then
	own=$(series_warnings "$obj/build.log" "$TREE" "$obj")
	if [ -n "$own" ]; then
		rel=$(realpath -m --relative-to="$obj" "$TREE")/
		cut -d: -f1 <<< "$own" | sort -u | while read -r f; do
			f=${f#"$rel"}
			case $f in
			*.c) rm -f "$obj/${f%.c}.o" ;;
			*.o) rm -f "$obj/$f" ;;	# objtool's: vmlinux.o, linked again
			esac
		done
		die "the $name kernel: the series' own code warns (${own%%$'\n'*}); full log: ${obj#"$TOP"/}/build.log"
	fi
fi
rm -rf "$obj/modroot"
mkdir -p "$obj/modroot"
if grep -q '^CONFIG_MODULES=y' "$obj/.config"; then
	kmake INSTALL_MOD_PATH="$obj/modroot" INSTALL_MOD_STRIP=1 DEPMOD=/sbin/depmod \
		modules_install > /dev/null
fi
kver=$(kmake -s kernelrelease)
echo "$kver" > "$obj/kernelrelease"
# For the records of make test and compare-test (tests/provenance.py):
# the time of a build that made a new image, not of a later no-op make
[ "$(stat -c %Y "$obj/arch/x86/boot/bzImage")" != "$old" ] &&
	echo $((SECONDS - t0)) > "$obj/build-seconds"
say "$name kernel $kver: ${obj#"$TOP"/}/arch/x86/boot/bzImage"
