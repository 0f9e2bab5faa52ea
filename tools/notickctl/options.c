// SPDX-License-Identifier: GPL-2.0-only
/*
 * Command-line parsing for notickctl, kept free of side effects on the
 * system so that the host unit tests can exercise it.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "options.h"

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return NT_EXIT_OWN;
}

/* Long-only options have codes above any character. */
enum { OPT_RESET = 256, OPT_REPORT, OPT_SHOW, OPT_FORCE, OPT_NOISE };

static const struct option longopts[] = {
	{ "cpu",	required_argument, NULL, 'c' },
	{ "pid",	required_argument, NULL, 'p' },
	{ "reset",	required_argument, NULL, OPT_RESET },
	{ "show",	required_argument, NULL, OPT_SHOW },
	{ "all-tasks",	no_argument,       NULL, 'a' },
	{ "isolate",	no_argument,       NULL, 'I' },
	{ "unisolate",	no_argument,       NULL, 'u' },
	{ "force",	no_argument,       NULL, OPT_FORCE },
	{ "report",	no_argument,       NULL, OPT_REPORT },
	{ "noise",	no_argument,       NULL, OPT_NOISE },
	{ "json",	no_argument,       NULL, 'J' },
	{ "output",	required_argument, NULL, 'O' },
	{ "noheadings",	no_argument,       NULL, 'n' },
	{ "help",	no_argument,       NULL, 'h' },
	{ "version",	no_argument,       NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/*
 * "+" stops at the first non-option: the program or "status".  No short
 * option means something else than in chrt(1): its -r, -R, -o and -i
 * (SCHED_RR, reset-on-fork, SCHED_OTHER, SCHED_IDLE) are not ours.
 */
static const char shortopts[] = "+:c:p:aIuJnO:hV";

/* What chrt's short options would have been mistaken for here. */
static const char *chrt_hint(int c)
{
	switch (c) {
	case 'r':
		return " (chrt's SCHED_RR; notickctl has --reset)";
	case 'R':
		return " (chrt's --reset-on-fork; notickctl has --report)";
	case 'o':
		return " (chrt's SCHED_OTHER; notickctl has -O, --output)";
	case 'i':
		return " (chrt's SCHED_IDLE; notickctl has -I, --isolate)";
	default:
		return "";
	}
}

/* Name of the option that getopt_long() stopped on, for messages. */
static const char *optname(char **argv, int c)
{
	static char buf[8];
	const char *arg = argv[optind - 1];

	if (arg && arg[0] == '-' && arg[1] == '-')
		return arg;
	snprintf(buf, sizeof(buf), "-%c", c ? c : '?');
	return buf;
}

/* One getopt pass; *ended_by_dashdash tells whether "--" stopped it. */
static int parse_pass(int argc, char **argv, struct nt_opts *o,
		      int *seen_pid, int *unisolate, char *err, size_t errlen)
{
	long v;
	int c;

	optind = 0;	/* full re-initialisation (glibc) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (o->cpu >= 0)
				return fail(err, errlen, "--cpu given twice");
			if (nt_parse_uint(optarg, INT_MAX, &v))
				return fail(err, errlen,
					    "invalid CPU number: '%s'", optarg);
			o->cpu = (int)v;
			break;
		case 'p':
		case OPT_RESET:
		case OPT_SHOW:
			if (*seen_pid)
				return fail(err, errlen,
					    "only one of --pid, --reset and --show, once");
			if (nt_parse_uint(optarg, INT_MAX, &v) || v == 0)
				return fail(err, errlen,
					    "invalid PID: '%s'", optarg);
			*seen_pid = c;
			o->pid = (pid_t)v;
			break;
		case 'a':
			o->all_tasks = 1;
			break;
		case 'I':
			o->isolate = 1;
			break;
		case 'u':
			*unisolate = 1;
			break;
		case OPT_REPORT:
			o->report = 1;
			break;
		case OPT_NOISE:
			o->noise = 1;
			break;
		case 'J':
			o->json = 1;
			break;
		case 'n':
			o->noheadings = 1;
			break;
		case OPT_FORCE:
			o->force = 1;
			break;
		case 'O':
			if (!*optarg)
				return fail(err, errlen, "empty --output file name");
			o->output = optarg;
			break;
		case 'h':
			o->mode = NT_MODE_HELP;
			return 0;
		case 'V':
			o->mode = NT_MODE_VERSION;
			return 0;
		case ':':
			return fail(err, errlen, "option '%s' requires an argument",
				    optname(argv, optopt));
		default:
			if (optopt)
				return fail(err, errlen, "invalid option -- '%c'%s",
					    optopt, chrt_hint(optopt));
			return fail(err, errlen, "unrecognized option '%s'",
				    argv[optind - 1]);
		}
	}
	return 0;
}

int nt_parse_options(int argc, char **argv, struct nt_opts *o,
		     char *err, size_t errlen)
{
	int seen_pid = 0, unisolate = 0, rc, first;
	int dashdash;

	memset(o, 0, sizeof(*o));
	o->cpu = -1;
	if (errlen)
		err[0] = '\0';
	if (argc < 1)
		return fail(err, errlen, "no arguments");

	rc = parse_pass(argc, argv, o, &seen_pid, &unisolate, err, errlen);
	if (rc || o->mode == NT_MODE_HELP || o->mode == NT_MODE_VERSION)
		return rc;

	first = optind;
	dashdash = first > 1 && strcmp(argv[first - 1], "--") == 0;

	if (first < argc && !dashdash && strcmp(argv[first], "status") == 0) {
		/* "status [--json]": parse what follows "status". */
		struct nt_opts sub;
		int sub_seen = 0, sub_unisolate = 0;

		memset(&sub, 0, sizeof(sub));
		sub.cpu = -1;
		rc = parse_pass(argc - first, argv + first, &sub, &sub_seen,
				&sub_unisolate, err, errlen);
		if (rc)
			return rc;
		if (sub.mode == NT_MODE_HELP || sub.mode == NT_MODE_VERSION) {
			o->mode = sub.mode;
			return 0;
		}
		if (optind < argc - first)
			return fail(err, errlen,
				    "unexpected argument after status: '%s'",
				    argv[first + optind]);
		if (o->cpu >= 0 || sub.cpu >= 0 || seen_pid || sub_seen ||
		    o->all_tasks || sub.all_tasks || o->report || sub.report ||
		    o->output || sub.output || o->isolate || sub.isolate ||
		    unisolate || sub_unisolate || o->force || sub.force ||
		    o->noise || sub.noise)
			return fail(err, errlen,
				    "status accepts only --json and --noheadings");
		o->mode = NT_MODE_STATUS;
		o->json = o->json || sub.json;
		o->noheadings = o->noheadings || sub.noheadings;
		if (o->json && o->noheadings)
			return fail(err, errlen,
				    "--json and --noheadings exclude each other");
		return 0;
	}

	if (o->noheadings)
		return fail(err, errlen, "--noheadings applies only to status");
	if (o->noise && (!o->report || seen_pid || unisolate))
		return fail(err, errlen, "--noise applies only to --report");
	if (o->force && !unisolate)
		return fail(err, errlen, "--force applies only to --unisolate");

	if (unisolate) {
		if (o->isolate)
			return fail(err, errlen,
				    "--isolate and --unisolate exclude each other");
		if (first < argc)
			return fail(err, errlen,
				    "--unisolate takes no program: unexpected '%s'",
				    argv[first]);
		if (seen_pid || o->all_tasks || o->report || o->json ||
		    o->output)
			return fail(err, errlen,
				    "--unisolate accepts only --cpu and --force");
		if (o->cpu < 0)
			return fail(err, errlen, "--unisolate needs --cpu");
		o->mode = NT_MODE_UNISOLATE;
		return 0;
	}

	if (o->isolate && o->all_tasks)
		return fail(err, errlen,
			    "--isolate works on one CPU: not with --all-tasks");

	if (seen_pid == OPT_SHOW) {
		if (first < argc)
			return fail(err, errlen,
				    "--show takes no program: unexpected '%s'",
				    argv[first]);
		if (o->cpu >= 0 || o->isolate || o->report || o->output)
			return fail(err, errlen,
				    "--show accepts only --all-tasks and --json");
		o->mode = NT_MODE_SHOW;
		return 0;
	}

	if (seen_pid) {
		const char *name = seen_pid == 'p' ? "--pid" : "--reset";

		if (first < argc)
			return fail(err, errlen,
				    "%s takes no program: unexpected '%s'",
				    name, argv[first]);
		if (o->report || o->json || o->output)
			return fail(err, errlen,
				    "--report, --json and --output apply only when running a program");
		if (seen_pid == OPT_RESET && o->cpu >= 0)
			return fail(err, errlen, "--reset does not take --cpu");
		if (seen_pid == OPT_RESET && o->isolate)
			return fail(err, errlen,
				    "--reset does not take --isolate (see --unisolate)");
		o->mode = seen_pid == 'p' ? NT_MODE_PID : NT_MODE_RESET;
		return 0;
	}

	if (first >= argc)
		return fail(err, errlen, "no program given");
	if (o->all_tasks)
		return fail(err, errlen,
			    "--all-tasks applies only to --pid and --reset");
	if ((o->json || o->output) && !o->report)
		return fail(err, errlen,
			    "--json and --output need --report (or status, --show)");
	if (!argv[first][0])
		return fail(err, errlen, "empty program name");
	o->mode = NT_MODE_RUN;
	o->prog_argc = argc - first;
	o->prog_argv = argv + first;
	return 0;
}
