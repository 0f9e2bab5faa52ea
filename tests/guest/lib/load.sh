# SPDX-License-Identifier: GPL-2.0
# Helpers of the load suites (busybox sh, after ktap.sh and nt.sh).
#   LOAD                 seconds of load: notick.load= on the kernel command
#                        line (make soak), else 60
#   load_start OUT       stress-ng's mix on CPU 0 for LOAD seconds, in the
#                        background, its output in OUT; sets load_pid
#   load_check OUT       wait for it; check that it ran and passed
LOAD=60
for a in $(cat /proc/cmdline); do
	case $a in notick.load=*) LOAD=${a#notick.load=} ;; esac
done

# A mix: arithmetic, page faults on 64 MiB mappings, fork and exit,
# context switches, file I/O on tmpfs, timers.
load_start() {
	(cd /tmp && exec stress-ng --taskset 0 --cpu 1 --vm 1 --vm-bytes 64M \
		--fork 1 --switch 1 --hdd 1 --hdd-bytes 4M --timer 1 \
		--timeout ${LOAD}s --metrics-brief) > "$1" 2>&1 &
	load_pid=$!
}

load_check() {
	wait $load_pid
	load_rc=$? load_out=$1
	dump "$load_out"
	ktap_setup "the load: stress-ng ran ${LOAD} s on CPU 0 and passed (exit $load_rc)" \
		'[ $load_rc = 0 ] && grep -q "successful run completed" "$load_out"'
}
