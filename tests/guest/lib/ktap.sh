# SPDX-License-Identifier: GPL-2.0
# KTAP output helpers for the in-guest test scripts (busybox sh).
#   ktap_plan N              print the header and the plan (first stage only)
#   ktap_ok DESC / ktap_fail DESC / ktap_skip DESC REASON
#   ktap_check DESC EXPR     ok when the shell expression EXPR succeeds;
#                            returns 1 when it failed (to add diagnostics)
#   ktap_setup DESC EXPR     ktap_check of a setup step, named "setup: DESC":
#                            it would pass on a kernel without the feature
#                            too (docs/tests.md), and its failure is one
#   ktap_note TEXT           a diagnostic line
# After a kexec (lib/kexec.sh), numbering goes on from NOTICK_KTAP, which
# /init takes from the kernel command line; the plan covers every stage.
KTAP_N=${NOTICK_KTAP:-0}
ktap_plan() {
	[ "${NOTICK_STAGE:-1}" = 1 ] || return 0
	echo "TAP version 13"; echo "1..$1"
}
ktap_ok() { KTAP_N=$((KTAP_N + 1)); echo "ok $KTAP_N - $*"; }
ktap_fail() { KTAP_N=$((KTAP_N + 1)); echo "not ok $KTAP_N - $*"; }
ktap_skip() { KTAP_N=$((KTAP_N + 1)); echo "ok $KTAP_N - $1 # SKIP $2"; }
ktap_note() { echo "# $*"; }
ktap_check() {
	if eval "$2"; then ktap_ok "$1"; else ktap_fail "$1"; return 1; fi
}
ktap_setup() { ktap_check "setup: $1" "$2"; }
