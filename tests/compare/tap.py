# SPDX-License-Identifier: GPL-2.0
"""The TAP runner of the compare unit tests (test_analyze.py,
test_report.py): each test function's docstring is its name."""


def run(tests, what):
    """Run each function of tests, print TAP; 0 if all passed, else 1."""
    print('TAP version 13')
    print('1..%d' % len(tests))
    failed = 0
    for i, fn in enumerate(tests, 1):
        try:
            fn()
            print('ok %d - %s: %s' % (i, what, fn.__doc__))
        except Exception as e:  # noqa: BLE001 -- any failure is a test failure
            failed += 1
            print('not ok %d - %s: %s' % (i, what, fn.__doc__))
            for line in repr(e).splitlines()[:5]:
                print('# ' + line)
    return 1 if failed else 0
