#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The notick suite on a CPU that invokes its own RCU callbacks.
# The test kernels offload every CPU's callbacks to rcuo kthreads
# (CONFIG_RCU_NOCB_CPU_DEFAULT_ALL); this suite boots with rcu_nocbs=0, which
# offloads CPU 0 only, so that CPU 1 keeps its callbacks: the case of a
# kernel built without that option.  rcu_nocbs= selects where callbacks run;
# it does not make any CPU tickless.
EXPECT_RCU=local
cd ../notick && . ./run.sh
