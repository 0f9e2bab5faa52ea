#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""compare-test, host side: turn the guests' data logs into a table,
results.json and the data for the sorted-FTQ plot.

    analyze.py OUTDIR CPU DATA.LOG...

Attribution: the probe records every gap in its loop above a threshold,
with start and end on the TSC; the guest traces the kernel's events on the
measured CPU with the x86-tsc clock.  A gap that contains a kernel event is
kernel-attributed noise, split among the sources by the time each spent
inside the gap; a gap with no kernel event is unattributed (under TCG:
the host).  The OFFSCHED scenario has no kernel events by construction and
measures the machine's noise floor.

The timer scenarios (timer-*) are periodic events on the CPU instead: how
late each came, and the period error and jitter of their times on the TSC
(analyse_timer), in a table of their own.
"""
import bisect
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from outcome import outcome  # noqa: E402
from pkt import PKT_COLS, PKT_LABEL, analyse_pkt, is_pkt, pkt_lines, pkt_summary  # noqa: E402

TRACE_RE = re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+(\d+):\s+([\w]+):\s*(.*)$')
VECTOR_NAMES = {
    'local_timer': 'timer tick', 'reschedule': 'IPI resched',
    'call_function': 'IPI call', 'call_function_single': 'IPI call',
    'irq_work': 'irq_work', 'spurious_apic': 'spurious', 'error_apic': 'APIC error',
    'thermal_apic': 'thermal', 'threshold_apic': 'threshold',
    'x86_platform_ipi': 'platform IPI', 'deferred_error_apic': 'MCE',
}
ORDER = ['offsched', 'notick', 'notick-isolate', 'notick-nocb-off', 'nohz', 'nohz-cfs', 'nohz-throttled', 'fifo', 'cfs',
         'mainline-fifo', 'mainline-cfs', 'icount', 'mainline-icount', 'icount-jump',
         'mainline-icount-jump', 'steps-notick', 'steps-nohz', 'steps-nohz-cfs', 'steps-cfs',
         'steps-mainline-cfs', 'paired-notick', 'paired-nohz', 'paired-gettime-notick',
         'paired-gettime-nohz', 'paired-same-notick', 'paired-same-nohz',
         'timer-offsched', 'timer-doorbell', 'timer-notick', 'timer-nohz', 'timer-hrtimer']
# The rows of mainline at its best (tuned nohz_full=): the reference.
REFERENCE = ['nohz', 'nohz-cfs']
LABEL = {
    'cfs': 'CFS (taskset)', 'fifo': 'FIFO (chrt -f 99)',
    'nohz': 'FIFO, nohz_full= [m]', 'nohz-cfs': 'CFS, nohz_full= [m]',
    'nohz-throttled': 'FIFO throttled, nohz_full= [m]', 'notick': 'SCHED_NOTICK',
    'notick-isolate': 'SCHED_NOTICK, --isolate',
    'notick-nocb-off': 'SCHED_NOTICK, nocb not default [n]',
    'offsched': 'OFFSCHED ftq', 'mainline-cfs': 'CFS (taskset) [m]',
    'mainline-fifo': 'FIFO (chrt -f 99) [m]',
    'icount': 'getppid, -icount', 'mainline-icount': 'getppid, -icount [m]',
    'icount-jump': 'getppid, -icount, JUMP_LABEL=y',
    'mainline-icount-jump': 'getppid, -icount, JUMP_LABEL=y [m]',
    'steps-notick': 'getppid steps, SCHED_NOTICK',
    'steps-nohz': 'getppid steps, FIFO, nohz_full= [m]',
    'steps-nohz-cfs': 'getppid steps, CFS, nohz_full= [m]',
    'steps-cfs': 'getppid steps, CFS', 'steps-mainline-cfs': 'getppid steps, CFS [m]',
    'paired-notick': 'paired: SCHED_NOTICK', 'paired-nohz': 'paired: FIFO, nohz_full=',
    'paired-gettime-notick': 'paired, gettime: SCHED_NOTICK',
    'paired-gettime-nohz': 'paired, gettime: FIFO, nohz_full=',
    'paired-same-notick': 'paired, control: SCHED_NOTICK',
    'paired-same-nohz': 'paired, control: SCHED_NOTICK, nohz_full=',
    'timer-hrtimer': 'hrtimer, FIFO 99 (clock_nanosleep)',
    'timer-notick': 'SCHED_NOTICK polling the TSC',
    'timer-nohz': 'FIFO polling the TSC, nohz_full= [m]',
    'timer-offsched': 'OFFSCHED timer',
    'timer-doorbell': 'OFFSCHED timer, doorbell',
}
LABEL.update(PKT_LABEL)
# timer-offsched's two rows: the service's own lateness, and the poller's
# timer-doorbell's one row: the reader its doorbell woke
TIMER_ROWS = {'timer-offsched': [('service', 'OFFSCHED timer, fired (service)'),
                                 ('timer', 'OFFSCHED timer, delivered (CPU 0 poller)')],
              'timer-doorbell': [('timer', 'OFFSCHED timer, delivered (CPU 0 doorbell)')]}
# The scenarios of the OFFSCHED timer service (ftq --offsched-timer)
OFFSCHED_TIMERS = ('timer-offsched', 'timer-doorbell')
# How each timer scenario's tool ran, for its errors
TIMER_TOOL = {'timer-hrtimer': 'ftq --timer', 'timer-notick': 'ftq --tsc-timer',
              'timer-nohz': 'ftq --tsc-timer',
              'timer-offsched': 'ftq --offsched-timer',
              'timer-doorbell': 'ftq --offsched-timer --doorbell'}
NR_GETPPID = 110


def is_icount(sc):
    """a scenario that only times getppid() under QEMU's -icount"""
    return 'icount' in sc


def is_steps(sc):
    """a scenario whose getppid() calls the host single-steps (steps.py)"""
    return sc.startswith('steps-')


def is_timer(sc):
    """a scenario of periodic events on the CPU (ftq's timer modes)"""
    return sc.startswith('timer-')


def lateness_us(late_ns):
    """Median, 99th percentile and maximum of lateness values in ns, in us."""
    return [statistics.median(late_ns) / 1e3, percentile(late_ns, 99) / 1e3,
            max(late_ns) / 1e3]


def timer_stats(late_ns, events, period_ns, hz):
    """One run's events: how many, their lateness (median, p99, max, in
    us), the period error in ns (the time from the first event to the
    last over the deadlines between them, less the nominal period: the
    drift, which events dropped as missed do not bias) and, from the
    times of the events of consecutive deadlines (k, k + 1; a skipped
    deadline breaks the chain), the jitter (the intervals' standard
    deviation) in ns; None where there are too few events (two for the
    error, two intervals for the jitter)."""
    ivs = [(t1 - t0) * 1e9 / hz for (k0, t0), (k1, t1) in zip(events, events[1:])
           if k1 == k0 + 1]
    span = events[-1][0] - events[0][0] if events else 0
    return {'events': len(late_ns),
            'late_us': lateness_us(late_ns),
            'intervals': len(ivs),
            'period_err_ns': ((events[-1][1] - events[0][1]) * 1e9 / hz / span - period_ns
                              if span > 0 else None),
            'jitter_ns': statistics.pstdev(ivs) if len(ivs) > 1 else None}


def keyvals(line):
    """'# word k=v k=v' -> {k: v}"""
    return dict(kv.split('=', 1) for kv in line.split()[2:] if '=' in kv)


def analyse_timer(sc, run, cpu):
    """A timer run: ftq's timer records (ftq.c's header), checked for
    their counts; timer-offsched's also has the service's own.  A tool
    that failed, printed no event or a truncated output fails the run."""
    if run.get('cpu', [''])[0].strip().isdigit():
        cpu = int(run['cpu'][0])
    res, fail = outcome(sc, run, cpu=cpu)
    if 'error' in res:
        return res
    tool = TIMER_TOOL.get(sc, 'ftq')
    key = next((k for k in run if k.startswith('ftq')), None)
    if key is None:
        return fail('no output of %s' % tool)
    rc = key.partition('rc=')[2] or '?'
    if rc != '0':
        said = [l.strip() for l in run.get('stderr', []) if l.strip()]
        return fail('%s exited %s%s' % (tool, rc, ': ' + said[0] if said else ''))
    head, svc, late, ev, slate, sev = None, None, [], [], [], []
    try:
        for line in run[key]:
            if line.startswith('# timer '):
                head = keyvals(line)
            elif line.startswith('# service '):
                svc = keyvals(line)
            elif line.startswith('L '):
                late.append(int(line[2:]))
            elif line.startswith('E '):
                ev.append(tuple(int(x) for x in line[2:].split()))
            elif line.startswith('K '):
                slate.append(int(line[2:]))
            elif line.startswith('F '):
                sev.append(tuple(int(x) for x in line[2:].split()))
    except ValueError:
        return fail('%s printed an unreadable line: %r' % (tool, line))
    if head is None:
        return fail('%s printed no "# timer" line' % tool)
    try:
        hz = float(head.get('tsc_hz', 0))
        period = float(head['period_ns']) if 'period_ns' in head else int(head['period_us']) * 1e3
        wakeups, overruns = int(head['wakeups']), int(head['overruns'])
    except (KeyError, ValueError):
        return fail('%s\'s "# timer" line lacks a number: %s' % (
            tool, ' '.join('%s=%s' % kv for kv in head.items())))
    if hz <= 0:
        return fail('%s gave no TSC frequency (tsc_hz=%s)' % (tool, head.get('tsc_hz', '')))
    if any(len(e) != 2 for e in ev + sev):
        return fail('%s printed an E or F line without its deadline and TSC' % tool)
    if not late:
        return fail('no timer events (%s: wakeups=%d, overruns=%d)' % (tool, wakeups, overruns))
    if len(late) != wakeups or len(ev) != wakeups:
        return fail('%s\'s output is truncated: wakeups=%d, %d L and %d E lines' % (
            tool, wakeups, len(late), len(ev)))
    res['period_ns'] = period
    res['tsc_source'] = head.get('tsc_source', '?')
    res['timer'] = dict(timer_stats(late, ev, period, hz), overruns=overruns)
    gone = missing_cpu(run, cpu)
    if gone:
        return fail(gone)
    irq = diff(parse_table(run.get('interrupts before', []), cpu),
               parse_table(run.get('interrupts after', []), cpu))
    if 'interrupts before' in run and 'interrupts after' in run:
        res['loc'] = irq.get('LOC', 0)
    if sc not in OFFSCHED_TIMERS:
        return res
    if svc is None:
        return fail('%s printed no "# service" line' % tool)
    try:
        n, events, missed, unwatched = (int(svc[k]) for k in ('samples', 'events', 'missed', 'unwatched'))
    except (KeyError, ValueError):
        return fail('%s\'s "# service" line lacks a number: %s' % (
            tool, ' '.join('%s=%s' % kv for kv in svc.items())))
    wait = 'doorbell' if sc == 'timer-doorbell' else 'poll'
    if svc.get('wait', 'poll') != wait:
        return fail('%s waited for the events by %s, not by %s' % (tool, svc.get('wait'), wait))
    if events != n:
        return fail('the service fired %d of its %d deadlines (status %s)' % (
            events, n, svc.get('status', '?')))
    if len(slate) != events - missed or len(sev) != len(slate):
        return fail('%s\'s output is truncated: %d events, %d missed, %d K and %d F lines' % (
            tool, events, missed, len(slate), len(sev)))
    if not slate:
        return fail('the service fired none of its %d deadlines on time' % events)
    if wakeups + overruns + unwatched != events:
        return fail('the poller\'s counts do not add up: %d seen + %d bundled + %d unwatched != %d events'
                    % (wakeups, overruns, unwatched, events))
    res['service'] = dict(timer_stats(slate, sev, period, hz), overruns=missed)
    res['unwatched'] = unwatched
    return res


def analyse_steps(sc, run, lines):
    """A steps run: the guest's loop, and the host's count of some of its
    calls (steps.py's output, None if the host never counted)."""
    res = {'scenario': sc, 'ok': run.get('rc') == '0', 'rc': run.get('rc')}
    calls, by_fn, err = [], {}, None
    for line in lines or []:
        f = line.split()
        if f[:1] == ['call'] and len(f) == 6:
            calls.append((int(f[3]), int(f[5])))
        elif f[:1] == ['fn'] and len(f) == 3:
            by_fn[f[1]] = int(f[2])
        elif f[:1] == ['error']:
            err = line.split(None, 1)[1].strip() if len(f) > 1 else 'unknown'
    if lines is None:
        err = 'the host never counted (no steps file)'
    elif not err and not calls:
        err = 'no call counted'
    elif not err and any(nr != NR_GETPPID for _, nr in calls):
        err = 'a counted call was not getppid() (%s)' % ', '.join(str(nr) for _, nr in calls)
    if err:
        res['ok'] = False
        res['error'] = 'single-stepping: ' + err
        return res
    res['steps'] = [n for n, _ in calls]
    res['steps_by_fn'] = by_fn
    return res


def parse_table(lines, cpu):
    """/proc/interrupts or /proc/softirqs -> {name: count on cpu}."""
    if not lines:
        return {}
    cols = lines[0].split()
    try:
        idx = cols.index('CPU%d' % cpu)
    except ValueError:
        return {}
    out = {}
    for line in lines[1:]:
        if ':' not in line:
            continue
        name, rest = line.split(':', 1)
        name = name.strip()
        f = rest.split()
        if len(f) <= idx or not f[idx].isdigit():
            continue
        desc = ' '.join(f[len(cols):])
        if name.isdigit():
            name = 'IRQ%s %s' % (name, desc.split()[-1] if desc else '')
        out[name.strip()] = int(f[idx])
    return out


def missing_cpu(run, cpu):
    """Why the run's /proc/interrupts snapshots cannot count CPU cpu (a
    CPU offline when one was taken: an OFFSCHED stop that failed reads as
    no interrupt at all), or None."""
    for when in ('before', 'after'):
        lines = run.get('interrupts ' + when)
        if lines is not None and (not lines or 'CPU%d' % cpu not in lines[0].split()):
            return 'CPU %d is not in /proc/interrupts %s the run (offline then?)' % (cpu, when)
    return None


def diff(before, after):
    return {k: after[k] - before.get(k, 0) for k in after if after[k] - before.get(k, 0)}


def split_sections(path):
    """Yield (scenario, repeat, {section: [lines]}) for each run."""
    with open(path, errors='replace') as f:
        yield from split_lines(f)


def split_sections_text(text):
    """split_sections() of a data log given as a string."""
    yield from split_lines(text.splitlines())


def split_lines(lines):
    run, sec, name = None, None, None
    for line in lines:
        line = line.rstrip('\r\n')
        if line.startswith('@@ begin '):
            _, _, sc, rep = line.split()[:4]
            run, name, sec = {}, (sc, int(rep)), 'head'
            run[sec] = []
        elif run is None:
            continue
        elif line.startswith('@@ end '):
            run['rc'] = line.split('rc=')[-1]
            yield name[0], name[1], run
            run = None
        elif line.startswith('@@ '):
            sec = line[3:]
            run[sec] = []
        else:
            run[sec].append(line)


def parse_trace(lines, cpu):
    """The CPU's trace events, parsed once: [(ts, event, args, source)].

    source names the interrupt, vector or softirq of an _entry/_exit event
    (an IRQ handler's exit carries only its number: the name comes from its
    entry), None for other events.
    """
    events, irq_names = [], {}
    for line in lines:
        m = TRACE_RE.match(line)
        if not m or int(m.group(3)) != cpu:
            continue
        ts, ev, args = int(m.group(4)), m.group(5), m.group(6)
        src = None
        if ev.endswith('_entry') or ev.endswith('_exit'):
            base = ev.rsplit('_', 1)[0]
            if base == 'irq_handler':
                irq = re.search(r'irq=(\d+)', args).group(1)
                if ev.endswith('_entry'):
                    name = re.search(r'name=(\S+)', args)
                    irq_names[irq] = 'IRQ ' + (name.group(1) if name else irq)
                src = irq_names.get(irq, 'IRQ ' + irq)
            elif base == 'softirq':
                a = re.search(r'action=(\w+)', args)
                src = 'softirq ' + (a.group(1) if a else '?')
            else:
                src = VECTOR_NAMES.get(base, base)
        events.append((ts, ev, args, src))
    return events


def intervals_from_trace(events, pid):
    """Kernel activity on the CPU: list of (start, end, source), points."""
    ivs, points, open_ = [], [], {}
    switched_out = None
    for ts, ev, args, src in events:
        if src is not None:
            if ev.endswith('_entry'):
                open_[src] = ts
            elif src in open_:
                ivs.append((open_.pop(src), ts, src))
        elif ev == 'sched_switch':
            prev = re.search(r'prev_pid=(\d+)', args)
            nxt = re.search(r'next_comm=(.+?) next_pid=(\d+)', args)
            if prev and int(prev.group(1)) == pid:
                switched_out = (ts, re.sub(r'/\d+$', '', nxt.group(1)) if nxt else '?')
            elif nxt and int(nxt.group(2)) == pid and switched_out:
                ivs.append((switched_out[0], ts, 'task ' + switched_out[1]))
                switched_out = None
        elif ev.startswith('page_fault'):
            points.append((ts, 'page fault'))
    ivs.sort()
    return ivs, points


def process_window(events, pid):
    """(first switch of pid onto the CPU, its exit or last switch off it)."""
    t_in = t_out = None
    for ts, ev, args, _ in events:
        if ev != 'sched_switch':
            continue
        if t_in is None and re.search(r'next_pid=%d\b' % pid, args):
            t_in = ts
        elif t_in is not None and re.search(r'prev_pid=%d\b' % pid, args):
            t_out = ts
    return t_in, t_out


def count_entries(events, t0, t1):
    """Interrupt and softirq entries on the CPU, by source, within [t0, t1]."""
    counts = {}
    for ts, ev, _, src in events:
        if src is not None and ev.endswith('_entry') and \
           (t0 is None or ts >= t0) and (t1 is None or ts <= t1):
            counts[src] = counts.get(src, 0) + 1
    return counts


def attribute(gaps, ivs, points):
    """Split gap time into kernel sources and unattributed (all in cycles).

    A gap that contains any kernel event is booked to the kernel whole
    (the upper bound: the event may be shorter than the gap); the time the
    events themselves spent inside gaps is the lower bound.
    """
    per_src, unattributed, worst, kernel, lower = {}, 0, 0, 0, 0
    starts = [iv[0] for iv in ivs]
    pstarts = [p[0] for p in points]
    maxlen = max((e - s for s, e, _ in ivs), default=0)
    for gs, ge in gaps:
        length = ge - gs
        share = {}
        i = bisect.bisect_left(starts, gs - maxlen)
        while i < len(ivs) and ivs[i][0] < ge:
            s, e, src = ivs[i]
            ov = min(e, ge) - max(s, gs)
            if ov > 0:
                share[src] = share.get(src, 0) + ov
            i += 1
        j = bisect.bisect_left(pstarts, gs)
        while j < len(points) and points[j][0] <= ge:
            share.setdefault(points[j][1], 0)
            j += 1
        if not share:
            unattributed += length
            continue
        kernel += length
        worst = max(worst, length)
        tot = sum(share.values())
        lower += min(tot, length)
        for src, ov in share.items():
            w = ov / tot if tot else 1 / len(share)
            per_src[src] = per_src.get(src, 0) + length * w
    return kernel, worst, unattributed, per_src, lower


# The trace events the counts rest on (tests/compare/guest/run.sh)
REQUIRED_EVENTS = ('irq_vectors:local_timer_entry', 'irq_vectors:reschedule_entry',
                   'irq_vectors:call_function_single_entry', 'irq:irq_handler_entry',
                   'sched:sched_switch')


def trace_problem(sc, run, pid):
    """Why a user-space run's trace cannot be trusted, or None.

    A trace on another clock cannot be matched with the probe's TSC
    gaps, and one with lost events (overrun, dropped, commit overrun, a
    LOST marker) or no context switch of the probe (its launcher must
    switch to it at least once) would read as no kernel noise at all.
    """
    if 'trace' not in run:
        return None if sc == 'offsched' else 'no trace'
    # an event that could not be enabled would read as none happening
    enabled = {l.strip() for l in run.get('set_event', [])}
    if 'set_event' not in run:
        return 'no list of the trace events enabled (set_event)'
    for e in REQUIRED_EVENTS:
        if e not in enabled:
            return 'trace event %s was not enabled' % e
    clock = ' '.join(run.get('trace_clock', []))
    if '[x86-tsc]' not in clock:
        return 'trace clock is not x86-tsc (%s)' % (clock.strip() or 'unknown')
    stats = {}
    for line in run.get('trace_stats', []):
        k, _, v = line.partition(':')
        stats[k.strip()] = v.strip()
    lost = sum(int(stats.get(k, '0') or 0) for k in ('overrun', 'dropped events'))
    lost += sum(int(m.group(1)) for line in run['trace']
                for m in [re.search(r'LOST (\d+) EVENTS', line)] if m)
    if lost:
        return 'trace lost %d events (ring buffer too small)' % lost
    # events dropped because nested events filled the buffer while one
    # was being written ("should always be zero", Documentation/trace/ftrace.rst)
    commit = int(stats.get('commit overrun', '0') or 0)
    if commit:
        return 'trace commit overrun: %d events dropped' % commit
    if not stats:
        return 'no trace statistics'
    if pid is None:
        return 'trace has no event of the probe'
    if not any('sched_switch' in line and re.search(r'next_pid=%d\b' % pid, line)
               for line in run['trace']):
        return 'trace has no context switch onto the probe'
    return None


def probe_pid(lines):
    """The probe's pid: the first traced task called ftq (its launcher
    execs it, so the switch onto the CPU may still name the launcher, and
    the switch away at its exit may come after tracing stopped)."""
    for line in lines:
        m = TRACE_RE.match(line)
        if m and m.group(1).strip() == 'ftq':
            return int(m.group(2))
        m = re.search(r'(?:prev_comm=ftq prev|next_comm=ftq next)_pid=(\d+)', line)
        if m:
            return int(m.group(1))
    return None


def percentile(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p / 100))] if xs else 0


def analyse_run(sc, run, cpu):
    # a run on another CPU than the measured one says so (paired runs)
    if run.get('cpu', [''])[0].strip().isdigit():
        cpu = int(run['cpu'][0])
    res, _ = outcome(sc, run, cpu=cpu)
    if 'error' in res:
        return res
    # "@@ sysc rc=N" after a user-space probe (ftq --syscalls run apart,
    # its exit status with it); "@@ sysc" in the -icount boots, whose
    # exit status is the run's
    sk = next((k for k in run if k == 'sysc' or k.startswith('sysc ')), None)
    sysc = [float(l[2:]) for l in run.get(sk, []) if l.startswith('C ')]
    if sysc:
        res['syscall_ns'] = statistics.median(sysc)
        res['syscall_batches_ns'] = sysc
    src = re.match(r'sysc rc=(.*)$', sk or '')
    if src and (src.group(1) != '0' or not sysc):
        said = [l.strip() for l in run[sk] if l.strip() and not l.startswith('C ')]
        res['ok'] = False
        res['error'] = 'the getppid() timing (ftq --syscalls) %s%s' % (
            'exited %s' % src.group(1) if src.group(1) != '0' else 'timed nothing',
            ': ' + said[0] if said else '')
        return res
    if is_icount(sc):
        if not sysc:
            res['ok'] = False
            res['error'] = 'no getppid() timing'
        return res
    # the housekeeping CPU's timer-driven task (scale runs: one record has it)
    hk = next((k for k in run if k.startswith('hk')), None)
    if hk is not None:
        late = [int(l[2:]) for l in run[hk] if l.startswith('L ')]
        if hk != 'hk rc=0' or not late:
            res['ok'] = False
            res['error'] = 'the timer-driven task on CPU 0 failed (%s, %d wakeups)' % (hk, len(late))
            return res
        res['hk_late_us'] = lateness_us(late)
        head = next((keyvals(l) for l in run[hk] if l.startswith('# timer ')), {})
        res['hk_overruns'] = int(head.get('overruns', 0))
    gone = missing_cpu(run, cpu)
    if gone:
        res['ok'] = False
        res['error'] = gone
        return res
    irq = diff(parse_table(run.get('interrupts before', []), cpu),
               parse_table(run.get('interrupts after', []), cpu))
    soft = diff(parse_table(run.get('softirqs before', []), cpu),
                parse_table(run.get('softirqs after', []), cpu))
    res['loc'] = irq.pop('LOC', 0)		# snapshot window, /proc/interrupts
    res['irqs'] = irq
    res['softirqs'] = soft
    ftq = next((v for k, v in run.items() if k.startswith('ftq')), None)
    if ftq is None:
        ftq = run.get('head', []) + [l for k, v in run.items() if k.startswith('offsched') for l in v]
    params = {}
    samples, gaps, fwq = [], [], []
    for line in ftq:
        if line.startswith('# '):
            params.update(dict(kv.split('=', 1) for kv in line[2:].split() if '=' in kv))
        elif line.startswith('S '):
            samples.append(int(line[2:]))
        elif line.startswith('G '):
            a, b = line[2:].split()
            gaps.append((int(a), int(b)))
        elif line.startswith('W '):
            fwq.append(int(line[2:]))
        elif line.startswith('R '):
            params.update(dict(kv.split('=', 1) for kv in line[2:].split()))
    if not samples:
        res['ok'] = False
        res['error'] = 'no FTQ samples'
        return res
    # A truncated output would read as a short, quiet run
    declared = params.get('samples', '')
    if not declared.isdigit() or len(samples) != int(declared):
        res['ok'] = False
        res['error'] = ('%d FTQ samples of the %s the probe declared: truncated' % (len(samples), declared)
                        if declared.isdigit() else
                        'the probe did not say how many samples it takes (samples=%s)' % declared)
        return res
    # Gaps past the probe's room for them (the OFFSCHED service's 65536,
    # the user probe's 2^20) are only counted: their time would be in
    # neither bound nor in the unattributed time.
    lost = params.get('gaps_lost', '')
    if not lost.isdigit() or int(lost):
        res['ok'] = False
        res['error'] = ('gaps_lost=%s: the probe recorded %s gaps and had no room for more;'
                        ' their time is in no column' % (lost, params.get('gaps', '?'))
                        if lost.isdigit() else
                        'the probe did not say how many gaps it lost (gaps_lost=%s)' % lost)
        return res
    n, mx = len(samples), max(samples)
    res['ftq'] = {
        'samples': n, 'noise_fraction': 1 - sum(samples) / (mx * n) if mx else 1,
        'median': statistics.median(samples), 'p1': percentile(samples, 1),
        'max': mx, 'min': min(samples),
    }
    res['sorted'] = sorted(samples)
    hz = float(params.get('tsc_hz', 0)) or None
    res['tsc_hz'] = hz
    if fwq:
        res['fwq_cycles'] = statistics.median(fwq)
    if 'nvcsw' in params:
        res['ctxsw'] = int(params['nvcsw']) + int(params['nivcsw'])
    pid = probe_pid(run.get('trace', []))
    err = trace_problem(sc, run, pid)
    if not err and 'trace' in run:
        # the trace's window is inside the snapshots' (tracing on after
        # the first, off before the second): it cannot see more ticks
        tl = sum(1 for l in run['trace'] if ' local_timer_entry: ' in l)
        if tl > res['loc']:
            err = ('the trace has %d local timer interrupts on CPU %d, /proc/interrupts %d'
                   ' over a longer window' % (tl, cpu, res['loc']))
    if err:
        res['ok'] = False
        res['error'] = err
        return res
    events = parse_trace(run.get('trace', []), cpu)
    if events and pid is not None and not ('start_tsc' in params and 'end_tsc' in params):
        # LOC run and IRQ run would vanish from the table, and the row
        # from the reference lines, without a word
        res['ok'] = False
        res['error'] = 'the probe gave no start_tsc/end_tsc: its loop cannot be placed in the trace'
        return res
    if events and pid is not None:
        # Counted from the trace, the same way for every user-space
        # scenario: over the whole life of the probe's process on the CPU
        # (the launcher execs the probe, so it is one pid: from its first
        # switch onto the CPU to its exit) and over the FTQ loop alone.
        # Also from the launch (tracing starts just before the launcher)
        # to the exit: what the CPU took before the process got there
        # (admission's work on every CPU, other tasks on a CPU not yet
        # taken) counts too.
        t0, t1 = int(params['start_tsc']), int(params['end_tsc'])
        t_in, t_out = process_window(events, pid)
        whole = count_entries(events, t_in, t_out)
        launch = count_entries(events, None, t_out)
        loop = count_entries(events, t0, t1)
        res['loc_run'] = whole.get('timer tick', 0)
        res['irq_run'] = sum(v for k, v in whole.items() if not k.startswith('softirq'))
        res['loc_launch'] = launch.get('timer tick', 0)
        res['irq_launch'] = sum(v for k, v in launch.items() if not k.startswith('softirq'))
        res['irqs_launch'] = {k: v for k, v in launch.items() if not k.startswith('softirq')}
        res['loc_loop'] = loop.pop('timer tick', 0)
        res['irqs_loop'] = {k: v for k, v in loop.items() if not k.startswith('softirq')}
        res['softirqs_loop'] = {k: v for k, v in loop.items() if k.startswith('softirq')}
    if gaps and hz:
        ivs, points = intervals_from_trace(events, pid)
        kernel, worst, unatt, per_src, lower = attribute(gaps, ivs, points)
        us = 1e6 / hz
        res['kernel_noise_us'] = kernel * us
        res['kernel_noise_lower_us'] = lower * us
        res['worst_kernel_us'] = worst * us
        res['unattributed_us'] = unatt * us
        res['noise_by_source_us'] = {k: v * us for k, v in sorted(per_src.items(), key=lambda kv: -kv[1])}
        res['gaps'] = len(gaps)
        res['trace_events'] = len(ivs) + len(points)
    elif not gaps and hz:
        res['kernel_noise_us'] = res['worst_kernel_us'] = res['unattributed_us'] = 0.0
        res['kernel_noise_lower_us'] = 0.0
        res['noise_by_source_us'] = {}
    return res


def values(runs, key, sub=None):
    """The runs' numbers under key (or key's sub-key), where they have one."""
    vals = []
    for r in runs:
        v = r.get(key)
        if sub is not None and isinstance(v, dict):
            v = v.get(sub)
        if isinstance(v, (int, float)):
            vals.append(v)
    return vals


def med(runs, key, sub=None):
    vals = values(runs, key, sub)
    return statistics.median(vals) if vals else None


# The timings of spread(): (name, key of a run, sub-key or None, format),
# every timing column of the table.
SPREAD = [('syscall_ns', 'syscall_ns', None, '%.0f'), ('fwq_cycles', 'fwq_cycles', None, '%.0f'),
          ('ftq_median', 'ftq', 'median', '%.0f'), ('ftq_p1', 'ftq', 'p1', '%.0f'),
          ('noise_fraction', 'ftq', 'noise_fraction', '%.3f'),
          ('kernel_noise_lower_us', 'kernel_noise_lower_us', None, '%.0f'),
          ('kernel_noise_us', 'kernel_noise_us', None, '%.0f'),
          ('worst_kernel_us', 'worst_kernel_us', None, '%.1f'),
          ('unattributed_us', 'unattributed_us', None, '%.0f')]


def spread(runs):
    """Timings carry the host's noise: min / median / max over the runs of
    each one the runs have."""
    out = {}
    for k, key, sub, _ in SPREAD:
        vals = values(runs, key, sub)
        if vals:
            out[k] = [min(vals), statistics.median(vals), max(vals)]
    # Every batch of getppid() calls of every run: enough samples to
    # state a spread even with few runs.
    vals = [v for r in runs for v in r.get('syscall_batches_ns', [])]
    if vals:
        out['syscall_ns_batches'] = [min(vals), statistics.median(vals), max(vals)]
    return out


# The timer rows' numbers: (name, format); the lateness ones are the
# per-run [median, p99, max] of timer_stats() in this order.
TIMER_COLS = [('late_p50_us', '%.2f'), ('late_p99_us', '%.2f'), ('late_max_us', '%.2f'),
              ('period_err_ns', '%+.1f'), ('jitter_ns', '%.1f')]


def timer_summary(good):
    """The good runs of a timer scenario: the median over them of each
    number of each row (timer, and timer-offsched's service), with the
    spread of the timings (min / median / max; timer-offsched's as fired_
    and delivered_)."""
    offsched = any('service' in r for r in good)
    out = {'period_ns': good[0]['period_ns'], 'loc': med(good, 'loc'),
           'tsc_sources': sorted({r.get('tsc_source', '?') for r in good})}
    sp = {}
    for part in ('timer', 'service'):
        rs = [r[part] for r in good if part in r]
        if not rs:
            continue
        one = {'events': statistics.median(x['events'] for x in rs),
               'overruns': statistics.median(x['overruns'] for x in rs),
               'intervals': statistics.median(x['intervals'] for x in rs)}
        for i, (k, _) in enumerate(TIMER_COLS):
            vals = [x['late_us'][i] for x in rs] if i < 3 else \
                [x[k] for x in rs if x[k] is not None]
            one[k] = statistics.median(vals) if vals else None
            if vals:
                pre = ('fired_' if part == 'service' else 'delivered_') if offsched else ''
                sp[pre + k] = [min(vals), statistics.median(vals), max(vals)]
        out[part] = one
    unw = values(good, 'unwatched')
    if unw:
        out['unwatched'] = statistics.median(unw)
    out['spread'] = sp
    return out


def fmtv(v, f='%.0f'):
    return '-' if v is None else f % v


def print_table(hdr, rows):
    """Rows under a header, aligned; a row of three cells is a failed
    one: its label, its runs and why."""
    widths = [max(len(str(r[i])) for r in rows + [hdr] if len(r) > 3 or i < 2) for i in range(len(hdr))]
    print('  '.join(h.rjust(w) if i else h.ljust(w) for i, (h, w) in enumerate(zip(hdr, widths))))
    for r in rows:
        if len(r) == 3:
            print('  '.join([r[0].ljust(widths[0]), r[1].rjust(widths[1]), r[2]]))
        else:
            print('  '.join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))))


def timer_lines(summary, order, cpu):
    """The Timer table: one row per timer scenario, two for timer-offsched
    (as the service fired its events, as the poller on CPU 0 saw them)."""
    scs = [sc for sc in order if is_timer(sc)]
    if not scs:
        return
    hdr = ('timer', 'runs', 'events', 'missed', 'p50 us', 'p99 us', 'max us', 'period err ns',
           'jitter ns', 'LOC')
    rows, periods, sources = [], set(), set()
    for sc in scs:
        s = summary[sc]
        if 'error' in s:
            rows.append((LABEL.get(sc, sc), '0/%d' % s['runs'], 'failed: ' + str(s['error'])))
            continue
        periods.add(s['period_ns'])
        sources.update(s['tsc_sources'])
        for part, label in TIMER_ROWS.get(sc, [('timer', LABEL.get(sc, sc))]):
            t = s[part]
            rows.append((label, '%d/%d' % (s['good_runs'], s['runs']), fmtv(t['events']),
                         fmtv(t['overruns'])) + tuple(fmtv(t[k], f) for k, f in TIMER_COLS) +
                        (fmtv(s.get('loc')),))
    print('Timer: periodic events on CPU %d%s (median of runs; lateness in us, period error'
          ' and jitter in ns):' % (cpu, ', %s us apart' % '/'.join('%g' % (p / 1e3) for p in sorted(periods))
                                  if periods else ''))
    print_table(hdr, rows)
    print('missed: deadlines an event skipped, seen only after the next one had passed (delivered:')
    print('  also those the poller saw only with a later one); lateness: the TSC when seen less the')
    print('  deadline; period err: the time from the first event to the last over the deadlines between')
    print('  them, less the nominal period; jitter: the standard deviation of the intervals between the')
    print('  events of consecutive deadlines (all on the')
    print('  TSC, at %s).' % (' and '.join({'kernel': "the kernel's tsc_khz", 'estimate': "ftq's estimate of its rate"}
                                           .get(x, x) for x in sorted(sources)) or '-'))
    print('LOC: local timer interrupts on CPU %d over the run (/proc/interrupts).' % cpu)
    o = summary.get('timer-offsched', {})
    if 'error' not in o and 'timer' in o:
        print('OFFSCHED timer: the service polls the TSC on the offline CPU %d; delivered: ftq'
              ' --offsched-timer polling its' % cpu)
        print('  word on CPU 0 as SCHED_OTHER, sharing CPU 0 with the housekeeping (the scripts,'
              ' kernel threads, every IRQ);')
        print('  events fired before its first look (median of runs: %s) are in the fired row only.'
              % fmtv(o.get('unwatched')))
    if 'error' not in summary.get('timer-doorbell', {'error': 1}):
        print('OFFSCHED timer, doorbell: the same service rings its doorbell (an IPI to CPU 0) after'
              ' each event; ftq')
        print('  --offsched-timer --doorbell sleeps in read() of /dev/offsched until it rings, then'
              ' reads the word.')
    if 'timer-nohz' in scs:
        print('FIFO polling the TSC: the same poller as SCHED_NOTICK\'s, as a FIFO 99 thread on'
              ' mainline\'s tuned nohz_full= CPU.')
    if any(sc in scs for sc in ('timer-hrtimer', 'timer-notick', 'timer-nohz')):
        print('The hrtimer and TSC pollers ran untraced (a deployment does not trace).')
    print('Under QEMU TCG each vCPU is a host thread, the offline one included: lateness includes'
          ' the host\'s scheduling.')


def per_cpu_lines(runs, order):
    """Scale runs (a probe on several CPUs at once): each CPU's medians
    over the runs, the worst CPU, and CPU 0's timer lateness."""
    def f(v, fm='%.0f'):
        return '-' if v is None else fm % v
    for sc in order:
        good = [r for r in runs.get(sc, []) if r.get('ok') and r.get('cpu') is not None]
        cpus = sorted({r['cpu'] for r in good})
        if len(cpus) < 2:
            continue
        per = {}
        for c in cpus:
            rs = [r for r in good if r['cpu'] == c]
            per[c] = (med(rs, 'loc_run'), med(rs, 'irq_run'), med(rs, 'kernel_noise_us'),
                      med(rs, 'ftq', 'noise_fraction'))
        worst = max(cpus, key=lambda c: tuple(-1 if v is None else v for v in per[c]))

        def one(c):
            loc, irq, kern, noise = per[c]
            return 'CPU %d %s/%s, %s us, %s' % (c, f(loc), f(irq), f(kern), f(noise, '%.3f'))
        print('%-31s per CPU (median of runs; LOC/IRQ over the life, kern us, noise): %s'
              % (LABEL.get(sc, sc), '; '.join(one(c) for c in cpus)))
        print('%-31s worst: %s' % ('', one(worst)))
    for sc in order:
        rs = [r for r in runs.get(sc, []) if r.get('ok') and 'hk_late_us' in r]
        if rs:
            late = [r['hk_late_us'] for r in rs]
            print('%-31s CPU 0 timer task, lateness of its wakeups, us (median of runs): '
                  'median %.0f, p99 %.0f; max over runs %.0f; periods missed %s' % (
                      LABEL.get(sc, sc), statistics.median(x[0] for x in late),
                      statistics.median(x[1] for x in late), max(x[2] for x in late),
                      ' '.join(str(r['hk_overruns']) for r in rs)))


def best_reference(summary):
    """The quietest tuned mainline row: fewest interrupt entries over the
    process's life, then fewest timer ticks, then the least FTQ noise."""
    cands = [sc for sc in REFERENCE if sc in summary and 'error' not in summary[sc]]
    if not cands:
        return None
    big = float('inf')
    return min(cands, key=lambda sc: tuple(
        big if summary[sc].get(k) is None else summary[sc][k]
        for k in ('irq_run', 'loc_run', 'ftq_noise_fraction')))


def paired_lines(runs):
    """The paired scenarios: SCHED_NOTICK's FTQ and FWQ against the
    nohz_full= CPU's of the same boot, run by run (the same moments).
    paired-same is their control: SCHED_NOTICK on both CPUs, so that its
    ratios are the emulator's alone."""
    for base in ('paired', 'paired-gettime', 'paired-same'):
        a, b = runs.get(base + '-notick', []), runs.get(base + '-nohz', [])
        pairs = [(x, y) for x, y in zip(a, b) if x.get('ok') and y.get('ok')]
        if not pairs:
            continue
        ftq = [x['ftq']['median'] / y['ftq']['median'] for x, y in pairs]
        fwq = [y['fwq_cycles'] / x['fwq_cycles'] for x, y in pairs
               if x.get('fwq_cycles') and y.get('fwq_cycles')]
        print('%s (one boot, both probes at once): work per quantum, SCHED_NOTICK CPU %d /'
              ' %s CPU %d, FTQ median, run by run: %s; FWQ speed: %s.'
              % (LABEL[base + '-notick'].split(':')[0], pairs[0][0]['cpu'],
                 'SCHED_NOTICK on the nohz_full=' if base == 'paired-same' else 'nohz_full=',
                 pairs[0][1]['cpu'],
                 ' '.join('%.3f' % v for v in ftq), ' '.join('%.3f' % v for v in fwq) or '-'))


def steps_lines(summary, cpu):
    """The steps scenarios' counts, and where SCHED_NOTICK's differs from
    the reference's (the fewer instructions of the two nohz_full= rows)."""
    def what(sc):
        return LABEL[sc][len('getppid steps, '):]
    got = {sc: summary[sc]['steps'] for sc in ORDER
           if is_steps(sc) and summary.get(sc, {}).get('steps') is not None}
    if not got:
        return
    print('getppid() on CPU %d, kernel instructions from entry_SYSCALL_64 to the return to user'
          ' space (single-stepped through QEMU\'s gdb stub, median of every call counted): %s.'
          % (cpu, ', '.join('%s %.0f' % (what(sc), n)
                            for sc, n in got.items())))
    if 'steps-cfs' in got and 'steps-mainline-cfs' in got:
        print('  CFS, the series unused / mainline: x%.3f.'
              % (got['steps-cfs'] / got['steps-mainline-cfs']))
    refs = [sc for sc in ('steps-nohz', 'steps-nohz-cfs') if sc in got]
    if 'steps-notick' not in got or not refs:
        return
    ref = min(refs, key=lambda sc: got[sc])
    a, b = summary['steps-notick']['steps_by_fn'], summary[ref]['steps_by_fn']
    print('  SCHED_NOTICK / %s: x%.3f; by function where they differ (SCHED_NOTICK/reference): %s.'
          % (what(ref), got['steps-notick'] / got[ref],
             ', '.join('%s %d/%d' % (fn, a.get(fn, 0), b.get(fn, 0))
                       for fn in sorted(set(a) | set(b)) if a.get(fn, 0) != b.get(fn, 0))
             or 'none'))


def main():
    outdir, cpu, logs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    runs = {}
    for path in logs:
        if not os.path.exists(path):
            continue
        for sc, rep, run in split_sections(path):
            if is_steps(sc):
                f = os.path.join(os.path.dirname(path), 'steps-%s-%d.txt' % (sc, rep))
                lines = open(f, errors='replace').read().splitlines() if os.path.exists(f) else None
                runs.setdefault(sc, []).append(analyse_steps(sc, run, lines))
                continue
            if is_timer(sc):
                runs.setdefault(sc, []).append(analyse_timer(sc, run, cpu))
                continue
            if is_pkt(sc):
                runs.setdefault(sc, []).append(analyse_pkt(sc, run))
                continue
            runs.setdefault(sc, []).append(analyse_run(sc, run, cpu))
    summary = {}
    for sc, rs in runs.items():
        good = [r for r in rs if r.get('ok')]
        s = {'runs': len(rs), 'good_runs': len(good)}
        if not good:
            s['error'] = next((r.get('error') for r in rs if r.get('error')), 'failed')
            summary[sc] = s
            continue
        if is_steps(sc):
            every = [n for r in good for n in r['steps']]
            s['steps'] = statistics.median(every)
            s['spread'] = {'steps': [min(every), statistics.median(every), max(every)]}
            s['steps_by_fn'] = good[0]['steps_by_fn']
            summary[sc] = s
            continue
        if is_timer(sc):
            s.update(timer_summary(good))
            summary[sc] = s
            continue
        if is_pkt(sc):
            s.update(pkt_summary(good))
            summary[sc] = s
            continue
        s['spread'] = spread(good)
        if is_icount(sc):
            s['syscall_ns'] = med(good, 'syscall_ns')
            summary[sc] = s
            continue
        for k in ('loc', 'loc_run', 'irq_run', 'loc_launch', 'irq_launch', 'loc_loop',
                  'ctxsw', 'kernel_noise_us',
                  'kernel_noise_lower_us', 'worst_kernel_us',
                  'unattributed_us', 'fwq_cycles', 'syscall_ns'):
            s[k] = med(good, k)
        for k in ('noise_fraction', 'median', 'p1'):
            s['ftq_' + k] = med(good, 'ftq', k)
        s['other_irqs'] = statistics.median([sum(r['irqs'].values()) for r in good])
        s['softirqs'] = statistics.median([sum(r['softirqs'].values()) for r in good])
        if all('irqs_loop' in r for r in good):
            s['other_irqs_loop'] = statistics.median([sum(r['irqs_loop'].values()) for r in good])
            s['softirqs_loop'] = statistics.median([sum(r['softirqs_loop'].values()) for r in good])
        srcs = {}
        for r in good:
            for k, v in r.get('irqs', {}).items():
                srcs.setdefault('irq ' + k, []).append(v)
            for k, v in r.get('softirqs', {}).items():
                srcs.setdefault('softirq ' + k, []).append(v)
        s['counts_by_source'] = {k: statistics.median(v + [0] * (len(good) - len(v))) for k, v in srcs.items()}
        nsrc = {}
        for r in good:
            for k, v in r.get('noise_by_source_us', {}).items():
                nsrc.setdefault(k, []).append(v)
        s['kernel_noise_by_source_us'] = {k: statistics.median(v + [0] * (len(good) - len(v)))
                                          for k, v in nsrc.items()}
        s['sorted_first_run'] = good[0]['sorted']
        summary[sc] = s
    fwqs = [s['fwq_cycles'] for s in summary.values() if s.get('fwq_cycles')]
    best = min(fwqs) if fwqs else None
    for s in summary.values():
        if s.get('fwq_cycles') and best:
            s['fwq_relative'] = s['fwq_cycles'] / best
    floor = summary.get('offsched', {}).get('ftq_noise_fraction')

    order = [sc for sc in ORDER if sc in summary] + [sc for sc in summary if sc not in ORDER]
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, 'results.json'), 'w') as f:
        json.dump({'cpu': cpu, 'scenarios': {sc: {k: v for k, v in summary[sc].items()
                                                   if k != 'sorted_first_run'} for sc in order},
                   'runs': {sc: [{k: v for k, v in r.items() if k != 'sorted'} for r in runs[sc]]
                            for sc in order}}, f, indent=1)
    # Sorted FTQ samples, normalised to each run's best quantum.
    for sc in order:
        xs = summary[sc].get('sorted_first_run')
        if xs:
            with open(os.path.join(outdir, 'ftq-%s.dat' % sc), 'w') as f:
                mx = max(xs) or 1
                for i, x in enumerate(xs):
                    f.write('%d %.5f\n' % (i, x / mx))

    def fmt(v, f='%.0f'):
        return '-' if v is None else f % v
    hdr = ('scenario', 'runs', 'LOC run', 'IRQ run', 'LOC loop', 'IRQ', 'softirq', 'ctxsw', 'kern lo us', 'kern us', 'worst us',
           'unattr us', 'noise', 'vs floor', 'median', 'p1', 'FWQ rel', 'syscall ns')
    rows = []
    for sc in order:
        s = summary[sc]
        # the timer and packet scenarios, failed or not, are in their own tables
        if is_timer(sc) or is_pkt(sc) or ((is_icount(sc) or is_steps(sc)) and 'error' not in s):
            continue
        if 'error' in s:
            rows.append((LABEL.get(sc, sc), '0/%d' % s['runs'], 'failed: ' + str(s['error'])))
            continue
        nf = s.get('ftq_noise_fraction')
        rows.append((LABEL.get(sc, sc), '%d/%d' % (s['good_runs'], s['runs']), fmt(s.get('loc_run')),
                     fmt(s.get('irq_run')),
                     fmt(s.get('loc_loop')), fmt(s.get('other_irqs_loop')),
                     fmt(s.get('softirqs_loop')), fmt(s['ctxsw']),
                     fmt(s.get('kernel_noise_lower_us')), fmt(s['kernel_noise_us']), fmt(s['worst_kernel_us'], '%.1f'),
                     fmt(s['unattributed_us']), fmt(nf, '%.3f'),
                     fmt(nf - floor if nf is not None and floor is not None else None, '%+.3f'),
                     fmt(s['ftq_median']), fmt(s['ftq_p1']), fmt(s.get('fwq_relative'), '%.3f'),
                     fmt(s.get('syscall_ns'))))
    if rows:
        print_table(hdr, rows)
        print()
        multi = any(len({r.get('cpu') for r in rs if 'loc_run' in r}) > 1 for rs in runs.values())
        where = 'its CPU' if multi else 'CPU %d' % cpu
        print('LOC run: local timer interrupts on %s while the probe\'s process lived there (from its first' % where)
        print('  switch onto the CPU, as the launcher, to its exit);')
        print('IRQ run: every interrupt entry on %s (timer, IPIs, irq_work, device) over that same life;' % where)
        if multi:
            print('  (several CPUs probed at once: medians over every CPU and run; per CPU below)')
        print('LOC loop, IRQ, softirq: entries inside the FTQ loop (both from the trace).')
        print('kern us: loop gaps that contain a kernel event, whole (upper bound); kern lo us: the')
        print('  time the events themselves spent inside those gaps (lower bound).')
    print('[m]: mainline, the same kernel tree and configuration without the series.')
    if 'notick-nocb-off' in summary:
        print('[n]: the series\' kernel built without CONFIG_RCU_NOCB_CPU_DEFAULT_ALL (RCU callbacks not'
              ' offloaded from boot).')
    ours, ref = summary.get('cfs', {}).get('syscall_ns'), summary.get('mainline-cfs', {}).get('syscall_ns')
    if ours and ref:
        print('syscall ns: median getppid() time; on CFS, with the series / without: %.3f.'
              % (ours / ref))
    for sfx, how in (('', ''), ('-jump', ', both built with JUMP_LABEL=y')):
        ic = summary.get('icount' + sfx, {})
        mic = summary.get('mainline-icount' + sfx, {})
        if ic.get('syscall_ns') and mic.get('syscall_ns'):
            print('getppid() on one CPU under QEMU -icount (1 guest instruction = 1 virtual ns, no host'
                  ' noise)%s: %.1f with the series, %.1f without: x%.3f.'
                  % (how, ic['syscall_ns'], mic['syscall_ns'], ic['syscall_ns'] / mic['syscall_ns']))
    steps_lines(summary, cpu)
    paired_lines(runs)
    per_cpu_lines(runs, order)
    if 'offsched' in summary and 'error' not in summary['offsched']:
        print('OFFSCHED: the CPU is offline with interrupts off for the loop (nothing to trace);')
        print('  /proc/interrupts over start..stop, offline and online included: LOC %s.'
              % fmt(summary['offsched'].get('loc')))
    ref = best_reference(summary)
    if ref:
        r = summary[ref]
        print('Reference, mainline at its best (tuned nohz_full=, the quieter of %s): %s.'
              % (' and '.join(LABEL[x] for x in REFERENCE), LABEL[ref]))
        n = summary.get('notick')
        if n and 'error' not in n:
            for k, what in (('loc_run', 'local timer interrupts over the life'),
                            ('irq_run', 'interrupt entries over the life'),
                            ('loc_launch', 'local timer interrupts from the launch to the exit'),
                            ('irq_launch', 'interrupt entries from the launch to the exit'),
                            ('syscall_ns', 'getppid() ns')):
                if n.get(k) is not None and r.get(k) is not None:
                    print('  SCHED_NOTICK %s: %s against %s (median of runs).'
                          % (what, fmt(n[k]), fmt(r[k])))
            # Where the launch's entries come from, run by run
            for sc in ('notick', ref):
                kinds = [x['irqs_launch'] for x in runs.get(sc, []) if x.get('irqs_launch') is not None]
                if kinds:
                    print('  %s, interrupt entries from the launch by kind, run by run: %s.' % (
                        LABEL[sc], '; '.join(', '.join('%s %d' % kv for kv in sorted(k.items())) or 'none'
                                             for k in kinds)))
    if any(is_timer(sc) for sc in order):
        print()
        timer_lines(summary, order, cpu)
    if any(is_pkt(sc) for sc in order):
        print()
        pkt_lines(summary)
    print()
    print('Spread over the runs, min / median / max (syscall_ns_batches: over every batch of'
          ' getppid() calls of every run;')
    print('  kernel_noise_lower_us, kernel_noise_us, worst_kernel_us, unattributed_us, ftq_p1:'
          ' the table\'s kern lo us, kern us, worst us, unattr us, p1):')
    fmts = {k: f for k, _, _, f in SPREAD}
    fmts.update({p + k: f for k, f in TIMER_COLS for p in ('', 'fired_', 'delivered_')})
    fmts.update(dict(PKT_COLS, paced_lost='%.0f'))
    for sc in order:
        sp = summary[sc].get('spread')
        if sp:
            print('  %-31s %s' % (LABEL.get(sc, sc), '; '.join(
                '%s %s' % (k, ' / '.join(fmts.get(k, '%.0f') % v for v in vals))
                for k, vals in sp.items())))
    print()
    for sc in order:
        srcs = summary[sc].get('kernel_noise_by_source_us')
        if srcs:
            top = sorted((kv for kv in srcs.items() if kv[1] >= 0.5), key=lambda kv: -kv[1])[:5]
            if top:
                print('%-31s kernel noise by source (us, median): %s' % (
                    LABEL.get(sc, sc), ', '.join('%s %.0f' % kv for kv in top)))
    failed = [(sc, i + 1, r.get('error') or 'exit status %s' % r.get('rc', '?'))
              for sc in order for i, r in enumerate(runs[sc]) if not r.get('ok')]
    if failed:
        print()
        for sc, i, why in failed:
            print('FAILED: %s, run %d: %s' % (LABEL.get(sc, sc), i, why))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
