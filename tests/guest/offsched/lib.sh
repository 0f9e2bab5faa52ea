# SPDX-License-Identifier: GPL-2.0
# Helpers of the OFFSCHED guest suites (busybox sh, after ../lib/ktap.sh).
SYS=/sys/devices/system/cpu
C0=$SYS/cpu0/offsched
C1=$SYS/cpu1/offsched
ONLINE1=$SYS/cpu1/online
ctl=/tests/offsched/osctl

# pause: a short sleep between polls.
pause() { usleep 100000 2>/dev/null || sleep 1; }

# wait_for EXPR: poll EXPR up to 600 times. The bound only keeps a broken
# kernel from hanging the suite; the result of EXPR is what is checked.
wait_for() {
	local n=0
	while [ $n -lt 600 ]; do
		eval "$1" && return 0
		pause
		n=$((n + 1))
	done
	return 1
}

# expect DESC FILE VALUE ERRNO: write VALUE to FILE, expect ERRNO (or OK).
expect() {
	got=$($ctl write "$2" "$3")
	want=$4
	ktap_check "$1 ($got, want $want)" '[ "$got" = "$want" ]'
}

# field NAME LINE: value of NAME=value in LINE.
field() { echo "$2" | sed -n "s/.*\\b$1=\\([0-9]*\\).*/\\1/p"; }

# run_tsc: set t0 and t1 to the start and end of the last FTQ run.
run_tsc() { rt=$(cat $C1/run_tsc); t0=${rt% *}; t1=${rt#* }; }

offsched_lines() { dmesg | grep -c "CPU 1 is now offline and OFFSCHED"; }
