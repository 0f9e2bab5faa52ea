#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Interrupt threads and an owned CPU. Booted with threadirqs, every device
# interrupt handler runs in a SCHED_FIFO kernel thread bound to the CPU
# the interrupt is delivered to, and its line stays masked until that
# thread ran. The third serial port (ttyS2, the harness's data port)
# sends its interrupt to CPU 1 while a SCHED_NOTICK thread spins there:
# writing 16 KiB to it from CPU 0, which takes a few transmit interrupts
# once the tty's buffer is full, must finish under every grace (-1
# included), the interrupt thread waiting no longer than kernel threads
# bound to the CPU do (10 ms and a tick).
. ../lib/ktap.sh
. ../lib/nt.sh

NTT=/tests/notick/ntt
CPU=1
GRACE=/proc/sys/kernel/sched_notick_grace_us
SYS=/sys/devices/system/cpu/cpu$CPU/notick
PORT=/dev/ttyS2
T=/tmp/notick-irq
mkdir -p $T

ktap_plan 7
ktap_note "kernel $(uname -r); cmdline: $(cat /proc/cmdline)"

irq=$(cat /sys/class/tty/${PORT#/dev/}/irq 2>/dev/null)
ithread=
for p in /proc/[0-9]*; do
	case "$(cat $p/comm 2>/dev/null)" in "irq/$irq-"*) ithread=${p#/proc/} ;; esac
done
ktap_setup "$PORT's interrupt ($irq) has its thread (threadirqs: $ithread)" \
	'[ -n "$irq" ] && [ -n "$ithread" ]'

# write_port: 16 KiB to the port from CPU 0, within 10 s; "rc ms"
write_port() {
	t0=$(cut -d' ' -f1 /proc/uptime)
	taskset -c 0 timeout 10 sh -c "head -c 16384 /dev/zero > $PORT"
	rc=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "$rc $(awk -v a=$t0 -v b=$t1 'BEGIN { printf "%d", (b - a) * 1000 }')"
}
irqs_on() { awk -v i="$irq:" -v c=$(($1 + 2)) '$1 == i { print $c }' /proc/interrupts; }

err=$( (echo 2 > /proc/irq/$irq/smp_affinity) 2>&1)
[ -n "$err" ] && ktap_note "smp_affinity of IRQ $irq: $err"
# The interrupt moves when it next comes, its thread when it next runs.
r=$(write_port)
eff=$(cat /proc/irq/$irq/effective_affinity_list 2>/dev/null)
allowed=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/$ithread/status)
ktap_setup "the interrupt goes to CPU $CPU alone, its thread too (effective $eff, thread allowed on $allowed); a first write ($r)" \
	'[ "$eff" = $CPU ] && [ "$allowed" = $CPU ] && [ "${r%% *}" = 0 ]'

i0=$(irqs_on $CPU)
r=$(write_port)
i1=$(irqs_on $CPU)
ktap_check "control, no SCHED_NOTICK thread: 16 KiB written ($r: exit status, ms), $((i1 - i0)) interrupts on CPU $CPU" \
	'[ "${r%% *}" = 0 ] && [ $((i1 - i0)) -gt 0 ]'

# grace G: the same with a SCHED_NOTICK thread spinning on CPU 1
with_grace() {
	echo $1 > $GRACE
	"$NTT" spinhold $CPU > $T/hold 2>&1 &
	hold=$!
	wait_for "grep -q ADMITTED $T/hold" || dump $T/hold
	y0=$(cat $SYS/yields) i0=$(irqs_on $CPU)
	r=$(write_port)
	y1=$(cat $SYS/yields) i1=$(irqs_on $CPU)
	owner=$(cat $SYS/pid)
	kill $hold; wait $hold 2>/dev/null
	ktap_check "grace $1: 16 KiB written to $PORT while a SCHED_NOTICK thread spins on CPU $CPU (owner $owner): $r (exit status, ms); $((i1 - i0)) interrupts on CPU $CPU, the thread yielded $((y1 - y0)) times" \
		'[ "$owner" != 0 ] && [ "${r%% *}" = 0 ] && [ $((i1 - i0)) -gt 0 ] &&
		 [ $((y1 - y0)) -gt 0 ]'
}
with_grace -1
with_grace 10000
with_grace 1000000
echo 10000 > $GRACE

wait_for "[ \"\$(cat $SYS/pid)\" = 0 ]"
ktap_check "CPU $CPU released ($(cat $SYS/pid))" '[ "$(cat $SYS/pid)" = 0 ]'
