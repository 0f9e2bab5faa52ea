# SPDX-License-Identifier: GPL-2.0
# Kprobes and the code an offline CPU runs (sourced by run.sh; 5 tests).
# What the CPU runs from the moment it is dead is noinstr: kprobes refuse
# it, since their code patching does not reach an offline CPU and their
# handlers would run where RCU does not watch. A kprobe on a neighbouring
# function, which the offline CPU never runs, comes and goes while echo
# runs, and the log stays clean (the harness checks it).
KE=/sys/kernel/tracing/kprobe_events
refused= n=0
for sym in offsched_should_stop offsched_run offsched_cpu_dying \
	offsched_arch_halt offsched_mgr:offsched_mgr_callback \
	offsched_mgr:echo_run offsched_mgr:ftq_run offsched_mgr:timer_run \
	offsched_mgr:pkt_run; do
	n=$((n + 1))
	r=$($ctl write $KE "p:offsched_k$n $sym")
	[ "$r" = OK ] || refused="$refused ${sym#*:}:$r"
done
ktap_check "kprobes refused on the $n functions the offline CPU runs (refused:${refused:- none})" \
	'[ "$(echo $refused | wc -w)" = $n ] && ! grep -q offsched_k $KE'
expect "a kprobe on is_offsched_kmem, which it never runs" $KE \
	"p:offsched_kmem is_offsched_kmem" OK
expect "start echo" $C1/control start OK
bad=0 i=0
while [ $i -lt 50 ]; do
	i=$((i + 1))
	echo 1 > /sys/kernel/tracing/events/kprobes/offsched_kmem/enable || bad=$((bad + 1))
	echo 0 > /sys/kernel/tracing/events/kprobes/offsched_kmem/enable || bad=$((bad + 1))
done
out=$($ctl ring 1 10)
ktap_check "the kprobe enabled and disabled 50 times while echo runs ($bad failed), echo answers ($out)" \
	'[ $bad = 0 ] && case "$out" in "OK n=10 "*) true ;; *) false ;; esac'
expect "stop echo" $C1/control stop OK
echo "-:offsched_kmem" >> $KE
