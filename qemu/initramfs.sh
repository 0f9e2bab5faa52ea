#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Pack the guest initramfs for one kernel flavour:
#   busybox (static), util-linux taskset and chrt with their libraries,
#   iproute2's ip, nftables' nft (compare flavour),
#   kexec-tools, stress-ng and the kernel image (test flavour),
#   notickctl (static, when built), the kernel's modules, and every guest
#   test suite tests/guest/<suite>/ (run.sh, data files, and each *.c
#   compiled statically to /tests/<suite>/<name>).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
build_lock

flavour=${1:?usage: initramfs.sh test|compare}
obj=$BUILD/obj-$flavour
out=$BUILD/initramfs-$flavour
root=$out/rootfs
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,lib,lib64,etc,proc,sys,dev,tmp,root,tests}

cp /bin/busybox "$root/bin/busybox"
for a in $("$root/bin/busybox" --list-full); do
	[ -e "$root/$a" ] || ln -s /bin/busybox "$root/$a"
done

# Real util-linux tools, as users have them (busybox has no chrt).
copy_dynamic() {	# copy_dynamic BINARY [PATH IN THE GUEST]
	local bin=$1 dest=${2:-$1} lib
	rm -f "$root$dest"
	cp "$bin" "$root$dest"
	for lib in $(ldd "$bin" | grep -oE '/[^ ]+'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}
for t in /usr/bin/taskset /usr/bin/chrt; do copy_dynamic "$t"; done
# iproute2's ip (busybox's cannot make a veth pair) and, where the kernel
# has nftables (the compare flavour), Debian's nft: compare-test's packet
# scenarios (tests/compare/guest/pkt.sh) call them by these paths.
copy_dynamic /usr/sbin/ip /usr/sbin/ip
[ "$flavour" = compare ] && copy_dynamic /usr/sbin/nft /usr/sbin/nft
# stress-ng, Debian's, for the load suites (qemu/deps.sh installs it)
[ "$flavour" = test ] && copy_dynamic /usr/bin/stress-ng

# The test kernel can kexec into itself (OFFSCHED suites): kexec-tools, as
# unpacked by qemu/deps.sh, and the kernel image.
if [ "$flavour" = test ]; then
	[ -x "$BUILD/debs/root/sbin/kexec" ] || die "no kexec-tools in ${BUILD#"$TOP"/}/debs (run qemu/deps.sh)"
	copy_dynamic "$BUILD/debs/root/sbin/kexec" /sbin/kexec
	mkdir -p "$root/boot"
	cp "$obj/arch/x86/boot/bzImage" "$root/boot/bzImage"
fi

[ -x "$BUILD/notickctl/notickctl.static" ] &&
	cp "$BUILD/notickctl/notickctl.static" "$root/usr/bin/notickctl"

[ -d "$obj/modroot/lib/modules" ] && cp -a "$obj/modroot/lib/modules" "$root/lib/"

cp -r "$TOP/tests/guest/lib" "$root/tests/lib"
# compare-test's guest side, also in the test flavour's (compare-smoke)
suites=("$TOP"/tests/guest/*/ "$TOP/tests/compare/guest/")
for d in "${suites[@]}"; do
	d=${d%/}
	[ -f "$d/run.sh" ] || continue
	s=${d##*/}
	[ "$d" = "$TOP/tests/compare/guest" ] && s=compare
	mkdir -p "$root/tests/$s"
	for f in "$d"/*; do
		case "$f" in
		*.c) gcc "${GUEST_CFLAGS[@]}" -o "$root/tests/$s/$(basename "$f" .c)" "$f" ||
			die "cannot compile ${f#"$TOP"/}" ;;
		*.h|*/timeout|*/cmdline|*/cpus|*/cpu|*/devices|*/shutdown|*/load|*/tcg-single|*/qmp|*/host-check) ;;
		*) cp "$f" "$root/tests/$s/" ;;
		esac
	done
done

install -m 755 "$TOP/qemu/init" "$root/init"
echo "root:x:0:0:root:/root:/bin/sh" > "$root/etc/passwd"
echo "nobody:x:65534:65534:nobody:/:/bin/false" >> "$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$root/etc/group"

(cd "$root" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --owner=0:0 --quiet) | gzip -1 > "$out/initramfs.cpio.gz"
say "initramfs: ${out#"$TOP"/}/initramfs.cpio.gz ($(du -h "$out/initramfs.cpio.gz" | cut -f1))"
