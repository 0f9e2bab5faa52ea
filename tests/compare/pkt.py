# SPDX-License-Identifier: GPL-2.0
"""compare-test's packet rows: the runs of pkt-none, pkt-nft,
pkt-offsched, pkt-nft-long and pkt-offsched-long
(tests/compare/guest/pkt.sh), analysed, summarised and printed as their
own table.  Imported by analyze.py and report.py."""
import re
import statistics

from outcome import outcome

PKT_LABEL = {'pkt-none': 'no filter',
             'pkt-nft': 'nftables, 4 rules at ingress',
             'pkt-offsched': 'OFFSCHED pkt service, 4 rules',
             'pkt-nft-long': 'nftables, 32 rules at ingress',
             'pkt-offsched-long': 'OFFSCHED pkt service, 32 rules'}
PKT_ORDER = ['pkt-none', 'pkt-nft', 'pkt-offsched', 'pkt-nft-long', 'pkt-offsched-long']
# the rules each filter holds (pkt.sh: the long lists have 28 more)
PKT_RULES = {'pkt-nft': 4, 'pkt-offsched': 4, 'pkt-nft-long': 32, 'pkt-offsched-long': 32}
# /proc/stat's unit, USER_HZ: 100 on x86 (the ABI's, whatever HZ is)
TICK_US = 10000
PKT_COLS = [('paced_lat_p50_us', '%.1f'), ('paced_lat_p99_us', '%.1f'),
            ('paced_lat_max_us', '%.1f'), ('cpu0_us_per_pkt', '%.2f'),
            ('flood_kpps', '%.1f'), ('flood_lost', '%.0f')]


def is_pkt(sc):
    """a packet scenario (pkt.sh)"""
    return sc.startswith('pkt-')


def phases(lines):
    """'@@ pkt' section -> {phase: {key: value}}; the key=value lines
    after each 'phase=NAME ...' line belong to it."""
    out, cur = {}, None
    for line in lines:
        kv = dict(w.split('=', 1) for w in line.split() if '=' in w)
        if 'phase' in kv:
            cur = out.setdefault(kv.pop('phase'), {})
        if cur is not None:
            cur.update(kv)
    return out


def filter_rules(sc, lines):
    """The rules the filter listed after the run: the pkt service's
    numbered lines, or the statements of the nftables chain (the lines
    that drop, accept or count)."""
    if sc.startswith('pkt-offsched'):
        return [l for l in lines if re.match(r'^\d+ ', l)]
    return [l for l in lines if re.search(r'\b(drop|accept)$', l.strip()) or
            'counter' in l.split()]


def filter_count(sc, lines):
    """How many packets of the flow the filter saw: the packets of the
    last rule (pass UDP to 9000) as the filter counted them; None for no
    filter, or when its output has no such count."""
    if sc.startswith('pkt-offsched'):
        rules = filter_rules(sc, lines)
        m = re.search(r' packets (\d+) ', rules[-1] + ' ') if rules else None
    elif sc.startswith('pkt-nft'):
        last = [l for l in lines if 'udp dport 9000' in l and 'counter packets' in l
                and 'accept' in l]
        m = re.search(r'counter packets (\d+)', last[-1]) if last else None
    else:
        return None
    return int(m.group(1)) if m else None


def analyse_pkt(sc, run):
    """One run: both phases complete, every number present, and, with a
    filter, the filter counted at least every datagram delivered (it was
    in the path).  Returns the run's numbers, or ok False and why."""
    res, fail = outcome(sc, run)
    if 'error' in res:
        return res
    if 'pkt' not in run:
        return fail('no packet records')
    ph = phases(run['pkt'])
    for name in ('paced', 'flood'):
        p = ph.get(name)
        if p is None:
            return fail('no %s phase' % name)
        if p.get('send_rc') != '0' or p.get('recv_rc') != '0':
            return fail('pktflow failed in the %s phase (send %s, receive %s)' % (
                name, p.get('send_rc', '?'), p.get('recv_rc', '?')))
        try:
            sent, got = int(p['sent']), int(p['received'])
            span = int(p['span_ns'])
        except (KeyError, ValueError):
            return fail('the %s phase lacks a count' % name)
        if got == 0:
            return fail('the %s phase: none of %d datagrams received' % (name, sent))
        if int(p.get('dup', '0')):
            return fail('the %s phase: %s datagrams received twice' % (name, p['dup']))
        try:
            lat = [int(p[k]) / 1e3 for k in ('lat_p50_ns', 'lat_p99_ns', 'lat_max_ns')]
        except (KeyError, ValueError):
            return fail('the %s phase lacks its latencies' % name)
        res[name] = {'sent': sent, 'received': got, 'span_ns': span, 'lat_us': lat,
                     'busy_ticks': int(p.get('cpu0_busy_ticks', -1))}
    paced, flood = res['paced'], res['flood']
    if paced['busy_ticks'] < 0:
        return fail('the paced phase lacks CPU 0\'s busy time')
    if flood['span_ns'] <= 0:
        return fail('the flood phase has no duration (%d received)' % flood['received'])
    fkey = next((k for k in run if k.startswith('pkt-filter')), None)
    seen = filter_count(sc, run.get(fkey, [])) if fkey else None
    delivered = paced['received'] + flood['received']
    if sc != 'pkt-none':
        if seen is None:
            return fail('the filter\'s count of the flow is missing')
        nrules = len(filter_rules(sc, run.get(fkey, [])))
        if nrules != PKT_RULES[sc]:
            return fail('the filter held %d rules, not %d' % (nrules, PKT_RULES[sc]))
        if seen < delivered:
            return fail('the filter counted %d packets of the flow, %d were delivered: '
                        'not in the path' % (seen, delivered))
        res['filter_count'] = seen
    res['paced_lat_p50_us'], res['paced_lat_p99_us'], res['paced_lat_max_us'] = paced['lat_us']
    res['cpu0_us_per_pkt'] = paced['busy_ticks'] * TICK_US / paced['received']
    res['flood_kpps'] = flood['received'] / (flood['span_ns'] / 1e9) / 1e3
    res['flood_lost'] = flood['sent'] - flood['received']
    res['paced_lost'] = paced['sent'] - paced['received']
    return res


def pkt_summary(good):
    """Medians of the good runs, and the spread (min / median / max)."""
    s, spread = {}, {}
    for k, _ in PKT_COLS + [('paced_lost', '')]:
        vals = [r[k] for r in good]
        s[k] = statistics.median(vals)
        spread[k] = [min(vals), statistics.median(vals), max(vals)]
    s['spread'] = spread
    return s


def pkt_lines(summary):
    """The Packets table and its legend, printed."""
    order = [sc for sc in PKT_ORDER if sc in summary]
    if not order:
        return
    print('Packets: UDP over a veth pair into another network namespace, sender and receiver on CPU 0'
          ' (median of runs):')
    hdr = ('filter', 'runs', 'p50 us', 'p99 us', 'max us', 'CPU 0 us/pkt', 'flood kpps', 'lost')
    w = [max(38, max(len(PKT_LABEL.get(sc, sc)) for sc in order)), 5, 8, 8, 10, 14, 12, 8]
    print('%-*s' % (w[0], hdr[0]) + ''.join('%*s' % (x, h) for x, h in zip(w[1:], hdr[1:])))
    for sc in order:
        s = summary[sc]
        if 'error' in s:
            print('%-*s%*s  failed: %s' % (w[0], PKT_LABEL.get(sc, sc), w[1], '0/%d' % s['runs'],
                                            s['error']))
            continue
        vals = ['%d/%d' % (s['good_runs'], s['runs'])] + [f % s[k] for k, f in PKT_COLS]
        print('%-*s' % (w[0], PKT_LABEL.get(sc, sc)) + ''.join('%*s' % (x, v) for x, v in zip(w[1:], vals)))
    print('p50, p99, max: the latency of each datagram of the paced phase, from its send to its')
    print('  arrival in the receiver; CPU 0 us/pkt: CPU 0\'s busy time over the paced phase')
    print('  (/proc/stat, tick-sampled) per datagram received, the sender\'s and receiver\'s share')
    print('  included; flood kpps: datagrams received per second of a flood as fast as the sender')
    print('  goes; lost: of the flood, not received (a full ring or backlog drops them).')
    base = summary.get('pkt-none', {})
    for sc in PKT_ORDER[1:]:
        s = summary.get(sc, {})
        if 'error' in s or 'error' in base or not s or not base:
            continue
        ratios = [(what, s[k] / base[k]) for what, k in (
            ('latency p50', 'paced_lat_p50_us'), ('CPU 0 per packet', 'cpu0_us_per_pkt'),
            ('flood rate', 'flood_kpps')) if base[k]]
        print('  %s / no filter: %s.' % (PKT_LABEL[sc], ', '.join('%s x%.2f' % r for r in ratios)))
