#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Interrupt threads and an owned CPU. Booted with threadirqs, every device
# interrupt handler runs in a SCHED_FIFO kernel thread bound to the CPU
# the interrupt is delivered to, and its line stays masked until that
# thread ran. The RTC's periodic interrupt goes to CPU 1 while a
# SCHED_NOTICK thread spins there: the device must keep working under
# every grace (-1 included), its thread waiting no longer than kernel
# threads bound to the CPU do (10 ms and a tick), and the RTC is read
# from CPU 0 as a user of the device would.
. ../lib/ktap.sh
. ../lib/nt.sh

NTT=/tests/notick/ntt
CPU=1
GRACE=/proc/sys/kernel/sched_notick_grace_us
SYS=/sys/devices/system/cpu/cpu$CPU/notick
T=/tmp/notick-irq
mkdir -p $T
SECS=2
RATE=64
EXPECT=$((SECS * RATE / 2))

ktap_plan 9
ktap_note "kernel $(uname -r); cmdline: $(cat /proc/cmdline)"

irq=$(awk '/rtc0/ { sub(":", "", $1); print $1; exit }' /proc/interrupts)
ithread=
for p in /proc/[0-9]*; do
	case "$(cat $p/comm 2>/dev/null)" in "irq/$irq-rtc0") ithread=${p#/proc/} ;; esac
done
ktap_check "the RTC's interrupt ($irq) has its thread (threadirqs: $ithread)" \
	'[ -n "$irq" ] && [ -n "$ithread" ]'

echo 2 > /proc/irq/$irq/smp_affinity 2>/dev/null
# The thread follows its interrupt's affinity when it next runs.
taskset -c 0 ./ntrtc 1 $RATE > $T/first 2>&1
eff=$(cat /proc/irq/$irq/effective_affinity_list 2>/dev/null)
ktap_check "the interrupt goes to CPU $CPU alone, its thread too (effective $eff, thread on CPU $(cpu_of $ithread), $(awk '/Cpus_allowed_list/ {print $2}' /proc/$ithread/status))" \
	'[ "$eff" = $CPU ] && [ "$(cpu_of $ithread)" = $CPU ] &&
	 [ "$(awk "/Cpus_allowed_list/ {print \$2}" /proc/$ithread/status)" = $CPU ]'

taskset -c 0 ./ntrtc $SECS $RATE > $T/control 2>&1
dump $T/control
ktap_check "control, no SCHED_NOTICK thread: $(kv $T/control reads) reads of the RTC in $SECS s at $RATE Hz (at least $EXPECT), no 200 ms wait" \
	'[ "$(kv $T/control reads)" -ge $EXPECT ] && [ "$(kv $T/control timeouts)" = 0 ]'

# grace G: the same with a SCHED_NOTICK thread spinning on CPU 1
with_grace() {
	echo $1 > $GRACE
	"$NTT" spinhold $CPU > $T/hold 2>&1 &
	hold=$!
	wait_for "grep -q ADMITTED $T/hold" || dump $T/hold
	y0=$(cat $SYS/yields)
	taskset -c 0 ./ntrtc $SECS $RATE > $T/grace$1 2>&1
	y1=$(cat $SYS/yields)
	owner=$(cat $SYS/pid)
	kill $hold; wait $hold 2>/dev/null
	dump $T/grace$1
	ktap_check "grace $1: the RTC keeps working under a spinning SCHED_NOTICK thread (owner $owner): $(kv $T/grace$1 reads) reads (at least $EXPECT), $(kv $T/grace$1 timeouts) waits of 200 ms, the thread yielded $((y1 - y0)) times" \
		'[ "$owner" != 0 ] && [ "$(kv $T/grace$1 reads)" -ge $EXPECT ] &&
		 [ "$(kv $T/grace$1 timeouts)" = 0 ] && [ $((y1 - y0)) -gt 0 ]'
}
with_grace -1
with_grace 10000
with_grace 1000000
echo 10000 > $GRACE

wait_for "[ \"\$(cat $SYS/pid)\" = 0 ]"
ktap_check "CPU $CPU released ($(cat $SYS/pid))" '[ "$(cat $SYS/pid)" = 0 ]'
dmesg > $T/dmesg
ktap_check "the interrupt was never disabled as unhandled (dmesg)" \
	'! grep -q "nobody cared\|Disabling IRQ #$irq" $T/dmesg'
ktap_check "the RTC's interrupts were taken on CPU $CPU ($(awk -v i="$irq:" -v c=$((CPU + 2)) '$1 == i { print $c }' /proc/interrupts))" \
	'[ "$(awk -v i="$irq:" -v c=$((CPU + 2)) "\$1 == i { print \$c }" /proc/interrupts)" -gt $((4 * EXPECT)) ]'
