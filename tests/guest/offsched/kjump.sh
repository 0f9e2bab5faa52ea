# SPDX-License-Identifier: GPL-2.0
# A kexec jump (kexec with preserve_context) passes neither the reboot nor
# the PM notifiers: it is refused with EBUSY while a CPU has a callback,
# before anything is frozen (sourced by run.sh; 3 tests). The image is
# never executed: were the refusal missing, this kernel would jump to it,
# and the suite would end there.
$ctl write $C1/service echo > /dev/null
expect "start echo" $C1/control start OK
# kexec-tools wants the room the jump's kernel may use: 256 MiB at 512 MiB
kexec -l --load-preserve-context --mem-min=0x20000000 --mem-max=0x2fffffff \
	/boot/bzImage --append="console=ttyS0 notick.suite=kexec-jump-went-through" \
	> /tmp/kjump.log 2>&1
loaded=$(cat /sys/kernel/kexec_loaded)
got=$($ctl kexec)
out=$($ctl ring 1 10)
ktap_check "a loaded kexec jump (loaded: $loaded) is refused while echo runs on CPU 1 ($got, want EBUSY), echo unharmed ($out)" \
	'[ "$loaded" = 1 ] && [ "$got" = EBUSY ] && dmesg | grep -q "CPU 1 has a callback .*: refusing to kexec jump" &&
	 case "$out" in "OK n=10 "*) true ;; *) false ;; esac' || cat /tmp/kjump.log
kexec -u
expect "stop" $C1/control stop OK
