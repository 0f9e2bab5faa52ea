// SPDX-License-Identifier: GPL-2.0
/*
 * ftq - Fixed Time Quantum and Fixed Work Quantum noise probe, user space.
 *
 * The FTQ and FWQ loops, and the probe that records the gaps in the FTQ
 * loop, are those of <linux/offsched_ftq.h> (the kernel tree's
 * tools/include/linux/offsched_ftq.h), the user-space copy of the loops
 * the OFFSCHED ftq service runs (include/linux/offsched_ftq.h), so every
 * scenario runs the same code on the very same clock: a bare RDTSC.  The probe checks on every clock read how
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
 * With --timer N, --tsc-timer N or --offsched-timer CPU, only:
 *   # timer period_us=P period_ns=P wakeups=W overruns=O clock=C tsc_hz=H
 *           tsc_source=S
 *   L <ns>                     how late one periodic event was, one per event
 *   E <k> <tsc>                the TSC when the event of deadline k (from 0)
 *                              was seen, one per event, in the order of L
 * The deadlines are absolute, k periods after the first; wakeups counts
 * the events (L and E lines). An event seen after the next deadline skips
 * the deadlines passed (counted in overruns), as cyclictest does. Event
 * times are raw TSC reads in every mode, converted with tsc_hz (the
 * kernel's tsc_khz where the OFFSCHED module shows it, tsc_source=kernel,
 * else calibrated here, tsc_source=estimate), so that the period and
 * jitter of every mode are measured on the same clock; the analysis
 * (tests/compare/analyze.py) takes them from consecutive deadlines only.
 *   --timer: clock=monotonic, clock_nanosleep(TIMER_ABSTIME) on
 *     CLOCK_MONOTONIC, lateness from CLOCK_MONOTONIC.
 *   --tsc-timer: clock=tsc, a loop on RDTSC, lateness from the TSC; the
 *     deadlines period_cycles apart (the period rounded to a cycle):
 *   # tsc period_cycles=N start_tsc=N (the first deadline)
 *   --offsched-timer CPU: clock=offsched, the events of the OFFSCHED timer
 *     service on CPU (its events_done word, polled); lateness of the
 *     delivery: the TSC when the word was seen to change less the latest
 *     deadline it passed. Also:
 *     With --doorbell, the poller sleeps in read() of /dev/offsched
 *     until the service's doorbell (set to its CPU by the caller) wakes it,
 *     then reads the word. Also:
 *   # service cpu=N samples=N events=N missed=N loops=N unwatched=N
 *             period_cycles=N status=complete|stopped|running
 *             wait=poll|doorbell
 *     events: deadlines the service passed; missed: those it saw only
 *     after the next one (result U32_MAX, in no K line); unwatched: events
 *     fired before this poller first looked (in no L line); so wakeups +
 *     overruns + unwatched = events.
 *   K <ns>                     how late the service saw one deadline, one
 *                              per deadline it fired on its own
 *   F <k> <tsc>                the TSC when the service fired deadline k
 *                              (the deadline plus its result), as K
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <x86intrin.h>

#include <linux/offsched.h>
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
		"  -k, --tsc-timer N    instead: the same for N deadlines one quantum\n"
		"                       apart, by polling the TSC\n"
		"  -o, --offsched-timer CPU  instead: poll the events of the OFFSCHED\n"
		"                       timer service on CPU (started by \"echo start\"\n"
		"                       now or within 30 s) and print how late each\n"
		"                       event was, as delivered and as fired\n"
		"  -d, --doorbell       with -o: sleep in read() of /dev/offsched until\n"
		"                       the service's doorbell rings, instead of polling\n"
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
 * One event of the timer modes: the index k of its deadline (the first is
 * 0), the TSC when it was seen, and how late that was.
 */
struct timer_event {
	uint64_t tsc;
	int64_t late;		/* ns (--timer) or TSC cycles */
	uint32_t k;
};

static int64_t cycles_ns(int64_t cycles, double hz)
{
	double ns = (double)cycles * 1e9 / hz;

	return (int64_t)(ns < 0 ? ns - 0.5 : ns + 0.5);
}

/*
 * The kernel's TSC frequency, tsc_khz, which the OFFSCHED management
 * module shows once for every CPU; 0 when it is not loaded.
 */
static double kernel_tsc_hz(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/offsched/tsc_khz", "r");
	unsigned long khz = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%lu", &khz) != 1)
		khz = 0;
	fclose(f);
	return (double)khz * 1e3;
}

/* The TSC frequency of the timer modes, and where it came from. */
static double timer_tsc_hz(const char **source)
{
	double hz = kernel_tsc_hz();

	*source = hz > 0 ? "kernel" : "estimate";
	return hz > 0 ? hz : tsc_hz_estimate();
}

/* The first line of a timer mode's records. */
static void print_timer_head(const char *clock, uint64_t period_ns,
			     unsigned long done, unsigned long overruns,
			     double hz, const char *source)
{
	printf("# timer period_us=%" PRIu64 " period_ns=%" PRIu64
	       " wakeups=%lu overruns=%lu clock=%s tsc_hz=%.0f tsc_source=%s\n",
	       period_ns / 1000, period_ns, done, overruns, clock, hz, source);
}

/* Its L and E lines; late in TSC cycles when hz is not 0, else in ns. */
static void print_timer_events(const struct timer_event *ev,
			       unsigned long done, double hz)
{
	unsigned long i;

	for (i = 0; i < done; i++)
		printf("L %" PRId64 "\n", hz > 0 ? cycles_ns(ev[i].late, hz) : ev[i].late);
	for (i = 0; i < done; i++)
		printf("E %" PRIu32 " %" PRIu64 "\n", ev[i].k, ev[i].tsc);
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
	struct timer_event *ev = calloc(n, sizeof(*ev));
	unsigned long done = 0, overruns = 0;
	const char *source;
	uint32_t k = 0;
	int64_t t_end;
	double hz;
	int err;

	if (!ev) {
		perror("ftq: calloc");
		return EXIT_FAILURE;
	}
	prefault(ev, n * sizeof(*ev));
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
		ev[done].tsc = __rdtsc();
		ev[done].late = ts_ns(&now) - ts_ns(&next);
		ev[done++].k = k++;
		ts_add_ns(&next, period_ns);
		while (ts_ns(&next) <= ts_ns(&now)) {
			ts_add_ns(&next, period_ns);
			k++;
			overruns++;
		}
	}
	/* After the run: a calibration would delay the first wakeup. */
	hz = timer_tsc_hz(&source);
	print_timer_head("monotonic", (uint64_t)period_ns, done, overruns, hz,
			 source);
	print_timer_events(ev, done, 0);
	free(ev);
	return EXIT_SUCCESS;
}

/*
 * --tsc-timer: the same periodic events from a loop on the TSC alone (a
 * SCHED_NOTICK thread keeps its CPU to itself): N absolute deadlines one
 * period apart, the period rounded to the nearest TSC cycle; a deadline
 * seen after the next one has passed too is skipped (an overrun).
 */
static int tsc_timer(unsigned long period_us, unsigned long n)
{
	struct timer_event *ev = calloc(n, sizeof(*ev));
	unsigned long done = 0, overruns = 0;
	uint64_t period, start, deadline, now, k;
	const char *source;
	double hz;

	if (!ev) {
		perror("ftq: calloc");
		return EXIT_FAILURE;
	}
	prefault(ev, n * sizeof(*ev));
	hz = timer_tsc_hz(&source);
	period = (uint64_t)((double)period_us * hz / 1e6 + 0.5);
	if (!period) {
		fprintf(stderr, "ftq: --tsc-timer: a period of %lu us is no TSC cycle at %.0f Hz\n",
			period_us, hz);
		return EXIT_FAILURE;
	}
	start = __rdtsc() + period;
	for (k = 0; k < n;) {
		deadline = start + k * period;
		while ((now = __rdtsc()) < deadline)
			;
		ev[done].tsc = now;
		ev[done].late = (int64_t)(now - deadline);
		ev[done++].k = (uint32_t)k++;
		while (k < n && now >= start + k * period) {
			k++;
			overruns++;
		}
	}
	print_timer_head("tsc", (uint64_t)period_us * 1000, done, overruns, hz,
			 source);
	printf("# tsc period_cycles=%" PRIu64 " start_tsc=%" PRIu64 "\n",
	       period, start);
	print_timer_events(ev, done, hz);
	free(ev);
	return EXIT_SUCCESS;
}

/* How long the OFFSCHED poller waits for a run, and for an event. */
#ifndef OFFSCHED_WAIT_NS
#define OFFSCHED_WAIT_NS	30000000000ull
#endif
#ifndef OFFSCHED_STALL_NS
#define OFFSCHED_STALL_NS	10000000000ull
#endif
#define OFFSCHED_TIMER_MISSED	UINT32_MAX

static const char *offsched_status_name(uint32_t status)
{
	switch (status) {
	case OFFSCHED_STATUS_READY: return "ready";
	case OFFSCHED_STATUS_RUNNING: return "running";
	case OFFSCHED_STATUS_COMPLETE: return "complete";
	case OFFSCHED_STATUS_STOPPED: return "stopped";
	default: return "unknown";
	}
}

static uint32_t shm_load(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000L };

	nanosleep(&ts, NULL);
}

/*
 * Map the shared memory of a run of the OFFSCHED service on cpu that has
 * not returned yet: one that "echo start" made, or makes within
 * OFFSCHED_WAIT_NS (a run's memory is made by its start: the one mapped
 * before is the last run's, over). NULL with the reason said if none.
 */
static const struct offsched_shm *offsched_map_run(unsigned long cpu, int *fdp)
{
	const uint64_t t0 = mono_ns();
	const char *why = "no run of the service there yet (OFFSCHED_IOC_ATTACH: ENODATA)";
	char path[96], svc[32] = "";
	int fd;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%lu/offsched/service", cpu);
	f = fopen(path, "r");
	if (!f || !fgets(svc, sizeof(svc), f)) {
		fprintf(stderr, "ftq: --offsched-timer: %s: %s (is offsched_mgr loaded?)\n",
			path, strerror(errno));
		if (f)
			fclose(f);
		return NULL;
	}
	fclose(f);
	svc[strcspn(svc, "\n")] = 0;
	if (strcmp(svc, "timer")) {
		fprintf(stderr, "ftq: --offsched-timer: the service of CPU %lu is '%s', not timer\n",
			cpu, svc);
		return NULL;
	}
	fd = open("/dev/offsched", O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "ftq: --offsched-timer: /dev/offsched: %s\n", strerror(errno));
		return NULL;
	}
	for (;;) {
		struct offsched_attach arg = { .cpu = (uint32_t)cpu };
		const struct offsched_shm *shm;
		uint32_t status;
		void *p;

		if (ioctl(fd, OFFSCHED_IOC_ATTACH, &arg) < 0) {
			if (errno != ENODATA) {
				fprintf(stderr, "ftq: --offsched-timer: OFFSCHED_IOC_ATTACH of CPU %lu: %s\n",
					cpu, strerror(errno));
				break;
			}
		} else {
			p = mmap(NULL, arg.size, PROT_READ, MAP_SHARED, fd, 0);
			if (p == MAP_FAILED) {
				fprintf(stderr, "ftq: --offsched-timer: mmap of CPU %lu's shared memory (%llu bytes): %s\n",
					cpu, (unsigned long long)arg.size, strerror(errno));
				break;
			}
			shm = p;
			if (shm->magic != OFFSCHED_SHM_MAGIC ||
			    shm->version != OFFSCHED_SHM_VERSION || shm->cpu != cpu ||
			    shm->size != arg.size || !shm->tsc_khz ||
			    !shm->period_cycles || !shm->nr_events ||
			    shm->results_offset + (uint64_t)shm->nr_events * sizeof(uint32_t) > arg.size) {
				fprintf(stderr, "ftq: --offsched-timer: bad shared memory header of CPU %lu\n",
					cpu);
				munmap(p, arg.size);
				break;
			}
			status = shm_load(&shm->status);
			if (status == OFFSCHED_STATUS_READY ||
			    status == OFFSCHED_STATUS_RUNNING) {
				if (fdp)
					*fdp = fd;
				else
					close(fd);
				return shm;
			}
			why = status == OFFSCHED_STATUS_COMPLETE ?
				"the last run there is complete, no new one" :
				"the last run there is stopped, no new one";
			munmap(p, arg.size);
		}
		if (mono_ns() - t0 > OFFSCHED_WAIT_NS) {
			fprintf(stderr, "ftq: --offsched-timer: the service on CPU %lu never started in %llu s: %s\n",
				cpu, OFFSCHED_WAIT_NS / 1000000000ull, why);
			break;
		}
		sleep_ms(1);
	}
	close(fd);
	return NULL;
}

/*
 * --doorbell: sleep until the doorbell of the attached CPU rings, the
 * stall time at most. Returns 1 if it rang, 0 if not, -1 on an error.
 */
static int doorbell_wait(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint64_t count;
	int r = poll(&p, 1, (int)(OFFSCHED_STALL_NS / 1000000ull));

	if (r < 0 || (r && read(fd, &count, sizeof(count)) != sizeof(count))) {
		fprintf(stderr, "ftq: --doorbell: %s of /dev/offsched: %s\n",
			r < 0 ? "poll()" : "read()", strerror(errno));
		return -1;
	}
	return r;
}

/*
 * --offsched-timer: the events of the OFFSCHED timer service on cpu, as
 * a thread on an online CPU gets them: by polling the word events_done
 * (acquire), whose store (release) is the event, or (with doorbell)
 * asleep until the doorbell the service rings after each event wakes it.
 * Each change is one delivery, of the latest deadline passed; its
 * lateness is the TSC then less that deadline. The service's own
 * lateness of each deadline comes from its results after the run.
 */
static int offsched_timer(unsigned long cpu, bool doorbell)
{
	int fd = -1;
	const struct offsched_shm *shm = offsched_map_run(cpu, doorbell ? &fd : NULL);
	const uint32_t *results;
	struct timer_event *ev;
	unsigned long done = 0, overruns = 0, missed = 0, i;
	uint64_t period, start, now, last, stall, t0;
	uint32_t n, seen, unwatched, k, status;
	double hz;
	int ret = EXIT_SUCCESS;

	if (!shm)
		return EXIT_FAILURE;
	n = shm->nr_events;
	period = shm->period_cycles;
	hz = (double)shm->tsc_khz * 1e3;
	results = (const uint32_t *)((const char *)shm + shm->results_offset);
	ev = calloc(n, sizeof(*ev));
	if (!ev) {
		perror("ftq: calloc");
		return EXIT_FAILURE;
	}
	prefault(ev, n * sizeof(*ev));

	/*
	 * Its start: the CPU goes offline, then the callback runs, one
	 * period before the first deadline. Watched closely for a second,
	 * then every millisecond.
	 */
	t0 = mono_ns();
	while ((status = shm_load(&shm->status)) == OFFSCHED_STATUS_READY) {
		uint64_t waited = mono_ns() - t0;

		if (waited > OFFSCHED_WAIT_NS) {
			fprintf(stderr, "ftq: --offsched-timer: the service on CPU %lu never ran (status ready for %llu s)\n",
				cpu, OFFSCHED_WAIT_NS / 1000000000ull);
			return EXIT_FAILURE;
		}
		if (waited > 1000000000ull)
			sleep_ms(1);
		else
			_mm_pause();
	}

	/* Events fired before this first look were not watched. */
	seen = unwatched = shm_load(&shm->events_done);
	stall = (uint64_t)((double)OFFSCHED_STALL_NS * hz / 1e9) + 2 * period;
	last = __rdtsc();
	for (i = 0; seen < n; i++) {
		/* Asleep until the next ring, while nothing new is there */
		if (doorbell && shm_load(&shm->events_done) == seen &&
		    shm_load(&shm->status) <= OFFSCHED_STATUS_RUNNING &&
		    doorbell_wait(fd) < 0)
			return EXIT_FAILURE;
		k = shm_load(&shm->events_done);
		if (k != seen) {
			now = __rdtsc();
			if (k < seen || k > n) {
				fprintf(stderr, "ftq: --offsched-timer: events_done went from %" PRIu32
					" to %" PRIu32 " (%" PRIu32 " events)\n", seen, k, n);
				return EXIT_FAILURE;
			}
			/* Written before the first event: the acquire orders it. */
			start = __atomic_load_n(&shm->start_tsc, __ATOMIC_RELAXED);
			ev[done].tsc = now;
			ev[done].late = (int64_t)(now - (start + (uint64_t)(k - 1) * period));
			ev[done++].k = k - 1;
			overruns += k - seen - 1;
			seen = k;
			last = now;
			continue;
		}
		if (!doorbell && i % 1024)
			continue;
		/* Returned early (stopped): nothing more comes. */
		if (shm_load(&shm->status) > OFFSCHED_STATUS_RUNNING &&
		    shm_load(&shm->events_done) == seen)
			break;
		if (__rdtsc() - last > stall) {
			fprintf(stderr, "ftq: --offsched-timer: no event from CPU %lu for %llu s (%" PRIu32
				" of %" PRIu32 ", status %s)\n", cpu, OFFSCHED_STALL_NS / 1000000000ull,
				seen, n, offsched_status_name(shm_load(&shm->status)));
			return EXIT_FAILURE;
		}
	}

	/* The service returns right after its last event. */
	t0 = mono_ns();
	while ((status = shm_load(&shm->status)) == OFFSCHED_STATUS_RUNNING &&
	       mono_ns() - t0 < 2000000000ull)
		sleep_ms(1);
	start = shm->start_tsc;
	for (k = 0; k < seen; k++)
		missed += results[k] == OFFSCHED_TIMER_MISSED;

	print_timer_head("offsched", shm->period_ns, done, overruns, hz, "kernel");
	printf("# service cpu=%lu samples=%" PRIu32 " events=%" PRIu32 " missed=%lu loops=%llu"
	       " unwatched=%" PRIu32 " period_cycles=%" PRIu64 " status=%s wait=%s\n",
	       cpu, n, seen, missed, (unsigned long long)shm->on_time, unwatched, period,
	       offsched_status_name(status), doorbell ? "doorbell" : "poll");
	print_timer_events(ev, done, hz);
	for (k = 0; k < seen; k++)
		if (results[k] != OFFSCHED_TIMER_MISSED)
			printf("K %" PRId64 "\n", cycles_ns(results[k], hz));
	for (k = 0; k < seen; k++)
		if (results[k] != OFFSCHED_TIMER_MISSED)
			printf("F %" PRIu32 " %" PRIu64 "\n", k,
			       start + (uint64_t)k * period + results[k]);
	if (!done) {
		fprintf(stderr, "ftq: --offsched-timer: saw no event of CPU %lu: %" PRIu32
			" of %" PRIu32 " fired before its first look\n", cpu, unwatched, n);
		ret = EXIT_FAILURE;
	} else if (seen < n) {
		fprintf(stderr, "ftq: --offsched-timer: the service on CPU %lu returned after %" PRIu32
			" of %" PRIu32 " events (status %s)\n", cpu, seen, n,
			offsched_status_name(status));
		ret = EXIT_FAILURE;
	} else if (status == OFFSCHED_STATUS_RUNNING) {
		fprintf(stderr, "ftq: --offsched-timer: the service on CPU %lu still runs 2 s after its last event\n",
			cpu);
		ret = EXIT_FAILURE;
	}
	free(ev);
	return ret;
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
		{ "tsc-timer", required_argument, NULL, 'k' },
		{ "offsched-timer", required_argument, NULL, 'o' },
		{ "doorbell", no_argument, NULL, 'd' },
		{ "gettime", no_argument, NULL, 'G' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned long quantum_us = 1000, samples = 10000, gap_ns = 2000;
	unsigned long fwq_work = 100000, fwq_reps = 1000, sys_batches = 0;
	unsigned long steps_max_s = 0, timer_n = 0, tsc_timer_n = 0, os_cpu = 0;
	struct ftq_probe p = { .raw = tsc };
	struct ftq_run run = { 0 };
	struct rusage ru;
	uint64_t *fwq, start_tsc, end_tsc, t0, t1;
	bool doorbell = false;
	double hz;
	int c;

	while ((c = getopt_long(argc, argv, "q:n:g:w:r:s:t:T:k:o:dGh", opts, NULL)) != -1) {
		switch (c) {
		case 'q': quantum_us = parse_num(optarg, "quantum"); break;
		case 'n': samples = parse_num(optarg, "sample count"); break;
		case 'g': gap_ns = parse_num(optarg, "gap threshold"); break;
		case 'w': fwq_work = parse_num(optarg, "FWQ work"); break;
		case 'r': fwq_reps = parse_num(optarg, "FWQ repetitions"); break;
		case 's': sys_batches = parse_num(optarg, "batch count"); break;
		case 't': steps_max_s = parse_num(optarg, "time limit"); break;
		case 'T': timer_n = parse_num(optarg, "wakeup count"); break;
		case 'k': tsc_timer_n = parse_num(optarg, "deadline count"); break;
		case 'o': os_cpu = parse_num(optarg, "OFFSCHED CPU"); break;
		case 'd': doorbell = true; break;
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
	if (tsc_timer_n) {
		if (tsc_timer_n > UINT32_MAX)
			usage(stderr, EXIT_FAILURE);
		return tsc_timer(quantum_us, tsc_timer_n);
	}
	if (doorbell && !os_cpu)
		usage(stderr, EXIT_FAILURE);
	if (os_cpu)
		return offsched_timer(os_cpu, doorbell);

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
