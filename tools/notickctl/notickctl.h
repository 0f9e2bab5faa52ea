/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * notickctl - run or convert a thread as SCHED_NOTICK
 *
 * The header every command includes, beside notickctl.c (main() and the
 * usage).  The program is built in floors; a file calls only into the
 * floors below its own, never up (tests/layers.sh checks the objects):
 *
 *   notickctl.c                            main(), usage, dispatch
 *   run.c pid.c status.c show.c unisolate.c   the commands, one each
 *   options.c convert.c                    parsing; converting a thread
 *   isolate.c report.c noise.c             housekeeping; output; tracing
 *   sysinfo.c json.c                       /proc and /sys; JSON strings
 *   cpulist.c                              numbers, CPU lists and masks
 *
 * Each helper has its own header; this one holds what every floor
 * shares (exit codes, limits) and the commands' interface.
 */
#ifndef NOTICKCTL_H
#define NOTICKCTL_H

#include <sys/types.h>

#ifndef NOTICKCTL_VERSION
#define NOTICKCTL_VERSION "0.3"
#endif

#ifndef SCHED_NOTICK
#define SCHED_NOTICK 8
#endif

/*
 * Exit codes, documented in usage() and notickctl(8).  Codes 1-6 are the
 * commands without a program (--pid, --reset, --unisolate, --show,
 * status); when notickctl runs a program, each of them becomes
 * NT_EXIT_OWN, so that the caller can tell notickctl's failures from the
 * program's status, as with env(1), nice(1) and timeout(1).
 * nt_exit_status() maps them.
 */
enum nt_exit {
	NT_EXIT_OK = 0,
	NT_EXIT_FAILURE = 1,	/* other failure */
	NT_EXIT_UNSUPPORTED = 2,	/* kernel without SCHED_NOTICK */
	NT_EXIT_PERM = 3,	/* permission denied */
	NT_EXIT_BUSY = 4,	/* CPU already has a SCHED_NOTICK thread */
	NT_EXIT_CPU = 5,	/* CPU offline, out of range or CPU 0 */
	NT_EXIT_NOPROC = 6,	/* no such process or thread */
	NT_EXIT_OWN = 125,	/* usage error; notickctl failed to run a program */
	NT_EXIT_NOEXEC = 126,	/* program found but not executable */
	NT_EXIT_NOTFOUND = 127,	/* program not found */
};

/* Version of the --json output's layout ("schema_version"). */
#define NT_JSON_SCHEMA 2

/* Largest CPU number + 1 the tool handles. */
#define NT_MAX_CPUS 8192

enum nt_mode {
	NT_MODE_NONE = 0,
	NT_MODE_RUN,		/* run a program */
	NT_MODE_PID,		/* convert an existing thread */
	NT_MODE_RESET,		/* return a thread to SCHED_NORMAL */
	NT_MODE_SHOW,		/* show one thread's policy and CPU */
	NT_MODE_STATUS,		/* print per-CPU state */
	NT_MODE_UNISOLATE,	/* give a CPU back its watchdog and IRQs */
	NT_MODE_HELP,
	NT_MODE_VERSION,
};

struct nt_opts {
	enum nt_mode mode;
	int cpu;		/* -1 when --cpu was not given */
	pid_t pid;		/* --pid, --reset or --show argument */
	int all_tasks;
	int isolate;		/* --isolate: housekeeping before admission */
	int force;		/* --unisolate --force: without a record */
	int report;
	int noise;		/* --report --noise: trace the noise */
	int json;
	int noheadings;		/* status --noheadings */
	const char *output;	/* --output file, NULL for stderr */
	int prog_argc;
	char **prog_argv;	/* points into argv, NULL-terminated */
};

/*
 * The commands.  nt_cmd_run() and nt_cmd_report() return the final exit
 * status (the program's, or 125-127); the others a code of enum nt_exit.
 */
int nt_cmd_run(const struct nt_opts *o);	/* run.c */
int nt_cmd_report(const struct nt_opts *o);	/* run.c */
int nt_cmd_pid(const struct nt_opts *o);	/* pid.c */
int nt_cmd_reset(const struct nt_opts *o);	/* pid.c */
int nt_cmd_show(const struct nt_opts *o);	/* show.c */
int nt_cmd_status(const struct nt_opts *o);	/* status.c */
int nt_cmd_unisolate(const struct nt_opts *o);	/* unisolate.c */

#endif
