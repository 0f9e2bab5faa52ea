# SPDX-License-Identifier: GPL-2.0
# Bringing CPU 1 online waits for a deaf service without holding the CPU
# hotplug locks (sourced by run.sh; 5 tests). While "stop" waits out
# stop_timeout_ms for the deaf echo, a ring-buffer resize, which takes
# cpus_read_lock(), must complete. Before the resize, the stop is known to
# have begun (state "stopping") and given 0.3 s to reach its wait; the
# result is judged on order (the stop still pending when the resize is
# done), not on time.
TRACE=/sys/kernel/tracing
to0=$(cat /sys/module/offsched/parameters/stop_timeout_ms)
echo 4000 > /sys/module/offsched/parameters/stop_timeout_ms
start_deaf 1
st=$?
ktap_check "a deaf echo runs on CPU 1" '[ $st = 0 ] && [ "$(cat $C1/state)" = running ]'
rm -f /tmp/lockwait.stop
( $ctl write $C1/control stop > /tmp/lockwait.stop.tmp
  mv /tmp/lockwait.stop.tmp /tmp/lockwait.stop ) &
wait_for '[ "$(cat $C1/state)" = stopping ]'
pause; pause; pause
# Before the first use it reads e.g. "7 (expanded: 1408)".
kb=$(cut -d' ' -f1 $TRACE/buffer_size_kb)
echo $((kb + 4)) > $TRACE/buffer_size_kb
resized=$(cut -d' ' -f1 $TRACE/buffer_size_kb)
pending=no
[ -e /tmp/lockwait.stop ] || pending=yes
ktap_check "a cpus_read_lock() user (ring buffer resize to $resized kB) completes while the stop waits (stop pending: $pending)" \
	'[ "$resized" = $((kb + 4)) ] && [ $pending = yes ]'
wait
echo "$kb" > $TRACE/buffer_size_kb
got=$(cat /tmp/lockwait.stop)
ktap_check "the stop of the deaf service then times out ($got, want ETIMEDOUT)" \
	'[ "$got" = ETIMEDOUT ] && [ "$(cat $ONLINE1)" = 0 ] &&
	 [ "$(cat $C1/state)" = stopping ]'
ktap_check "make echo hear stop requests again" \
	'[ "$($ctl send 1 0x4ea54ea54ea54ea5)" = OK ]'
expect "stop now succeeds" $C1/control stop OK
echo "$to0" > /sys/module/offsched/parameters/stop_timeout_ms
