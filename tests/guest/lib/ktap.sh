# SPDX-License-Identifier: GPL-2.0
# KTAP output helpers for the in-guest test scripts (busybox sh).
#   ktap_plan N              print the header and the plan
#   ktap_ok DESC / ktap_fail DESC / ktap_skip DESC REASON
#   ktap_check DESC EXPR     ok when the shell expression EXPR succeeds;
#                            returns 1 when it failed (to add diagnostics)
#   ktap_note TEXT           a diagnostic line
KTAP_N=0
ktap_plan() { echo "TAP version 13"; echo "1..$1"; }
ktap_ok() { KTAP_N=$((KTAP_N + 1)); echo "ok $KTAP_N - $*"; }
ktap_fail() { KTAP_N=$((KTAP_N + 1)); echo "not ok $KTAP_N - $*"; }
ktap_skip() { KTAP_N=$((KTAP_N + 1)); echo "ok $KTAP_N - $1 # SKIP $2"; }
ktap_note() { echo "# $*"; }
ktap_check() {
	if eval "$2"; then ktap_ok "$1"; else ktap_fail "$1"; return 1; fi
}
