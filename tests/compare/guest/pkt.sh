# SPDX-License-Identifier: GPL-2.0
# compare-test's packet scenarios (sourced by run.sh, busybox sh): UDP from
# the root network namespace (v0, 10.9.0.1) over a veth pair to another
# namespace (v1, 10.9.0.2), sender and receiver both on CPU 0, so that
# CPU 0 is the receiving CPU whatever judges the packets:
#   pkt-none      no filter
#   pkt-nft       four nftables rules at v1's ingress hook (Debian's nft)
#   pkt-offsched  the same four rules in the OFFSCHED pkt service, its
#                 verdicts given by the offlined CPU
#   pkt-nft-long, pkt-offsched-long: the same, 28 more rules ahead of
#                 the four (32, the pkt service's most): drop UDP from
#                 10.9.1.1 ... 10.9.1.28 to port 9000, which every packet
#                 of the flow is tried against and matches none of
# The rules: drop UDP to port 9001, drop TCP, count UDP from 10.9.0.1 to
# port 9000, pass UDP to port 9000; the flow, to port 9000, takes the
# last two.  The long lists' extra rules are written one by one (not as
# an nftables set), so that both filters try each in turn.  Each run has
# two phases: paced (pkt_paced datagrams at pkt_rate per second: the
# latency of each, and CPU 0's busy time, from /proc/stat, over the
# phase) and flood (pkt_flood datagrams as fast as the sender's socket
# takes them: the rate received, and the losses).
# Records: "@@ pkt" then key=value lines, and "@@ pkt-filter" with what
# the filter counted (the host checks that it saw the flow).
IP=/usr/sbin/ip
F=/tests/compare/pktflow
pkt_ns=
# the extra rules of the -long scenarios
PKT_LONG=28

# pkt_net: the namespace and the veth pair, once per boot
pkt_net() {
	[ -n "$pkt_ns" ] && return 0
	unshare -n sleep 100000 &
	pkt_ns=$!
	i=0
	while [ "$(readlink /proc/$pkt_ns/ns/net)" = "$(readlink /proc/self/ns/net)" ] &&
	      [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	$IP link add v0 type veth peer name v1 netns $pkt_ns &&
	$IP addr add 10.9.0.1/24 dev v0 && $IP link set v0 up && $IP link set lo up &&
	nsenter -t $pkt_ns -n sh -c "$IP addr add 10.9.0.2/24 dev v1 && $IP link set v1 up &&
		$IP link set lo up"
}

# pkt_cpu0_busy: CPU 0's busy time in USER_HZ units (every column of its
# /proc/stat line but idle and iowait)
pkt_cpu0_busy() {
	awk '$1 == "cpu0" { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
}

# pkt_phase NAME COUNT [PPS]: one flow to port 9000; its records
pkt_phase() {
	nsenter -t $pkt_ns -n taskset -c 0 $F recv 9000 1000 > /tmp/pkt.recv 2>&1 &
	local rp=$! i=0 b0 b1
	while ! grep -q listening /tmp/pkt.recv && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	b0=$(pkt_cpu0_busy)
	taskset -c 0 $F send 10.9.0.2 9000 "$2" $3 > /tmp/pkt.send 2>&1
	local src=$?
	wait $rp
	local rrc=$?
	b1=$(pkt_cpu0_busy)
	echo "phase=$1 send_rc=$src recv_rc=$rrc"
	cat /tmp/pkt.send /tmp/pkt.recv
	echo "cpu0_busy_ticks=$((b1 - b0))"
}

# pkt_long N BEFORE AFTER: the N extra rules, one per line, each BEFORE
# its number AFTER
pkt_long() {
	local i=1
	while [ $i -le "$1" ]; do
		echo "$2$i$3"
		i=$((i + 1))
	done
}

# pkt_nft on|off [EXTRA]: the rules in nftables, at v1's ingress, EXTRA
# more ahead of them
pkt_nft() {
	if [ "$1" = off ]; then
		nsenter -t $pkt_ns -n nft delete table netdev pkt
		return
	fi
	cat > /tmp/pkt.nft <<-EOF
	table netdev pkt {
		chain in {
			type filter hook ingress device v1 priority 0; policy accept;
	$(pkt_long "${2:-0}" '		ip saddr 10.9.1.' ' udp dport 9000 drop')
			udp dport 9001 drop
			ip protocol tcp drop
			ip saddr 10.9.0.1 udp dport 9000 counter
			udp dport 9000 counter accept
		}
	}
	EOF
	nsenter -t $pkt_ns -n nft -f /tmp/pkt.nft
}

# pkt_offsched on|off [EXTRA]: the rules in the pkt service of the
# measured CPU, EXTRA more ahead of them
pkt_offsched() {
	local d=/sys/devices/system/cpu/cpu$cpu/offsched
	if [ "$1" = off ]; then
		echo stop > $d/control
		return
	fi
	modprobe offsched_mgr 2>/dev/null
	[ -d $d ] || { echo "no $d" >&2; return 1; }
	echo pkt > $d/service && echo clear > $d/pkt_rules && echo 4096 > $d/pkt_ring || return
	pkt_long "${2:-0}" 'add drop proto udp src 10.9.1.' ' dport 9000' > /tmp/pkt.long
	while read -r rule; do
		echo "$rule" > $d/pkt_rules || return
	done < /tmp/pkt.long
	echo "add drop proto udp dport 9001" > $d/pkt_rules &&
	echo "add drop proto tcp" > $d/pkt_rules &&
	echo "add count proto udp src 10.9.0.1 dport 9000" > $d/pkt_rules &&
	echo "add pass proto udp dport 9000" > $d/pkt_rules &&
	echo start > $d/control
}

# run_pkt SCENARIO: one run of pkt-none, pkt-nft, pkt-offsched,
# pkt-nft-long or pkt-offsched-long
run_pkt() {
	local sc=$1 filter=${1#pkt-} extra=0 d=/sys/devices/system/cpu/cpu$cpu/offsched
	case $filter in
	*-long) filter=${filter%-long} extra=$PKT_LONG ;;
	esac
	pkt_net 2> /tmp/pkt.err ||
		{ echo "@@ unavailable the veth pair: $(cat /tmp/pkt.err)"; return 1; }
	if [ $filter != none ] && ! pkt_$filter on $extra 2> /tmp/pkt.err; then
		echo "@@ unavailable the $filter rules: $(cat /tmp/pkt.err)"
		return 1
	fi
	echo "@@ pkt"
	pkt_phase paced "$pkt_paced" "$pkt_rate"
	pkt_phase flood "$pkt_flood"
	echo "@@ pkt-filter $filter"
	case $filter in
	nft) nsenter -t $pkt_ns -n nft list table netdev pkt ;;
	offsched) cat $d/pkt_rules
		for f in $d/pkt_matched $d/pkt_passed $d/pkt_dropped $d/pkt_overflow_dropped \
			 $d/pkt_in_flight; do
			echo "${f##*/}=$(cat $f)"
		done ;;
	esac
	[ $filter = none ] || pkt_$filter off 2> /tmp/pkt.err ||
		{ echo "@@ unavailable could not take the $filter rules away: $(cat /tmp/pkt.err)"; return 1; }
}
