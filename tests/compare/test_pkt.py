#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of compare-test's packet rows (pkt.py, through analyze.py's
reading of a data log, and report.py's headline), on synthetic runs as
tests/compare/guest/pkt.sh writes them (TAP output)."""
import contextlib
import io
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import analyze  # noqa: E402
import pkt  # noqa: E402
import report  # noqa: E402
import tap  # noqa: E402

TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def phase(name, sent, got, span_ns, lat_ns, ticks, rc=0):
    return ['phase=%s send_rc=%d recv_rc=0' % (name, rc), 'sent=%d' % sent,
            'send_ns=%d' % span_ns, 'listening=9000', 'received=%d' % got, 'dup=0',
            'span_ns=%d' % span_ns, 'lat_p50_ns=%d' % lat_ns[0], 'lat_p99_ns=%d' % lat_ns[1],
            'lat_max_ns=%d' % lat_ns[2], 'cpu0_busy_ticks=%d' % ticks]


def log(sc, rep=1, seen=None, paced=None, flood=None, rc=0, extra=(), nrules=None):
    """One run's data log: 20000 paced datagrams (latencies 20/80/400 us,
    CPU 0 busy 100 ticks = 1 s: 50 us per packet), a flood of 100000 of
    which 90000 arrive in 2 s (45 kpps); the filter's count of the flow
    and its rules, as pkt.sh lists them (NRULES of them: the scenario's
    count unless given)."""
    lines = ['@@ begin %s %d' % (sc, rep), '@@ pkt']
    lines += paced or phase('paced', 20000, 20000, 4 * 10**9, (20000, 80000, 400000), 100)
    lines += flood or phase('flood', 100000, 90000, 2 * 10**9, (50000, 900000, 2000000), 200)
    flow = 110000 if seen is None else seen
    extra_rules = pkt.PKT_RULES.get(sc, 4) - 4 if nrules is None else nrules - 4
    if sc.startswith('pkt-offsched'):
        lines += ['@@ pkt-filter offsched']
        lines += ['%d drop proto udp src 10.9.1.%d/32 dst 0.0.0.0/0 sport 0-65535 '
                  'dport 9000-9000 packets 0 bytes 0' % (i, i + 1) for i in range(extra_rules)]
        lines += ['%d %s proto %s src %s dst 0.0.0.0/0 sport 0-65535 dport %s packets %d '
                  'bytes %d' % (extra_rules + i, verb, proto, src, port, n, n * 92)
                  for i, (verb, proto, src, port, n) in enumerate([
                      ('drop', 'udp', '0.0.0.0/0', '9001-9001', 0),
                      ('drop', 'tcp', '0.0.0.0/0', '0-65535', 0),
                      ('count', 'udp', '10.9.0.1/32', '9000-9000', flow),
                      ('pass', 'udp', '0.0.0.0/0', '9000-9000', flow)])]
        lines += ['pkt_matched=%d' % flow]
    elif sc.startswith('pkt-nft'):
        lines += ['@@ pkt-filter nft', 'table netdev pkt {', '\tchain in {',
                  '\t\ttype filter hook ingress device "v1" priority filter; policy accept;']
        lines += ['\t\tip saddr 10.9.1.%d udp dport 9000 drop' % (i + 1)
                  for i in range(extra_rules)]
        lines += ['\t\tudp dport 9001 drop', '\t\tip protocol 6 drop',
                  '\t\tip saddr 10.9.0.1 udp dport 9000 counter packets %d bytes %d'
                  % (flow, flow * 92),
                  '\t\tudp dport 9000 counter packets %d bytes %d accept' % (flow, flow * 92),
                  '\t}', '}']
    else:
        lines += ['@@ pkt-filter none']
    lines += list(extra) + ['@@ end %s %d rc=%d' % (sc, rep, rc)]
    return '\n'.join(lines) + '\n'


def analyse(text):
    """analyze.py on a data log: (exit status, printed table, results.json)"""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'data.log')
        with open(path, 'w') as f:
            f.write(text)
        out = io.StringIO()
        argv, sys.argv = sys.argv, ['analyze.py', d, '1', path]
        try:
            with contextlib.redirect_stdout(out):
                rc = analyze.main()
        finally:
            sys.argv = argv
        with open(os.path.join(d, 'results.json')) as f:
            return rc, out.getvalue(), json.load(f)


def one(text):
    rc, table, res = analyse(text)
    sc = next(iter(res['runs']))
    return rc, table, res['runs'][sc][0], res['scenarios'][sc]


@test
def good_run():
    """a run of each filter: latency, CPU 0 per packet, flood rate and losses from the log"""
    rc, table, res = analyse(''.join(log(sc) for sc in pkt.PKT_ORDER))
    assert rc == 0, table
    for sc in pkt.PKT_ORDER:
        s = res['scenarios'][sc]
        assert s['good_runs'] == 1, s
        assert s['paced_lat_p50_us'] == 20.0 and s['paced_lat_p99_us'] == 80.0, s
        assert s['cpu0_us_per_pkt'] == 50.0, s
        assert abs(s['flood_kpps'] - 45.0) < 1e-9 and s['flood_lost'] == 10000, s
    assert 'Packets: UDP over a veth pair' in table, table
    assert 'OFFSCHED pkt service, 4 rules / no filter: latency p50 x1.00' in table, table
    assert 'OFFSCHED pkt service, 32 rules / no filter: latency p50 x1.00' in table, table
    assert 'nftables, 32 rules at ingress  ' in table, table


@test
def rule_count():
    """a filter that did not hold the scenario's rules (4, or 32 for the long lists) fails the run"""
    for sc, n in (('pkt-offsched-long', 4), ('pkt-nft-long', 31), ('pkt-nft', 32),
                  ('pkt-offsched', 5)):
        rc, _, run, _ = one(log(sc, nrules=n))
        assert rc == 1 and not run['ok'], (sc, run)
        assert run['error'] == 'the filter held %d rules, not %d' % (n, pkt.PKT_RULES[sc]), run


@test
def filter_not_in_path():
    """a filter that counted fewer packets of the flow than were delivered fails the run"""
    rc, table, run, s = one(log('pkt-offsched', seen=5))
    assert rc == 1 and not run['ok'], run
    assert 'not in the path' in run['error'], run
    assert 'FAILED: OFFSCHED pkt service' in table, table
    rc, _, run, _ = one(log('pkt-nft', seen=109999))
    assert rc == 1 and 'not in the path' in run['error'], run


@test
def filter_count_missing():
    """a filter whose count of the flow is not in the log fails the run"""
    text = log('pkt-nft').replace('counter packets', 'counter pkts')
    rc, _, run, _ = one(text)
    assert rc == 1 and 'count of the flow is missing' in run['error'], run


@test
def broken_phases():
    """a failed sender, a phase with nothing received or no phase at all fail the run"""
    bad = phase('paced', 20000, 20000, 4 * 10**9, (1, 2, 3), 100, rc=1)
    rc, _, run, _ = one(log('pkt-none', paced=bad))
    assert rc == 1 and 'pktflow failed in the paced phase' in run['error'], run
    none = phase('flood', 100000, 0, 0, (0, 0, 0), 0)
    rc, _, run, _ = one(log('pkt-none', flood=none))
    assert rc == 1 and 'none of 100000 datagrams received' in run['error'], run
    text = log('pkt-none').replace('phase=flood', 'phase=flod')
    rc, _, run, _ = one(text)
    assert rc == 1 and 'no flood phase' in run['error'], run
    rc, _, run, _ = one(log('pkt-nft', extra=['@@ unavailable the nft rules: no nft']))
    assert rc == 1 and run['error'].startswith('unavailable the nft rules'), run


@test
def headline_rows():
    """the results page's headline has one packet row per filter that ran, none for a failed one"""
    _, _, res = analyse(log('pkt-none') + log('pkt-nft', seen=1) + log('pkt-offsched'))
    lines = report.headline(res)
    rows = [l for l in lines if l.startswith('| ') and ' | ' in l]
    assert any(l.startswith('| UDP over veth') for l in rows), lines
    assert any(l.startswith('| no filter | 20.0 | 80.0 | 50.00 | 45.0 | 10000 |') for l in rows), lines
    assert any(l.startswith('| OFFSCHED pkt service, 4 rules |') for l in rows), lines
    assert not any(l.startswith('| nftables') for l in rows), lines
    assert 'Failed scenarios (no numbers): pkt-nft.' in lines, lines
    assert not any(l.startswith('4 rules: the pkt service') for l in lines), lines


@test
def headline_verdict():
    """the headline says, per length of rule list, the pkt service against nftables"""
    cheap = phase('paced', 20000, 20000, 4 * 10**9, (20000, 80000, 400000), 50)
    _, _, res = analyse(log('pkt-none') + log('pkt-nft') + log('pkt-offsched') +
                        log('pkt-nft-long') + log('pkt-offsched-long', paced=cheap))
    lines = report.headline(res)
    assert ('4 rules: the pkt service / nftables: CPU 0 per packet x1.00, latency p50 x1.00, '
            'flood rate x1.00.') in lines, lines
    assert ('32 rules: the pkt service / nftables: CPU 0 per packet x0.50, latency p50 x1.00, '
            'flood rate x1.00.') in lines, lines


def main():
    return tap.run(TESTS, 'pkt')


if __name__ == '__main__':
    sys.exit(main())
