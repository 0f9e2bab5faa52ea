// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host unit tests for notickctl: option parsing, CPU lists, /proc
 * parsing and report/status formatting.  Prints TAP; exits 1 on failure.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters.h"
#include "cpulist.h"
#include "format.h"
#include "isolate.h"
#include "json.h"
#include "noise.h"
#include "notickctl.h"
#include "options.h"
#include "report.h"
#include "sysinfo.h"

static int tests_run, tests_failed;

/* Does the string @s begin with the literal @lit? */
#define STARTS(s, lit) (strncmp((s), (lit), sizeof(lit) - 1) == 0)

static void __attribute__((format(printf, 2, 3)))
ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tests_run++;
	if (!cond)
		tests_failed++;
	printf("%s %d - ", cond ? "ok" : "not ok", tests_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* ---- option parsing ---- */

#define MAXARGS 16

/* Parse a NULL-terminated list of arguments (argv[0] is added). */
static int parse(struct nt_opts *o, char *err, ...)
{
	static char *argv[MAXARGS + 2];
	static char store[MAXARGS + 1][64];
	va_list ap;
	const char *a;
	int argc = 0;

	strcpy(store[0], "notickctl");
	argv[argc] = store[argc];
	argc++;
	va_start(ap, err);
	while ((a = va_arg(ap, const char *)) && argc <= MAXARGS) {
		snprintf(store[argc], sizeof(store[argc]), "%s", a);
		argv[argc] = store[argc];
		argc++;
	}
	va_end(ap);
	argv[argc] = NULL;
	return nt_parse_options(argc, argv, o, err, 256);
}

static void test_options(void)
{
	struct nt_opts o;
	char err[256];
	long v;
	int rc;

	rc = parse(&o, err, "--cpu", "3", "--", "./app", "a", "b", NULL);
	ok(rc == 0 && o.mode == NT_MODE_RUN && o.cpu == 3 &&
	   o.prog_argc == 3 && !strcmp(o.prog_argv[0], "./app") &&
	   !strcmp(o.prog_argv[2], "b") && o.prog_argv[3] == NULL &&
	   !o.report, "options: --cpu 3 -- ./app a b");

	rc = parse(&o, err, "-c", "2", "app", "-x", "--cpu", "1", NULL);
	ok(rc == 0 && o.mode == NT_MODE_RUN && o.cpu == 2 &&
	   o.prog_argc == 4 && !strcmp(o.prog_argv[1], "-x"),
	   "options: options after the program belong to the program");

	rc = parse(&o, err, "app", NULL);
	ok(rc == 0 && o.mode == NT_MODE_RUN && o.cpu == -1,
	   "options: no --cpu leaves cpu unset (-1)");

	rc = parse(&o, err, "--pid", "123", "--cpu", "2", NULL);
	ok(rc == 0 && o.mode == NT_MODE_PID && o.pid == 123 && o.cpu == 2 &&
	   !o.all_tasks, "options: --pid 123 --cpu 2");

	rc = parse(&o, err, "-a", "-p", "77", NULL);
	ok(rc == 0 && o.mode == NT_MODE_PID && o.pid == 77 && o.all_tasks,
	   "options: -a -p 77");

	rc = parse(&o, err, "--reset", "5", NULL);
	ok(rc == 0 && o.mode == NT_MODE_RESET && o.pid == 5,
	   "options: --reset 5");

	rc = parse(&o, err, "--all-tasks", "--reset", "5", NULL);
	ok(rc == 0 && o.mode == NT_MODE_RESET && o.all_tasks,
	   "options: --all-tasks --reset");

	rc = parse(&o, err, "--reset", "5", "--cpu", "1", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "--reset does not take --cpu"),
	   "options: --reset with --cpu is refused (%s)", err);

	rc = parse(&o, err, "--pid", "1", "--reset", "2", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "--pid, --reset and --show"),
	   "options: --pid with --reset is refused (%s)", err);

	rc = parse(&o, err, "--cpu", "abc", "app", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "invalid CPU number: 'abc'"),
	   "options: --cpu abc is refused (%s)", err);

	rc = parse(&o, err, "--cpu", "-1", "app", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "invalid CPU"),
	   "options: --cpu -1 is refused");

	rc = parse(&o, err, "--cpu", "", "app", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "invalid CPU"),
	   "options: empty --cpu is refused");

	rc = parse(&o, err, "--cpu", "99999999999999999999", "app", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "invalid CPU"),
	   "options: --cpu overflow is refused");

	rc = parse(&o, err, "--cpu", "1", "--cpu", "2", "app", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "twice"),
	   "options: --cpu twice is refused");

	rc = parse(&o, err, "--pid", "0", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "invalid PID: '0'"),
	   "options: --pid 0 is refused");

	rc = parse(&o, err, "--pid", "12x", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "invalid PID"),
	   "options: --pid 12x is refused");

	rc = parse(&o, err, "--pid", "5", "app", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "takes no program"),
	   "options: --pid with a program is refused");

	rc = parse(&o, err, "--pid", "5", "--report", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "only when running a program"),
	   "options: --pid with --report is refused");

	rc = parse(&o, err, "status", NULL);
	ok(rc == 0 && o.mode == NT_MODE_STATUS && !o.json,
	   "options: status");

	rc = parse(&o, err, "status", "--json", NULL);
	ok(rc == 0 && o.mode == NT_MODE_STATUS && o.json,
	   "options: status --json");

	rc = parse(&o, err, "-J", "status", NULL);
	ok(rc == 0 && o.mode == NT_MODE_STATUS && o.json,
	   "options: -J status (util-linux's -J, --json)");

	rc = parse(&o, err, "status", "-n", NULL);
	ok(rc == 0 && o.mode == NT_MODE_STATUS && o.noheadings,
	   "options: status -n (util-linux's -n, --noheadings)");

	rc = parse(&o, err, "-j", "status", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "invalid option -- 'j'"),
	   "options: -j is not an option any more (%s)", err);

	rc = parse(&o, err, "--show", "42", NULL);
	ok(rc == 0 && o.mode == NT_MODE_SHOW && o.pid == 42 && !o.json,
	   "options: --show 42");

	rc = parse(&o, err, "-a", "-J", "--show", "42", NULL);
	ok(rc == 0 && o.mode == NT_MODE_SHOW && o.all_tasks && o.json,
	   "options: -a -J --show 42");

	rc = parse(&o, err, "--show", "42", "--cpu", "1", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "--show accepts only"),
	   "options: --show with --cpu is refused (%s)", err);

	rc = parse(&o, err, "--show", "42", "--pid", "42", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "only one of --pid, --reset and --show"),
	   "options: --show with --pid is refused (%s)", err);

	rc = parse(&o, err, "--report", "--noise", "--cpu", "1", "app", NULL);
	ok(rc == 0 && o.mode == NT_MODE_RUN && o.report && o.noise,
	   "options: --report --noise");

	rc = parse(&o, err, "--noise", "--cpu", "1", "app", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "--noise applies only to --report"),
	   "options: --noise without --report is refused (%s)", err);

	rc = parse(&o, err, "--unisolate", "--force", "--cpu", "1", NULL);
	ok(rc == 0 && o.mode == NT_MODE_UNISOLATE && o.force,
	   "options: --unisolate --force --cpu 1");

	rc = parse(&o, err, "--force", "--cpu", "1", "app", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "--force applies only to --unisolate"),
	   "options: --force without --unisolate is refused (%s)", err);

	rc = parse(&o, err, "--", "status", NULL);
	ok(rc == 0 && o.mode == NT_MODE_RUN && !strcmp(o.prog_argv[0], "status"),
	   "options: -- status runs a program called status");

	rc = parse(&o, err, "status", "--cpu", "1", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "status accepts only --json"),
	   "options: status --cpu is refused");

	rc = parse(&o, err, "status", "extra", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "unexpected argument"),
	   "options: status extra is refused");

	rc = parse(&o, err, NULL);
	ok(rc == NT_EXIT_OWN && !strcmp(err, "no program given"),
	   "options: no arguments is a usage error");

	rc = parse(&o, err, "--cpu", "1", NULL);
	ok(rc == NT_EXIT_OWN && !strcmp(err, "no program given"),
	   "options: --cpu without a program is a usage error");

	rc = parse(&o, err, "--json", "app", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "need --report"),
	   "options: --json without --report is refused");

	rc = parse(&o, err, "--report", "--json", "-O", "out.json", "app",
		   NULL);
	ok(rc == 0 && o.mode == NT_MODE_RUN && o.report && o.json &&
	   o.output && !strcmp(o.output, "out.json"),
	   "options: --report --json -O out.json app");

	rc = parse(&o, err, "--all-tasks", "app", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "--all-tasks applies only"),
	   "options: --all-tasks with a program is refused");

	rc = parse(&o, err, "--bogus", NULL);
	ok(rc == NT_EXIT_OWN &&
	   !strcmp(err, "unrecognized option '--bogus'"),
	   "options: unknown long option (%s)", err);

	rc = parse(&o, err, "-x", "app", NULL);
	ok(rc == NT_EXIT_OWN && !strcmp(err, "invalid option -- 'x'"),
	   "options: unknown short option (%s)", err);

	rc = parse(&o, err, "app", "--cpu", NULL);
	ok(rc == 0, "options: a trailing option of the program is not ours");

	rc = parse(&o, err, "--cpu", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "requires an argument"),
	   "options: --cpu without value (%s)", err);

	rc = parse(&o, err, "-c", NULL);
	ok(rc == NT_EXIT_OWN && !strcmp(err, "option '-c' requires an argument"),
	   "options: -c without value (%s)", err);

	rc = parse(&o, err, "--help", "--bogus", NULL);
	ok(rc == 0 && o.mode == NT_MODE_HELP, "options: --help");

	rc = parse(&o, err, "-V", NULL);
	ok(rc == 0 && o.mode == NT_MODE_VERSION, "options: -V");

	rc = parse(&o, err, "status", "-h", NULL);
	ok(rc == 0 && o.mode == NT_MODE_HELP, "options: status -h is help");

	rc = parse(&o, err, "--isolate", "--cpu", "1", "--", "app", NULL);
	ok(rc == 0 && o.mode == NT_MODE_RUN && o.isolate && o.cpu == 1,
	   "options: --isolate --cpu 1 -- app");

	rc = parse(&o, err, "-I", "-p", "42", NULL);
	ok(rc == 0 && o.mode == NT_MODE_PID && o.isolate && o.pid == 42,
	   "options: -I -p 42");

	/* chrt's -r, -R, -o and -i mean something else: not ours. */
	rc = parse(&o, err, "-r", "5", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "invalid option -- 'r'") &&
	   strstr(err, "SCHED_RR") && strstr(err, "--reset"),
	   "options: -r refused, chrt's SCHED_RR named (%s)", err);
	rc = parse(&o, err, "-R", "app", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "'R'") && strstr(err, "--report"),
	   "options: -R refused (%s)", err);
	rc = parse(&o, err, "--report", "-o", "f", "app", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "'o'") && strstr(err, "-O, --output"),
	   "options: -o refused (%s)", err);
	rc = parse(&o, err, "-i", "-c", "1", "app", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "'i'") && strstr(err, "-I, --isolate"),
	   "options: -i refused (%s)", err);

	rc = parse(&o, err, "status", "--noheadings", NULL);
	ok(rc == 0 && o.mode == NT_MODE_STATUS && o.noheadings && !o.json,
	   "options: status --noheadings");
	rc = parse(&o, err, "status", "--noheadings", "--json", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "exclude each other"),
	   "options: status --noheadings --json refused (%s)", err);
	rc = parse(&o, err, "--noheadings", "--cpu", "1", "app", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "only to status"),
	   "options: --noheadings with a program refused (%s)", err);

	rc = parse(&o, err, "--unisolate", "--cpu", "3", NULL);
	ok(rc == 0 && o.mode == NT_MODE_UNISOLATE && o.cpu == 3 && !o.isolate,
	   "options: --unisolate --cpu 3");

	rc = parse(&o, err, "-u", NULL);
	ok(rc == NT_EXIT_OWN && !strcmp(err, "--unisolate needs --cpu"),
	   "options: --unisolate without --cpu is refused (%s)", err);

	rc = parse(&o, err, "-u", "-c", "1", "app", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "--unisolate takes no program"),
	   "options: --unisolate with a program is refused (%s)", err);

	rc = parse(&o, err, "-u", "-c", "1", "--pid", "5", NULL);
	ok(rc == NT_EXIT_OWN && !strcmp(err, "--unisolate accepts only --cpu and --force"),
	   "options: --unisolate with --pid is refused (%s)", err);

	rc = parse(&o, err, "-u", "-I", "-c", "1", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "exclude each other"),
	   "options: --isolate with --unisolate is refused (%s)", err);

	rc = parse(&o, err, "--isolate", "--all-tasks", "--pid", "5", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "not with --all-tasks"),
	   "options: --isolate --all-tasks is refused (%s)", err);

	rc = parse(&o, err, "--isolate", "--reset", "5", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "--reset does not take --isolate"),
	   "options: --isolate --reset is refused (%s)", err);

	rc = parse(&o, err, "status", "--isolate", NULL);
	ok(rc == NT_EXIT_OWN && strstr(err, "status accepts only --json"),
	   "options: status --isolate is refused");

	rc = parse(&o, err, "--isolate", NULL);
	ok(rc == NT_EXIT_OWN && !strcmp(err, "no program given"),
	   "options: --isolate alone is a usage error");

	rc = parse(&o, err, "--", "--isolate", NULL);
	ok(rc == 0 && o.mode == NT_MODE_RUN && !o.isolate &&
	   !strcmp(o.prog_argv[0], "--isolate"),
	   "options: -- --isolate runs a program called --isolate");

	/* getopt state must not leak from one call into the next. */
	parse(&o, err, "-c", "1", "x", NULL);
	rc = parse(&o, err, "-c", "4", "y", NULL);
	ok(rc == 0 && o.cpu == 4 && !strcmp(o.prog_argv[0], "y"),
	   "options: repeated parsing starts afresh");

	ok(nt_parse_uint("007", 100, &v) == 0 && v == 7,
	   "parse_uint: leading zeros");
	ok(nt_parse_uint("101", 100, &v) == -1, "parse_uint: above max");
	ok(nt_parse_uint("+1", 100, &v) == -1 && nt_parse_uint(" 1", 100, &v) == -1,
	   "parse_uint: sign and blanks refused");
}

/* ---- CPU lists ---- */

static void test_cpulist(void)
{
	cpu_set_t *s = cpuset_alloc();
	char buf[64], small[8];
	size_t sz = cpuset_size();
	int i, okay;

	ok(cpulist_parse("0-3,5\n", s) == 0 && cpuset_count(s) == 5 &&
	   CPU_ISSET_S(3, sz, s) && !CPU_ISSET_S(4, sz, s) &&
	   CPU_ISSET_S(5, sz, s), "cpulist: 0-3,5 with newline");
	ok(cpulist_parse("7", s) == 0 && cpuset_count(s) == 1 &&
	   cpuset_first(s) == 7, "cpulist: single CPU");
	ok(cpulist_parse("", s) == 0 && cpuset_count(s) == 0 &&
	   cpuset_first(s) == -1, "cpulist: empty list");
	ok(cpulist_parse("\n", s) == 0 && cpuset_count(s) == 0,
	   "cpulist: newline only");
	ok(cpulist_parse("8191", s) == 0 && cpuset_first(s) == 8191,
	   "cpulist: highest CPU");
	okay = 1;
	{
		static const char *const bad[] = {
			"3-1", "1,,2", "a", "1-", "-1", "1 2", "1,", "8192",
			"0-8192", "1\n2", "99999999999999999999",
		};

		for (i = 0; i < (int)(sizeof(bad) / sizeof(bad[0])); i++) {
			CPU_SET_S(1, sz, s);
			if (cpulist_parse(bad[i], s) != -1 ||
			    cpuset_count(s) != 0) {
				diag("accepted bad list '%s'", bad[i]);
				okay = 0;
			}
		}
	}
	ok(okay, "cpulist: malformed lists are refused and leave the set empty");

	cpulist_parse("0,1,2,3,5,7,8", s);
	ok(!strcmp(cpulist_format(s, buf, sizeof(buf)), "0-3,5,7-8"),
	   "cpulist: format ranges (%s)", buf);
	CPU_ZERO_S(sz, s);
	ok(!strcmp(cpulist_format(s, buf, sizeof(buf)), ""),
	   "cpulist: format empty");
	cpulist_parse("1,3,5,7,9,11,13", s);
	cpulist_format(s, small, sizeof(small));
	ok(strlen(small) == sizeof(small) - 1 &&
	   !strcmp(small + strlen(small) - 3, "..."),
	   "cpulist: truncated format ends with ... (%s)", small);
	okay = 1;
	for (i = 0; i < 40; i++) {
		char in[16], out[64];

		snprintf(in, sizeof(in), "%d-%d", i, i + i % 5);
		cpulist_parse(in, s);
		cpulist_format(s, out, sizeof(out));
		if (i % 5 == 0 ? atoi(out) != i || strchr(out, '-') :
		    strcmp(in, out))
			okay = 0;
	}
	ok(okay, "cpulist: parse/format round trip");
	cpuset_free(s);
}

/* ---- /proc parsing and reports ---- */

static const char interrupts_before[] =
	"           CPU0       CPU1       \n"
	"  0:         44          0   IO-APIC   2-edge      timer\n"
	"  4:          3        120   IO-APIC   4-edge      ttyS0\n"
	"NMI:          0          0   Non-maskable interrupts\n"
	"LOC:      25000       2500   Local timer interrupts\n"
	"RES:         10          7   Rescheduling interrupts\n"
	"CAL:          5 4294967290   Function call interrupts\n"
	"ERR:          0\n"
	"MIS:          0\n";

static const char interrupts_after[] =
	"           CPU0       CPU1       \n"
	"  0:         44          0   IO-APIC   2-edge      timer\n"
	"  4:          3        125   IO-APIC   4-edge      ttyS0\n"
	"NMI:          0          0   Non-maskable interrupts\n"
	"LOC:      26000       2503   Local timer interrupts\n"
	"RES:         10          9   Rescheduling interrupts\n"
	"CAL:          5          4   Function call interrupts\n"
	"TLB:          0          1   TLB shootdowns\n"
	"ERR:          0\n"
	"MIS:          0\n";

static const char softirqs_before[] =
	"                    CPU0       CPU1       \n"
	"          HI:          0          0\n"
	"       TIMER:        100         10\n"
	"      NET_RX:          1          0\n"
	"         RCU:        300         30\n";

static const char softirqs_after[] =
	"                    CPU0       CPU1       \n"
	"          HI:          0          0\n"
	"       TIMER:        200         11\n"
	"      NET_RX:          1          0\n"
	"         RCU:        400         33\n";

static const struct nt_counter *find(const struct nt_counters *c,
				     const char *name)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].name, name))
			return &c->v[i];
	return NULL;
}

static unsigned long long val(const struct nt_counters *c, const char *name)
{
	const struct nt_counter *x = find(c, name);

	return x ? x->value : ~0ULL;
}

static char *capture_report(const struct nt_report *r, int json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (json)
		nt_report_print_json(f, r);
	else
		nt_report_print_text(f, r);
	fclose(f);
	return buf;
}

static void test_proc_parsing(void)
{
	struct nt_counters b = { 0 }, a = { 0 }, d = { 0 };
	unsigned long long v1 = 0, v2 = 0;
	int rc;

	rc = nt_parse_interrupts(interrupts_before, 1, &b);
	ok(rc == 0 && b.n == 6,
	   "interrupts: parses per-CPU lines, skips ERR and MIS (n=%zu)", b.n);
	ok(val(&b, "LOC") == 2500 && val(&b, "4") == 120 &&
	   val(&b, "CAL") == 4294967290ULL, "interrupts: CPU1 column values");
	ok(find(&b, "0") && !strcmp(find(&b, "0")->desc, "IO-APIC 2-edge timer"),
	   "interrupts: description with blanks collapsed");
	ok(find(&b, "ERR") == NULL && find(&b, "MIS") == NULL,
	   "interrupts: ERR and MIS are not per-CPU");
	nt_counters_free(&b);

	ok(nt_parse_interrupts(interrupts_before, 0, &b) == 0 &&
	   val(&b, "LOC") == 25000, "interrupts: CPU0 column");
	nt_counters_free(&b);

	ok(nt_parse_interrupts(interrupts_before, 2, &b) == -1 && b.n == 0,
	   "interrupts: CPU without a column is an error");

	ok(nt_parse_interrupts("      CPU0       CPU2\n"
			       "LOC:    5     9   Local timer interrupts\n",
			       2, &b) == 0 && val(&b, "LOC") == 9,
	   "interrupts: column found by name when a CPU is offline");
	nt_counters_free(&b);

	ok(nt_parse_interrupts("      CPU0       CPU1\n"
			       "LOC    5     9   Local timer interrupts\n",
			       1, &b) == -1,
	   "interrupts: line without colon is malformed");
	ok(nt_parse_interrupts("garbage\nLOC: 1 2\n", 1, &b) == -1,
	   "interrupts: bad header is malformed");
	ok(nt_parse_interrupts(NULL, 1, &b) == -1, "interrupts: NULL text");

	nt_parse_interrupts(interrupts_before, 1, &b);
	nt_parse_interrupts(interrupts_after, 1, &a);
	ok(nt_counters_diff(&b, &a, &d) == 0 && d.n == 7 &&
	   val(&d, "LOC") == 3 && val(&d, "4") == 5 && val(&d, "RES") == 2 &&
	   val(&d, "0") == 0 && val(&d, "TLB") == 1,
	   "diff: deltas matched by name, new source counts from 0");
	ok(val(&d, "CAL") == 10, "diff: 32-bit wrap-around (CAL=%llu)",
	   val(&d, "CAL"));
	nt_counters_free(&a);
	nt_counters_free(&b);
	nt_counters_free(&d);

	ok(nt_parse_softirqs(softirqs_before, 1, &b) == 0 && b.n == 4 &&
	   val(&b, "RCU") == 30 && !strcmp(find(&b, "RCU")->desc, ""),
	   "softirqs: parse CPU1 column");
	nt_parse_softirqs(softirqs_after, 1, &a);
	ok(nt_counters_diff(&b, &a, &d) == 0 && val(&d, "TIMER") == 1 &&
	   val(&d, "RCU") == 3 && val(&d, "HI") == 0,
	   "softirqs: deltas");
	nt_counters_free(&a);
	nt_counters_free(&b);
	nt_counters_free(&d);

	ok(nt_parse_ctxt_switches("Name:\tapp\nvoluntary_ctxt_switches:\t12\n"
				  "nonvoluntary_ctxt_switches:\t3\n",
				  &v1, &v2) == 0 && v1 == 12 && v2 == 3,
	   "status: context switches");
	ok(nt_parse_ctxt_switches("Name:\tapp\nvoluntary_ctxt_switches:\t12\n",
				  &v1, &v2) == -1,
	   "status: missing field is an error");
	ok(nt_parse_ctxt_switches("xvoluntary_ctxt_switches:\t1\n"
				  "nonvoluntary_ctxt_switches:\t3\n", &v1,
				  &v2) == -1,
	   "status: field names must match at line start");
}

static char *report_argv[] = { "./sp\"in", "\xff-x", NULL };

static void make_report(struct nt_report *r)
{
	struct nt_counters b, a;

	memset(r, 0, sizeof(*r));
	r->pid = 4242;
	r->cpu = 1;
	r->program = "./sp\"in";
	r->exited = 1;
	r->status = 3;
	r->elapsed_ns = 2500000123LL;
	r->user_us = 2400000;
	r->system_us = 1500;
	r->vol_cs = 2;
	r->invol_cs = 1;
	nt_parse_interrupts(interrupts_before, 1, &b);
	nt_parse_interrupts(interrupts_after, 1, &a);
	nt_counters_diff(&b, &a, &r->irqs);
	nt_counters_free(&a);
	nt_counters_free(&b);
	nt_parse_softirqs(softirqs_before, 1, &b);
	nt_parse_softirqs(softirqs_after, 1, &a);
	nt_counters_diff(&b, &a, &r->softirqs);
	nt_counters_free(&a);
	nt_counters_free(&b);
	r->have_notick = 1;
	r->tick_stops = 4;
	r->tick_restarts = 3;
	r->yields = 1;
	r->argv = report_argv;
	r->noise.asked = 1;
	r->noise.measured = 1;
	r->noise.total_us = 57;
	r->noise.worst_us = 40;
	r->noise.count = 3;
	r->noise.irq_us = 12;
	r->noise.softirq_us = 5;
	r->noise.thread_us = 40;
}

/* nt_json_string(@in) is @want */
static int json_is(const char *in, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int same;

	nt_json_string(f, in);
	fclose(f);
	same = !strcmp(buf, want);
	if (!same)
		diag("json of '%s': %s, want %s", in ? in : "(null)", buf, want);
	free(buf);
	return same;
}

static void test_json_utf8(void)
{
	ok(json_is("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
		   "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\""),
	   "json: valid 2, 3 and 4-byte UTF-8 passes through");
	ok(json_is("a\xff" "b\xfe", "\"a\\ufffdb\\ufffd\""),
	   "json: bytes 0xff and 0xfe become \\ufffd each");
	ok(json_is("\xc3", "\"\\ufffd\"") && json_is("x\xe2\x82", "\"x\\ufffd\\ufffd\""),
	   "json: a truncated sequence: one \\ufffd per byte");
	ok(json_is("\xc0\xaf", "\"\\ufffd\\ufffd\"") &&
	   json_is("\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\""),
	   "json: overlong forms are not UTF-8");
	ok(json_is("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"") &&
	   json_is("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""),
	   "json: surrogates and code points above U+10FFFF are not UTF-8");
	ok(json_is("\x80x", "\"\\ufffdx\""), "json: a lone continuation byte");
	ok(json_is("del\x7f", "\"del\\u007f\"") && json_is(NULL, "null"),
	   "json: DEL escaped; NULL prints null");
}

static void test_report_format(void)
{
	struct nt_report r;
	char *t;

	make_report(&r);
	ok(nt_report_loc(&r) == 3, "report: LOC delta");

	t = capture_report(&r, 0);
	ok(t && strstr(t, "report for PID 4242 (./sp\"in) on CPU 1"),
	   "text report: header");
	ok(t && strstr(t, "  exit status                  3\n"),
	   "text report: exit status");
	ok(t && strstr(t, "  elapsed                      2.500000 s\n") &&
	   strstr(t, "  user time                    2.400000 s\n") &&
	   strstr(t, "  system time                  0.001500 s\n"),
	   "text report: times");
	ok(t && strstr(t, "  voluntary ctxt switches      2\n") &&
	   strstr(t, "  nonvoluntary ctxt switches   1\n"),
	   "text report: context switches");
	ok(t && strstr(t, "  local timer interrupts (LOC) 3\n"),
	   "text report: local timer line");
	ok(t && strstr(t, "  other interrupts             18\n") &&
	   strstr(t, "    4                 5  IO-APIC 4-edge ttyS0\n") &&
	   strstr(t, "    CAL              10  Function call interrupts\n") &&
	   strstr(t, "    TLB               1  TLB shootdowns\n"),
	   "text report: other interrupts by name");
	ok(t && !strstr(t, "    NMI ") && !strstr(t, "    0 ") &&
	   !strstr(t, "    LOC "),
	   "text report: zero sources and LOC not listed among others");
	ok(t && strstr(t, "  softirqs                     4\n") &&
	   strstr(t, "    TIMER             1\n") &&
	   strstr(t, "    RCU               3\n") && !strstr(t, "    HI "),
	   "text report: softirqs by type");
	ok(t && strstr(t, "  tick stops                   4\n") &&
	   strstr(t, "  tick restarts                3\n") &&
	   strstr(t, "  yields                       1\n"),
	   "text report: notick counters");
	free(t);

	r.exited = 0;
	r.status = 9;
	r.have_notick = 0;
	t = capture_report(&r, 0);
	ok(t && strstr(t, "  killed by signal             9 (Killed)\n") &&
	   !strstr(t, "exit status") && !strstr(t, "tick stops"),
	   "text report: killed by signal, no notick counters");
	free(t);

	nt_counters_free(&r.irqs);
	nt_counters_free(&r.softirqs);
	make_report(&r);
	t = capture_report(&r, 1);
	ok(t && STARTS(t, "{\n  \"schema_version\": 2,\n  \"pid\": 4242,") && strstr(t, "\"pid\": 4242,\n  \"cpu\": 1,\n"
			  "  \"program\": \"./sp\\\"in\",\n"
			  "  \"argv\": [\"./sp\\\"in\", \"\\ufffd-x\"],\n"
			  "  \"exit_status\": 3,\n  \"signal\": null,\n"),
	   "json report: identity, escaping and exit status");
	ok(t && strstr(t, "\"elapsed_ns\": 2500000123,\n") &&
	   strstr(t, "\"user_us\": 2400000,\n") &&
	   strstr(t, "\"system_us\": 1500,\n"),
	   "json report: times");
	ok(t && strstr(t, "\"voluntary_ctxt_switches\": 2,\n") &&
	   strstr(t, "\"nonvoluntary_ctxt_switches\": 1,\n") &&
	   strstr(t, "\"local_timer_interrupts\": 3,\n") &&
	   strstr(t, "\"other_interrupts\": 18,\n") &&
	   strstr(t, "\"softirqs_total\": 4,\n"),
	   "json report: totals");
	ok(t && strstr(t, "{\"name\": \"4\", \"description\": \"IO-APIC 4-edge ttyS0\", \"count\": 5}") &&
	   strstr(t, "{\"name\": \"NMI\", \"description\": \"Non-maskable interrupts\", \"count\": 0}") &&
	   strstr(t, "{\"name\": \"RCU\", \"count\": 3}"),
	   "json report: every source listed, zeros included");
	ok(t && strstr(t, "\"notick\": {\"tick_stops\": 4, \"tick_restarts\": 3, \"yields\": 1}\n}\n"),
	   "json report: notick counters and closing brace");
	ok(t && strstr(t, ",\n  \"cpu_percent\": 96.1,\n") &&
	   strstr(t, ",\n  \"noise\": {\"total_us\": 57, \"worst_us\": 40, \"count\": 3, \"irq_us\": 12, \"softirq_us\": 5, \"thread_us\": 40},\n  \"noise_unavailable\": null,\n"),
	   "json report: cpu_percent (2.4015 s of 2.5 s) and the noise");
	free(t);
	r.noise.measured = 0;
	snprintf(r.noise.why, sizeof(r.noise.why), "no tracefs");
	r.elapsed_ns = 0;
	t = capture_report(&r, 1);
	ok(t && strstr(t, "\"cpu_percent\": null,\n  \"noise\": null,\n  \"noise_unavailable\": \"no tracefs\",\n"),
	   "json report: no elapsed time and no trace give nulls and the reason");
	free(t);
	t = capture_report(&r, 0);
	ok(t && strstr(t, "  noise                        not measured: no tracefs\n") &&
	   !strstr(t, "CPU time / elapsed"),
	   "text report: noise asked for, not measured, and why");
	free(t);
	r.noise.asked = 0;
	t = capture_report(&r, 0);
	ok(t && !strstr(t, "noise"),
	   "text report: no noise line when --noise was not given");
	free(t);
	nt_counters_free(&r.irqs);
	nt_counters_free(&r.softirqs);
	make_report(&r);
	t = capture_report(&r, 0);
	ok(t && strstr(t, "  CPU time / elapsed           96.1 %\n") &&
	   strstr(t, "  noise                        57 us in 3 interruptions\n") &&
	   strstr(t, "  worst interruption           40 us\n") &&
	   strstr(t, "    irq              12 us\n") &&
	   strstr(t, "    softirq           5 us\n") &&
	   strstr(t, "    thread           40 us\n"),
	   "text report: CPU share, noise total, worst and by kind");
	r.exited = 0;
	r.status = 15;
	r.have_notick = 0;
	t = capture_report(&r, 1);
	ok(t && strstr(t, "\"exit_status\": null,\n  \"signal\": 15,") &&
	   strstr(t, "\"notick\": null\n}"),
	   "json report: signal and missing notick counters");
	free(t);
	nt_counters_free(&r.irqs);
	nt_counters_free(&r.softirqs);

	{
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		nt_json_string(f, "a\\b\n\x01\"");
		fclose(f);
		ok(!strcmp(buf, "\"a\\\\b\\n\\u0001\\\"\""),
		   "json: string escaping (%s)", buf);
		free(buf);
	}
	test_json_utf8();
}

static void test_status_format(void)
{
	struct nt_status_row rows[2];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	memset(rows, 0, sizeof(rows));
	rows[0].cpu = 0;
	rows[0].online = 1;
	rows[0].nt.pid = -1;
	rows[1].cpu = 1;
	rows[1].online = 1;
	rows[1].nt.present = 1;
	rows[1].nt.pid = 321;
	strcpy(rows[1].nt.tick, "stopped");
	rows[1].nt.have_counters = 1;
	rows[1].nt.tick_stops = 5;
	rows[1].nt.tick_restarts = 4;
	rows[1].nt.yields = 2;
	strcpy(rows[1].comm, "spin");
	rows[0].watchdog = 1;
	rows[0].irqs = 7;
	rows[1].watchdog = 0;
	rows[1].irqs = 0;

	f = open_memstream(&buf, &len);
	nt_status_print_text(f, 10000, 1, 1, rows, 2);
	fclose(f);
	ok(strstr(buf, "grace period: 10000 us\n") &&
	   strstr(buf, "   1 yes    stopped       321 spin                        5             4            2 no           0\n") &&
	   strstr(buf, "   0 yes    -               - -                           -             -            - yes          7\n"),
	   "status text: rows");
	free(buf);

	rows[0].watchdog = -1;
	rows[0].irqs = -1;
	f = open_memstream(&buf, &len);
	nt_status_print_text(f, 10000, 1, 1, rows, 1);
	fclose(f);
	ok(strstr(buf, " WATCHDOG  IRQS\n") &&
	   strstr(buf, "            - -            -\n"),
	   "status text: watchdog and IRQs unknown");
	free(buf);

	f = open_memstream(&buf, &len);
	nt_status_print_json(f, -1, 1, rows, 2);
	fclose(f);
	ok(STARTS(buf, "{\n  \"schema_version\": 2,\n  \"grace_us\": -1,") &&
	   strstr(buf, "{\"cpu\": 1, \"online\": true, \"pid\": 321, \"command\": \"spin\", \"tick\": \"stopped\", \"tick_stops\": 5, \"tick_restarts\": 4, \"yields\": 2, \"watchdog\": false, \"irqs\": 0}") &&
	   strstr(buf, "\"yields\": null, \"watchdog\": null, \"irqs\": null}") &&
	   strstr(buf, "{\"cpu\": 0, \"online\": true, \"pid\": null, \"command\": null, \"tick\": null, \"tick_stops\": null"),
	   "status json: rows");
	free(buf);

	f = open_memstream(&buf, &len);
	nt_status_print_text(f, -1, 1, 1, rows, 0);
	fclose(f);
	ok(strstr(buf, "never yield") != NULL, "status text: grace -1");
	free(buf);

	rows[0].watchdog = 1;
	rows[0].irqs = 7;
	f = open_memstream(&buf, &len);
	nt_status_print_text(f, 10000, 1, 0, rows, 2);
	fclose(f);
	ok(!strcmp(buf, "   0 yes    -               - -                           -             -            - yes          7\n"
			"   1 yes    stopped       321 spin                        5             4            2 no           0\n"),
	   "status text without headings: the rows only");
	free(buf);
}

/* ---- isolate.c: masks and the new affinity of an IRQ ---- */

static int set_is(const cpu_set_t *set, const char *list)
{
	char buf[256];

	return !strcmp(cpulist_format(set, buf, sizeof(buf)), list);
}

static void test_isolate_units(void)
{
	cpu_set_t *a = cpuset_alloc(), *b = cpuset_alloc(), *on = cpuset_alloc();
	char buf[4096];

	ok(nt_mask_parse("3\n", a) == 0 && set_is(a, "0-1"), "mask: 3 is 0-1");
	ok(nt_mask_parse("f0", a) == 0 && set_is(a, "4-7"), "mask: f0 is 4-7");
	ok(nt_mask_parse("1,00000000", a) == 0 && set_is(a, "32"),
	   "mask: 1,00000000 is CPU 32");
	ok(nt_mask_parse("00000001,80000000", a) == 0 && set_is(a, "31-32"),
	   "mask: 00000001,80000000 is 31-32");
	ok(nt_mask_parse("ABC", a) == 0 && set_is(a, "2-5,7,9,11"),
	   "mask: upper-case digits");
	ok(nt_mask_parse("0", a) == 0 && set_is(a, ""), "mask: 0 is empty");
	ok(nt_mask_parse("", a) == -1 && nt_mask_parse("\n", a) == -1 &&
	   nt_mask_parse("xy", a) == -1 && nt_mask_parse("1,", a) == -1 &&
	   nt_mask_parse(",1", a) == -1 && nt_mask_parse("123456789", a) == -1 &&
	   nt_mask_parse("1 2", a) == -1,
	   "mask: syntax errors refused");
	/* 8192 CPUs = 256 groups; one more group is beyond NT_MAX_CPUS. */
	memset(buf, 0, sizeof(buf));
	strcpy(buf, "1");
	{
		int g;

		for (g = 0; g < 256; g++)
			strcat(buf, ",00000000");
	}
	ok(nt_mask_parse(buf, a) == -1, "mask: CPU 8192 refused");

	cpulist_parse("0,2-3", a);
	ok(!strcmp(nt_mask_format(a, 1, buf, sizeof(buf)), "d"),
	   "mask format: 0,2-3 is d");
	ok(!strcmp(nt_mask_format(a, 2, buf, sizeof(buf)), "0d"),
	   "mask format: keeps the kernel's width (0d)");
	cpulist_parse("0,33", a);
	ok(!strcmp(nt_mask_format(a, 9, buf, sizeof(buf)),
		   "2,00000001"),
	   "mask format: groups of 8 digits (%s)", buf);
	cpulist_parse("", a);
	ok(!strcmp(nt_mask_format(a, 1, buf, sizeof(buf)), "0"),
	   "mask format: empty set is 0");
	cpulist_parse("0-1", a);
	ok(!strcmp(nt_mask_format(a, 1, buf, 2), "3") &&
	   !strcmp(nt_mask_format(a, 1, buf, 1), "") &&
	   !strcmp(nt_mask_format(a, 9, buf, 10), ""),
	   "mask format: exact fit, and too small a buffer gives \"\"");
	ok(nt_mask_digits("00000001,80000000\n") == 16, "mask: digit count");

	cpulist_parse("0-3", on);
	cpulist_parse("0-3", a);
	ok(nt_irq_new_affinity(a, 1, on, b) == 1 && set_is(b, "0,2-3"),
	   "irq affinity: 0-3 without CPU 1 is 0,2-3");
	cpulist_parse("1", a);
	ok(nt_irq_new_affinity(a, 1, on, b) == 1 && set_is(b, "0,2-3"),
	   "irq affinity: only CPU 1 goes to the housekeeping CPUs");
	cpulist_parse("2-3", a);
	ok(nt_irq_new_affinity(a, 1, on, b) == 0,
	   "irq affinity: without CPU 1 nothing to do");
	cpulist_parse("0-2", on);
	cpulist_parse("1,3", a);
	ok(nt_irq_new_affinity(a, 1, on, b) == 1 && set_is(b, "0,2"),
	   "irq affinity: 1,3 with CPU 3 offline goes to the housekeeping CPUs");
	cpulist_parse("1-2", a);
	ok(nt_irq_new_affinity(a, 1, on, b) == 1 && set_is(b, "2"),
	   "irq affinity: 1-2 keeps online CPU 2");

	cpuset_free(a);
	cpuset_free(b);
	cpuset_free(on);
}

/* A per-CPU trace of PID 77 on CPU 1, in tracefs' text format. */
static const char trace_text[] =
	"# tracer: nop\n"
	"#\n"
	"# entries-in-buffer/entries-written: 14/14   #P:2\n"
	"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	"          <idle>-0       [001] d.h1.   100.000010: local_timer_entry: vector=236\n"
	"          <idle>-0       [001] d.h1.   100.000015: local_timer_exit: vector=236\n"
	"          <idle>-0       [001] d..2.   100.000100: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=sp in] [001] x prev_pid=5 next_pid=77 next_prio=0\n"
	"    sp in] [0-77      [001] d.h1.   100.001000: local_timer_entry: vector=236\n"
	"    sp in] [0-77      [001] d.h1.   100.001004: local_timer_exit: vector=236\n"
	"    sp in] [0-77      [001] ..s1.   100.001004: softirq_entry: vec=1 [action=TIMER]\n"
	"    sp in] [0-77      [001] d.h2.   100.001006: call_function_entry: vector=251\n"
	"    sp in] [0-77      [001] d.h2.   100.001008: call_function_exit: vector=251\n"
	"    sp in] [0-77      [001] ..s1.   100.001010: softirq_exit: vec=1 [action=TIMER]\n"
	"    sp in] [0-77      [001] d..2.   100.002000: sched_switch: prev_comm=sp in prev_pid=77 prev_prio=0 prev_state=R+ ==> next_comm=kworker/1:1 next_pid=30 next_prio=120\n"
	"     kworker/1:1-30      [001] d..2.   100.002040: sched_switch: prev_comm=kworker/1:1 prev_pid=30 prev_prio=120 prev_state=I ==> next_comm=sp in next_pid=77 next_prio=0\n"
	"    sp in] [0-77      [001] d..2.   100.003000: sched_switch: prev_comm=sp in prev_pid=77 prev_prio=0 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
	"          <idle>-0       [001] d.h1.   100.004000: local_timer_entry: vector=236\n"
	"          <idle>-0       [001] d.h1.   100.004100: local_timer_exit: vector=236\n";

static void test_noise(void)
{
	struct nt_noise n;
	int rc;

	rc = nt_noise_parse(trace_text, 77, &n);
	ok(rc == 0 && n.measured, "noise: a trace with PID 77's switches parses");
	ok(n.count == 2 && n.total_us == 50 && n.worst_us == 40,
	   "noise: 2 interruptions, 10 us (irq, softirq, IPI nested) + 40 us preempted = 50, worst 40 (%llu, %llu, %llu)",
	   n.count, n.total_us, n.worst_us);
	ok(n.irq_us == 4 && n.softirq_us == 6 && n.thread_us == 40,
	   "noise: by kind: irq 4, softirq 6 (with its nested IPI), thread 40 (%llu %llu %llu)",
	   n.irq_us, n.softirq_us, n.thread_us);
	rc = nt_noise_parse(trace_text, 78, &n);
	ok(rc == -1 && !n.measured,
	   "noise: no switch of the PID in the trace: not measured");
	rc = nt_noise_parse("    sp-77 [001] d..2.   1.000000: sched_switch: prev_comm=a prev_pid=5 prev_prio=1 prev_state=S ==> next_comm=sp next_pid=77 next_prio=0\n"
			    "    sp-77 [001] d.h1.   1.000500: local_timer_entry: vector=236\n", 77, &n);
	ok(rc == 0 && n.count == 1 && n.total_us == 0,
	   "noise: an interruption cut off by the end of the trace counts to its last event");
}

static void test_show_format(void)
{
	struct nt_thread_info t[2];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	memset(t, 0, sizeof(t));
	t[0].tid = 10;
	strcpy(t[0].comm, "spin");
	t[0].policy = SCHED_NOTICK;
	strcpy(t[0].affinity, "1");
	t[0].notick_cpu = 1;
	strcpy(t[0].tick, "stopped");
	t[1].tid = 11;
	strcpy(t[1].comm, "w\xff");
	t[1].policy = 1;
	t[1].priority = 10;
	strcpy(t[1].affinity, "0-1");
	t[1].notick_cpu = -1;
	f = open_memstream(&buf, &len);
	nt_show_print_text(f, t, 2);
	fclose(f);
	ok(!strcmp(buf, "pid 10's current scheduling policy: SCHED_NOTICK\n"
			"pid 10's current nice value: 0\n"
			"pid 10's current affinity list: 1\n"
			"pid 10 owns CPU 1, tick stopped\n"
			"pid 11's current scheduling policy: SCHED_FIFO\n"
			"pid 11's current scheduling priority: 10\n"
			"pid 11's current affinity list: 0-1\n"),
	   "show text: chrt -p's lines, and the CPU owned");
	free(buf);
	f = open_memstream(&buf, &len);
	nt_show_print_json(f, t, 2);
	fclose(f);
	ok(STARTS(buf, "{\n  \"schema_version\": 2,\n  \"threads\": [\n") &&
	   strstr(buf, "{\"pid\": 10, \"command\": \"spin\", \"policy\": \"SCHED_NOTICK\", \"policy_number\": 8, \"priority\": 0, \"nice\": 0, \"affinity\": \"1\", \"notick_cpu\": 1, \"tick\": \"stopped\"}") &&
	   strstr(buf, "{\"pid\": 11, \"command\": \"w\\ufffd\", \"policy\": \"SCHED_FIFO\", \"policy_number\": 1, \"priority\": 10, \"nice\": 0, \"affinity\": \"0-1\", \"notick_cpu\": null, \"tick\": null}"),
	   "show json: every key, nulls, a non-UTF-8 command escaped");
	free(buf);
	ok(!strcmp(nt_policy_name(4), "unknown") && !strcmp(nt_policy_name(7), "unknown") &&
	   !strcmp(nt_policy_name(6), "SCHED_DEADLINE") && !strcmp(nt_policy_name(99), "unknown"),
	   "policy names: 4 and 7 unknown, 6 SCHED_DEADLINE");
}

static void test_exit_codes(void)
{
	ok(nt_errno_exit(EPERM) == NT_EXIT_PERM &&
	   nt_errno_exit(EACCES) == NT_EXIT_PERM &&
	   nt_errno_exit(EROFS) == NT_EXIT_PERM,
	   "errno mapping: EPERM, EACCES, EROFS are permission denied (3)");
	ok(nt_errno_exit(ESRCH) == NT_EXIT_NOPROC &&
	   nt_errno_exit(EBUSY) == NT_EXIT_BUSY &&
	   nt_errno_exit(EINVAL) == NT_EXIT_CPU &&
	   nt_errno_exit(EIO) == NT_EXIT_FAILURE &&
	   nt_errno_exit(ENOMEM) == NT_EXIT_FAILURE,
	   "errno mapping: ESRCH 6, EBUSY 4, EINVAL 5, others 1");
	ok(nt_exit_status(NT_EXIT_BUSY, 0) == NT_EXIT_BUSY &&
	   nt_exit_status(NT_EXIT_FAILURE, 0) == NT_EXIT_FAILURE &&
	   nt_exit_status(0, 0) == 0,
	   "exit status without a program: the code itself");
	ok(nt_exit_status(NT_EXIT_FAILURE, 1) == 125 &&
	   nt_exit_status(NT_EXIT_NOPROC, 1) == 125 &&
	   nt_exit_status(NT_EXIT_BUSY, 1) == 125 &&
	   nt_exit_status(NT_EXIT_NOEXEC, 1) == 126 &&
	   nt_exit_status(NT_EXIT_NOTFOUND, 1) == 127 &&
	   nt_exit_status(NT_EXIT_OWN, 1) == 125,
	   "exit status running a program: 1-6 become 125; 125-127 stay");
}

/* The running kernel's own files, when this machine has them. */
static void test_real_proc(void)
{
	struct nt_counters c = { 0 };
	char *text;
	int rc;

	text = nt_read_file("/proc/interrupts");
	if (text && strstr(text, "LOC:")) {
		rc = nt_parse_interrupts(text, 0, &c);
		ok(rc == 0 && find(&c, "LOC") && c.n > 1,
		   "real /proc/interrupts: CPU0 column parsed, LOC found (%zu sources)",
		   c.n);
		nt_counters_free(&c);
	} else {
		printf("ok %d - real /proc/interrupts # SKIP no LOC line here\n",
		       ++tests_run);
	}
	free(text);

	text = nt_read_file("/proc/softirqs");
	if (text) {
		rc = nt_parse_softirqs(text, 0, &c);
		ok(rc == 0 && find(&c, "TIMER") && find(&c, "RCU"),
		   "real /proc/softirqs: CPU0 column parsed, TIMER and RCU found");
		nt_counters_free(&c);
	} else {
		printf("ok %d - real /proc/softirqs # SKIP not readable\n",
		       ++tests_run);
	}
	free(text);
}

/*
 * The plan comes first and is fixed: a test that silently did not run
 * shows as a short run (tests/tap-merge.sh).  Add a test, raise it.
 */
#define TESTS_PLANNED 165

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("1..%d\n", TESTS_PLANNED);
	test_options();
	test_cpulist();
	test_proc_parsing();
	test_report_format();
	test_status_format();
	test_show_format();
	test_noise();
	test_isolate_units();
	test_exit_codes();
	test_real_proc();
	if (tests_run != TESTS_PLANNED)
		diag("planned %d tests, ran %d", TESTS_PLANNED, tests_run);
	if (tests_failed)
		diag("%d of %d tests failed", tests_failed, tests_run);
	return tests_failed || tests_run != TESTS_PLANNED ? 1 : 0;
}
