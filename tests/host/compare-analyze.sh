#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of compare-test's analysis (tests/compare/analyze.py) on
# synthetic data logs: bounds of the kernel noise, interrupt counts, the
# reference row, and broken traces (wrong clock, lost events, empty) that
# must fail the run instead of reading as no noise.  TAP.
exec python3 "$(dirname "${BASH_SOURCE[0]}")/../compare/test_analyze.py"
