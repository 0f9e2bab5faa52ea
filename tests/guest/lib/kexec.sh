# SPDX-License-Identifier: GPL-2.0
# Go from one stage of a suite to the next through kexec (busybox sh, after
# ktap.sh). /init passes the stage and the KTAP count on to the new kernel.
#   kexec_stage N [-p] [KERNEL ARGS...]
#       Load /boot/bzImage, with an initrd packed from this root file system
#       and this boot's command line plus notick.stage=N, notick.ktap=<KTAP
#       results so far>, notick.spent=<seconds the earlier stages took, so
#       that /init's watchdog keeps the one deadline of the whole suite>
#       and KERNEL ARGS (for stage N only). Without -p, kexec
#       into it at once: returns (status 1) only if that failed. With -p,
#       load it as the crash kernel (without crashkernel=) and return its
#       status: load it right before the crash, as the KTAP count is fixed.
#   kexec_opts
#       More options for kexec's load, e.g. --mem-max=ADDR (kexec_stage).
#   kexec_crash
#       Panic through sysrq; the harness ignores the crash report between
#       the "notick: crash expected" console line and the next kernel's
#       banner.
kexec_initrd=/tmp/kexec-initrd.cpio
kexec_opts=

kexec_stage() {
	local next=$1 crash= base arg args= spent
	shift
	[ "${1:-}" = -p ] && { crash=-p; shift; }
	if [ ! -s $kexec_initrd ]; then
		(cd / && find . -xdev | cpio -o -H newc > $kexec_initrd 2> /dev/null) ||
			return 1
	fi
	# This boot's arguments without those of its own stage.
	base=$(sed 's/ notick\.stage=.*//' /proc/cmdline)
	for arg in $base; do
		case "$crash$arg" in -pcrashkernel=*) continue ;; esac
		args="$args $arg"
	done
	spent=$(sed -n 's/.* notick\.spent=\([0-9]*\).*/\1/p' /proc/cmdline)
	spent=$((${spent:-0} + $(cut -d. -f1 /proc/uptime)))
	args="${args# } notick.stage=$next notick.ktap=$KTAP_N notick.spent=$spent $*"
	kexec ${crash:--l} $kexec_opts /boot/bzImage --initrd=$kexec_initrd \
		--command-line="$args" > /tmp/kexec.log 2>&1 || return 1
	[ -n "$crash" ] && { echo "$next" > /tmp/kexec-crash-stage; return 0; }
	echo "# notick: kexec to stage $next"
	sync
	kexec -e > /tmp/kexec.log 2>&1
	return 1
}

kexec_crash() {
	echo "# notick: crash to stage $(cat /tmp/kexec-crash-stage)"
	echo "notick: crash expected" > /dev/kmsg
	sync
	echo c > /proc/sysrq-trigger
}
