#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# OFFSCHED's user interface under bad input, for 60 s (osfuzz.c): random
# and boundary values to every offsched_mgr file of every CPU, to the
# core's stop_timeout_ms and to /dev/offsched (open, the ioctl numbers near
# ours, mmap and its mappings, the shared memory), with services started
# and stopped on CPU 1 for real. Every call succeeds or fails with its
# documented errno, and what reads back is what was written or unchanged.
# Then the machine is as before: CPU 1 online and usable, the module
# unloads and loads again with its defaults, no kernel warning.
. ../lib/ktap.sh
. ../offsched/lib.sh

T=/tmp/offsched-fuzz
SECS=60
TMO=/sys/module/offsched/parameters/stop_timeout_ms
mkdir -p $T

ktap_plan 8
ktap_note "kernel $(uname -r)"
ktap_check "modprobe offsched_mgr: files for CPU 0 and CPU 1, idle, /dev/offsched" \
	'modprobe offsched_mgr && [ -d $C0 ] && [ -d $C1 ] && [ -c /dev/offsched ] &&
	 [ "$(cat $C1/state)" = idle ]'

# The seed is printed, for a replay (./osfuzz 1 SECONDS SEED).
seed=$(date +%s)
t0=$(cut -d. -f1 /proc/uptime)
./osfuzz 1 $SECS $seed > $T/fuzz 2>&1
rc=$?
t1=$(cut -d. -f1 /proc/uptime)
sed 's/^/# /' $T/fuzz
ktap_note "osfuzz ran $((t1 - t0)) s"
kv() { sed -n "s/^$1=\([0-9a-z]*\)$/\1/p" $T/fuzz | tail -n 1; }
sum() { awk -v k="$1" '$1 == k { s += $3 } END { print s + 0 }' $T/fuzz; }
cases=$(kv cases) ok=$(kv ok) refused=$(kv refused) bad=$(kv bad)
ktap_check "fuzz, $SECS s (seed $seed): ${cases:-no} cases, each answered with its documented errno or done, what reads back as written or unchanged (bad=$bad, exit $rc)" \
	'[ $rc = 0 ] && [ "$bad" = 0 ] && [ "$(kv cleanup)" = ok ] &&
	 [ "${cases:-0}" -gt 0 ]'
ktap_check "every case accounted for: $cases = $ok done + $refused refused + $bad bad = $(sum kind) by kind = $(sum errno) by outcome" \
	'[ $((ok + refused + bad)) = "$cases" ] &&
	 [ "$(sum kind)" = "$cases" ] && [ "$(sum errno)" = "$cases" ]'
missing=$(awk '$1 == "kind" && $3 == 0 { printf " %s", $2 }' $T/fuzz)
runs=$(sed -n 's/^cpu1 runs=\([0-9]*\).*/\1/p' $T/fuzz)
ktap_check "every interface fuzzed (missing:${missing:- none}), services started ${runs:-0} times on CPU 1" \
	'[ -z "$missing" ] && [ "${runs:-0}" -gt 0 ]'
# A MAP_SHARED mapping of /dev/offsched opened O_RDONLY is read-only
# (offsched.rst); the driver once refused it with EINVAL, testing
# VM_SHARED, which the memory manager clears there, not VM_MAYSHARE. Those
# cases are among the ones answered as documented above.
ktap_check "mmap(MAP_SHARED) of /dev/offsched opened O_RDONLY: $(kv ro_shared) cases were to map it read-only, and did" \
	'[ "$(kv ro_shared)" -gt 0 ] && [ "$bad" = 0 ]'

ran=$(taskset -c 1 sh -c 'cat /proc/self/stat' | awk '{print $39}')
ktap_check "after the fuzz: CPU 1 online ($(cat $ONLINE1)), its service not running ($(cat $C1/state)), a task pinned to it runs there (CPU $ran), stop_timeout_ms $(cat $TMO)" \
	'[ "$(cat $ONLINE1)" = 1 ] && [ "$(cat $SYS/online)" = 0-1 ] &&
	 case "$(cat $C1/state)" in idle|stopped) true ;; *) false ;; esac &&
	 [ "$ran" = 1 ] && [ "$(cat $TMO)" = 2000 ]'
got=$($ctl rmmod offsched_mgr)
modprobe offsched_mgr
defaults=$(cd $C1 && cat service quantum_ns samples gap_ns fwq_work fwq_reps state | tr '\n' ' ')
ktap_check "rmmod offsched_mgr ($got): nothing held; loaded again, CPU 1 has the defaults ($defaults)" \
	'[ "$got" = OK ] &&
	 [ "$defaults" = "none 1000000 1000 2000 100000 1000 idle " ] &&
	 [ "$($ctl rmmod offsched_mgr)" = OK ]'
ktap_check "no warning in dmesg" \
	'! dmesg | grep -E -q "WARNING:|BUG:|possible circular|inconsistent lock|RCU used illegally|suspicious RCU|refcount_t:"'
