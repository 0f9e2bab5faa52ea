// SPDX-License-Identifier: GPL-2.0-only
/*
 * notickctl - run a program, or convert a thread, as SCHED_NOTICK: the
 * thread owns one CPU and the scheduler tick stops while it runs alone.
 *
 * main() and the usage text, on top of the commands (run.c, pid.c,
 * show.c, status.c, unisolate.c); see notickctl.h for the floors below.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "notickctl.h"
#include "options.h"

static void __attribute__((noreturn)) usage(void)
{
	FILE *out = stdout;

	fputs("\nUsage:\n", out);
	fprintf(out,
		" %1$s [options] [--isolate] [--cpu <cpu>] [--] <program> [<argument>...]\n"
		" %1$s [--all-tasks | --isolate] [--cpu <cpu>] --pid <pid>\n"
		" %1$s [--all-tasks] --reset <pid>\n"
		" %1$s [--all-tasks] [--json] --show <pid>\n"
		" %1$s --unisolate [--force] --cpu <cpu>\n"
		" %1$s status [--json | --noheadings]\n",
		program_invocation_short_name);
	fputs("\nRun a program, or convert an existing thread, with the SCHED_NOTICK\n"
	      "policy: the thread owns one CPU and the scheduler tick stops while it\n"
	      "runs there alone.  Without --cpu the thread must already be allowed on\n"
	      "exactly one CPU (as set by taskset).\n", out);
	fputs("\nOptions:\n", out);
	fputs(" -c, --cpu <cpu>      pin to this CPU first (not CPU 0)\n", out);
	fputs(" -p, --pid <pid>      convert the existing thread <pid>\n", out);
	fputs("     --reset <pid>    return <pid> to SCHED_NORMAL\n", out);
	fputs("     --show <pid>     show the policy, affinity and CPU of <pid>\n", out);
	fputs(" -a, --all-tasks      with --pid, --reset or --show: all threads of <pid>\n", out);
	fputs(" -I, --isolate        first take the CPU out of the lockup watchdog's\n"
	      "                        mask and move device interrupts off it (kept\n"
	      "                        after admission, undone if admission fails)\n", out);
	fputs(" -u, --unisolate      undo what --isolate changed on the --cpu\n", out);
	fputs("     --force          with --unisolate and no record of --isolate: put\n"
	      "                        the CPU back into the watchdog and default masks\n", out);
	fputs("     --report         run the program as a child and report what\n"
	      "                        disturbed it on its CPU when it exits\n", out);
	fputs("     --noise          with --report: also trace each interruption (the\n"
	      "                        noise, its worst one); root, tracefs\n", out);
	fputs(" -J, --json           report, status or --show as JSON\n", out);
	fputs(" -O, --output <file>  write the report to <file> (default: stderr)\n", out);
	fputs(" -n, --noheadings     status: no grace period and column headings\n", out);
	fputs("\n -h, --help           display this help\n", out);
	fputs(" -V, --version        display version\n", out);
	fputs("\nCommands:\n", out);
	fputs(" status               show each CPU's SCHED_NOTICK thread, tick state,\n"
	      "                        counters, watchdog and device interrupts\n", out);
	fputs("\nExit status, running a program:\n", out);
	fputs("   N   the program's exit status (with --report: 128+N if it was\n"
	      "       killed by signal N)\n", out);
	fputs(" 125   notickctl failed (usage, CPU, permission, kernel support...)\n", out);
	fputs(" 126   program found but could not be executed\n", out);
	fputs(" 127   program not found\n", out);
	fputs("\nExit status, --pid, --reset, --show, --unisolate and status:\n", out);
	fputs("   0   success\n", out);
	fputs("   1   more than one allowed CPU, no record to undo, or another failure\n", out);
	fputs("   2   SCHED_NOTICK not supported by this kernel\n", out);
	fputs("   3   permission denied (CAP_SYS_NICE needed; root for --isolate)\n", out);
	fputs("   4   CPU busy: another SCHED_NOTICK thread owns it\n", out);
	fputs("   5   CPU offline, out of range, or CPU 0 (timekeeping CPU)\n", out);
	fputs("   6   no such process\n", out);
	fputs(" 125   usage error\n", out);
	fputs("\nSIGINT, SIGTERM, SIGHUP or SIGQUIT before the program starts undo\n"
	      "every change; with --report they are passed on to the program.\n", out);
	fputs("\nFor more details see notickctl(8).\n", out);
	exit(EXIT_SUCCESS);
}

int main(int argc, char **argv)
{
	struct nt_opts o;
	char msg[256];
	int rc;

	rc = nt_parse_options(argc, argv, &o, msg, sizeof(msg));
	if (rc) {
		warnx("%s", msg);
		fprintf(stderr, "Try '%s --help' for more information.\n",
			program_invocation_short_name);
		return rc;
	}
	switch (o.mode) {
	case NT_MODE_HELP:
		usage();
	case NT_MODE_VERSION:
		printf("%s %s\n", program_invocation_short_name,
		       NOTICKCTL_VERSION);
		rc = 0;
		break;
	case NT_MODE_STATUS:
		rc = nt_cmd_status(&o);
		break;
	case NT_MODE_SHOW:
		rc = nt_cmd_show(&o);
		break;
	case NT_MODE_PID:
		rc = nt_cmd_pid(&o);
		break;
	case NT_MODE_RESET:
		rc = nt_cmd_reset(&o);
		break;
	case NT_MODE_UNISOLATE:
		return nt_cmd_unisolate(&o);
	case NT_MODE_RUN:
		/* Both return the final status: the program's or 125-127. */
		return o.report ? nt_cmd_report(&o) : nt_cmd_run(&o);
	default:
		warnx("internal error: no mode");
		return NT_EXIT_OWN;
	}
	if (fflush(stdout) && !rc) {
		warn("write error");
		rc = NT_EXIT_FAILURE;
	}
	return rc;
}
