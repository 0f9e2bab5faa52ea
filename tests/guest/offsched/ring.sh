# SPDX-License-Identifier: GPL-2.0
# The echo service with both rings full (sourced by run.sh; 3 tests): 256
# words fill the out ring, which nobody reads, 256 more the in ring; the
# service must then take nothing more and count the loops it spent with
# words waiting and out full (ring_full), and every word must come back
# w + 1, in order, once, when user space reads the out ring again.
$ctl write $C1/service echo > /dev/null
expect "start echo for the full rings" $C1/control start OK
out=$($ctl fill 1)
ktap_check "512 words through full rings: nothing lost or duplicated, the full ring counted ($out)" \
	'case "$out" in "OK full="*" messages=512") true ;; *) false ;; esac &&
	 [ "$(field full "$out")" -gt 0 ]'
expect "stop" $C1/control stop OK
