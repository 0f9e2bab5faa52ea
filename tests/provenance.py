# SPDX-License-Identifier: GPL-2.0
"""Where and on what a run ran, for the records the runs write: make
compare-test's results page (compare/report.py) and make test's record
(record.py).  Every value is read here (git, dpkg, QEMU, /proc, the build
directory, the environment the Makefile set at the start); none is made up.
"""
import datetime
import os
import platform
import subprocess
import sys


def run(*cmd):
    """A command's first line of output, or '?' when it fails."""
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return '?'
    return out.splitlines()[0].strip() if out.strip() else '?'


def read(path, default='?'):
    try:
        with open(path) as f:
            return f.read().strip() or default
    except OSError:
        return default


def cpuinfo(key):
    for line in read('/proc/cpuinfo', '').splitlines():
        k, _, v = line.partition(':')
        if k.strip() == key:
            return v.strip()
    return '?'


def kver():
    """The base of the run, KVER (the Makefile and qemu/lib.sh export it)."""
    k = os.environ.get('KVER', '')
    if not k:
        raise SystemExit('%s: KVER is not set (run through make or tests/harness.sh)'
                         % os.path.basename(sys.argv[0]))
    return k


def build_dir(top):
    """The base's build directory, build/KVER/ of the checkout top."""
    return os.path.join(top, 'build', kver())


def source(top):
    """The commit, its subject, whether the tree had uncommitted changes,
    and the Debian kernel source it was built on."""
    git = ['git', '-C', top]
    dirty = subprocess.run(git + ['status', '--porcelain', '--untracked-files=no'],
                           capture_output=True, text=True).stdout.strip()
    # The commit the run started on (the Makefile's NOTICK_HEAD_AT_START):
    # what it built and booted.  A HEAD that moved during the run leaves the
    # results of no one commit.
    head = run(*git, 'rev-parse', 'HEAD')
    commit = os.environ.get('NOTICK_HEAD_AT_START') or head
    # Changes present at the start (NOTICK_DIRTY_AT_START) were built even
    # when they are committed or gone by the end.
    if os.environ.get('NOTICK_DIRTY_AT_START') == 'yes':
        dirty = 'at the start'
    tree = 'with uncommitted changes' if dirty else 'clean'
    if commit != head:
        tree = 'changed during the run (HEAD %s at its end)' % head[:12]
    return {
        'commit': commit,
        'subject': run(*git, 'log', '-1', '--format=%s', commit),
        'tree': tree,
        'base': 'Debian linux-source-%s %s' % (kver(), run('dpkg-query', '-W', '-f=${Version}',
                                                           'linux-source-' + kver())),
    }


def host():
    mem = next((int(line.split()[1]) for line in read('/proc/meminfo', '').splitlines()
                if line.startswith('MemTotal:')), 0)
    return {'cpu': cpuinfo('model name'), 'cores': os.cpu_count(),
            'memory_gib': round(mem / 1048576, 1), 'kernel': platform.release(),
            'debian': read('/etc/debian_version'), 'name': platform.node()}


def host_line(h):
    return '%s, %s cores, %s GiB, Linux %s, Debian %s (%s)' % (
        h['cpu'], h['cores'], h['memory_gib'], h['kernel'], h['debian'], h['name'])


def utc(started):
    return datetime.datetime.fromtimestamp(started, datetime.timezone.utc) \
        .strftime('%Y-%m-%d %H:%M:%S UTC')


def duration(s):
    return '%d min %d s' % (s // 60, s % 60)


def start_state():
    """What the Makefile saw when the run started (NOTICK_CACHE_AT_START:
    the compiler cache's size in KiB; NOTICK_BUILD_AT_START: whether the
    base's build/KVER/ existed; NOTICK_DEPS_AT_START: how many packages
    qemu/deps.sh had to install): a cold run is one that started with no
    cache and no build directory."""
    cache = os.environ.get('NOTICK_CACHE_AT_START', '')
    deps = os.environ.get('NOTICK_DEPS_AT_START', '')
    return {'cache_mib': int(cache) // 1024 if cache.isdigit() else None,
            'build_dir': os.environ.get('NOTICK_BUILD_AT_START') or None,
            'packages_missing': int(deps) if deps.isdigit() else None}


def start_line(st):
    if st['cache_mib'] is None or st['build_dir'] is None:
        return 'not recorded (run without the Makefile)'
    cold = st['cache_mib'] == 0 and st['build_dir'] == 'absent'
    deps = st.get('packages_missing')
    return 'compiler cache %d MiB, build/%s/ %s, %s%s' % (
        st['cache_mib'], kver(), st['build_dir'],
        'packages to install: %d' % deps if deps is not None else 'packages not counted',
        ' (a cold run)' if cold else '')


def kernel_builds(build, names, started):
    """The kernels among names (build/obj-NAME) whose image was built
    after started: [(name, seconds or None)], the seconds qemu/kernel.sh
    wrote to build-seconds for that build."""
    out = []
    for k in names:
        obj = os.path.join(build, 'obj-' + k)
        bz = os.path.join(obj, 'arch/x86/boot/bzImage')
        if not os.path.exists(bz) or os.path.getmtime(bz) < started:
            continue
        sec = os.path.join(obj, 'build-seconds')
        s = read(sec, '')
        out.append((k, int(s) if s.isdigit() and os.path.getmtime(sec) >= started else None))
    return out


def builds_line(builds):
    if not builds:
        return 'none (all built before)'
    return ', '.join('%s (%s)' % (k, duration(s) if s is not None else 'time not recorded')
                     for k, s in builds)


def disk_gib(path):
    """The size of path (du), in GiB with one decimal, or '?'."""
    kib = run('du', '-sk', path).split('\t')[0]
    return '%.1f' % (int(kib) / 1048576) if kib.isdigit() else '?'
