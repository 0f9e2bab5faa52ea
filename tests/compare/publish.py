#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make publish-results: keep the results page of the last compare-test
run under docs/results/ and quote its headline in README.md; keep make
test's record of its last run there too (publish_record()).

    publish.py TOP

Copies build/KVER/compare/results.md to docs/results/DATE-COMMIT.md (on
a base other than the default, DATE-COMMIT-KVER.md, and no more) and puts
its headline (the lines between report.py's markers) between README.md's
"<!-- headline from docs/results/... -->" and "<!-- headline end -->"
lines, naming the page (and, in the line after them, linking to it).  Refuses a run that failed or ran on a tree with
uncommitted changes: a published number must come from a page that says
which commit made it.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import HEAD_BEGIN, HEAD_END  # noqa: E402
from provenance import build_dir, kver  # noqa: E402

SOURCE_PREFIX = '(From ['
README_BEGIN = re.compile(r'^<!-- headline from (docs/results/[^ ]+\.md) -->$')
# A record's first lines: its date, its commit, the tree
RECORD = re.compile(r'^# make test: run of (\d{4}-\d\d-\d\d) .*\n\n'
                    r'- commit: `([0-9a-f]{40})` .*, tree (clean|with uncommitted changes|changed during the run .*)$', re.M)


def headline(lines, begin, end):
    """The lines strictly between the first line matching begin and end."""
    for i, line in enumerate(lines):
        if begin(line):
            for j in range(i + 1, len(lines)):
                if lines[j] == end:
                    return i, j
    return None


def base_suffix(top):
    """'' on the default base (qemu/lib.sh's DEFAULT_KVER), '-KVER' on
    another: its pages and records are kept under names of their own, and
    README.md, which quotes the default base's, is left alone."""
    try:
        m = re.search(r'^DEFAULT_KVER=(\S+)$', open(os.path.join(top, 'qemu', 'lib.sh')).read(),
                      re.M)
    except OSError:
        m = None
    return '' if not m or m.group(1) == kver() else '-' + kver()


def publish_record(top):
    """make test's record of its last run (tests/record.py), kept as
    docs/results/DATE-COMMIT-make-test.md when the run passed on a clean
    tree; README.md quotes its times (tests/host/docs.sh checks the
    quotes).  Returns 0 when kept, 1 when refused, None when there is none."""
    path = os.path.join(build_dir(top), 'test', 'summary.md')
    try:
        rec = open(path).read()
    except OSError:
        return None
    m = RECORD.search(rec)
    if not m:
        print('publish: %s is not a record of make test' % os.path.relpath(path, top),
              file=sys.stderr)
        return 1
    if not re.search(r'^- result: \d+ passed, 0 failed$', rec, re.M):
        print('publish: the make test run failed; its record is not published', file=sys.stderr)
        return 1
    if not re.search(r'^- suites: all$', rec, re.M):
        print('publish: the make test record is of a partial run; not published',
              file=sys.stderr)
        return 1
    if m.group(3) != 'clean':
        print('publish: the make test run was made on a tree with uncommitted changes'
              ' or one that changed during the run', file=sys.stderr)
        return 1
    name = 'docs/results/%s-%s-make-test%s.md' % (m.group(1), m.group(2)[:12], base_suffix(top))
    with open(os.path.join(top, name), 'w') as f:
        f.write(rec)
    print('publish: %s written (make test\'s record)' % name)
    return 0


def main():
    if len(sys.argv) != 2:
        print('usage: publish.py TOP', file=sys.stderr)
        return 2
    top = sys.argv[1]
    kept = publish_record(top)
    if kept == 1:
        return 1
    out = os.path.join(build_dir(top), 'compare')
    if kept == 0 and not os.path.exists(os.path.join(out, 'results.md')):
        return 0
    try:
        page = open(os.path.join(out, 'results.md')).read()
        prov = json.load(open(os.path.join(out, 'results.json')))['provenance']
    except (OSError, ValueError, KeyError) as e:
        print('publish: no results page of a compare-test run (%s)' % e, file=sys.stderr)
        return 1
    if '\n- status: FAILED' in page:
        print('publish: the run failed; its page is not published', file=sys.stderr)
        return 1
    if prov['tree'] != 'clean':
        print('publish: the run was made on a tree with uncommitted changes'
              ' or one that changed during the run', file=sys.stderr)
        return 1
    lines = page.splitlines()
    h = headline(lines, lambda x: x == HEAD_BEGIN, HEAD_END)
    if not h:
        print('publish: the page has no headline', file=sys.stderr)
        return 1
    sfx = base_suffix(top)
    name = 'docs/results/%s-%s%s.md' % (prov['started'][:10], prov['commit'][:12], sfx)
    with open(os.path.join(top, name), 'w') as f:
        f.write(page)
    if sfx:
        print('publish: %s written; README.md quotes the default base\'s pages only' % name)
        return 0
    readme = open(os.path.join(top, 'README.md')).read().splitlines()
    r = headline(readme, README_BEGIN.match, HEAD_END)
    if not r:
        print('publish: README.md has no "<!-- headline from docs/results/X.md -->" ...'
              ' "%s" lines' % HEAD_END, file=sys.stderr)
        return 1
    # The marker is not shown: a line after it names the page, visibly
    end = r[1] + 1
    if end < len(readme) and readme[end].startswith(SOURCE_PREFIX):
        end += 1
    readme[r[0]:end] = (['<!-- headline from %s -->' % name] + lines[h[0] + 1:h[1]] +
                        [HEAD_END, '%s%s](%s): commit %s, %s.)'
                         % (SOURCE_PREFIX, name, name, prov['commit'][:12], prov['started'])])
    with open(os.path.join(top, 'README.md'), 'w') as f:
        f.write('\n'.join(readme) + '\n')
    print('publish: %s written, its headline quoted in README.md' % name)
    return 0


if __name__ == '__main__':
    sys.exit(main())
