# SPDX-License-Identifier: GPL-2.0
# Unloading offsched_mgr (sourced by run.sh; 11 tests): refused while a
# service runs, which must not notice; refused while user space maps the
# shared memory of a run, even after the next run replaced it, and that
# mapping keeps the old run's memory; allowed once the mapping is gone.
$ctl write $C1/service echo > /dev/null
expect "start echo" $C1/control start OK
got=$($ctl rmmod offsched_mgr)
out=$($ctl ring 1 10)
l0=$(loops 1)
pause
ktap_check "rmmod while the service runs is refused ($got, want EAGAIN), the service unharmed ($out)" \
	'[ "$got" = EAGAIN ] && [ -d $C1 ] && [ "$(cat $C1/state)" = running ] &&
	 case "$out" in "OK n=10 "*) true ;; *) false ;; esac && [ "$(loops 1)" -gt "$l0" ]'
expect "stop" $C1/control stop OK

# A mapping of this run's memory, held across the next run.
rm -f /tmp/hold.in /tmp/hold.out
mkfifo /tmp/hold.in
$ctl hold 1 < /tmp/hold.in > /tmp/hold.out &
hold=$!
exec 3> /tmp/hold.in
wait_for '[ -s /tmp/hold.out ]'
h1=$(head -n 1 /tmp/hold.out)
ktap_check "a process maps the memory of the stopped run ($h1)" \
	'[ "$(field messages "$h1")" = 10 ] && [ "$(field status "$h1")" = 3 ]'
expect "a new run starts" $C1/control start OK
out=$($ctl ring 1 5)
ktap_check "and answers on its own memory ($out; $($ctl shm 1))" \
	'case "$out" in "OK n=5 "*) true ;; *) false ;; esac &&
	 [ "$(field messages "$($ctl shm 1)")" = 5 ]'
expect "stop it" $C1/control stop OK
got=$($ctl rmmod offsched_mgr)
ktap_check "rmmod while the old run's memory is mapped is refused ($got, want EAGAIN)" \
	'[ "$got" = EAGAIN ] && [ -d $C1 ]'
echo >&3
exec 3>&-
wait $hold
h2=$(tail -n 1 /tmp/hold.out)
ktap_check "the old mapping still shows the old run ($h2)" '[ "$h2" = "$h1" ]'
got=$($ctl rmmod offsched_mgr)
ktap_check "rmmod once the mapping is gone ($got)" \
	'[ "$got" = OK ] && [ ! -e $C1 ] && [ ! -e /dev/offsched ] &&
	 [ ! -e $SYS/offsched ]'
ktap_check "modprobe offsched_mgr again" 'modprobe offsched_mgr'
