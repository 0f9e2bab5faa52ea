# SPDX-License-Identifier: GPL-2.0
# The kernel's tick rate, for the guest suites (busybox sh).
# measure_hz: the tick rate, from jiffies over a second of CLOCK_MONOTONIC,
# rounded to the nearest of 100, 250, 300, 1000; sets hz, and hz_how (the
# jiffies and the uptime span it came from)
measure_hz() {
	j0=$(sed -n 's/^jiffies: //p' /proc/timer_list | head -n 1)
	t0=$(cut -d' ' -f1 /proc/uptime); sleep 1
	j1=$(sed -n 's/^jiffies: //p' /proc/timer_list | head -n 1)
	t1=$(cut -d' ' -f1 /proc/uptime)
	hz=$(awk -v j=$((j1 - j0)) -v t0=$t0 -v t1=$t1 'BEGIN {
		r = j / (t1 - t0); best = 100
		n = split("100 250 300 1000", h, " ")
		for (i = 1; i <= n; i++) if ((r - h[i]) * (r - h[i]) < (r - best) * (r - best)) best = h[i]
		print best }')
	hz_how="$((j1 - j0)) jiffies in $t0..$t1 s"
}
