#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of record.py, make test's record of a run (TAP output): the
provenance and times it writes, how it tells a cold start, and
publish.py keeping a record under docs/results/ only for a whole passing
run on a clean tree."""
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'compare'))
import tap  # noqa: E402
from scratch import git, scratch_repo  # noqa: E402
from provenance import build_dir, kver  # noqa: E402

TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn



def kernel(top, name, built, seconds=None, seconds_at=None):
    """build/KVER/obj-NAME with an image of mtime built and, when given,
    build-seconds of mtime seconds_at (built by default)."""
    obj = os.path.join(build_dir(top), 'obj-' + name)
    os.makedirs(os.path.join(obj, 'arch/x86/boot'))
    with open(os.path.join(obj, 'kernelrelease'), 'w') as f:
        f.write('6.1.192-%s\n' % name)
    bz = os.path.join(obj, 'arch/x86/boot/bzImage')
    open(bz, 'w').close()
    os.utime(bz, (built, built))
    if seconds is not None:
        sec = os.path.join(obj, 'build-seconds')
        with open(sec, 'w') as f:
            f.write('%d\n' % seconds)
        at = seconds_at if seconds_at is not None else built
        os.utime(sec, (at, at))


def scratch(dirty=False):
    top = scratch_repo(dirty)
    os.makedirs(os.path.join(top, 'docs', 'results'))
    return top


def record(top, started, result='1300 passed, 0 failed', suites='all', env=None):
    out = os.path.join(build_dir(top), 'test', 'summary.md')
    e = dict(os.environ)
    for k in ('NOTICK_CACHE_AT_START', 'NOTICK_BUILD_AT_START', 'NOTICK_DEPS_AT_START',
              'NOTICK_HEAD_AT_START', 'NOTICK_DIRTY_AT_START'):
        e.pop(k, None)
    e.update(env or {})
    p = subprocess.run([sys.executable, os.path.join(HERE, 'record.py'), out, top, str(started),
                        result, suites], capture_output=True, text=True, env=e)
    assert p.returncode == 0, p.stderr
    return open(out).read()


def publish(top):
    return subprocess.run([sys.executable, os.path.join(HERE, 'compare', 'publish.py'), top],
                          capture_output=True, text=True)


COLD = {'NOTICK_CACHE_AT_START': '0', 'NOTICK_BUILD_AT_START': 'absent',
        'NOTICK_DEPS_AT_START': '27'}


@test
def record_provenance():
    """commit, base, QEMU, host, suites, result, disk; the kernels built in the run with their times, not those built before"""
    top = scratch()
    started = time.time() - 4000
    kernel(top, 'test', started + 900, 845)
    kernel(top, 'test-jump', started + 1500, 612)
    kernel(top, 'test-notick-off', started - 50, 700)
    rec = record(top, started, env=COLD)
    head = subprocess.run(['git', '-C', top, 'rev-parse', 'HEAD'], capture_output=True,
                          text=True).stdout.strip()
    lines = rec.splitlines()
    assert lines[0].startswith('# make test: run of ') and lines[0].endswith(' UTC'), lines
    assert '- commit: `%s` (the subject), tree clean' % head in lines, lines
    assert '- base: Debian linux-source-%s ' % kver() in rec and 'test kernel 6.1.192-test' in rec, rec
    assert any(x.startswith('- QEMU: ') for x in lines), lines
    assert any(x.startswith('- host: ') and ' cores, ' in x for x in lines), lines
    assert '- suites: all' in lines and '- result: 1300 passed, 0 failed' in lines, lines
    assert '- disk: build/%s/ holds 0.0 GiB at the end' % kver() in lines, lines
    t = next(x for x in lines if x.startswith('- time: '))
    assert t.startswith('- time: 66 min 4') or t.startswith('- time: 66 min 5'), t
    assert t.endswith('kernels built in the run: test (14 min 5 s), test-jump (10 min 12 s)'), t


@test
def record_start():
    """a cold start (no cache, no build/) is said so; a warm one, or one without the Makefile's values, is not"""
    top = scratch()
    started = time.time() - 10
    cold = '- at the start: compiler cache 0 MiB, build/%s/ absent, packages to install: 27' \
        ' (a cold run)' % kver()
    assert cold in record(top, started, env=COLD)
    warm = record(top, started, env={'NOTICK_CACHE_AT_START': '5242880',
                                     'NOTICK_BUILD_AT_START': 'present',
                                     'NOTICK_DEPS_AT_START': '0'})
    assert '- at the start: compiler cache 5120 MiB, build/%s/ present, packages to install: 0' \
        % kver() in warm.splitlines(), warm
    assert 'not recorded (run without the Makefile)' in record(top, started)


@test
def record_stale_build_time():
    """a kernel built in the run whose build-seconds is older than the run has no time"""
    top = scratch()
    started = time.time() - 100
    kernel(top, 'test', started + 50, 300, seconds_at=started - 500)
    rec = record(top, started, env=COLD)
    assert 'kernels built in the run: test (time not recorded)' in rec, rec
    assert 'none (all built before)' in record(scratch(), started, env=COLD)


@test
def publish_keeps_record():
    """publish.py keeps a passing whole run's record as docs/results/DATE-COMMIT-make-test.md"""
    top = scratch()
    rec = record(top, time.time() - 100, env=COLD)
    p = publish(top)
    assert p.returncode == 0, p.stderr
    head = subprocess.run(['git', '-C', top, 'rev-parse', 'HEAD'], capture_output=True,
                          text=True).stdout.strip()
    kept = [f for f in os.listdir(os.path.join(top, 'docs', 'results'))]
    assert kept == ['%s-%s-make-test.md' % (rec.split()[5], head[:12])], kept
    assert open(os.path.join(top, 'docs', 'results', kept[0])).read() == rec


@test
def record_head_moved():
    """the commit is the one the run started on; a HEAD that moved during the run is said so"""
    top = scratch()
    first = subprocess.run(['git', '-C', top, 'rev-parse', 'HEAD'], capture_output=True,
                           text=True).stdout.strip()
    git(top, 'commit', '-q', '--allow-empty', '-m', 'a later one')
    rec = record(top, time.time() - 100, env=dict(COLD, NOTICK_HEAD_AT_START=first))
    assert '- commit: `%s` (the subject), tree changed during the run (HEAD ' % first in rec, rec
    p = publish(top)
    assert p.returncode == 1 and 'changed during the run' in p.stderr, p
    assert os.listdir(os.path.join(top, 'docs', 'results')) == []


@test
def record_dirty_at_start():
    """changes present at the start make the tree 'with uncommitted changes', clean at the end or not"""
    top = scratch()
    rec = record(top, time.time() - 100, env=dict(COLD, NOTICK_DIRTY_AT_START='yes'))
    assert ', tree with uncommitted changes' in rec, rec
    p = publish(top)
    assert p.returncode == 1 and 'uncommitted changes' in p.stderr, p
    rec = record(top, time.time() - 100, env=dict(COLD, NOTICK_DIRTY_AT_START='no'))
    assert ', tree clean' in rec, rec


@test
def publish_refuses_record():
    """publish.py refuses the record of a failed run, a partial run, a run on a changed tree"""
    for why, kw, dirty in (('failed', {'result': '1299 passed, 1 failed'}, False),
                           ('partial run', {'suites': 'smoke host'}, False),
                           ('uncommitted changes', {}, True)):
        top = scratch(dirty)
        record(top, time.time() - 100, env=COLD, **kw)
        p = publish(top)
        assert p.returncode == 1 and why in p.stderr, (why, p)
        assert os.listdir(os.path.join(top, 'docs', 'results')) == [], why


def main():
    return tap.run(TESTS, 'record')


if __name__ == '__main__':
    sys.exit(main())
