#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the test kernel at every step of the series: the pristine tree
# (step 0), then each prefix of patches/offsched/$KVER/series, then, with
# offsched whole, each prefix of patches/sched-notick/$KVER/series.  Every step
# is built with the test configuration plus qemu/config/steps.config,
# which turns NO_HZ_FULL_DYNAMIC on (SCHED_NOTICK, on in test.config, is
# on wherever the step has it).  Stops at the first step that does not
# build or whose build warns about anything the pristine tree's does not.
#   qemu/build-steps.sh [FIRST [LAST]]
# FIRST resumes at that step (after a fix), with the warnings of step 0
# kept from the run that built it; LAST stops after that step.  KBUILD_EXTRA_WARN=1 in the
# environment builds every step with W=1.
#
# One source tree, build/KVER/steps/linux, is brought to each step with rsync
# --checksum from a staging copy (hard links to the pristine tree, the
# next patch applied to it), as qemu/tree.sh does for build/KVER/linux, so
# that only the files a patch changes get a new mtime; one O= directory,
# build/KVER/obj-test-steps, is reused from step to step.  The configuration
# is made again only at steps that change a Kconfig file.  Each step's
# time and result go to build/KVER/steps/steps.log.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
build_lock
export LC_ALL=C

first=${1:-0}
last=${2:-}
[[ $first =~ ^[0-9]+$ && $last =~ ^[0-9]*$ ]] || die "usage: build-steps.sh [FIRST [LAST]]"

dir=$BUILD/steps
tree=$dir/linux
staging=$dir/staging
obj=$BUILD/obj-test-steps
base=$dir/warnings.base
log=$dir/steps.log
[ -f "$PRISTINE/Makefile" ] || die "no pristine tree (run qemu/tree.sh)"
mkdir -p "$dir"
[ "$first" = 0 ] || [ -f "$base" ] || die "no warnings of step 0 yet: start at step 0"

# Every step: "SERIES PATCH" (step 0, the pristine tree, has none).
steps=()
for d in $(series_dirs); do
	for p in $(series_patches "$d"); do
		steps+=("$(series_name "$d") $p")
	done
done
[ "$first" -le "${#steps[@]}" ] || die "there are only ${#steps[@]} steps after step 0"
last=${last:-${#steps[@]}}
[ "$first" -le "$last" ] && [ "$last" -le "${#steps[@]}" ] ||
	die "LAST must lie between FIRST and ${#steps[@]}"

# The warnings of a build log, without the tree's path and line numbers,
# so that they compare from one step to the next.
warnings() {
	grep -E 'warning:|WARNING:' "$1" |
		sed -E 's#^([.][.]/)*([^ :]*/)?steps/linux/##; s#:[0-9]+(:[0-9]+)?:#:#' |
		sort -u || true
}

# Configure again only when Kconfig changed: the stamp kernel.sh reads.
kconfig_id() {
	(cd "$tree" && find . -name 'Kconfig*' -type f -print0 | sort -z |
		xargs -0 sha256sum) | sha256sum | cut -d' ' -f1
}

rm -rf "$staging"
cp -al "$PRISTINE" "$staging"
trap 'rm -rf "$staging"' EXIT
start=$SECONDS
say "building $((last + 1 - first)) step(s) of the series into ${obj#"$TOP"/}"
[ "$first" = 0 ] && : > "$log"
for ((i = 0; i <= last; i++)); do
	what="pristine tree"
	if [ $i -gt 0 ]; then
		read -r series p <<< "${steps[i - 1]}"
		what="$series ${p##*/}"
		if ! out=$(patch -d "$staging" -p1 -F0 -N -s --no-backup-if-mismatch < "$p" 2>&1); then
			printf '%s\n' "$out" >&2
			die "step $i: $what does not apply"
		fi
	fi
	[ $i -lt "$first" ] && continue

	t0=$SECONDS
	if [ -d "$tree" ]; then
		rsync -rlc --delete "$staging/" "$tree/"
	else
		cp -a "$staging" "$tree"
	fi
	kconfig_id > "$tree.stamp"
	say "step $i/${#steps[@]}: $what"
	# Step 0's warnings are the reference: every file compiled, none
	# left from an earlier (interrupted) run whose warnings would be
	# missing from this build's log.
	[ $i = 0 ] && rm -rf "$obj"
	if ! "$TOP/qemu/kernel.sh" -t "$tree" -x steps test; then
		echo "step $i: $what: does not build" >> "$log"
		die "step $i ($what) does not build; log: ${obj#"$TOP"/}/build.log"
	fi
	if [ $i = 0 ]; then
		warnings "$obj/build.log" > "$base"
	else
		new=$(warnings "$obj/build.log" | comm -23 - "$base")
		if [ -n "$new" ]; then
			printf '%s\n' "$new" >&2
			echo "step $i: $what: new warnings" >> "$log"
			die "step $i ($what) adds compiler warnings; log: ${obj#"$TOP"/}/build.log"
		fi
	fi
	echo "step $i: $what: built in $((SECONDS - t0)) s" >> "$log"
done
echo "steps $first-$last: all $((last + 1 - first)) built in $((SECONDS - start)) s" >> "$log"
say "steps $first-$last build without new warnings ($((SECONDS - start)) s); ${log#"$TOP"/}"
