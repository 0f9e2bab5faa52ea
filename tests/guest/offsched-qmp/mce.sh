# SPDX-License-Identifier: GPL-2.0
# A machine check on CPU 1 while it runs echo (sourced by run.sh; 5 tests),
# injected by QEMU's mce (bank 1, uncorrected, MCG_STATUS RIPV|MCIP). An
# offline CPU drops such a machine check; one that runs a service counts
# it for the service's owner and the log says so when the CPU comes back.
MCE='{"execute": "human-monitor-command", "arguments": {"command-line": "mce 1 1 0xb000000000000000 0x5 0 0"}}'
$ctl write $C1/service echo > /dev/null
expect "start echo on CPU 1" $C1/control start OK
mc0=$(cat $C1/machine_checks)
qmp "$MCE"
wait_for '[ "$(cat $C1/machine_checks)" != "$mc0" ]'
ktap_check "QEMU's machine check on CPU 1 is counted ($mc0, then $(cat $C1/machine_checks))" \
	'[ "$(cat $C1/machine_checks)" = $((mc0 + 1)) ]'
out=$($ctl ring 1 10)
ktap_check "echo goes on: $(cat $C1/state), answering ($out)" \
	'[ "$(cat $C1/state)" = running ] &&
	 case "$out" in "OK n=10 "*) true ;; *) false ;; esac'
expect "stop echo" $C1/control stop OK
ktap_check "the kernel log reports it once CPU 1 is back" \
	'dmesg | grep -q "CPU 1: callback .* ran into 1 machine check(s), last MCG_STATUS 0x5"'
