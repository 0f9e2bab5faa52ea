#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# notickctl --report --noise in the guest: the noise a SCHED_NOTICK
# program sees on CPU 1, traced in a tracefs instance of notickctl's own.
# Enabling trace events patches kernel text at run time, which QEMU 7.2's
# multi-threaded TCG can miss on the other vCPU (lib/trace.sh): this
# suite boots on single-threaded TCG (tcg-single), and its programs run
# well under a second (a SCHED_NOTICK spinner's remote tick must come
# within 3 s, sched_tick_remote(), which one TCG thread for both CPUs on
# a loaded host does not promise for long runs).
. ../lib/ktap.sh

NT=/usr/bin/notickctl
P=/tests/notickctl/ntprobe
T=/tmp/notickctl-noise
rm -rf $T
mkdir -p $T
# T DESC EXPR: one test
T() { if eval "$2"; then ktap_ok "$1"; else ktap_fail "$1"; sed 's/^/# /' $T/rep.json $T/err 2> /dev/null; fi; }
# key NAME: the number of "NAME": N in the report
key() { sed -n "s/.*\"$1\": \\([0-9][0-9]*\\).*/\\1/p" $T/rep.json | head -n 1; }

ktap_plan 5
ktap_note "kernel $(uname -r)"

# A SCHED_NOTICK spinner on CPU 1 with a CFS task runnable there: the
# program forks a child that pins itself to CPU 1 (a child of a
# SCHED_NOTICK thread gets its cpuset's CPUs, sched_notick_fork(), so
# it asks for CPU 1 with taskset) and spins, and executes the spinner
# itself (exec keeps the class). The grace period lets the child run,
# so the spinner is switched out while still runnable (thread noise)
# and yields.
$NT --report --noise --json -O $T/rep.json --cpu 1 -- \
	sh -c "taskset -c 1 $P spin 300 > /dev/null & exec $P spin 1000" > $T/out 2> $T/err
rc=$?
total=$(key total_us) worst=$(key worst_us) count=$(key count)
irq=$(key irq_us) soft=$(key softirq_us) thread=$(key thread_us) yields=$(key yields)
ktap_note "noise: total $total us, worst $worst, count $count (irq $irq, softirq $soft, thread $thread); yields $yields"
T "--report --noise: exit 0, the noise measured (noise_unavailable null)" \
	'[ $rc = 0 ] && grep -q "^  \"noise_unavailable\": null,$" $T/rep.json && [ -n "$total" ]'
T "the other task on CPU 1 shows as thread noise ($thread us) while the spinner yielded ($yields)" \
	'[ -n "$thread" ] && [ "$thread" -gt 0 ] && [ -n "$yields" ] && [ "$yields" -ge 1 ]'
T "total ($total) = irq + softirq + thread ($irq + $soft + $thread), worst ($worst) <= total, count ($count) >= 1" \
	'[ "$total" = $((irq + soft + thread)) ] && [ "$worst" -le "$total" ] && [ "$count" -ge 1 ]'
T "the tracefs instance of that measurement is removed afterwards" \
	'[ $rc = 0 ] && [ -n "$total" ] && ! ls -d /sys/kernel/tracing/instances/notickctl.* > /dev/null 2>&1'
$NT --report --noise --cpu 1 -- $P exit 0 > $T/out 2> $T/err
T "--report --noise, text: the noise and the worst interruption" \
	'grep -Eq "^  noise +[0-9]+ us in [0-9]+ interruptions$" $T/err && grep -Eq "^  worst interruption +[0-9]+ us$" $T/err'
rm -rf $T
