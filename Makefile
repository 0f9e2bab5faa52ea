# SPDX-License-Identifier: GPL-2.0
# notick: OFFSCHED and SCHED_NOTICK for Debian's linux-source-KVER, booted
# in QEMU.  README.md is the front page; docs/ the rest.
#
# KVER picks the base (6.1 by default): its series, patches/*/KVER/, and
# its build directory, build/KVER/ (trees, kernels, results).
#
#   make compare-test   the benchmark: offsched vs SCHED_NOTICK vs mainline
#   make publish-results  keep the last compare-test page under docs/results/
#                       and quote its headline in README.md
#   make test           every test: in-guest suites and host unit tests
#   make test SUITES="smoke offsched"   only those suites ("host" = unit tests)
#   make soak           the load suites for 10 min each (SOAK=seconds)
#   make shell          boot the test kernel to an interactive shell
#   make kernel         build the test kernel only
#   make check-patches  checkpatch --strict on every patch
#   make build-check    other configurations, and every step of the series
#   make docs           docs/sched-notick.rst and docs/offsched.rst from the patched tree
#   make deb            the notickctl Debian packages (build/KVER/deb/), lintian clean
#   make kernel-deb     Debian kernel packages of the series on Debian's own
#                       configuration (build/KVER/kernel-deb/; about an hour)
#   make clean          remove the base's build outputs but keep its extracted tree
#   make distclean      remove build/ entirely, every base's
#
# Every target installs (apt) and builds what it needs first.

SHELL := /bin/bash
# The default base is qemu/lib.sh's, the one place that names it
ifeq ($(origin KVER),undefined)
KVER := $(shell bash -c '. "$(CURDIR)/qemu/lib.sh" && echo $$KVER')
endif
BUILD := $(CURDIR)/build/$(KVER)
SUITES ?=
FLAVOUR ?= test
export BUILD KVER
export DURATION QUANTUM REPEATS CPUS CPU SCENARIOS GAP TIMER_EVENTS TIMER_QUANTUM \
	PKT_PACED PKT_RATE PKT_FLOOD

.PHONY: _deb all deps tree kernel kernel-compare notickctl initramfs \
	initramfs-compare test _test soak _soak shell compare-test _compare-test \
	publish-results \
	check-patches build-check docs deb kernel-deb clean distclean

all: initramfs

deps:
	@qemu/deps.sh

tree: deps
	@qemu/tree.sh

kernel: tree
	@qemu/kernel.sh test

# The compare kernel, and the same tree without the series (mainline's
# answer, nohz_full=, runs on it).
# The -icount-jump rows: both built with JUMP_LABEL=y, as distributions
# build them, only when SCENARIOS asks for those rows; notick-nocb-off's
# kernel (the series' without CONFIG_RCU_NOCB_CPU_DEFAULT_ALL) likewise.
kernel-compare: tree
	@qemu/kernel.sh compare
	@qemu/kernel.sh -m compare
	@case ",$${SCENARIOS:-}," in *icount-jump,*) \
		qemu/kernel.sh -x jump compare && qemu/kernel.sh -m -x jump compare ;; esac
	@case ",$${SCENARIOS:-}," in *,notick-nocb-off,*) qemu/kernel.sh -x nocb-off compare ;; esac

# Whole-kernel builds of the test configuration without SCHED_NOTICK,
# with run-time full dynticks but not its user, and without full dynticks
# at all: the series must build each way.  Then every step of each series
# with run-time full dynticks on (qemu/build-steps.sh; hours the first
# time, see build/KVER/steps/steps.log).  Not part of make test.
build-check: tree
	@qemu/kernel.sh -x notick-off test
	@qemu/kernel.sh -x dynamic-only test
	@qemu/kernel.sh -x nohz-off test
	@qemu/build-steps.sh

notickctl: deps
	@if [ -f tools/notickctl/Makefile ]; then \
		$(MAKE) -s -C tools/notickctl BUILD="$(BUILD)/notickctl" WERROR=1 all static; fi

initramfs: kernel notickctl
	@qemu/initramfs.sh test

initramfs-compare: kernel-compare notickctl
	@qemu/initramfs.sh compare

# One build at a time in build/KVER/: several make test runs in the same
# checkout wait for each other instead of racing in its linux/ and O=.
LOCKED = mkdir -p "$(BUILD)" && flock "$(BUILD)/.lock" env NOTICK_LOCK_HELD=1 \
	$(MAKE) --no-print-directory

# For the run's record (tests/provenance.py): its start, before anything
# is installed or built, the compiler cache's size (KiB), whether build/
# existed then and how many of the packages qemu/deps.sh installs were not.
START = export NOTICK_$(1)_STARTED=$$(date +%s) NOTICK_BUILD_AT_START=$$([ -d "$(BUILD)" ] && \
	echo present || echo absent) NOTICK_CACHE_AT_START=$$(du -sk "$${CCACHE_DIR:-$$HOME/.ccache}" \
	2> /dev/null | cut -f1) NOTICK_DEPS_AT_START=$$(qemu/deps.sh --missing); \
	NOTICK_CACHE_AT_START=$${NOTICK_CACHE_AT_START:-0} \
	NOTICK_HEAD_AT_START=$$(git rev-parse HEAD 2> /dev/null) \
	NOTICK_DIRTY_AT_START=$$(git status --porcelain --untracked-files=no 2> /dev/null | \
	grep -q . && echo yes || echo no)

test:
	+@$(call START,TEST); $(LOCKED) _test SUITES="$(SUITES)"

# The host tests need no kernel: "make test SUITES=host" builds none.
TEST_NEEDS := $(if $(filter-out host,$(SUITES)),initramfs,$(if $(SUITES),deps,initramfs))

# make test KASAN=1: the offsched and notick suites (or SUITES) on the test
# kernel built again with KASAN and UBSAN (qemu/config/kasan.config).
# make test KCSAN=1: the SCHED_NOTICK suites (or SUITES) on the test kernel
# built again with KCSAN (qemu/config/kcsan.config).
SAN_SUITES := $(if $(KASAN),-x kasan $(or $(SUITES),offsched notick),$(if \
	$(KCSAN),-x kcsan $(or $(SUITES),notick notick-paths notick-free),$(SUITES)))
_test: $(TEST_NEEDS)
	@tests/harness.sh -f test $(SAN_SUITES)

# make soak: the load suites (stress-ng beside a SCHED_NOTICK thread, then
# beside an OFFSCHED service), SOAK seconds of load each instead of the 60
# of make test.
SOAK ?= 600
soak:
	+@$(LOCKED) _soak SOAK="$(SOAK)"

_soak: initramfs
	@NOTICK_LOAD="$(SOAK)" tests/harness.sh -f test notick-load offsched-load

shell:
	+@$(LOCKED) initramfs
	@qemu/boot.sh -f test -t 0

compare-test:
	+@$(call START,COMPARE); $(LOCKED) _compare-test

_compare-test: initramfs-compare
	@tests/compare.sh

publish-results:
	@python3 tests/compare/publish.py "$(CURDIR)"

check-patches: tree
	@qemu/check-patches.sh

deb: deps
	+@$(LOCKED) _deb

_deb:
	@deploy/notickctl-deb.sh

kernel-deb: tree
	@deploy/kernel-deb.sh

docs: tree
	@deploy/render-docs.sh

clean:
	rm -rf "$(BUILD)"/test "$(BUILD)"/compare "$(BUILD)"/obj-* "$(BUILD)"/notickctl \
		"$(BUILD)"/initramfs-* "$(BUILD)"/linux "$(BUILD)"/linux.stamp \
		"$(BUILD)"/steps

distclean:
	rm -rf "$(CURDIR)/build"
