# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the notick build and test scripts.  Sourced, not run.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The base: Debian's linux-source-$KVER.  Each base has its own series
# (patches/NAME/$KVER/) and its own build directory, build/$KVER/, with
# its pristine tree, patched tree, O= directories and test results, so
# that two bases never share an object directory.  The default base, the
# one make test and make compare-test take and docs/ renders, is named
# here only.
DEFAULT_KVER=6.1
KVER=${KVER:-$DEFAULT_KVER}
[[ $KVER =~ ^[0-9]+\.[0-9]+$ ]] || { printf 'error: KVER=%s is not a kernel version such as 6.1\n' "$KVER" >&2; exit 1; }
export KVER
BUILD=${BUILD:-$TOP/build/$KVER}
PRISTINE=$BUILD/linux-$KVER
TREE=$BUILD/linux
JOBS=${JOBS:-$(( $(nproc) + 1 ))}

# The order in which the base's series apply: offsched first, then
# sched-notick, then any other series in name order.  Each is a directory
# patches/NAME/$KVER/ with a series file.
series_dirs() {
	local d seen=" "
	for d in offsched sched-notick; do
		[ -f "$TOP/patches/$d/$KVER/series" ] && { echo "$TOP/patches/$d/$KVER"; seen="$seen$d "; }
	done
	for d in "$TOP"/patches/*/"$KVER"/; do
		d=${d%/}
		[ -f "$d/series" ] || continue
		case "$seen" in *" $(series_name "$d") "*) continue ;; esac
		echo "$d"
	done
}

# series_name DIR: the series of a directory series_dirs gave (offsched).
series_name() { local d=${1%/"$KVER"}; echo "${d##*/}"; }

# The patch files of one series directory, in series-file order.
series_patches() {
	local line
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%%#*}
		line=$(echo "$line" | awk '{print $1}')
		[ -n "$line" ] && echo "$1/$line"
	done < "$1/series"
}

# series_warnings BUILD.LOG TREE OBJ: the warnings of a kernel build
# (make -C TREE O=OBJ) that are the series' own: the compiler's about a
# file one of its patches touches (a "+++ b/" line), and objtool's about
# a function named on a line one of them adds. The series must add none.
# Others, the sanitizers' frame sizes in upstream files, are not its own.
series_warnings() {
	local log=$1 rel d fn
	rel=$(realpath -m --relative-to="$3" "$2")/
	[ -f "$log" ] || return 0
	for d in $(series_dirs); do
		series_patches "$d" | while read -r p; do cat "$p"; done
	done > "$log.patches"
	sed -n 's|^+++ b/||p' "$log.patches" | sort -u |
		sed "s|^|$rel|; s|[.[\\*^$]|\\\\&|g; s|^|^|; s|$|:[0-9]|" > "$log.files"
	grep -E 'warning:' "$log" | grep -f "$log.files" || true
	grep -E '^[^ ]*: warning: objtool: [A-Za-z_][A-Za-z0-9_]*[+.]' "$log" |
		while IFS= read -r w; do
			fn=${w#*objtool: } fn=${fn%%[+.]*}
			if grep -q "^+.*\b$fn\b" "$log.patches"; then printf '%s\n' "$w"; fi
		done
	rm -f "$log.files" "$log.patches"
}

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# with_heartbeat WHAT CMD...: run CMD (a command or a function), saying
# every 30 s that WHAT still runs, so that a long build or boot is never
# minutes of silence; returns CMD's exit status.
with_heartbeat() {
	local what=$1 start=$SECONDS next=30 pid
	shift
	"$@" &
	pid=$!
	while kill -0 "$pid" 2> /dev/null; do
		sleep 1
		if [ $((SECONDS - start)) -ge $next ]; then
			say "$what: still running, $((SECONDS - start)) s"
			next=$((next + 30))
		fi
	done
	wait "$pid"
}

# One writer at a time in build/: take the build lock unless a parent
# (make test, make compare-test) already holds it for us.
build_lock() {
	[ -n "${NOTICK_LOCK_HELD:-}" ] && return 0
	mkdir -p "$BUILD"
	exec 9> "$BUILD/.lock"
	if ! flock -n 9; then
		say "waiting for another build in ${BUILD#"$TOP"/} to finish"
		flock 9 || die "cannot lock $BUILD/.lock"
	fi
	export NOTICK_LOCK_HELD=1
}

# config_stuck CONFIG FRAGMENT...: every option the fragments ask for (the
# last fragment that names it wins) is so in CONFIG after olddefconfig;
# an option absent from CONFIG is as good as "not set", and one asked
# set but absent is reported (not failed; CONFIG_QUIET_ABSENT=1: not even
# that; CONFIG_STRICT=1: failed).  Returns 1 when one did not stick.
config_stuck() {
	local config=$1 f l o bad=0
	shift
	local -A want=()
	for f in "$@"; do
		while IFS= read -r l; do
			case "$l" in
			CONFIG_*=*) want[${l%%=*}]=$l ;;
			"# CONFIG_"*" is not set") o=${l#\# }; want[${o%% *}]=$l ;;
			esac
		done < "$f"
	done
	for o in "${!want[@]}"; do
		l=${want[$o]}
		if ! grep -qE "^($o=|# $o is not set)" "$config"; then
			[ -n "${CONFIG_QUIET_ABSENT:-}" ] || [ "${l:0:1}" = "#" ] ||
				echo "config: $o is not in this configuration (dependencies off, or a series not applied)" >&2
			[ -n "${CONFIG_STRICT:-}" ] && [ "${l:0:1}" != "#" ] && bad=1
		elif [ "${l:0:1}" = "#" ]; then
			grep -q "^$o=" "$config" && { echo "config: $o is still set" >&2; bad=1; }
		elif ! grep -qxF "$l" "$config"; then
			echo "config: $l did not stick" >&2
			bad=1
		fi
	done
	return $bad
}

# Kernel messages that mean a guest's boot went wrong whatever its
# tests or measurements said (make test, make compare-test).
BAD_KMSG='WARNING:|BUG:|kernel BUG at|Oops|Kernel panic|general protection fault|Call Trace:|'\
'invalid opcode:|divide error:|int3:|stack segment:|double fault:|list_del corruption|'\
'possible circular locking|possible recursive locking|inconsistent lock state|'\
'DEBUG_LOCKS_WARN_ON|suspicious RCU usage|RCU used illegally|rcu: INFO:|detected stall|'\
'sleeping function called from invalid context|scheduling while atomic|'\
'turning off the locking correctness validator|hung_task|blocked for more than|soft lockup|hard LOCKUP|UBSAN|KASAN|refcount_t:|list_add corruption'

# How the guests' C programs are built (qemu/initramfs.sh, and
# tests/host/guest-programs.sh, which builds every one of them): static,
# warnings fatal; the UAPI headers of the patched tree come after the
# system's, so that only what the series add (e.g. linux/offsched.h) is
# taken from there; then the tree's tools headers, for the FTQ loops
# (tools/include/linux/offsched_ftq.h).
GUEST_CFLAGS=(-static -O2 -std=gnu11 -Wall -Wextra -Werror
	-idirafter "$TREE/include/uapi" -idirafter "$TREE/tools/include")
