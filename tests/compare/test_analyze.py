#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of analyze.py on small synthetic data logs (TAP output).

Each log is one run as the guest writes it, with a TSC at 1 GHz so that a
cycle is a nanosecond: known gaps, known events, and the ways a trace can
be broken (another clock, lost events, no context switch of the probe).
"""
import contextlib
import io
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import analyze  # noqa: E402
import tap  # noqa: E402

PID = 321
INTERRUPTS = """           CPU0       CPU1       CPU2
  0:         10          0          0   IO-APIC   2-edge      timer
LOC:        {0}        {1}        {1}   Local timer interrupts
RES:          0          {2}          0   Rescheduling interrupts
"""
SOFTIRQS = """                    CPU0       CPU1       CPU2
          HI:          0          0          0
       TIMER:          5          {0}          0
"""


def ev(ts, name, args, comm='ftq', pid=PID, cpu=1):
    return '%16s-%-7d [%03d] d.h1. %d: %s: %s' % (comm, pid, cpu, ts, name, args)


def switch(ts, prev, prev_pid, nxt, next_pid):
    return ev(ts, 'sched_switch', 'prev_comm=%s prev_pid=%d prev_prio=120 prev_state=R ==> '
              'next_comm=%s next_pid=%d next_prio=120' % (prev, prev_pid, nxt, next_pid),
              comm=prev, pid=prev_pid)


def base_trace():
    """The probe switched in at 100, a tick inside the loop from 2100 to
    2300 (in the gap 2000-3000), a reschedule IPI outside any gap, the
    probe switched out at 9000 and a tick after it (not in its life)."""
    return [
        switch(100, 'notickctl', PID, 'ftq', PID),
        ev(2100, 'local_timer_entry', 'vector=236'),
        ev(2300, 'local_timer_exit', 'vector=236'),
        ev(4000, 'reschedule_entry', 'vector=253'),
        ev(4010, 'reschedule_exit', 'vector=253'),
        switch(9000, 'ftq', PID, 'swapper/1', 0),
        ev(9500, 'local_timer_entry', 'vector=236', comm='<idle>', pid=0),
        ev(9600, 'local_timer_exit', 'vector=236', comm='<idle>', pid=0),
    ]


# what set_event lists in the guest (irq_vectors and irq whole, and more)
SET_EVENT = ['irq_vectors:local_timer_entry', 'irq_vectors:local_timer_exit',
             'irq_vectors:reschedule_entry', 'irq_vectors:call_function_single_entry',
             'irq:irq_handler_entry', 'sched:sched_switch']


def run_log(sc='cfs', rep=1, clock='[x86-tsc] local global', stats=None, trace=None, rc=0,
            syscalls=(330, 340, 350), sysc_rc=0, sysc_err=(), set_event=None):
    stats = stats if stats is not None else ['entries: 8', 'overrun: 0', 'dropped events: 0']
    set_event = SET_EVENT if set_event is None else set_event
    trace = trace if trace is not None else base_trace()
    out = ['@@ begin %s %d' % (sc, rep),
           '@@ interrupts before', INTERRUPTS.format(100, 50, 0),
           '@@ softirqs before', SOFTIRQS.format(7),
           '@@ interrupts after', INTERRUPTS.format(100, 53, 1),
           '@@ softirqs after', SOFTIRQS.format(8),
           '@@ ftq rc=%d' % rc,
           '# ftq quantum_us=1 samples=4 gap_ns=100 tsc_hz=1000000000',
           '# run start_tsc=1000 end_tsc=8000 gaps=2 gaps_lost=0',
           'S 100', 'S 90', 'S 100', 'S 50',
           'G 2000 3000', 'G 5000 5500',
           'W 1000', 'W 1200', 'W 1100',
           'R nvcsw=2 nivcsw=1',
           '@@ stderr', '@@ sysc rc=%d' % sysc_rc] + ['C %d' % c for c in syscalls] + list(sysc_err) + [
           '@@ set_event'] + list(set_event) + [
           '@@ trace_clock', clock,
           '@@ trace_stats'] + stats + ['@@ trace'] + trace + [
           '@@ end %s %d rc=%d' % (sc, rep, rc)]
    return '\n'.join(out) + '\n'


def analyse_one(text, sc='cfs'):
    runs = list(analyze.split_sections_text(text))
    assert len(runs) == 1
    return analyze.analyse_run(sc, runs[0][2], 1)


def assert_fails(why, **log):
    """The run described by run_log(**log) fails, its error saying why."""
    r = analyse_one(run_log(**log))
    assert not r['ok'] and why in r.get('error', ''), r


def main_on(logs, files=None):
    """analyze.main() on the data logs, with other files (name: text)
    beside them, as the host leaves steps.py's counts."""
    with tempfile.TemporaryDirectory() as d:
        for name, text in (files or {}).items():
            with open(os.path.join(d, name), 'w') as f:
                f.write(text)
        paths = []
        for i, text in enumerate(logs):
            p = os.path.join(d, 'data%d.log' % i)
            with open(p, 'w') as f:
                f.write(text)
            paths.append(p)
        buf = io.StringIO()
        argv = sys.argv
        sys.argv = ['analyze.py', os.path.join(d, 'out'), '1'] + paths
        try:
            with contextlib.redirect_stdout(buf):
                rc = analyze.main()
        finally:
            sys.argv = argv
        with open(os.path.join(d, 'out', 'results.json')) as f:
            res = json.load(f)
    return rc, buf.getvalue(), res


TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


@test
def gaps_and_events():
    """a tick inside a gap: upper bound the gap, lower bound the tick"""
    r = analyse_one(run_log())
    assert r['ok'], r
    assert abs(r['kernel_noise_us'] - 1.0) < 1e-9, r['kernel_noise_us']
    assert abs(r['kernel_noise_lower_us'] - 0.2) < 1e-9, r['kernel_noise_lower_us']
    assert abs(r['unattributed_us'] - 0.5) < 1e-9, r['unattributed_us']
    assert abs(r['worst_kernel_us'] - 1.0) < 1e-9
    assert r['noise_by_source_us'] == {'timer tick': 1.0}, r['noise_by_source_us']


@test
def counts_over_life_and_loop():
    """interrupts counted over the process's life and inside the loop"""
    r = analyse_one(run_log())
    assert r['loc_run'] == 1, r['loc_run']          # the tick at 9500 is after its exit
    assert r['irq_run'] == 2, r['irq_run']          # the tick and the reschedule IPI
    assert r['loc_loop'] == 1 and r['irqs_loop'] == {'IPI resched': 1}, r
    assert r['loc'] == 3 and r['irqs'] == {'RES': 1} and r['softirqs'] == {'TIMER': 1}, r
    assert r['ctxsw'] == 3 and r['syscall_ns'] == 340 and r['fwq_cycles'] == 1100, r


@test
def wrong_clock_fails():
    """a trace on another clock is a failed run"""
    assert_fails('clock', clock='[local] global x86-tsc')


@test
def lost_events_fail():
    """an overrun ring buffer is a failed run"""
    assert_fails('lost 5 events', stats=['entries: 8', 'overrun: 5', 'dropped events: 0'])


@test
def commit_overrun_fails():
    """a commit overrun in the ring buffer's statistics is a failed run"""
    assert_fails('commit overrun: 4 events dropped',
                 stats=['entries: 8', 'overrun: 0', 'commit overrun: 4', 'dropped events: 0'])
    r = analyse_one(run_log(stats=['entries: 8', 'overrun: 0', 'commit overrun: 0', 'dropped events: 0']))
    assert r['ok'], r


@test
def lost_events_marker_fails():
    """a [LOST n EVENTS] line is a failed run"""
    t = base_trace()
    t.insert(2, 'CPU:1 [LOST 7 EVENTS]')
    assert_fails('lost 7 events', trace=t)


@test
def empty_trace_fails():
    """an empty trace is a failed run, not zero noise"""
    assert_fails('no event of the probe', trace=[])


@test
def no_switch_onto_probe_fails():
    """a trace without the switch onto the probe is a failed run"""
    assert_fails('context switch onto the probe', trace=base_trace()[1:])


@test
def launcher_name_and_late_exit():
    """the switch onto the CPU names the launcher, the exit switch is missing"""
    t = base_trace()[:5]
    t[0] = switch(100, 'swapper/1', 0, 'notickctl', PID)
    r = analyse_one(run_log(trace=t))
    assert r['ok'], r
    assert r['loc_run'] == 1 and r['irq_run'] == 2, r


@test
def launch_counts_what_came_before_the_process():
    """launch to exit: interrupts before the process's arrival count, not after its exit"""
    t = [ev(20, 'local_timer_entry', 'vector=236', comm='<idle>', pid=0),
         ev(30, 'local_timer_exit', 'vector=236', comm='<idle>', pid=0),
         ev(40, 'call_function_single_entry', 'vector=251', comm='<idle>', pid=0),
         ev(50, 'call_function_single_exit', 'vector=251', comm='<idle>', pid=0)] + base_trace()
    r = analyse_one(run_log(trace=t))
    assert r['ok'], r
    assert r['loc_run'] == 1 and r['irq_run'] == 2, r
    assert r['loc_launch'] == 2 and r['irq_launch'] == 4, r
    # by kind: the ticks, the call before the arrival, the process's resched
    assert r['irqs_launch'] == {'timer tick': 2, 'IPI call': 1, 'IPI resched': 1}, r['irqs_launch']


def offsched_log(gaps_lost='0', rep=1):
    """an OFFSCHED run as offsched_record() writes it (no trace)"""
    return '\n'.join([
        '@@ begin offsched %d' % rep, '@@ cpu', '1',
        '@@ interrupts before', INTERRUPTS.format(100, 50, 0),
        '@@ softirqs before', SOFTIRQS.format(7),
        '@@ interrupts after', INTERRUPTS.format(100, 51, 0),
        '@@ softirqs after', SOFTIRQS.format(7),
        '@@ offsched state=stopped',
        '# ftq quantum_us=1 samples=4 gap_ns=100 tsc_hz=1000000000',
        '# run start_tsc=1000 end_tsc=8000 gaps=2 gaps_lost=%s' % gaps_lost,
        'S 100', 'S 100', 'S 90', 'S 100', 'G 2000 2100', 'G 5000 5200', 'W 1000',
        '@@ end offsched %d rc=0' % rep]) + '\n'


@test
def events_not_enabled_fail():
    """a trace without the events the counts rest on, or with more ticks than /proc/interrupts, fails"""
    assert_fails('trace event irq_vectors:local_timer_entry was not enabled',
                 set_event=[e for e in SET_EVENT if e != 'irq_vectors:local_timer_entry'])
    text = run_log()
    i = text.index('@@ set_event')
    j = text.index('@@ trace_clock')
    r = analyse_one(text[:i] + text[j:])
    assert not r['ok'] and r['error'] == 'no list of the trace events enabled (set_event)', r
    extra = [ev(3000 + 10 * k, 'local_timer_entry', 'vector=236') for k in range(3)]
    r = analyse_one(run_log(trace=base_trace() + extra))
    assert not r['ok'] and r['error'] == ('the trace has 5 local timer interrupts on CPU 1,'
                                          ' /proc/interrupts 3 over a longer window'), r


@test
def truncated_or_unplaced_runs_fail():
    """a run with fewer samples than declared, without start_tsc, or with the CPU gone from a snapshot fails"""
    text = run_log()
    r = analyse_one(text.replace('S 50\n', ''))
    assert not r['ok'] and r['error'] == '3 FTQ samples of the 4 the probe declared: truncated', r
    r = analyse_one(text.replace(' samples=4 ', ' '))
    assert not r['ok'] and 'did not say how many samples' in r['error'], r
    r = analyse_one(text.replace('# run start_tsc=1000 end_tsc=8000 ', '# run '))
    assert not r['ok'] and 'no start_tsc/end_tsc' in r['error'], r
    i = text.index('@@ interrupts after')
    r = analyse_one(text[:i] + text[i:].replace('CPU0       CPU1       CPU2', 'CPU0       CPU2', 1))
    assert not r['ok'] and r['error'] == 'CPU 1 is not in /proc/interrupts after the run (offline then?)', r
    # the same in a timer run (timer-offsched: a stop that failed)
    t = offsched_timer_log()
    i = t.index('@@ interrupts after')
    r = timer_one(t[:i] + t[i:].replace('CPU0       CPU1       CPU2', 'CPU0', 1), 'timer-offsched')
    assert not r['ok'] and 'CPU 1 is not in /proc/interrupts after' in r['error'], r
    # and the good run is still good
    assert analyse_one(text)['ok']


@test
def lost_gaps_fail():
    """gaps the probe could not record (OFFSCHED's gaps_lost) fail the run"""
    runs = list(analyze.split_sections_text(offsched_log()))
    r = analyze.analyse_run('offsched', runs[0][2], 1)
    assert r['ok'] and abs(r['unattributed_us'] - 0.3) < 1e-9, r
    rc, out, res = main_on([run_log(), offsched_log('3')])
    assert rc == 1 and 'FAILED: OFFSCHED ftq, run 1: gaps_lost=3: the probe recorded 2 gaps and had no room' in out, out
    rc, out, res = main_on([run_log(), offsched_log('')])
    assert rc == 1 and 'did not say how many gaps it lost (gaps_lost=)' in out, out
    # the user-space probe reports them the same way
    r = analyse_one(run_log().replace('gaps=2 gaps_lost=0', 'gaps=2 gaps_lost=1'))
    assert not r['ok'] and 'gaps_lost=1: the probe recorded 2 gaps' in r['error'], r


@test
def missing_stats_fails():
    """a trace without its statistics is a failed run"""
    assert_fails('statistics', stats=[])


@test
def probe_failure_fails():
    """a probe that exited non-zero is a failed run"""
    r = analyse_one(run_log(rc=1))
    assert not r['ok'], r


@test
def syscalls_failure_fails():
    """a getppid() timing that failed or timed nothing fails the run"""
    assert_fails('the getppid() timing (ftq --syscalls) exited 1: ftq: cannot set affinity',
                 syscalls=(), sysc_rc=1, sysc_err=['ftq: cannot set affinity'])
    assert_fails('exited 137', sysc_rc=137)
    assert_fails('the getppid() timing (ftq --syscalls) timed nothing', syscalls=())
    rc, out, res = main_on([run_log(), run_log(rep=2, sysc_rc=2)])
    assert rc == 1 and 'FAILED: CFS (taskset), run 2: the getppid() timing (ftq --syscalls) exited 2' in out, out


@test
def main_exit_status():
    """main() returns 1 and names the failed run; 0 when all are good"""
    rc, out, res = main_on([run_log(), run_log(rep=2, stats=['overrun: 3'])])
    assert rc == 1 and 'FAILED: CFS (taskset), run 2: trace lost 3 events' in out, out
    assert res['scenarios']['cfs']['runs'] == 2 and res['scenarios']['cfs']['good_runs'] == 1
    rc, out, res = main_on([run_log(), run_log(rep=2)])
    assert rc == 0 and 'FAILED' not in out, out


@test
def reference_is_the_quietest_tuned_row():
    """the reference row is the tuned nohz_full= row with the fewest interrupts"""
    noisy = base_trace()
    noisy.insert(3, ev(2500, 'local_timer_entry', 'vector=236'))
    noisy.insert(4, ev(2600, 'local_timer_exit', 'vector=236'))
    rc, out, res = main_on([run_log('nohz', trace=noisy), run_log('nohz-cfs'),
                            run_log('notick', syscalls=(900, 900, 900))])
    assert rc == 0, out
    assert 'mainline at its best' in out and ': CFS, nohz_full= [m].' in out, out
    assert 'getppid() ns: 900 against 340' in out, out


@test
def spread_is_kept():
    """timings keep min / median / max over the runs"""
    rc, out, res = main_on([run_log(syscalls=(300,)), run_log(rep=2, syscalls=(500,)),
                            run_log(rep=3, syscalls=(400,))])
    assert res['scenarios']['cfs']['spread']['syscall_ns'] == [300, 400, 500], res
    # and over every batch of every run
    rc, out, res = main_on([run_log(syscalls=(300, 310, 320)),
                            run_log(rep=2, syscalls=(200, 900, 330))])
    assert res['scenarios']['cfs']['spread']['syscall_ns'] == [310, 320, 330], res
    assert res['scenarios']['cfs']['spread']['syscall_ns_batches'] == [200, 315, 900], res
    assert 'syscall_ns_batches 200 / 315 / 900' in out, out


@test
def spread_of_every_timing_column():
    """the kernel's bounds, the worst gap, the unattributed time and p1 have their spread too"""
    def one(rep, tick_gap, other_gap, low):
        return run_log(rep=rep).replace('G 2000 3000', 'G %s' % tick_gap) \
            .replace('G 5000 5500', 'G %s' % other_gap).replace('S 50', 'S %d' % low)
    rc, out, res = main_on([one(1, '2000 3000', '5000 5500', 50), one(2, '2000 4000', '5000 5500', 40),
                            one(3, '2000 2500', '5000 6000', 60)])
    assert rc == 0, out
    sp = res['scenarios']['cfs']['spread']
    for k, want in (('kernel_noise_us', [0.5, 1.0, 2.0]), ('kernel_noise_lower_us', [0.2, 0.2, 0.2]),
                    ('worst_kernel_us', [0.5, 1.0, 2.0]), ('unattributed_us', [0.5, 0.5, 1.0]),
                    ('ftq_p1', [40, 50, 60])):
        assert len(sp.get(k, [])) == 3 and all(abs(a - b) < 1e-9 for a, b in zip(sp[k], want)), (k, sp)
    assert 'worst_kernel_us 0.5 / 1.0 / 2.0' in out and 'ftq_p1 40 / 50 / 60' in out, out
    assert "the table's kern lo us, kern us, worst us, unattr us, p1" in out, out


@test
def icount_rows():
    """the -icount boots give the exact getppid() ratio, outside the table"""
    def ic(sc, v):
        return '@@ begin %s 1\n@@ sysc\nC %s\nC %s\n@@ end %s 1 rc=0\n' % (sc, v, v, sc)
    rc, out, res = main_on([run_log(), ic('icount', 232.5), ic('mainline-icount', 229.0)])
    assert rc == 0, out
    assert '232.5 with the series, 229.0 without: x1.015' in out, out
    assert res['scenarios']['icount']['syscall_ns'] == 232.5
    rc, out, res = main_on([run_log(), '@@ begin icount 1\n@@ sysc\n@@ end icount 1 rc=0\n'])
    assert rc == 1 and 'no getppid() timing' in out, out
    rc, out, res = main_on([run_log(), ic('icount-jump', 229.0), ic('mainline-icount-jump', 229.0)])
    assert rc == 0, out
    assert 'JUMP_LABEL=y: 229.0 with the series, 229.0 without: x1.000' in out, out
    assert 'getppid, -icount, JUMP_LABEL=y' not in out.split('\n\n')[0], out


def paired_log(base, rep, notick_s, nohz_s):
    """a paired run: the notick probe on CPU 1, the nohz one on CPU 2
    (its trace on CPU 2 only), with their FTQ samples"""
    def one(sc, cpu, samples):
        text = run_log(sc, rep, trace=[t.replace('[001]', '[%03d]' % cpu) for t in base_trace()])
        text = text.replace('@@ begin %s %d\n' % (sc, rep), '@@ begin %s %d\n@@ cpu\n%d\n' % (sc, rep, cpu))
        text = text.replace(' samples=4 ', ' samples=%d ' % len(samples))
        return text.replace('S 100\nS 90\nS 100\nS 50', '\n'.join('S %d' % v for v in samples))
    return one(base + '-notick', 1, notick_s) + one(base + '-nohz', 2, nohz_s)


@test
def paired_rows():
    """paired runs: each on its own CPU, compared run by run"""
    rc, out, res = main_on([paired_log('paired', 1, (99, 99, 99), (100, 100, 100)) +
                            paired_log('paired', 2, (100, 100, 100), (100, 100, 100))])
    assert rc == 0, out
    r = res['runs']['paired-nohz'][0]
    assert r['cpu'] == 2 and r['loc_run'] == 1 and r['irq_run'] == 2, r
    assert 'paired (one boot, both probes at once): work per quantum, SCHED_NOTICK CPU 1 /' \
        ' nohz_full= CPU 2, FTQ median, run by run: 0.990 1.000; FWQ speed: 1.000 1.000.' in out, out


@test
def paired_control_rows():
    """paired-same, the control: SCHED_NOTICK on both CPUs, its own line"""
    rc, out, res = main_on([paired_log('paired-same', 1, (100, 100, 100), (100, 100, 100)) +
                            paired_log('paired-same', 2, (98, 98, 98), (100, 100, 100))])
    assert rc == 0, out
    assert res['runs']['paired-same-nohz'][0]['cpu'] == 2, res['runs']
    assert 'paired, control (one boot, both probes at once): work per quantum, SCHED_NOTICK' \
        ' CPU 1 / SCHED_NOTICK on the nohz_full= CPU 2, FTQ median, run by run: 1.000 0.980;' in out, out


def scale_log(sc, rep, hk):
    """a scale run: the probe on CPUs 1 and 2 at once, the first record
    with the housekeeping CPU's timer lateness (section hk)"""
    def one(cpu, extra):
        text = run_log(sc, rep, trace=[t.replace('[001]', '[%03d]' % cpu) for t in base_trace()])
        return text.replace('@@ begin %s %d\n' % (sc, rep),
                            '@@ begin %s %d\n@@ cpu\n%d\n%s' % (sc, rep, cpu, extra))
    return one(1, hk) + one(2, '')


@test
def scale_per_cpu_and_housekeeping():
    """scale runs: per-CPU and worst-CPU lines, CPU 0's timer lateness"""
    hk = '@@ hk rc=0\n# timer period_us=1000 wakeups=4 overruns=3\n' + \
        ''.join('L %d\n' % v for v in (50000, 60000, 70000, 900000))
    rc, out, res = main_on([scale_log('notick', 1, hk) + scale_log('notick', 2, hk)])
    assert rc == 0, out
    assert res['scenarios']['notick']['runs'] == 4, res
    assert 'per CPU (median of runs; LOC/IRQ over the life, kern us, noise): ' \
        'CPU 1 1/2, 1 us, 0.150; CPU 2 1/2, 1 us, 0.150' in out, out
    assert 'CPU 0 timer task, lateness of its wakeups, us (median of runs): ' \
        'median 65, p99 900; max over runs 900; periods missed 3 3' in out, out


@test
def scale_housekeeping_failure_fails():
    """a timer task that failed or recorded nothing fails its run"""
    rc, out, res = main_on([scale_log('notick', 1, '@@ hk rc=1\nftq: oops\n')])
    assert rc == 1 and 'the timer-driven task on CPU 0 failed (hk rc=1, 0 wakeups)' in out, out


def steps_log(sc, rep=1, rc=0):
    return '@@ begin %s %d\n@@ steps rc=%d\nP 0x4a92d0\n@@ end %s %d rc=%d\n' % (
        sc, rep, rc, sc, rep, rc)


def steps_file(n, fns, nr=110, calls=4):
    return ''.join('call %d insns %d nr %d\n' % (i, n, nr) for i in range(1, calls + 1)) + \
        ''.join('fn %s %d\n' % kv for kv in fns.items())


@test
def steps_rows():
    """the steps counts: exact ratio and the functions that differ"""
    files = {'steps-steps-notick-1.txt': steps_file(538, {'entry_SYSCALL_64': 82, '__ct_user_exit': 27}),
             'steps-steps-nohz-cfs-1.txt': steps_file(545, {'entry_SYSCALL_64': 82, '__ct_user_exit': 30,
                                                            'rcu_x': 4}),
             'steps-steps-nohz-1.txt': steps_file(560, {'entry_SYSCALL_64': 82})}
    rc, out, res = main_on([run_log(), steps_log('steps-notick') + steps_log('steps-nohz-cfs') +
                            steps_log('steps-nohz')], files)
    assert rc == 0, out
    assert 'SCHED_NOTICK 538, FIFO, nohz_full= [m] 560, CFS, nohz_full= [m] 545.' in out, out
    assert 'SCHED_NOTICK / CFS, nohz_full= [m]: x0.987; by function where they differ' \
        ' (SCHED_NOTICK/reference): __ct_user_exit 27/30, rcu_x 0/4.' in out, out
    assert res['scenarios']['steps-notick']['spread']['steps'] == [538, 538, 538], res


@test
def steps_failures():
    """a steps run without its count, or counting another call, fails"""
    for files, why in (({}, 'the host never counted'),
                       ({'steps-steps-notick-1.txt': 'error no vCPU 1 in the gdb stub\n'}, 'no vCPU 1'),
                       ({'steps-steps-notick-1.txt': ''}, 'no call counted'),
                       ({'steps-steps-notick-1.txt': steps_file(500, {}, nr=39)}, 'a counted call was not getppid()')):
        rc, out, res = main_on([run_log(), steps_log('steps-notick')], files)
        assert rc == 1 and 'single-stepping: ' + why in out, (why, out)
    rc, out, res = main_on([run_log(), steps_log('steps-notick', rc=1)],
                           {'steps-steps-notick-1.txt': steps_file(538, {})})
    assert rc == 1 and 'getppid steps, SCHED_NOTICK, run 1: exit status 1' in out, out


def timer_out(sc, late, ev, overruns=0, hz=1000000000, period_ns=1000000, wakeups=None, svc=None,
              wait=None):
    """ftq's timer records (TSC at 1 GHz: a cycle is a ns): the "# timer"
    line, L and E lines, and timer-offsched's "# service" line, K and F
    lines (svc: (samples, events, missed, unwatched, K, F))."""
    clock = {'timer-hrtimer': 'monotonic', 'timer-notick': 'tsc', 'timer-nohz': 'tsc'}.get(sc, 'offsched')
    out = ['# timer period_us=%d period_ns=%d wakeups=%d overruns=%d clock=%s tsc_hz=%d tsc_source=kernel'
           % (period_ns // 1000, period_ns, len(late) if wakeups is None else wakeups, overruns, clock, hz)]
    if svc:
        n, events, missed, unwatched, k, f = svc
        wait = wait or ('doorbell' if sc == 'timer-doorbell' else 'poll')
        out.append('# service cpu=1 samples=%d events=%d missed=%d loops=%d unwatched=%d'
                   ' period_cycles=%d status=complete wait=%s' % (n, events, missed, events - missed,
                                                                  unwatched, period_ns, wait))
    out += ['L %d' % v for v in late] + ['E %d %d' % e for e in ev]
    if svc:
        out += ['K %d' % v for v in k] + ['F %d %d' % e for e in f]
    return out


# Five deadlines 1 ms apart from 1000000: the event of deadline 3 was
# skipped (an overrun), so two intervals: 1000300 and 999800 ns.
TIMER_LATE = (10000, 10300, 10100, 500000)
TIMER_EV = ((0, 1010000), (1, 2010300), (2, 3010100), (4, 5500000))


def timer_log(sc='timer-notick', rep=1, rc=0, out=None, err=(), loc=(50, 52)):
    """a timer run as run_timer() (emit) or run_timer_offsched() writes it"""
    out = out if out is not None else timer_out(sc, TIMER_LATE, TIMER_EV, overruns=1)
    lines = ['@@ begin %s %d' % (sc, rep), '@@ cpu', '1',
             '@@ interrupts before', INTERRUPTS.format(100, loc[0], 0),
             '@@ softirqs before', SOFTIRQS.format(7),
             '@@ interrupts after', INTERRUPTS.format(100, loc[1], 0),
             '@@ softirqs after', SOFTIRQS.format(7)]
    if sc in analyze.OFFSCHED_TIMERS:
        lines.append('@@ offsched state=stopped')
    lines += ['@@ ftq rc=%d' % rc] + out + ['@@ stderr'] + list(err)
    if sc not in analyze.OFFSCHED_TIMERS:
        lines += ['@@ trace_clock', '[x86-tsc] local', '@@ trace_stats', 'overrun: 0', '@@ trace']
    return '\n'.join(lines + ['@@ end %s %d rc=%d' % (sc, rep, rc)]) + '\n'


# timer-offsched: 6 deadlines 1 ms apart from 1000000; the service missed
# deadline 3 (saw it after deadline 4 had passed); the poller first looked
# after event 0 (unwatched), then saw events 1 and 2, 4 (with 3: bundled)
# and 5.
OS_SVC = (6, 6, 1, 1, (100, 300, 200, 150, 50),
          ((0, 1000100), (1, 2000300), (2, 3000200), (4, 5000150), (5, 6000050)))
OS_LATE = (2000, 1000, 4000, 5000)
OS_EV = ((1, 2002000), (2, 3001000), (4, 5004000), (5, 6005000))


def offsched_timer_log(rep=1, svc=OS_SVC, late=OS_LATE, ev=OS_EV, overruns=1, sc='timer-offsched',
                       wait=None, **log):
    return timer_log(sc, rep, out=timer_out(sc, late, ev, overruns=overruns, svc=svc, wait=wait), **log)


def close(a, b):
    return a is not None and abs(a - b) < 1e-6


def timer_one(text, sc):
    runs = list(analyze.split_sections_text(text))
    assert len(runs) == 1 and runs[0][0] == sc
    return analyze.analyse_timer(sc, runs[0][2], 1)


@test
def timer_statistics():
    """timer runs: lateness, period error from the first and last events, jitter from consecutive deadlines only"""
    t = analyze.timer_stats(list(TIMER_LATE), list(TIMER_EV), 1e6, 1e9)
    assert t['events'] == 4 and t['intervals'] == 2, t
    assert t['late_us'] == [10.2, 500.0, 500.0], t['late_us']
    # (5500000 - 1010000) / 4 deadlines - 1000000
    assert close(t['period_err_ns'], 122500) and close(t['jitter_ns'], 250), t
    # the TSC's rate converts: at 2 GHz the same cycles are half the ns
    t = analyze.timer_stats([1], [(0, 0), (1, 2000000), (2, 4000200)], 1e6, 2e9)
    assert close(t['period_err_ns'], 50) and close(t['jitter_ns'], 50), t
    # one interval: a period error, no jitter; two events apart: the
    # error only; one event: neither (not zeros)
    t = analyze.timer_stats([1, 1], [(0, 0), (1, 1000100)], 1e6, 1e9)
    assert close(t['period_err_ns'], 100) and t['jitter_ns'] is None, t
    t = analyze.timer_stats([1, 1], [(0, 0), (2, 2000000)], 1e6, 1e9)
    assert close(t['period_err_ns'], 0) and t['jitter_ns'] is None and t['intervals'] == 0, t
    t = analyze.timer_stats([1], [(3, 5)], 1e6, 1e9)
    assert t['period_err_ns'] is None and t['jitter_ns'] is None, t


@test
def timer_run():
    """a timer-notick, timer-nohz or timer-hrtimer run: its events, overruns and LOC"""
    for sc in ('timer-notick', 'timer-nohz', 'timer-hrtimer'):
        r = timer_one(timer_log(sc), sc)
        assert r['ok'], r
        t = r['timer']
        assert t['events'] == 4 and t['overruns'] == 1 and r['loc'] == 2, r
        assert close(t['period_err_ns'], 122500) and close(t['jitter_ns'], 250), t
        assert r['period_ns'] == 1e6 and r['tsc_source'] == 'kernel', r


@test
def timer_offsched_run():
    """timer-offsched: the service's own lateness and the delivered one"""
    r = timer_one(offsched_timer_log(), 'timer-offsched')
    assert r['ok'], r
    s, t = r['service'], r['timer']
    assert s['events'] == 5 and s['overruns'] == 1 and s['late_us'] == [0.15, 0.3, 0.3], s
    # intervals of deadlines 0-1, 1-2 and 4-5 (3 was missed): +200, -100, -100
    # error: (6000050 - 1000100) / 5 deadlines - 1000000
    assert s['intervals'] == 3 and close(s['period_err_ns'], -10) and close(s['jitter_ns'], 20000 ** 0.5), s
    assert t['events'] == 4 and t['overruns'] == 1 and r['unwatched'] == 1, r
    # 1-2 and 4-5: -1000, +1000
    assert t['late_us'] == [3.0, 5.0, 5.0], t
    # error: (6005000 - 2002000) / 4 deadlines - 1000000
    assert t['intervals'] == 2 and close(t['period_err_ns'], 750) and close(t['jitter_ns'], 1000), t


@test
def timer_doorbell_run():
    """timer-doorbell: the delivered lateness of a reader its doorbell woke; one that polled fails"""
    r = timer_one(offsched_timer_log(sc='timer-doorbell'), 'timer-doorbell')
    assert r['ok'] and r['timer']['events'] == 4 and r['service']['events'] == 5, r
    assert r['timer']['late_us'] == [3.0, 5.0, 5.0], r
    r = timer_one(offsched_timer_log(sc='timer-doorbell', wait='poll'), 'timer-doorbell')
    assert not r['ok'] and r['error'] == ('ftq --offsched-timer --doorbell waited for the events'
                                          ' by poll, not by doorbell'), r
    r = timer_one(offsched_timer_log(wait='doorbell'), 'timer-offsched')
    assert not r['ok'] and 'by doorbell, not by poll' in r['error'], r


@test
def timer_failures():
    """a timer tool that failed, printed no event or a truncated output fails its run"""
    def fails(why, text, sc='timer-notick'):
        r = timer_one(text, sc)
        assert not r['ok'] and why in r.get('error', ''), (why, r)
    fails('ftq --tsc-timer exited 1: ftq: --tsc-timer: a period of 1 us is no TSC cycle',
          timer_log(rc=1, out=[], err=['ftq: --tsc-timer: a period of 1 us is no TSC cycle at 0 Hz']))
    fails('no timer events (ftq --timer: wakeups=0, overruns=0)',
          timer_log('timer-hrtimer', out=timer_out('timer-hrtimer', (), ())), 'timer-hrtimer')
    fails('truncated: wakeups=5, 4 L and 4 E lines',
          timer_log(out=timer_out('timer-notick', TIMER_LATE, TIMER_EV, wakeups=5)))
    fails('printed no "# timer" line', timer_log(out=['L 5', 'E 0 5']))
    fails('gave no TSC frequency', timer_log(out=timer_out('timer-notick', TIMER_LATE, TIMER_EV, hz=0)))
    fails('unreadable line', timer_log(out=timer_out('timer-notick', TIMER_LATE, TIMER_EV) + ['L soon']))
    fails('unavailable timer service start failed: EBUSY',
          '@@ begin timer-offsched 1\n@@ unavailable timer service start failed: EBUSY\n'
          '@@ end timer-offsched 1 rc=1\n', 'timer-offsched')
    fails('ftq --offsched-timer exited 1: ftq: --offsched-timer: the service on CPU 1 never ran',
          offsched_timer_log(rc=1, err=['ftq: --offsched-timer: the service on CPU 1 never ran']),
          'timer-offsched')
    fails('the service fired 6 of its 8 deadlines',
          offsched_timer_log(svc=(8,) + OS_SVC[1:]), 'timer-offsched')
    fails("the poller's counts do not add up: 4 seen + 0 bundled + 1 unwatched != 6 events",
          offsched_timer_log(overruns=0), 'timer-offsched')
    fails('truncated: 6 events, 1 missed, 4 K and 5 F lines',
          offsched_timer_log(svc=OS_SVC[:4] + (OS_SVC[4][:4], OS_SVC[5])), 'timer-offsched')
    fails('printed no "# service" line', timer_log('timer-offsched'), 'timer-offsched')


@test
def timer_table():
    """the Timer table: medians of runs, two rows for timer-offsched, one for timer-doorbell, failures loud"""
    other = timer_out('timer-notick', (30000, 40000, 50000, 700000), TIMER_EV, overruns=3)
    rc, out, res = main_on([run_log(), timer_log() + timer_log(rep=2, out=other) +
                            timer_log(rep=3) + offsched_timer_log() +
                            offsched_timer_log(sc='timer-doorbell')])
    assert rc == 0, out
    sm = res['scenarios']['timer-notick']
    assert sm['runs'] == 3 and sm['timer']['overruns'] == 1 and close(sm['timer']['late_p99_us'], 500), sm
    assert sm['spread']['late_p99_us'] == [500.0, 500.0, 700.0], sm['spread']
    lines = out.splitlines()
    assert any(l.startswith('Timer: periodic events on CPU 1, 1000 us apart') for l in lines), out
    row = next(l for l in lines if l.startswith('SCHED_NOTICK polling the TSC ') and '3/3' in l)
    assert row.split()[-8:] == ['4', '1', '10.20', '500.00', '500.00', '+122500.0', '250.0', '2'], row
    assert any(l.startswith('OFFSCHED timer, fired (service)') and '1/1' in l for l in lines), out
    assert any(l.startswith('OFFSCHED timer, delivered (CPU 0 poller)') for l in lines), out
    # timer-doorbell: its delivered row only, and what it is
    assert [l.split()[6:8] for l in lines if l.startswith('OFFSCHED timer, delivered (CPU 0 doorbell)')] == \
        [['1/1', '4']], out
    assert not any(l.startswith('OFFSCHED timer, doorbell') for l in lines[:lines.index('')]) and \
        'sleeps in read() of /dev/offsched until it rings' in out, out
    assert 'events fired before its first look (median of runs: 1)' in out, out
    assert 'delivered_jitter_ns 1000.0 / 1000.0 / 1000.0' in out and \
        'fired_late_p99_us 0.30 / 0.30 / 0.30' in out, out
    assert 'Under QEMU TCG each vCPU is a host thread' in out, out
    # not in the FTQ table
    assert not any(l.startswith('SCHED_NOTICK polling') for l in out.split('\n\n')[0].splitlines()), out
    # a failed run: loud, and the exit status says so; no run at all: a failed row
    rc, out, res = main_on([timer_log() + timer_log(rep=2, rc=1, out=[], err=['ftq: boom'])])
    assert rc == 1 and 'FAILED: SCHED_NOTICK polling the TSC, run 2: ftq --tsc-timer exited 1: ftq: boom' in out, out
    rc, out, res = main_on([timer_log('timer-hrtimer', out=timer_out('timer-hrtimer', (), ()))])
    assert rc == 1 and res['scenarios']['timer-hrtimer']['runs'] == 1, res
    assert any(l.startswith('hrtimer, FIFO 99 (clock_nanosleep)') and 'failed: no timer events' in l
               for l in out.splitlines()), out


def main():
    return tap.run(TESTS, 'analyze')


if __name__ == '__main__':
    sys.exit(main())
