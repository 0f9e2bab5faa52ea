#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of compare-test's results page (tests/compare/report.py) and
# of its publication under docs/results/ and in README.md
# (tests/compare/publish.py), on scratch repositories.  TAP.
exec python3 "$(dirname "${BASH_SOURCE[0]}")/../compare/test_report.py"
