# SPDX-License-Identifier: GPL-2.0
"""The start of every run's analysis (analyze.py, pkt.py): its result
record, and the failure that needs no further reading."""


def outcome(sc, run, **fields):
    """A run's result so far: its scenario and exit status (ok while it
    exited 0) and fields; failed at once when the guest said a tool or
    setting was unavailable ("@@ unavailable ...").  Returns (res, fail):
    fail(why) marks res failed with why and returns it."""
    res = {'scenario': sc, 'ok': run.get('rc') == '0', 'rc': run.get('rc')}
    res.update(fields)

    def fail(why):
        res['ok'] = False
        res['error'] = why
        return res
    bad = next((k for k in run if k.startswith('unavailable')), None)
    if bad:
        fail(bad)
    return res, fail
