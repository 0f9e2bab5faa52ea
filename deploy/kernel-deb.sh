#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make kernel-deb: Debian packages (linux-image, linux-headers) of the
# patched tree (build/KVER/linux: both series) on a distribution's own
# configuration with the series' options set by qemu/config/deb.config.
#   deploy/kernel-deb.sh [--check]
# The configuration: $KDEB_CONFIG if set (e.g. /boot/config-$(uname -r),
# plain or .xz), else Debian's own from linux-config-KVER
# (config.amd64_none_amd64).  Objects in build/KVER/obj-deb, packages in
# build/KVER/kernel-deb/.
# --check (make test's host test): configure only, check that every
# option of the fragment stuck, and compile each file the series touch
# as a single object with that configuration (build/KVER/obj-deb-check).
set -euo pipefail
. "$(dirname "$0")/../qemu/lib.sh"
build_lock

check=
[ "${1:-}" = --check ] && check=1
frag=$TOP/qemu/config/deb.config
signing=$TOP/qemu/config/deb-signing.config
[ -f "$TREE/Makefile" ] || die "no patched tree ${TREE#"$TOP"/} (make tree)"
cfg=${KDEB_CONFIG:-/usr/src/linux-config-$KVER/config.amd64_none_amd64.xz}
[ -f "$cfg" ] || die "no configuration $cfg (apt-get install linux-config-$KVER, or KDEB_CONFIG=/boot/config-...)"
obj=${KDEB_OBJ:-$BUILD/obj-deb${check:+-check}}
mkdir -p "$obj"
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.ccache}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$TOP}
export KBUILD_BUILD_TIMESTAMP=notick KBUILD_BUILD_USER=notick KBUILD_BUILD_HOST=notick
kmake() { make -s -C "$TREE" O="$obj" CC="ccache gcc" HOSTCC="ccache gcc" "$@"; }

case $cfg in
*.xz) xzcat "$cfg" > "$obj/config.base" ;;
*) cp "$cfg" "$obj/config.base" ;;
esac
# The check takes what a Debian /boot/config-* has and linux-config
# leaves out: keys of Debian's own build tree.
[ -n "$check" ] && cat >> "$obj/config.base" <<'EOT'
CONFIG_SYSTEM_TRUSTED_KEYS="debian/certs/debian-uefi-certs.pem"
CONFIG_SYSTEM_REVOCATION_LIST=y
CONFIG_SYSTEM_REVOCATION_KEYS="debian/certs/debian-uefi-certs.pem"
CONFIG_MODULE_SIG_ALL=y
EOT
cfg_id=$(cat "$TREE.stamp" "$obj/config.base" "$frag" "$signing" | sha256sum | cut -d' ' -f1)
if [ "$(cat "$obj/.config.stamp" 2>/dev/null)" != "$cfg_id" ] || [ ! -f "$obj/.config" ]; then
	say "configuring: ${cfg#"$TOP"/} + ${frag#"$TOP"/}"
	KCONFIG_CONFIG=$obj/.config "$TREE/scripts/kconfig/merge_config.sh" -m -O "$obj" \
		"$obj/config.base" "$frag" "$signing" > "$obj/merge.log" 2>&1 ||
		{ cat "$obj/merge.log" >&2; die "merge_config.sh failed"; }
	kmake olddefconfig > /dev/null 2>&1
	CONFIG_STRICT=1 config_stuck "$obj/.config" "$frag" || die "the series' options did not stick on ${cfg##*/}"
	# No key file of Debian's build tree; modules signed with our own key.
	if grep -E '^CONFIG_SYSTEM_(TRUSTED|REVOCATION)_KEYS=".+"' "$obj/.config" >&2 ||
	   ! grep -qx 'CONFIG_MODULE_SIG_KEY="certs/signing_key.pem"' "$obj/.config" ||
	   ! grep -qx 'CONFIG_MODULE_SIG_ALL=y' "$obj/.config"; then
		die "signing: Debian's key files still named, or modules not signed with certs/signing_key.pem"
	fi
	echo "$cfg_id" > "$obj/.config.stamp"
fi
say "configuration: every option of ${frag#"$TOP"/} set ($(grep -c '^CONFIG_' "$frag") options), no Debian key file, modules signed with certs/signing_key.pem"

if [ -n "$check" ]; then
	# Each .c file the series add or change that is an object of its
	# own (one #included by another, e.g. notick.c by build_policy.c,
	# is compiled with it) and that this configuration builds: a line of
	# its directory's Makefile that names it under no option, or under
	# one set here (6.12's entry_fred.c, for one, is not built without
	# X86_FRED, and does not compile alone then).
	built() {
		local l c
		while IFS= read -r l; do
			case $l in
			*'$(CONFIG_'*)
				c=${l#*\$(CONFIG_} c=CONFIG_${c%%)*}
				grep -qE "^$c=[ym]" "$obj/.config" && return 0 ;;
			*) return 0 ;;
			esac
		done < <(grep -E "(^|[[:space:]+=])$2\.o\b" "$TREE/$1/Makefile" 2>/dev/null)
		return 1
	}
	files=$(for d in $(series_dirs); do
		for p in $(series_patches "$d"); do sed -n 's|^+++ b/\(.*\.c\)$|\1|p' "$p"; done
	done | sort -u)
	objs=()
	for f in $files; do
		[ -f "$TREE/$f" ] || continue
		built "$(dirname "$f")" "$(basename "$f" .c)" && objs+=("${f%.c}.o")
	done
	say "prepare, then ${#objs[@]} objects (-j$JOBS)"
	t0=$SECONDS
	if ! kmake -j"$JOBS" prepare > "$obj/build.log" 2>&1; then
		tail -n 30 "$obj/build.log" >&2
		die "make prepare failed on the Debian configuration"
	fi
	say "prepared in $((SECONDS - t0)) s"
	t0=$SECONDS
	if ! kmake -j"$JOBS" KCFLAGS=-Werror "${objs[@]}" >> "$obj/build.log" 2>&1; then
		grep -E 'error|warning' "$obj/build.log" | head -n 30 >&2
		die "the series does not compile on the Debian configuration; full log: ${obj#"$TOP"/}/build.log"
	fi
	say "compiled in $((SECONDS - t0)) s: ${objs[*]}"
	exit 0
fi

say "building Debian packages (bindeb-pkg, -j$JOBS): about an hour on 2 cores"
out=$BUILD/kernel-deb
mkdir -p "$out"
build() { kmake -j"$JOBS" bindeb-pkg > "$obj/build.log" 2>&1; }
if ! with_heartbeat "make bindeb-pkg" build; then
	tail -n 40 "$obj/build.log" >&2
	die "bindeb-pkg failed; full log: ${obj#"$TOP"/}/build.log"
fi
# bindeb-pkg writes the packages beside the object directory.
mv "$BUILD"/linux-*.deb "$BUILD"/linux-upstream_*.buildinfo "$BUILD"/linux-upstream_*.changes "$out"/ 2>/dev/null || true
ls "$out"/*.deb
say "install: apt-get install ./${BUILD#"$TOP"/}/kernel-deb/linux-image-*.deb (see docs/deployment.md)"
