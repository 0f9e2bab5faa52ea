#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make compare-test in miniature, on the test kernel: compare's guest
# script (tests/compare/guest/run.sh) runs one 1 s run of each scenario
# this kernel can run (cfs, notick, offsched, three timers of 200 events,
# and the packet flows without a filter and through the pkt service, with
# its 4 rules and with 32; the
# kernel arguments are in ./cmdline), its records going to
# data.log as in a compare-test boot. Here: that it ran them all; on the
# host (./host-check): that analyze.py trusts every run and finds every
# column, so that a broken probe, trace or analysis fails make test
# rather than the next benchmark.
# The trace events compare records are on from boot (./cmdline's
# trace_event=, which replaces the harness's list), so that its script
# does not turn any on or off (kernel text patching, ../lib/trace.sh);
# /init filtered out those of ../lib/events: let them record.
. ../lib/ktap.sh
. ../lib/trace.sh

ktap_plan 1
trace_only irq_vectors/local_timer_entry irq_vectors/local_timer_exit \
	irq_vectors/reschedule_entry irq_vectors/call_function_entry \
	irq_vectors/call_function_single_entry sched/sched_switch
n=$(grep -o 'compare.scenarios=[^ ]*' /proc/cmdline | tr ',' '\n' | grep -c .)
out=$(cd /tests/compare && sh ./run.sh 2>&1)
echo "$out" | sed 's/^#* */# /'
done=$(echo "$out" | sed -n 's/^# compare: \([0-9]*\) runs done$/\1/p')
ktap_setup "compare's guest script ran every scenario once (${done:-no} of $n runs done)" \
	'[ "${done:-0}" = "$n" ] && [ "$n" = 9 ]'
