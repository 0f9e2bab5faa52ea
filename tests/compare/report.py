#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""compare-test, last step: the results page of a run, with its provenance.

    report.py OUTDIR TOP STARTED STATUS [NAME=VALUE...]

OUTDIR holds what analyze.py wrote (results.json, table.txt); TOP is the
repository; STARTED the run's start (seconds since the epoch, before any
kernel was built); STATUS "ok" or the failures, one per line; NAME=VALUE
the run's settings (DURATION=10 ...).  Writes OUTDIR/results.md (the
provenance, the headline, the whole table) and adds the provenance to
OUTDIR/results.json.  Every number of the page is read from results.json
or copied from table.txt: none is worked out here but the elapsed time.
The headline is one Markdown table between two marker lines, which
README.md quotes verbatim (tests/host/docs.sh compares them).
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from provenance import (build_dir, builds_line, duration, host, host_line, kernel_builds, read,  # noqa: E402
                        run, source, start_line, start_state, utc)
from analyze import LABEL, TIMER_ROWS, best_reference  # noqa: E402
from pkt import PKT_ORDER, PKT_RULES  # noqa: E402

HEAD_BEGIN = '<!-- headline begin -->'
HEAD_END = '<!-- headline end -->'
# The headline's column names, short enough for a README table
SHORT = {'offsched': 'OFFSCHED', 'notick': 'SCHED_NOTICK', 'notick-nocb-off': 'SCHED_NOTICK [n]',
         'nohz': 'FIFO, nohz_full= [m]',
         'nohz-cfs': 'CFS, nohz_full= [m]', 'cfs': 'CFS'}
# The kernels make compare-test boots, by their build directory
KERNELS = ['compare', 'compare-mainline', 'compare-jump', 'compare-mainline-jump',
           'compare-nocb-off']


def provenance(top, started, settings):
    """Where and on what the run ran."""
    build = build_dir(top)
    builds = kernel_builds(build, KERNELS, started)
    prov = source(top)
    prov.update({
        'kernel': read(os.path.join(build, 'obj-compare', 'kernelrelease')),
        'mainline_kernel': read(os.path.join(build, 'obj-compare-mainline', 'kernelrelease'),
                                'none'),
        'qemu': run('qemu-system-x86_64', '--version'),
        'host': host(),
        'started': utc(started),
        'elapsed_s': int(time.time() - started),
        'kernels_built_in_run': [k for k, _ in builds],
        'kernel_build_s': {k: s for k, s in builds},
        'start': start_state(),
        'settings': settings,
    })
    return prov


def boots(outdir):
    """Each boot's kernel command line, as its kernel printed it, without
    the compare.* settings (the page gives them once): {boot: line}."""
    out = {}
    for name in sorted(os.listdir(outdir)):
        log = os.path.join(outdir, name, 'console.log')
        if not os.path.isfile(log):
            continue
        for line in read(log, '').splitlines():
            _, sep, cmd = line.partition('Command line: ')
            if sep:
                out[name] = ' '.join(w for w in cmd.split() if not w.startswith('compare.'))
                break
        else:
            out[name] = '? (no "Command line:" in its console log)'
    return out


def fmt(v, f='%.0f'):
    return '-' if v is None else f % v


def headline(res):
    """The headline table: SCHED_NOTICK and OFFSCHED against mainline at
    its best (the tuned nohz_full= row analyze.py picked) and CFS, each a
    median of runs; then the timers' rows, then the packets'."""
    sc = res.get('scenarios', {})
    ref = best_reference(sc)
    cols = [c for c in ('offsched', 'notick', 'notick-nocb-off', ref, 'cfs')
            if c and c in sc and 'error' not in sc[c]]
    rows = [('timer ticks (LOC), probe\'s life', 'loc_run', '%.0f'),
            ('interrupt entries, probe\'s life', 'irq_run', '%.0f'),
            ('kernel noise in the loop, us', 'kernel_noise_us', '%.0f'),
            ('longest kernel gap, us', 'worst_kernel_us', '%.1f'),
            ('FTQ noise fraction', 'ftq_noise_fraction', '%.3f'),
            ('getppid(), ns', 'syscall_ns', '%.0f')]
    out = []
    if cols:
        out.append('| CPU %s, median of runs | %s |' % (
            res.get('cpu', '?'), ' | '.join(SHORT.get(c, c) for c in cols)))
        out.append('|---|%s|' % '|'.join('---:' for _ in cols))
        out.append('| runs good / made | %s |' % ' | '.join(
            '%d/%d' % (sc[c]['good_runs'], sc[c]['runs']) for c in cols))
        for what, k, f in rows:
            if any(sc[c].get(k) is not None for c in cols):
                out.append('| %s | %s |' % (what, ' | '.join(fmt(sc[c].get(k), f) for c in cols)))
        out.append('')
        out.append('SCHED_NOTICK: no boot parameter; its kernel offloads every CPU\'s RCU callbacks'
                   ' from boot')
        out.append('(CONFIG_RCU_NOCB_CPU_DEFAULT_ALL=y), which that relies on.')
        if 'notick-nocb-off' in cols:
            out.append('SCHED_NOTICK [n]: the same kernel built without that option.')
        if ref in cols:
            out.append('%s: mainline at its best, the quieter of its tuned nohz_full= rows'
                       % SHORT.get(ref, ref))
            out.append('(the same tree without the series, tuned as docs/benchmark.md says).')
    timers = [t for t in ('timer-notick', 'timer-nohz', 'timer-hrtimer', 'timer-offsched',
                          'timer-doorbell') if t in sc and 'error' not in sc[t]]
    if timers:
        if out:
            out.append('')
        out.append('| periodic events, median of runs | events | missed | p50 us | p99 us | max us |')
        out.append('|---|---:|---:|---:|---:|---:|')
        for t in timers:
            for part, label in TIMER_ROWS.get(t, [('timer', LABEL.get(t, t))]):
                p = sc[t].get(part) or {}
                out.append('| %s | %s | %s | %s | %s | %s |' % (
                    label, fmt(p.get('events')), fmt(p.get('overruns')),
                    fmt(p.get('late_p50_us'), '%.2f'), fmt(p.get('late_p99_us'), '%.2f'),
                    fmt(p.get('late_max_us'), '%.2f')))
    pkts = [p for p in PKT_ORDER if p in sc and 'error' not in sc[p]]
    if pkts:
        if out:
            out.append('')
        out.append('| UDP over veth into a netns, median of runs | p50 us | p99 us '
                   '| CPU 0 us/pkt | flood kpps | lost |')
        out.append('|---|---:|---:|---:|---:|---:|')
        for p in pkts:
            x = sc[p]
            out.append('| %s | %s | %s | %s | %s | %s |' % (
                LABEL.get(p, p), fmt(x.get('paced_lat_p50_us'), '%.1f'),
                fmt(x.get('paced_lat_p99_us'), '%.1f'), fmt(x.get('cpu0_us_per_pkt'), '%.2f'),
                fmt(x.get('flood_kpps'), '%.1f'), fmt(x.get('flood_lost'))))
        out += pkt_verdict(sc)
    failed = sorted(k for k, v in sc.items() if 'error' in v)
    if failed:
        out.append('')
        out.append('Failed scenarios (no numbers): %s.' % ', '.join(failed))
    return out


def pkt_verdict(sc):
    """Where the offload wins and where it loses: for each length of rule
    list, the receiving CPU's time per packet and the latency p50 of the
    pkt service against nftables' (the packet rows above, not new
    numbers)."""
    out = []
    for nft, off in (('pkt-nft', 'pkt-offsched'), ('pkt-nft-long', 'pkt-offsched-long')):
        n = PKT_RULES[off]
        a, b = sc.get(nft, {}), sc.get(off, {})
        if 'error' in a or 'error' in b or not a or not b:
            continue
        parts = []
        for what, k in (('CPU 0 per packet', 'cpu0_us_per_pkt'),
                        ('latency p50', 'paced_lat_p50_us'), ('flood rate', 'flood_kpps')):
            if a.get(k) and b.get(k) is not None:
                parts.append('%s x%.2f' % (what, b[k] / a[k]))
        if parts:
            out.append('%d rules: the pkt service / nftables: %s.' % (n, ', '.join(parts)))
    if out:
        out.insert(0, '')
        out.append('(CPU 0 per packet or latency below x1, or a flood rate above it: the offload'
                   ' wins.)')
    return out


def page(prov, res, table, status):
    s = prov['settings']
    lines = ['# make compare-test: results of %s' % prov['started'], '',
             '- commit: `%s` (%s), tree %s' % (prov['commit'], prov['subject'], prov['tree']),
             '- base: %s; kernels: %s (the series), %s (the same tree without it)'
             % (prov['base'], prov['kernel'], prov['mainline_kernel']),
             '- QEMU: %s, TCG' % prov['qemu'],
             '- host: %s' % host_line(prov['host']),
             '- settings: %s' % ' '.join('%s=%s' % kv for kv in sorted(s.items())),
             '- boots, by their kernel command line (compare.* settings left out):']
    lines += ['  - %s: `%s`' % kv for kv in sorted(prov.get('boots', {}).items())]
    lines += [
             '- at the start: %s' % start_line(prov.get('start') or start_state()),
             '- time: %s from `make compare-test` to this page; kernels built in the run: %s'
             % (duration(prov['elapsed_s']),
                builds_line([(k, prov.get('kernel_build_s', {}).get(k))
                             for k in prov['kernels_built_in_run']])),
             '- status: %s' % ('every scenario ran and was analysed' if status == 'ok'
                               else 'FAILED: ' + '; '.join(status.splitlines())),
             '', '## Headline', '', HEAD_BEGIN]
    lines += headline(res)
    lines += [HEAD_END, '',
              'Columns and rows: docs/benchmark.md. The whole table, as make compare-test printed it:',
              '', '```', table.rstrip('\n'), '```', '']
    return '\n'.join(lines)


def main():
    if len(sys.argv) < 5:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    outdir, top, started, status = sys.argv[1:5]
    settings = dict(a.split('=', 1) for a in sys.argv[5:] if '=' in a)
    prov = provenance(top, float(started), settings)
    prov['boots'] = boots(outdir)
    path = os.path.join(outdir, 'results.json')
    try:
        with open(path) as f:
            res = json.load(f)
    except (OSError, ValueError):
        res = None
    if not isinstance(res, dict):
        res = {'scenarios': {}}
    res['provenance'] = prov
    with open(path, 'w') as f:
        json.dump(res, f, indent=1)
    table = read(os.path.join(outdir, 'table.txt'), '(no table: the analysis printed nothing)')
    with open(os.path.join(outdir, 'results.md'), 'w') as f:
        f.write(page(prov, res, table, status))
    return 0


if __name__ == '__main__':
    sys.exit(main())
