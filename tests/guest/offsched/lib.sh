# SPDX-License-Identifier: GPL-2.0
# Helpers of the OFFSCHED guest suites (busybox sh, after ../lib/ktap.sh).
SYS=/sys/devices/system/cpu
C0=$SYS/cpu0/offsched
C1=$SYS/cpu1/offsched
ONLINE1=$SYS/cpu1/online
# The TSC frequency offsched_mgr converts with, one file for every CPU
TSC_KHZ=$SYS/offsched/tsc_khz
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

# run_tsc: set t0 and t1 to the start and end of the last FTQ run, and rt
# to both.
run_tsc() {
	t0=$(cat $C1/run_start_tsc)
	t1=$(cat $C1/run_end_tsc)
	rt="$t0 $t1"
}

offsched_lines() { dmesg | grep -c "CPU 1 is now offline and OFFSCHED"; }

# ram_top: end of the highest System RAM range, from /proc/iomem.
ram_top() {
	sed -n 's/^\([0-9a-f]*\)-\([0-9a-f]*\) : System RAM$/\2/p' /proc/iomem |
		tail -n 1 | sed 's/^/0x/'
}

# start_deaf CPU: start echo on CPU and make it ignore stop requests; sets
# deaf_addr to the physical address of its loop counter.
start_deaf() {
	local c=$SYS/cpu$1/offsched
	deaf_addr=
	$ctl write $c/service echo > /dev/null
	[ "$($ctl write $c/control start)" = OK ] || return 1
	deaf_addr=$($ctl phys "$1") || return 1
	[ "$($ctl send "$1" 0xdeafdeafdeafdeaf)" = OK ]
}

# keep_clear ADDR: have kexec-tools place the next kernel (its image, the
# room it decompresses into, the initrd) on the larger side of ADDR's page,
# which the next kernel is told to leave alone (memmap=4K$PAGE).
keep_clear() {
	local page=$(($1 & ~4095)) top
	top=$(ram_top)
	if [ $page -gt $((top / 2)) ]; then
		kexec_opts="--mem-max=$(printf '%#x' $((page - 1)))"
	else
		kexec_opts="--mem-min=$(printf '%#x' $((page + 4096)))"
	fi
	clear_page=$(printf '%#x' $page)
}

# loops CPU: the loop counter of CPU's service, from the shared memory.
loops() { field loops "$($ctl shm "$1")"; }
