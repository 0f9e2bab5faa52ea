#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of compare-test's packet rows (tests/compare/pkt.py) on
# synthetic runs: the numbers read from the log, a filter that was not in
# the path or a broken phase failing the run, the headline's rows.  TAP.
exec python3 "$(dirname "${BASH_SOURCE[0]}")/../compare/test_pkt.py"
