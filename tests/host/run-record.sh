#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of make test's record of a run (tests/record.py) and of its
# publication under docs/results/ (tests/compare/publish.py), on scratch
# repositories.  TAP.
exec python3 "$(dirname "${BASH_SOURCE[0]}")/../test_record.py"
