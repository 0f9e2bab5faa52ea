#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build a guest kernel out of tree from build/linux.
#   qemu/kernel.sh test      tinyconfig + base.config + test.config  -> build/obj-test
#   qemu/kernel.sh compare   tinyconfig + base.config + compare.config -> build/obj-compare
# The .config is regenerated only when a fragment or the tree changed; the
# rest is make's incremental build through ccache.  Modules are installed
# into build/obj-<flavour>/modroot for the initramfs.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
build_lock

flavour=${1:?usage: kernel.sh test|compare}
frag=$TOP/qemu/config/$flavour.config
[ -f "$frag" ] || die "no config fragment $frag"
obj=$BUILD/obj-$flavour
mkdir -p "$obj"

export CCACHE_DIR=${CCACHE_DIR:-$HOME/.ccache}
# Relative paths in the cache keys: hits across clones and work trees.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$TOP}
export KBUILD_BUILD_TIMESTAMP=notick KBUILD_BUILD_USER=notick KBUILD_BUILD_HOST=notick
kmake() { make -s -C "$TREE" O="$obj" CC="ccache gcc" HOSTCC="ccache gcc" "$@"; }

cfg_id=$(cat "$TREE.stamp" "$TOP/qemu/config/base.config" "$frag" | sha256sum | cut -d' ' -f1)
if [ "$(cat "$obj/.config.stamp" 2>/dev/null)" != "$cfg_id" ] || [ ! -f "$obj/.config" ]; then
	say "configuring $flavour kernel"
	kmake tinyconfig >/dev/null
	KCONFIG_CONFIG=$obj/.config "$TREE/scripts/kconfig/merge_config.sh" -m -O "$obj" \
		"$obj/.config" "$TOP/qemu/config/base.config" "$frag" > "$obj/merge.log" 2>&1 ||
		{ cat "$obj/merge.log" >&2; die "merge_config.sh failed"; }
	kmake olddefconfig > /dev/null 2>&1
	# Every option the fragments ask for must have stuck.  An option this
	# tree does not know at all (a series that is not applied) is only
	# reported.
	bad=0
	for f in "$TOP/qemu/config/base.config" "$frag"; do
		while IFS= read -r l; do
			case "$l" in
			CONFIG_*=*)
				o=${l%%=*}
				if ! grep -qE "^($o=|# $o is not set)" "$obj/.config"; then
					echo "config: $o is not in this tree (series not applied?)" >&2
				elif ! grep -qxF "$l" "$obj/.config"; then
					echo "config: $l did not stick" >&2
					bad=1
				fi ;;
			"# CONFIG_"*" is not set")
				o=${l#\# }; o=${o%% *}
				grep -q "^$o=" "$obj/.config" && { echo "config: $o is still set" >&2; bad=1; } ;;
			esac
		done < "$f"
	done
	[ $bad = 0 ] || die "the $flavour kernel config does not match its fragments"
	echo "$cfg_id" > "$obj/.config.stamp"
fi

say "building $flavour kernel (-j$JOBS)"
if ! kmake -j"$JOBS" bzImage modules > "$obj/build.log" 2>&1; then
	tail -n 40 "$obj/build.log" >&2
	die "the $flavour kernel did not build; full log: ${obj#"$TOP"/}/build.log"
fi
grep -E 'warning:' "$obj/build.log" >&2 || true
rm -rf "$obj/modroot"
mkdir -p "$obj/modroot"
if grep -q '^CONFIG_MODULES=y' "$obj/.config"; then
	kmake INSTALL_MOD_PATH="$obj/modroot" INSTALL_MOD_STRIP=1 DEPMOD=/sbin/depmod \
		modules_install > /dev/null
fi
kver=$(kmake -s kernelrelease)
echo "$kver" > "$obj/kernelrelease"
say "$flavour kernel $kver: ${obj#"$TOP"/}/arch/x86/boot/bzImage"
