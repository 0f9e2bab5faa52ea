# SPDX-License-Identifier: GPL-2.0
# Writes to control racing with writes to cpu1/online (sourced by run.sh;
# 4 tests). Each round starts echo while another process takes CPU 1
# offline, then stops it while another takes CPU 1 offline again. Whoever
# wins, the outcome must be consistent: a start that succeeded runs the
# service (the kernel says "now offline and OFFSCHED" once), a refused
# start left nothing registered and no callback running; a stop that
# succeeded leaves the callback unregistered; nothing is left pinning the
# module. Which write wins is up to the scheduler: the counts are noted,
# not judged (the start refused on an offline CPU is tested on its own);
# that the two writes really raced is: each is timed (twrite), and the
# starts must have overlapped an offline in at least a third of the
# rounds.
RACE_ROUNDS=${RACE_ROUNDS:-30}
TW=/tests/offsched/twrite

refcnt() { cat /sys/module/offsched_mgr/refcnt; }

# race WRITE1 WRITE2: the two writes (FILE=VALUE) at the same time; sets
# r1 and r2 to their results, and overlap to 1 if they were under way at
# the same time (each one's write(2) began before the other's returned).
race() {
	local a0 a1 b0 b1
	$TW "${1%=*}" "${1#*=}" > /tmp/race.1 &
	$TW "${2%=*}" "${2#*=}" > /tmp/race.2
	wait
	read r1 a0 a1 < /tmp/race.1
	read r2 b0 b1 < /tmp/race.2
	overlap=0
	[ -n "$a1" ] && [ -n "$b1" ] && [ "$a0" -lt "$b1" ] && [ "$b0" -lt "$a1" ] && overlap=1
}

$ctl write $C1/service echo > /dev/null
ref0=$(refcnt)
bad_start= bad_stop= won=0 lost=0 n=0 hit=0
while [ $n -lt $RACE_ROUNDS ]; do
	n=$((n + 1))
	$ctl write $ONLINE1 1 > /dev/null
	l0=$(offsched_lines)
	race $C1/control=start $ONLINE1=0
	hit=$((hit + overlap))
	l1=$(offsched_lines)
	case "$r1" in
	OK)	won=$((won + 1))
		# Started: the callback runs on the offline CPU, once.
		[ $((l1 - l0)) = 1 ] && [ "$(cat $C1/state)" = running ] &&
			[ "$(cat $ONLINE1)" = 0 ] &&
			[ "$($ctl ring 1 3 | cut -c1-6)" = "OK n=3" ] ||
			bad_start="$bad_start $n:OK/$((l1 - l0))/$(cat $C1/state)"
		;;
	EBUSY)	lost=$((lost + 1))
		# Refused: CPU 1 went down first, as a plain offline CPU.
		[ $((l1 - l0)) = 0 ] && [ "$(refcnt)" = "$ref0" ] &&
			[ "$(cat $C1/state)" != running ] ||
			bad_start="$bad_start $n:EBUSY/$((l1 - l0))/$(cat $C1/state)/ref$(refcnt)"
		continue
		;;
	*)	bad_start="$bad_start $n:$r1" ; continue ;;
	esac
	race $C1/control=stop $ONLINE1=0
	l2=$(offsched_lines)
	# Stopped: unregistered, nothing runs; CPU 1 may be down (plain).
	[ "$r1" = OK ] && [ "$(cat $C1/state)" = stopped ] && [ $l2 = $l1 ] &&
		[ "$(refcnt)" = "$ref0" ] ||
		bad_stop="$bad_stop $n:$r1/$r2/$((l2 - l1))/$(cat $C1/state)/ref$(refcnt)"
	# Clean up whatever is left for the next round.
	[ "$(cat $C1/state)" = stopped ] || $ctl write $C1/control stop > /dev/null
done
$ctl write $ONLINE1 1 > /dev/null
ktap_note "start vs offline: the start won $won times, the offline $lost times"
ktap_check "$RACE_ROUNDS starts racing with an offline, $hit of them under way together (a third at least): each outcome consistent (bad:${bad_start:- none})" \
	'[ -z "$bad_start" ] && [ $((3 * hit)) -ge $RACE_ROUNDS ]'
ktap_check "the stops racing with an offline: each outcome consistent (bad:${bad_stop:- none})" \
	'[ -z "$bad_stop" ]'
ktap_check "afterwards CPU 1 online, nothing registered, module reference back ($(refcnt), was $ref0)" \
	'[ "$(cat $ONLINE1)" = 1 ] && [ "$(cat $C1/state)" != running ] &&
	 [ "$(cat $C1/state)" != armed ] && [ "$(refcnt)" = "$ref0" ]'
expect "a plain start and stop still work" $C1/control start OK
$ctl write $C1/control stop > /dev/null
