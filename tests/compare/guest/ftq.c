// SPDX-License-Identifier: GPL-2.0
/*
 * ftq - Fixed Time Quantum and Fixed Work Quantum noise probe, user space.
 *
 * The FTQ and FWQ loops, and the probe that records the gaps in the FTQ
 * loop, are those of <linux/offsched_ftq.h>, the header the OFFSCHED ftq
 * service compiles too, so every scenario runs the very same code on the
 * very same clock: a bare RDTSC.  The probe checks on every clock read how
 * long it was since the previous one, and records each gap above a
 * threshold with its start and end on the TSC, so that lost time can be
 * matched against the kernel's trace events (recorded with the x86-tsc
 * trace clock).
 *
 * Output (stdout, one record per line):
 *   # key=value ...            run parameters and TSC calibration
 *   S <count>                  one FTQ sample (work units in one quantum)
 *   G <start_tsc> <end_tsc>    one gap in the loop above the threshold
 *   W <cycles>                 one FWQ repetition (cycles for fixed work)
 *   R key=value ...            rusage of the run
 * With --syscalls N, only:
 *   C <ns>                     ns per getppid() call, one line per batch
 * With --steps N, only:
 *   P <address>                of the flag that ends the getppid() loop
 * With --timer N, only:
 *   # timer period_us=... wakeups=N
 *   L <ns>                     how late one periodic wakeup was
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <x86intrin.h>

#include <linux/offsched_ftq.h>

/* The raw clock of the probe and of FWQ, as in the kernel's ftq service. */
static uint64_t tsc(void *ctx)
{
	(void)ctx;
	return __rdtsc();
}

/*
 * --gettime: each read of the probe's clock is a clock_gettime() (the
 * vDSO's: no system call) and then the TSC read that the analysis matches
 * with the trace, so that a work unit also runs the kernel's user-space
 * clock code and reads its data page.
 */
static uint64_t gettime_sink;

static uint64_t gettime_tsc(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	gettime_sink += (uint64_t)ts.tv_nsec;
	return __rdtsc();
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Write to each page (a volatile store: calloc'ed memory is not touched). */
static void prefault(void *buf, size_t len)
{
	volatile char *c = buf;

	for (size_t i = 0; i < len; i += 4096)
		c[i] = 0;
}

static void __attribute__((noreturn)) usage(FILE *out, int status)
{
	fprintf(out,
		"Usage: ftq [options]\n"
		"  -q, --quantum-us N   FTQ quantum in microseconds (default 1000)\n"
		"  -n, --samples N      number of FTQ quanta (default 10000)\n"
		"  -g, --gap-ns N       record loop gaps longer than N ns (default 2000)\n"
		"  -w, --fwq-work N     FWQ work units per repetition (default 100000)\n"
		"  -r, --fwq-reps N     FWQ repetitions after the FTQ run (default 1000)\n"
		"  -G, --gettime        a clock_gettime() in every FTQ work unit\n"
		"  -s, --syscalls N     instead: time N batches of 50000 getppid() calls\n"
		"  -t, --steps N        instead: call getppid() until a debugger sets the\n"
		"                       flag whose address is printed, for at most N s\n"
		"  -T, --timer N        instead: wake up every quantum for N quanta of\n"
		"                       time (clock_nanosleep, TIMER_ABSTIME) and print\n"
		"                       how late each wakeup was\n"
		"  -h, --help           this text\n");
	exit(status);
}

static unsigned long parse_num(const char *s, const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || !v) {
		fprintf(stderr, "ftq: invalid %s: '%s'\n", what, s);
		exit(EXIT_FAILURE);
	}
	return v;
}

/* Calibrate the TSC against CLOCK_MONOTONIC_RAW over about 100 ms. */
static double tsc_hz_estimate(void)
{
	uint64_t t0 = mono_ns(), c0 = __rdtsc(), t1, c1;

	do {
		t1 = mono_ns();
	} while (t1 - t0 < 100000000ull);
	c1 = __rdtsc();
	return (double)(c1 - c0) * 1e9 / (double)(t1 - t0);
}

/*
 * The cost of a system call: batches of getppid(), the cheapest real one
 * (entry, a trivial handler, exit), so that what differs between kernels
 * is the entry and exit work, such as context tracking.
 */
static int syscall_cost(unsigned long batches)
{
	const unsigned long calls = 50000;

	for (unsigned long b = 0; b < batches; b++) {
		uint64_t t0 = mono_ns();

		for (unsigned long i = 0; i < calls; i++)
			syscall(SYS_getppid);
		printf("C %.1f\n", (double)(mono_ns() - t0) / (double)calls);
	}
	return EXIT_SUCCESS;
}

/*
 * getppid() in a loop for the host to single-step through QEMU's gdb stub
 * (compare-test's steps scenarios). The host counts the instructions of a
 * few calls, then ends the loop by writing the flag in this process's
 * memory; a host that never does so gets a failure after max_s seconds.
 */
static volatile int steps_stop;

static int syscall_steps(unsigned long max_s)
{
	uint64_t t0 = mono_ns();

	printf("P %p\n", (void *)&steps_stop);
	fflush(stdout);
	while (!steps_stop) {
		for (int i = 0; i < 1000; i++)
			syscall(SYS_getppid);
		if (mono_ns() - t0 > max_s * 1000000000ull) {
			fprintf(stderr, "ftq: --steps: not stopped within %lu s\n", max_s);
			return EXIT_FAILURE;
		}
	}
	return EXIT_SUCCESS;
}

static int64_t ts_ns(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000 + t->tv_nsec;
}

static void ts_add_ns(struct timespec *t, long ns)
{
	t->tv_nsec += ns;
	while (t->tv_nsec >= 1000000000L) {
		t->tv_nsec -= 1000000000L;
		t->tv_sec++;
	}
}

/*
 * A timer-driven task, as on the housekeeping CPU of a partitioned node:
 * an absolute periodic wakeup every quantum for N quanta of time, each
 * wakeup's lateness printed after the run. A wakeup later than the next
 * period skips the periods it missed (overruns, counted), as cyclictest
 * does, so that one delay is not charged to every later wakeup.
 */
static int timer_latency(unsigned long period_us, unsigned long n)
{
	const long period_ns = (long)period_us * 1000;
	struct timespec next, now;
	int64_t *late = calloc(n, sizeof(*late)), t_end;
	unsigned long i, done = 0, overruns = 0;
	int err;

	if (!late) {
		perror("ftq: calloc");
		return EXIT_FAILURE;
	}
	prefault(late, n * sizeof(*late));
	clock_gettime(CLOCK_MONOTONIC, &next);
	t_end = ts_ns(&next) + (int64_t)n * period_ns;
	ts_add_ns(&next, period_ns);
	while (ts_ns(&next) <= t_end) {
		do
			err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		while (err == EINTR);
		if (err) {
			fprintf(stderr, "ftq: clock_nanosleep: %s\n", strerror(err));
			return EXIT_FAILURE;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		late[done++] = ts_ns(&now) - ts_ns(&next);
		ts_add_ns(&next, period_ns);
		while (ts_ns(&next) <= ts_ns(&now)) {
			ts_add_ns(&next, period_ns);
			overruns++;
		}
	}
	printf("# timer period_us=%lu wakeups=%lu overruns=%lu\n", period_us, done,
	       overruns);
	for (i = 0; i < done; i++)
		printf("L %" PRId64 "\n", late[i]);
	free(late);
	return EXIT_SUCCESS;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "quantum-us", required_argument, NULL, 'q' },
		{ "samples", required_argument, NULL, 'n' },
		{ "gap-ns", required_argument, NULL, 'g' },
		{ "fwq-work", required_argument, NULL, 'w' },
		{ "fwq-reps", required_argument, NULL, 'r' },
		{ "syscalls", required_argument, NULL, 's' },
		{ "steps", required_argument, NULL, 't' },
		{ "timer", required_argument, NULL, 'T' },
		{ "gettime", no_argument, NULL, 'G' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned long quantum_us = 1000, samples = 10000, gap_ns = 2000;
	unsigned long fwq_work = 100000, fwq_reps = 1000, sys_batches = 0;
	unsigned long steps_max_s = 0, timer_n = 0;
	struct ftq_probe p = { .raw = tsc };
	struct ftq_run run = { 0 };
	struct rusage ru;
	uint64_t *fwq, start_tsc, end_tsc, t0, t1;
	double hz;
	int c;

	while ((c = getopt_long(argc, argv, "q:n:g:w:r:s:t:T:Gh", opts, NULL)) != -1) {
		switch (c) {
		case 'q': quantum_us = parse_num(optarg, "quantum"); break;
		case 'n': samples = parse_num(optarg, "sample count"); break;
		case 'g': gap_ns = parse_num(optarg, "gap threshold"); break;
		case 'w': fwq_work = parse_num(optarg, "FWQ work"); break;
		case 'r': fwq_reps = parse_num(optarg, "FWQ repetitions"); break;
		case 's': sys_batches = parse_num(optarg, "batch count"); break;
		case 't': steps_max_s = parse_num(optarg, "time limit"); break;
		case 'T': timer_n = parse_num(optarg, "wakeup count"); break;
		case 'G': p.raw = gettime_tsc; break;
		case 'h': usage(stdout, EXIT_SUCCESS);
		default: usage(stderr, EXIT_FAILURE);
		}
	}
	if (optind != argc || samples > UINT32_MAX)
		usage(stderr, EXIT_FAILURE);
	if (sys_batches)
		return syscall_cost(sys_batches);
	if (steps_max_s)
		return syscall_steps(steps_max_s);
	if (timer_n)
		return timer_latency(quantum_us, timer_n);

	hz = tsc_hz_estimate();
	run.quantum = (uint64_t)((double)quantum_us * hz / 1e6);
	run.nr_samples = (uint32_t)samples;
	run.samples = calloc(samples, sizeof(*run.samples));
	p.threshold = (uint64_t)((double)gap_ns * hz / 1e9);
	p.max_gaps = 1u << 20;
	p.gaps = calloc(2 * (size_t)p.max_gaps, sizeof(*p.gaps));
	fwq = calloc(fwq_reps, sizeof(*fwq));
	if (!run.samples || !p.gaps || !fwq) {
		fprintf(stderr, "ftq: out of memory\n");
		return EXIT_FAILURE;
	}

	/*
	 * Touch every page the run writes to, so that page faults on first
	 * touch do not show up as noise inside the measured loop.
	 */
	prefault(run.samples, samples * sizeof(*run.samples));
	prefault(p.gaps, 2 * (size_t)p.max_gaps * sizeof(*p.gaps));
	prefault(fwq, fwq_reps * sizeof(*fwq));

	/* FTQ: absolute deadlines, the shared loop read through the probe. */
	t0 = mono_ns();
	start_tsc = ftq_probe_start(&p);
	ftq_start(&run, start_tsc);
	while (ftq_step(&run, ftq_probe_clock, &p))
		;
	end_tsc = __rdtsc();
	t1 = mono_ns();

	/* FWQ: a fixed amount of work, timed; the shared loop. */
	for (unsigned long r = 0; r < fwq_reps; r++)
		fwq[r] = ftq_fwq(tsc, NULL, fwq_work);
	getrusage(RUSAGE_SELF, &ru);

	printf("# ftq quantum_us=%lu samples=%lu gap_ns=%lu tsc_hz=%.0f "
	       "quantum_cycles=%" PRIu64 " threshold_cycles=%" PRIu64 " work=%s\n",
	       quantum_us, samples, gap_ns, hz, run.quantum, p.threshold,
	       p.raw == gettime_tsc ? "clock_gettime+rdtsc" : "rdtsc");
	printf("# run start_tsc=%" PRIu64 " end_tsc=%" PRIu64 " wall_ns=%" PRIu64
	       " gaps=%" PRIu32 " gaps_lost=%" PRIu64 "\n", start_tsc, end_tsc,
	       t1 - t0, p.nr_gaps, p.lost_gaps);
	for (uint32_t i = 0; i < run.done; i++)
		printf("S %" PRIu32 "\n", run.samples[i]);
	for (uint32_t i = 0; i < p.nr_gaps; i++)
		printf("G %" PRIu64 " %" PRIu64 "\n", p.gaps[2 * i],
		       p.gaps[2 * i + 1]);
	for (unsigned long r = 0; r < fwq_reps; r++)
		printf("W %" PRIu64 "\n", fwq[r]);
	printf("R utime_us=%ld stime_us=%ld nvcsw=%ld nivcsw=%ld\n",
	       ru.ru_utime.tv_sec * 1000000L + ru.ru_utime.tv_usec,
	       ru.ru_stime.tv_sec * 1000000L + ru.ru_stime.tv_usec,
	       ru.ru_nvcsw, ru.ru_nivcsw);
	free(run.samples);
	free(p.gaps);
	free(fwq);
	return EXIT_SUCCESS;
}
