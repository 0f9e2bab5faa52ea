# SPDX-License-Identifier: GPL-2.0
# Trace events in the guest without patching kernel text at run time
# (busybox sh). Turning an event on or off rewrites its tracepoint's
# static call sites (text_poke_bp()), and QEMU 7.2's multi-threaded TCG
# can go on running its old translation of that text on another vCPU:
# an int3 oops, "Fatal exception in interrupt" (once in CI, notick-paths).
# The harness enables every event of ../lib/events from boot; /init
# turns tracing off and filters them all out; a suite picks the ones it
# records with event filters, which patch nothing.
#   trace_only [EVENT...]  record only these events (system/event), none
#                          without any; one not enabled from boot is a
#                          kernel log failure (a "BUG:" line in dmesg)
#   trace_cpu CPU|all      record the events of CPU only, or of every CPU
#                          again (the mask as booted); a mask the kernel
#                          refuses is a kernel log failure too
TR=/sys/kernel/tracing
TRACE_EVENTS=$(grep -v '^#' /tests/lib/events 2>/dev/null)
trace_only() {
	for e in $TRACE_EVENTS; do
		[ -f $TR/events/$e/filter ] || continue
		case " $* " in
		*" $e "*) echo 0 > $TR/events/$e/filter ;;
		*) echo 'common_pid < 0' > $TR/events/$e/filter ;;
		esac
	done
	for e in "$@"; do
		[ "$(cat $TR/events/$e/enable 2>/dev/null)" = 1 ] ||
			echo "notick: BUG: trace event $e not enabled from boot (tests/guest/lib/events)" > /dev/kmsg
	done
}
trace_cpu() {
	[ -n "${TRACE_ALL_CPUS:-}" ] || TRACE_ALL_CPUS=$(cat $TR/tracing_cpumask)
	if [ "$1" = all ]; then
		set -- "$TRACE_ALL_CPUS"
	else
		set -- "$(printf '%x' $((1 << $1)))"
	fi
	echo "$1" > $TR/tracing_cpumask &&
		[ $((0x$(cat $TR/tracing_cpumask))) = $((0x$1)) ] ||
		echo "notick: BUG: tracing_cpumask $1 refused" > /dev/kmsg
}
