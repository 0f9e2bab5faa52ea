# SPDX-License-Identifier: GPL-2.0
# offsched.stop_timeout_ms is bounded, 1 to 10000 ms: it is waited with the
# device hotplug lock held (sourced by run.sh; 2 tests).
P=/sys/module/offsched/parameters/stop_timeout_ms
to0=$(cat $P)
r0=$($ctl write $P 0) r1=$($ctl write $P 10001)
ktap_check "stop_timeout_ms 0 and 10001 refused ($r0 $r1), unchanged ($(cat $P))" \
	'[ "$r0 $r1" = "EINVAL EINVAL" ] && [ "$(cat $P)" = "$to0" ]'
r0=$($ctl write $P 1) v0=$(cat $P) r1=$($ctl write $P 10000) v1=$(cat $P)
echo "$to0" > $P
ktap_check "stop_timeout_ms 1 and 10000 accepted ($r0 $v0, $r1 $v1)" \
	'[ "$r0 $v0 $r1 $v1" = "OK 1 OK 10000" ] && [ "$(cat $P)" = "$to0" ]'
