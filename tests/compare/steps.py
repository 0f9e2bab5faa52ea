# SPDX-License-Identifier: GPL-2.0
"""compare-test, host side: count the guest instructions of getppid() on
one CPU of a running guest, exactly, by single-stepping it through QEMU's
gdb stub.  QEMU's -icount gives that count on one CPU only; this gives it
on the measured CPU of a two-CPU guest, where SCHED_NOTICK and nohz_full=
run (the whole kernel path of the call, from entry_SYSCALL_64 to the first
user-space instruction after it).

    gdb -batch -x steps.py VMLINUX    with, in the environment:
      STEPS_SOCKET  the gdb stub's Unix socket (qemu/boot.sh -g)
      STEPS_CPU     the CPU to watch
      STEPS_FLAG    address of the flag that ends the guest's loop
                    (ftq --steps prints it)
      STEPS_CALLS   calls to count after a first, uncounted one (4)
      STEPS_OUT     where to write the counts

Output, one line each:
    call N insns M nr SYSCALL     every call counted
    fn SYMBOL M                   the last call's instructions by function
    error WHAT                    and gdb exits with status 1
While gdb holds the guest, QEMU runs no vCPU and masks interrupts and
timers on the stepped one (its default single-step flags), so that the
count is the call's own path.
"""
import bisect
import os
import subprocess

import gdb

USER_TOP = 0x800000000000	# x86_64: below this, user space
MAX_STEPS = 20000
NR_GETPPID = 110


def symbols(vmlinux):
    """Sorted (address, name) of the kernel's text symbols."""
    out = subprocess.run(['nm', '-n', vmlinux], capture_output=True, text=True,
                         check=True).stdout
    syms = []
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in 'tTwW':
            syms.append((int(f[0], 16), f[2]))
    return syms


class Failed(Exception):
    pass


def count(out):
    cpu = int(os.environ['STEPS_CPU'])
    flag = int(os.environ['STEPS_FLAG'], 16)
    calls = int(os.environ.get('STEPS_CALLS', '4'))
    syms = symbols(gdb.current_progspace().filename)
    addrs = [a for a, _ in syms]
    gdb.execute('set pagination off')
    gdb.execute('set confirm off')
    gdb.execute('target remote %s' % os.environ['STEPS_SOCKET'])
    # QEMU's thread id of a vCPU is its index + 1
    thread = next((t for t in gdb.selected_inferior().threads()
                   if t.ptid[1] == cpu + 1), None)
    if thread is None:
        raise Failed('no vCPU %d in the gdb stub' % cpu)
    bp = gdb.Breakpoint('*entry_SYSCALL_64', internal=True)
    bp.thread = thread.num
    pcs = []
    for n in range(calls + 1):
        gdb.execute('continue', to_string=True)
        if gdb.selected_thread().num != thread.num:
            raise Failed('stopped on another CPU')
        nr = int(gdb.parse_and_eval('$rax'))
        gdb.execute('set scheduler-locking step')
        pcs = []
        while True:
            pc = int(gdb.parse_and_eval('$pc')) & 0xffffffffffffffff
            if pc < USER_TOP:
                break
            pcs.append(pc)
            if len(pcs) > MAX_STEPS:
                raise Failed('call %d: no return to user space in %d steps' % (n, MAX_STEPS))
            gdb.execute('stepi', to_string=True)
        gdb.execute('set scheduler-locking off')
        if n:
            out.write('call %d insns %d nr %d\n' % (n, len(pcs), nr))
    bp.delete()
    by_fn = {}
    for pc in pcs:
        i = bisect.bisect_right(addrs, pc) - 1
        name = syms[i][1] if i >= 0 else '?'
        by_fn[name] = by_fn.get(name, 0) + 1
    for name, k in sorted(by_fn.items()):
        out.write('fn %s %d\n' % (name, k))
    # The guest's loop ends once it sees the flag (we stopped in its
    # address space: the last step returned to its user code).
    gdb.execute('set var *(volatile int *)0x%x = 1' % flag)


def main():
    rc = 0
    with open(os.environ['STEPS_OUT'], 'w') as out:
        try:
            count(out)
        except (Failed, gdb.error, ValueError, KeyError) as e:
            out.write('error %s\n' % (str(e).splitlines() or ['gdb'])[0])
            rc = 1
    # Leave the guest running: quitting while attached would kill QEMU.
    try:
        gdb.execute('detach')
    except gdb.error:
        pass
    gdb.execute('quit %d' % rc)


main()
