#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of report.py, the results page (TAP output): the provenance
it records, the headline it copies from results.json, a failed run shown
as failed; and of publish.py, which keeps a page under docs/results/ and
quotes its headline in README.md."""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import report  # noqa: E402
import tap  # noqa: E402
from scratch import scratch_repo  # noqa: E402
from provenance import build_dir, kver  # noqa: E402

TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def scenario(loc, irq, noise=12.0, runs=3, good=3):
    return {'runs': runs, 'good_runs': good, 'loc_run': loc, 'irq_run': irq, 'kernel_noise_us': noise,
            'worst_kernel_us': 4.25, 'ftq_noise_fraction': 0.0123, 'syscall_ns': 321.0}


def timer(events, overruns, p50, p99, mx):
    return {'events': events, 'overruns': overruns, 'late_p50_us': p50, 'late_p99_us': p99,
            'late_max_us': mx}


RESULTS = {'cpu': 1, 'scenarios': {
    'offsched': scenario(None, None, 0.0),
    'notick': scenario(2, 5),
    'nohz': scenario(7, 30),
    'nohz-cfs': scenario(9, 12),
    'cfs': scenario(2500, 2600),
    'fifo': {'runs': 3, 'good_runs': 0, 'error': 'trace lost 3 events'},
    'timer-notick': {'runs': 3, 'good_runs': 3, 'timer': timer(2000, 0, 0.5, 1.5, 9.75)},
    'timer-offsched': {'runs': 3, 'good_runs': 3, 'timer': timer(1990, 2, 3.0, 8.0, 30.0),
                       'service': timer(2000, 0, 0.25, 0.5, 2.0)},
}}



def run_report(status='ok', results=RESULTS, built_after=True, dirty=False, consoles=None):
    """report.py on a scratch repository with a compare kernel built
    before or after the run's start; returns (rc, page, results.json)."""
    top = scratch_repo(dirty)
    obj = os.path.join(build_dir(top), 'obj-compare')
    os.makedirs(os.path.join(obj, 'arch/x86/boot'))
    with open(os.path.join(obj, 'kernelrelease'), 'w') as f:
        f.write('6.1.192-notick\n')
    bz = os.path.join(obj, 'arch/x86/boot/bzImage')
    open(bz, 'w').close()
    started = time.time() - 100
    os.utime(bz, (started + (50 if built_after else -50),) * 2)
    out = os.path.join(build_dir(top), 'compare')
    os.makedirs(out)
    if results is not None:
        with open(os.path.join(out, 'results.json'), 'w') as f:
            json.dump(results, f)
    with open(os.path.join(out, 'table.txt'), 'w') as f:
        f.write('the table\n')
    for name, text in (consoles or {}).items():
        os.makedirs(os.path.join(out, name))
        with open(os.path.join(out, name, 'console.log'), 'w') as f:
            f.write(text)
    # as run by hand: not the start state of a make run these tests run in
    env = {k: v for k, v in os.environ.items()
           if k not in ('NOTICK_CACHE_AT_START', 'NOTICK_BUILD_AT_START', 'NOTICK_DEPS_AT_START',
                        'NOTICK_HEAD_AT_START')}
    rc = subprocess.run([sys.executable, os.path.join(HERE, 'report.py'), out, top, str(started),
                         status, 'DURATION=10', 'REPEATS=3'], capture_output=True,
                        env=env).returncode
    page = open(os.path.join(out, 'results.md')).read() if rc == 0 else ''
    res = json.load(open(os.path.join(out, 'results.json')))
    head = subprocess.run(['git', '-C', top, 'rev-parse', 'HEAD'], capture_output=True,
                          text=True).stdout.strip()
    return rc, page, res, head, top


def block(page):
    lines = page.splitlines()
    return lines[lines.index(report.HEAD_BEGIN) + 1:lines.index(report.HEAD_END)]


@test
def provenance():
    """the page and results.json carry the commit, base, kernel, QEMU, host, settings, start, time"""
    rc, page, res, head, _ = run_report()
    assert rc == 0, rc
    p = res['provenance']
    assert p['commit'] == head and p['subject'] == 'the subject' and p['tree'] == 'clean', p
    assert p['kernel'] == '6.1.192-notick' and p['mainline_kernel'] == 'none', p
    assert p['settings'] == {'DURATION': '10', 'REPEATS': '3'}, p
    assert p['kernels_built_in_run'] == ['compare'] and 90 <= p['elapsed_s'] <= 200, p
    assert p['qemu'] and p['host']['cores'] and p['base'].startswith('Debian linux-source-' + kver()), p
    for want in ('commit: `%s` (the subject), tree clean' % head, '6.1.192-notick (the series)',
                 '- QEMU: ', '- host: ', 'DURATION=10 REPEATS=3',
                 'kernels built in the run: compare (time not recorded)',
                 '- at the start: not recorded (run without the Makefile)',
                 'status: every scenario ran and was analysed', '```\nthe table\n```'):
        assert want in page, (want, page)
    assert res['scenarios'] == RESULTS['scenarios'], res


@test
def boots_and_nocb():
    """each boot's command line on the page; the headline names what 'no boot parameter' needs, [n] without it"""
    res = json.loads(json.dumps(RESULTS))
    res['scenarios']['notick-nocb-off'] = scenario(40, 60)
    rc, page, _, _, _ = run_report(results=res, consoles={
        'plain': '[    0.000000] Command line: console=ttyS0 tsc=reliable compare.cpu=1 quiet\n',
        'nohz_full': '[    0.000000] Command line: tsc=reliable nohz_full=1 nmi_watchdog=0\n',
        'broken': 'no kernel output\n'})
    assert rc == 0, rc
    for want in ('  - plain: `console=ttyS0 tsc=reliable quiet`',
                 '  - nohz_full: `tsc=reliable nohz_full=1 nmi_watchdog=0`',
                 '  - broken: `? (no "Command line:" in its console log)`'):
        assert want in page, (want, page)
    head = block(page)
    assert head[0].startswith('| CPU 1, median of runs | OFFSCHED | SCHED_NOTICK | SCHED_NOTICK [n] |'), head
    assert '| timer ticks (LOC), probe\'s life | - | 2 | 40 | 9 | 2500 |' in head, head
    assert '(CONFIG_RCU_NOCB_CPU_DEFAULT_ALL=y), which that relies on.' in head, head
    assert 'SCHED_NOTICK [n]: the same kernel built without that option.' in head, head
    rc, page, _, _, _ = run_report()
    assert 'SCHED_NOTICK [n]' not in page and 'CONFIG_RCU_NOCB_CPU_DEFAULT_ALL=y' in page, page


@test
def not_built_in_run():
    """a kernel built before the run is not counted as built in it"""
    rc, page, res, _, _ = run_report(built_after=False)
    assert rc == 0 and res['provenance']['kernels_built_in_run'] == [], res['provenance']
    assert 'kernels built in the run: none (all built before)' in page, page


@test
def headline_from_results():
    """the headline copies results.json: the quieter tuned row is the reference, timers with p99/max"""
    rc, page, _, _, _ = run_report()
    b = block(page)
    assert page.count(report.HEAD_BEGIN) == 1 and page.count(report.HEAD_END) == 1, page
    assert b[0] == '| CPU 1, median of runs | OFFSCHED | SCHED_NOTICK | CFS, nohz_full= [m] | CFS |', b
    assert '| runs good / made | 3/3 | 3/3 | 3/3 | 3/3 |' in b, b
    assert "| timer ticks (LOC), probe's life | - | 2 | 9 | 2500 |" in b, b
    assert "| interrupt entries, probe's life | - | 5 | 12 | 2600 |" in b, b
    assert '| getppid(), ns | 321 | 321 | 321 | 321 |' in b, b
    assert '| SCHED_NOTICK polling the TSC | 2000 | 0 | 0.50 | 1.50 | 9.75 |' in b, b
    assert '| OFFSCHED timer, fired (service) | 2000 | 0 | 0.25 | 0.50 | 2.00 |' in b, b
    assert '| OFFSCHED timer, delivered (CPU 0 poller) | 1990 | 2 | 3.00 | 8.00 | 30.00 |' in b, b
    assert 'Failed scenarios (no numbers): fifo.' in b, b
    assert all(len(x) <= 100 for x in b), b


@test
def failed_run():
    """a failed compare-test says FAILED at the top of its page, each failure named"""
    rc, page, _, _, _ = run_report(status='boot nohz_full did not finish\nanalysis: some runs failed')
    assert rc == 0, rc
    assert '- status: FAILED: boot nohz_full did not finish; analysis: some runs failed' in page, page


@test
def no_results():
    """no results.json (the analysis died): the page is still written, with no headline row"""
    rc, page, res, _, _ = run_report(status='analysis: some runs failed', results=None)
    assert rc == 0 and block(page) == [] and res['scenarios'] == {}, (page, res)


def publish(top):
    os.makedirs(os.path.join(top, 'docs', 'results'), exist_ok=True)
    return subprocess.run([sys.executable, os.path.join(HERE, 'publish.py'), top],
                          capture_output=True, text=True)


README = """# x
before
<!-- headline from docs/results/old.md -->
| old | 1 |
<!-- headline end -->
after
"""


@test
def publish_quotes_the_page():
    """publish.py keeps the page under docs/results/ and quotes its headline in README.md"""
    _, page, res, head, top = run_report()
    with open(os.path.join(top, 'README.md'), 'w') as f:
        f.write(README)
    p = publish(top)
    assert p.returncode == 0, p.stderr
    name = 'docs/results/%s-%s.md' % (res['provenance']['started'][:10], head[:12])
    assert open(os.path.join(top, name)).read() == page, name
    readme = open(os.path.join(top, 'README.md')).read().splitlines()
    i = readme.index('<!-- headline from %s -->' % name)
    j = readme.index(report.HEAD_END)
    assert readme[i + 1:j] == block(page) and readme[:2] == ['# x', 'before'], readme
    assert readme[j + 1:] == ['(From [%s](%s): commit %s, %s.)' % (
        name, name, head[:12], res['provenance']['started']), 'after'], readme
    assert '| old | 1 |' not in readme, readme
    # published again: the same README, the link line replaced, not doubled
    p = publish(top)
    assert p.returncode == 0 and open(os.path.join(top, 'README.md')).read().splitlines() == readme


@test
def publish_other_base():
    """on a base other than the default, publish.py keeps the page as DATE-COMMIT-KVER.md and leaves README.md"""
    _, page, res, head, top = run_report()
    with open(os.path.join(top, 'README.md'), 'w') as f:
        f.write(README)
    os.makedirs(os.path.join(top, 'qemu'))
    with open(os.path.join(top, 'qemu', 'lib.sh'), 'w') as f:
        f.write('DEFAULT_KVER=9.9\n')
    p = publish(top)
    assert p.returncode == 0, p.stderr
    name = 'docs/results/%s-%s-%s.md' % (res['provenance']['started'][:10], head[:12], kver())
    assert open(os.path.join(top, name)).read() == page, os.listdir(os.path.join(top, 'docs', 'results'))
    assert open(os.path.join(top, 'README.md')).read() == README


@test
def publish_refuses():
    """publish.py refuses a failed run, a run on a changed tree, a README without the markers"""
    _, _, _, _, top = run_report(status='boot plain did not finish')
    with open(os.path.join(top, 'README.md'), 'w') as f:
        f.write(README)
    p = publish(top)
    assert p.returncode == 1 and 'the run failed' in p.stderr, p
    _, page, res, _, top = run_report(dirty=True)
    with open(os.path.join(top, 'README.md'), 'w') as f:
        f.write(README)
    assert res['provenance']['tree'] == 'with uncommitted changes', res['provenance']
    assert 'tree with uncommitted changes' in page, page
    p = publish(top)
    assert p.returncode == 1 and 'uncommitted changes' in p.stderr, p
    _, _, _, _, top2 = run_report()
    with open(os.path.join(top2, 'README.md'), 'w') as f:
        f.write('# no markers\n')
    p2 = publish(top2)
    assert p2.returncode == 1 and 'has no' in p2.stderr, p2
    assert open(os.path.join(top2, 'README.md')).read() == '# no markers\n'


def main():
    return tap.run(TESTS, 'report')


if __name__ == '__main__':
    sys.exit(main())
