# SPDX-License-Identifier: GPL-2.0
# The running kernel's version, for the guest suites (busybox sh).
# kernel_at_least M N: the running kernel is version M.N or later
kernel_at_least() {
	set -- "$1" "$2" "$(uname -r)"
	maj=${3%%.*} min=${3#*.} min=${min%%[!0-9]*}
	[ "$maj" -gt "$1" ] || { [ "$maj" = "$1" ] && [ "$min" -ge "$2" ]; }
}
