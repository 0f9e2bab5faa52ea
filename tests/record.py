#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make test, last step: the run's record, build/KVER/test/summary.md.

    record.py OUT TOP STARTED RESULT SUITES

OUT is the file to write; TOP the repository; STARTED the run's start
(seconds since the epoch, set by the Makefile before anything was
installed or built); RESULT the harness's last line ("N passed, N
failed"); SUITES what was asked ("all", or make test's SUITES).  The record says
which commit ran, on what, how the run started (its compiler cache and
the base's build/KVER/: a cold run has neither) and how long it took, the
kernels it built with their build times, and the disk build/KVER/ takes
at the end.  `make publish-results` keeps it under
docs/results/, and README.md's times are quoted from there.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from provenance import (build_dir, builds_line, disk_gib, duration, host, host_line,  # noqa: E402
                        kernel_builds, kver, read, run, source, start_line, start_state, utc)

# The kernels make test may build, by their build directory
KERNELS = ['test', 'test-jump', 'test-notick-off', 'test-kasan', 'test-kcsan']


def record(top, started, result, suites):
    build = build_dir(top)
    src = source(top)
    elapsed = int(time.time() - started)
    return '\n'.join([
        '# make test: run of %s' % utc(started), '',
        '- commit: `%s` (%s), tree %s' % (src['commit'], src['subject'], src['tree']),
        '- base: %s; test kernel %s' % (
            src['base'], read(os.path.join(build, 'obj-test', 'kernelrelease'))),
        '- QEMU: %s, TCG' % run('qemu-system-x86_64', '--version'),
        '- host: %s' % host_line(host()),
        '- suites: %s' % suites,
        '- at the start: %s' % start_line(start_state()),
        '- time: %s from `make test` to its last line; kernels built in the run: %s'
        % (duration(elapsed), builds_line(kernel_builds(build, KERNELS, started))),
        '- disk: build/%s/ holds %s GiB at the end' % (kver(), disk_gib(build)),
        '- result: %s' % result, ''])


def main():
    if len(sys.argv) < 6:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    out, top, started, result = sys.argv[1:5]
    try:
        started = float(started)
    except ValueError:
        print('record: STARTED is not a time: %r' % started, file=sys.stderr)
        return 2
    text = record(top, started, result, ' '.join(sys.argv[5:]))
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, 'w') as f:
        f.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main())
