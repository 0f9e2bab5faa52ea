# SPDX-License-Identifier: GPL-2.0
# Start on a CPU that is already offline, then many start/stop cycles
# while other processes read every sysfs file of the CPU (sourced by
# run.sh; 8 tests). CYCLES (default 200) sets the number of cycles.
CYCLES=${CYCLES:-200}
refcnt() { cat /sys/module/offsched_mgr/refcnt; }

# --- start on a CPU that is already offline ------------------------------------
$ctl write $C1/service echo > /dev/null
s0=$(cat $C1/state) r0=$(cat $C1/runs) ref0=$(refcnt) n0=$(offsched_lines)
expect "take CPU 1 offline by hand" $ONLINE1 0 OK
expect "start on the offline CPU 1 is refused" $C1/control start EBUSY
ktap_check "nothing changed: state $s0, runs $r0, CPU 1 offline, no callback ran, module reference $ref0" \
	'[ "$(cat $C1/state)" = "$s0" ] && [ "$(cat $C1/runs)" = "$r0" ] &&
	 [ "$(cat $ONLINE1)" = 0 ] && [ "$(offsched_lines)" = "$n0" ] &&
	 [ "$(refcnt)" = "$ref0" ]'
expect "CPU 1 back online" $ONLINE1 1 OK

# --- start/stop cycles with concurrent readers ---------------------------------
# reader N: read every readable file of cpu1/offsched until /tmp/cycles.stop
# appears; count the passes in /tmp/cycles.N and name failed reads in
# /tmp/cycles.err.
reader() {
	local f passes=0
	while [ ! -e /tmp/cycles.stop ]; do
		for f in $C1/*; do
			[ "${f##*/}" = control ] && continue
			cat "$f" > /dev/null 2>&1 || echo "${f##*/}" >> /tmp/cycles.err
		done
		passes=$((passes + 1))
		echo $passes > /tmp/cycles.$1
	done
}
rm -f /tmp/cycles.*
reader 1 &
reader 2 &
runs0=$(cat $C1/runs) n0=$(offsched_lines) bad= i=0
while [ $i -lt $CYCLES ]; do
	i=$((i + 1))
	[ "$($ctl write $C1/control start)" = OK ] || bad="$bad start$i"
	[ "$($ctl write $C1/control stop)" = OK ] || bad="$bad stop$i"
done
touch /tmp/cycles.stop
wait
p1=$(cat /tmp/cycles.1 2>/dev/null) p2=$(cat /tmp/cycles.2 2>/dev/null)
ktap_note "$CYCLES cycles, readers made $p1 and $p2 passes over $(ls $C1 | wc -l) files"
ktap_check "$CYCLES start/stop cycles with two readers of every file (failed:${bad:- none})" \
	'[ -z "$bad" ]'
ktap_check "every read succeeded (failed: $(sort -u /tmp/cycles.err 2>/dev/null | tr '\n' ' '))" \
	'[ ! -s /tmp/cycles.err ] && [ "${p1:-0}" -gt 0 ] && [ "${p2:-0}" -gt 0 ]'
ktap_check "$CYCLES runs counted and $CYCLES 'now offline and OFFSCHED' messages" \
	'[ "$(cat $C1/runs)" = $((runs0 + CYCLES)) ] &&
	 [ "$(offsched_lines)" = $((n0 + CYCLES)) ]'
ktap_check "afterwards CPU 1 online, stopped, module reference $ref0" \
	'[ "$(cat $ONLINE1)" = 1 ] && [ "$(cat $C1/state)" = stopped ] &&
	 [ "$(refcnt)" = "$ref0" ]'
