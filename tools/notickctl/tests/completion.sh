#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The bash completion of notickctl (bash-completion/notickctl), driven as
# bash drives it: COMP_WORDS and COMP_CWORD set, the function called.
#   completion.sh SRCDIR    prints TAP; needs bash-completion installed
src=$1
echo "TAP version 13"
echo "1..6"
bc=/usr/share/bash-completion/bash_completion
if [ ! -f $bc ]; then
	for i in 1 2 3 4 5 6; do echo "not ok $i - bash-completion is installed ($bc)"; done
	exit 1
fi
. $bc
. "$src/bash-completion/notickctl"
n=0 failed=0
# comp WORD...: complete the last word; the answers sorted on one line
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_notickctl notickctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	printf '%s\n' "${COMPREPLY[@]}" | sort | paste -sd' '
}
check() {
	n=$((n + 1))
	if [ "$2" = "$3" ]; then echo "ok $n - $1"; else
		failed=$((failed + 1)); echo "not ok $n - $1"; echo "# got '$2', want '$3'"; fi
}
check "--c completes to --cpu" "$(comp notickctl --c)" "--cpu"
check "--noh completes to --noheadings" "$(comp notickctl --noh)" "--noheadings"
want=$(tr ',' '\n' < /sys/devices/system/cpu/online |
	awk -F- '{ for (c = $1; c <= ($2 == "" ? $1 : $2); c++) if (c) print c }' | sort | paste -sd' ')
check "--cpu completes to the online CPUs but 0 ($want)" "$(comp notickctl --cpu '')" "$want"
check "status completes its options" "$(comp notickctl status --)" "--json --noheadings"
check "the command position offers status" "$(comp notickctl statu | grep -wo status | sort -u)" "status"
check "after --, the program's own completion (commands)" \
	"$(comp notickctl --cpu 1 -- tasks 2> /dev/null | grep -wo taskset | sort -u)" "taskset"
[ $failed = 0 ]
