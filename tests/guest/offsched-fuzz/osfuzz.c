// SPDX-License-Identifier: GPL-2.0
/*
 * osfuzz - bounded fuzzing of OFFSCHED's user interface, run by run.sh in
 * the guest with offsched_mgr loaded and no service started.
 *
 *   osfuzz CPU SECONDS SEED
 *
 * For SECONDS, one random case at a time against:
 *
 *   - the management files of every present CPU N,
 *     /sys/devices/system/cpu/cpuN/offsched/: random and boundary strings
 *     (numbers at and beyond each documented bound, negative, 2^32, 2^64,
 *     hex, octal, signs, blanks, newlines, NULs, empty, 4 KiB and longer,
 *     random bytes) written through write(), pwrite() at any offset,
 *     writev() in pieces, an unmapped or half-mapped buffer and a
 *     read-only descriptor; the "start" and "stop" commands on CPU
 *     (services started and stopped for real) and on CPU 0 (refused);
 *     opens against each file's mode; reads of every file at any offset
 *     and size, into no buffer too;
 *   - the core's /sys/module/offsched/parameters/stop_timeout_ms (set back
 *     to its value after each case);
 *   - /dev/offsched: opens with every access mode and odd flags, read,
 *     write and lseek; OFFSCHED_IOC_ATTACH with every CPU number, a
 *     non-zero pad, NULL, unmapped, read-only, half-mapped and kernel
 *     argument pointers, and the ioctl numbers near it (other number,
 *     size, direction or type, and random ones); mmap() with bad and
 *     boundary lengths, offsets, protections, flags, addresses and access
 *     modes, with and without an attach; mprotect(), mremap(), partial
 *     munmap() and fork() of the mappings, kept across later starts;
 *   - the shared memory itself: the echo service's rings driven for real,
 *     their counters set to garbage, and the offsets and counts of the
 *     ftq arrays set to garbage before the result files are read.
 *
 * Every call must succeed or fail with the errno that the documentation
 * (Documentation/admin-guide/offsched.rst, the ABI files, or the system
 * call's manual page for what the VFS and the memory manager decide
 * before the driver is called) gives for that input. After each case the
 * state read back is checked against a model: every setting of every CPU,
 * the service, state, runs, stop_timeouts, CPU's online file and
 * stop_timeout_ms; a refused write changes nothing, an accepted one gives
 * the value written, and a mapping shows the pages of the run it was
 * attached to (compared through /proc/self/pagemap).
 *
 * A MAP_SHARED mapping of a descriptor opened O_RDONLY is a read-only
 * shared mapping (offsched.rst), counted apart in "ro_shared=N": the driver
 * once refused it with EINVAL (it tested VM_SHARED, which the memory
 * manager clears on such a mapping, instead of VM_MAYSHARE).
 *
 * At the end, stops the service, unmaps what it kept, sets
 * stop_timeout_ms back and checks the model once more. Prints the first
 * bad cases as they come ("bad: case N: ..."), then "cases=N", one
 * "kind NAME N T ms" line per kind of case (T: the time its cases took;
 * "checks T ms": the model checks after them), one "errno NAME N" line
 * per outcome of the cases' main calls, the runs of each CPU, each case's
 * class: "ok=N" (done as asked), "refused=N" (the documented errno,
 * nothing changed), "ro_shared=N" (cases that were to map a read-only
 * descriptor shared, read-only), then "cleanup=ok" (or bad)
 * and "bad=N". Exit status 0
 * when bad=0 and the cleanup is ok.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* From the kernel tree: the build adds -idirafter <tree>/include/uapi. */
#include <linux/offsched.h>

#define SYSCPU		"/sys/devices/system/cpu"
#define PARAM		"/sys/module/offsched/parameters/stop_timeout_ms"
#define DEV		"/dev/offsched"
#define PAGE		4096UL
#define MAXCPU		64
#define SHM_SIZE	sizeof(struct offsched_shm)
#define KERNEL_PTR	((void *)0xffff888000000000UL)
#define TASK_SIZE_MAX	0x7ffffffff000UL
#ifndef MAP_UNINITIALIZED
#define MAP_UNINITIALIZED	0x4000000
/*
 * The echo service's debug words (CONFIG_OFFSCHED_MGR_DEBUG; the kernel's
 * drivers/misc/offsched/offsched_mgr.h): the fuzzer never sends them.
 */
#define OFFSCHED_ECHO_DEAF	0xdeafdeafdeafdeafULL
#define OFFSCHED_ECHO_HEAR	0x4ea54ea54ea54ea5ULL
#endif
#ifndef MAP_HUGE_2MB
#define MAP_HUGE_2MB	(21 << 26)
#define MAP_HUGE_1GB	(30 << 26)
#endif

/* The configuration files, their documented ranges and defaults. */
enum {
	F_SERVICE, F_QUANTUM, F_SAMPLES, F_GAP, F_FWQ_WORK, F_FWQ_REPS, NCFG,
	F_TIMEOUT = NCFG	/* the core's stop_timeout_ms: 1 to 10000 */
};
static const struct {
	const char *name;
	unsigned long min, max;
} cfgs[NCFG + 1] = {
	{ "service", 0, 0 },
	{ "quantum_ns", 1000, 1000000000 },
	{ "samples", 1, 1UL << 20 },
	{ "gap_ns", 100, 1000000000 },
	{ "fwq_work", 1, 10000000 },
	{ "fwq_reps", 0, 1UL << 20 },
	{ "stop_timeout_ms", 1, 10000 },
};
enum { SVC_NONE, SVC_FTQ, SVC_ECHO, SVC_TIMER, SVC_PKT, NR_SVC };
static const char *const svc_names[NR_SVC] = {
	"none", "ftq", "echo", "timer", "pkt",
};

/* The services that end by themselves and write their result counts */
static int svc_counts(int svc)
{
	return svc == SVC_FTQ || svc == SVC_TIMER;
}

static const char *const ro_text[] = {
	"state", "samples_done", "gaps_done", "gaps_lost", "fwq_done",
	"run_start_tsc", "run_end_tsc", "runs", "stop_timeouts",
};
static const char *const ro_bin[] = { "results", "gaps", "fwq" };
#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/* What the files of one CPU must read back. */
struct cpu_model {
	int present;
	int service;
	unsigned long cfg[NCFG];
	int registered;		/* started and not stopped */
	int stopping;		/* a stop timed out */
	int started;		/* a run exists: idle no more */
	unsigned long runs, timeouts;
	int run_service;	/* the service of the current run */
	unsigned long run_id;	/* counts our starts */
	uint64_t run_size;	/* its memory, learnt at its first attach */
	uint64_t run_pfn;	/* page frame of its first page, likewise */
	int ring_dirty;		/* its ring counters were set to garbage */
};

static struct cpu_model m[MAXCPU];
static int ncpu, cpu;
static unsigned long tsc_khz, timeout0;
static int in_case_bad, dev_noexec, overcommit;
static unsigned long ram_pages;		/* RAM and swap, for overcommit */
static unsigned long nbad, nro_shared, case_no;
static char what[512];
static unsigned char *scratch;		/* 2 MiB for reads and long strings */
static char *guard;			/* a RW page followed by a PROT_NONE one */
static char *ro_page;			/* a page mapped PROT_READ */
static sigjmp_buf fault_jmp;
static volatile sig_atomic_t fault_armed;

/* ---- small helpers ------------------------------------------------------- */

static unsigned long rnd(unsigned long n)
{
	return n ? (unsigned long)random() % n : 0;
}

static uint64_t rnd64(void)
{
	return (uint64_t)random() << 33 ^ (uint64_t)random() << 11 ^
	       (uint64_t)random();
}

static const char *ename(int e)
{
	static char buf[4][16];
	static int i;
	const char *n;

	if (!e)
		return "OK";
	n = strerrorname_np(e);
	if (n)
		return n;
	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "E%d", e);
	return buf[i];
}

static void report(const char *fmt, ...)
{
	va_list ap;

	in_case_bad = 1;
	if (nbad >= 20)
		return;
	printf("bad: case %lu: %s: ", case_no, what);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* got and want are 0 (success) or an errno; alt is a second answer or -1. */
static int expect(int got, int want, int alt)
{
	if (got == want || (alt >= 0 && got == alt))
		return 1;
	if (alt >= 0)
		report("%s, want %s or %s", ename(got), ename(want), ename(alt));
	else
		report("%s, want %s", ename(got), ename(want));
	return 0;
}

/* A printable, shortened copy of bytes, for the case's description. */
static const char *show(const char *s, size_t len)
{
	static char out[96];
	size_t i, o = 0;

	for (i = 0; i < len && o < 60; i++) {
		unsigned char c = s[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			out[o++] = c;
		else
			o += snprintf(out + o, sizeof(out) - o, "\\x%02x", c);
	}
	snprintf(out + o, sizeof(out) - o, "%s (%zu bytes)", i < len ? "..." : "",
		 len);
	return out;
}

static void on_fault(int sig)
{
	if (fault_armed)
		siglongjmp(fault_jmp, sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Read one byte of each page of [p, p + len): 0, or the signal taken. */
static int touch(const volatile unsigned char *p, size_t len)
{
	volatile unsigned char sink = 0;
	int sig;
	size_t i;

	sig = sigsetjmp(fault_jmp, 1);
	if (sig) {
		fault_armed = 0;
		return sig;
	}
	fault_armed = 1;
	for (i = 0; i < len; i += PAGE)
		sink += p[i];
	if (len)
		sink += p[len - 1];
	fault_armed = 0;
	(void)sink;
	return 0;
}

/* The page frame behind a mapped address, 0 if none. */
static uint64_t pfn_of(const void *p)
{
	uint64_t e = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (fd < 0)
		return 0;
	if (pread(fd, &e, sizeof(e), (uintptr_t)p / PAGE * sizeof(e)) != sizeof(e))
		e = 0;
	close(fd);
	return e >> 63 ? e & ((1ULL << 55) - 1) : 0;
}

static char *cpath(int c, const char *file)
{
	static char buf[4][96];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), SYSCPU "/cpu%d/offsched/%s", c, file);
	return buf[i];
}

/*
 * Whole text file, without its last newline: length or -errno. The files
 * stay open: a read at offset 0 makes sysfs call show() again.
 */
static int read_text(const char *path, char *buf, size_t size)
{
	static struct {
		char path[96];
		int fd;
	} open_files[2 * MAXCPU];
	static int nopen;
	ssize_t n;
	int i, fd = -1;

	for (i = 0; i < nopen && fd < 0; i++)
		if (!strcmp(open_files[i].path, path))
			fd = open_files[i].fd;
	if (fd < 0) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		if (nopen < (int)ARRAY_LEN(open_files) && strlen(path) < 96) {
			strcpy(open_files[nopen].path, path);
			open_files[nopen++].fd = fd;
		} else {
			n = read(fd, buf, size - 1);
			i = errno;
			close(fd);
			fd = -1;
		}
	}
	if (fd >= 0) {
		n = pread(fd, buf, size - 1, 0);
		i = errno;
	}
	if (n < 0)
		return -i;
	buf[n] = 0;
	if (n && buf[n - 1] == '\n')
		buf[--n] = 0;
	return (int)n;
}

/* A decimal file's value; ULONG_MAX if unreadable or not a number. */
static unsigned long read_num(const char *path)
{
	char buf[64], *end;
	unsigned long v;

	if (read_text(path, buf, sizeof(buf)) <= 0)
		return ULONG_MAX;
	errno = 0;
	v = strtoul(buf, &end, 10);
	return errno || *end ? ULONG_MAX : v;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), e = 0;

	if (fd < 0)
		return errno;
	if (write(fd, s, strlen(s)) < 0)
		e = errno;
	close(fd);
	return e;
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

/* ---- the kernel's parsing, as documented --------------------------------- */

/*
 * kstrtou32(s, 0): an optional '+', then a number in C notation (0x hex,
 * leading 0 octal), then at most one newline. Overflow is ERANGE, any
 * other text EINVAL (lib/kstrtox.c).
 */
static int kstrtou32_model(const char *s, unsigned long *val)
{
	unsigned long long res = 0;
	unsigned int base = 10, n = 0;
	int over = 0;

	if (*s == '+')
		s++;
	if (s[0] == '0') {
		base = 8;
		if ((s[1] | 0x20) == 'x' && s[2] &&
		    ((s[2] >= '0' && s[2] <= '9') || ((s[2] | 0x20) >= 'a' &&
						       (s[2] | 0x20) <= 'f'))) {
			base = 16;
			s += 2;
		}
	}
	for (;; s++, n++) {
		unsigned int c = (unsigned char)*s, v;

		if (c >= '0' && c <= '9')
			v = c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			v = (c | 0x20) - 'a' + 10;
		else
			break;
		if (v >= base)
			break;
		if (res > (~0ULL - v) / base)
			over = 1;
		res = res * base + v;
	}
	if (over)
		return ERANGE;
	if (!n)
		return EINVAL;
	if (*s == '\n')
		s++;
	if (*s)
		return EINVAL;
	if (res > 0xffffffffULL)
		return ERANGE;
	*val = (unsigned long)res;
	return 0;
}

/* sysfs_streq(): equal, but for one trailing newline on either side. */
static int streq_model(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	if (*a == *b)
		return 1;
	if (!*a && *b == '\n' && !b[1])
		return 1;
	if (*a == '\n' && !a[1] && !*b)
		return 1;
	return 0;
}

/*
 * What a sysfs store sees of a write of @len bytes: at most a page, up to
 * the first NUL. Returns the bytes the write reports on success.
 */
static size_t store_text(const char *s, size_t len, char *out)
{
	size_t n = len < PAGE ? len : PAGE;

	memcpy(out, s, n);
	out[n] = 0;
	return n;
}

/* ---- value generators ---------------------------------------------------- */

static const char *const num_words[] = {
	"0", "1", "-1", "-0", "+1", "+0", "99", "100", "101", "999", "1000",
	"1001", "2000", "100000", "1000000", "1000000000", "1000000001",
	"10000000", "10000001", "1048575", "1048576", "1048577", "2147483647",
	"2147483648", "4294967295", "4294967296", "-4294967296",
	"9223372036854775807", "9223372036854775808", "18446744073709551615",
	"18446744073709551616", "99999999999999999999999999", "0x3e8", "0X3E8",
	"0x", "0xg", "0x-1", "0xffffffff", "0x100000000", "01750", "08", "0b101",
	"1e3", "1000.0", "1,000", "1_000", " 1000", "1000 ", "\t1000",
	"1000\n", "1000\n\n", "\n1000", "1000\r", "1000\r\n", "", "\n", " ",
	"abc", "-", "+", "++1", "+-1", "--1", "nan", "inf", "0x00000000003e8",
	"00000000000000000001000", "\xff\xfe", "ftq", "start",
};

static const char *const name_words[] = {
	"none", "ftq", "echo", "timer", "none\n", "ftq\n", "echo\n", "timer\n",
	"pkt", "pkt\n", "PKT", "pkts",
	"ftq\n\n", "FTQ", "Timer", "timerr", "time",
	"Echo", "ftq ", " ftq", "\tftq", "ftqx", "ft", "ech", "echo\r", "",
	"\n", "nonee", "start", "stop", "1", "-1",
	"ftq\necho",
};

static const char *const cmd_words[] = {
	"start", "stop", "start\n", "stop\n", "start\n\n", "START", "Stop",
	" start", "start ", "sta", "stopp", "restart", "launch", "", "\n",
	"1", "0", "on", "off", "ftq", "none",
	"start\nstop",
};

/* Fill scratch with a value for a file: bytes and length. */
static size_t gen_value(int f, const char **out)
{
	char *s = (char *)scratch;
	unsigned long r = rnd(100), v;
	size_t len, i;

	if (r < 45) {
		const char *const *w = f == F_SERVICE ? name_words :
				       f < 0 ? cmd_words : num_words;
		size_t nw = f == F_SERVICE ? ARRAY_LEN(name_words) :
			    f < 0 ? ARRAY_LEN(cmd_words) : ARRAY_LEN(num_words);
		const char *word = w[rnd(nw)];

		len = strlen(word);
		memcpy(s, word, len);
		if (rnd(8) == 0) {	/* a NUL, then more: the store sees the word */
			memcpy(s + len, "\0junk\n", 6);
			len += 1 + rnd(6);
		}
		*out = s;
		return len;
	}
	if (r < 70 && f > 0) {
		/* at and around the documented bounds, or within them */
		switch (rnd(6)) {
		case 0: v = cfgs[f].min - 1; break;
		case 1: v = cfgs[f].min; break;
		case 2: v = cfgs[f].max; break;
		case 3: v = cfgs[f].max + 1; break;
		default: v = cfgs[f].min + rnd(cfgs[f].max - cfgs[f].min + 1);
		}
		if (f == F_SAMPLES || f == F_FWQ_REPS || f == F_FWQ_WORK)
			v = rnd(3) ? v : 1 + rnd(50);	/* short runs too */
		if (cfgs[f].min == 0 && v == ULONG_MAX)
			len = (size_t)sprintf(s, "-1");
		else if (rnd(5) == 0)
			len = (size_t)sprintf(s, "%#lx%s", v, rnd(2) ? "\n" : "");
		else if (rnd(8) == 0)
			len = (size_t)sprintf(s, "0%lo", v);
		else
			len = (size_t)sprintf(s, "%lu%s", v, rnd(2) ? "\n" : "");
		*out = s;
		return len;
	}
	switch (rnd(9)) {
	case 0:		/* a random number, maybe negative or beyond 32 bits */
		len = (size_t)sprintf(s, "%" PRId64, (int64_t)rnd64() >> rnd(64));
		break;
	case 1:		/* 4095 zeros then a digit: octal, 4 KiB */
		memset(s, '0', 4095);
		s[4095] = '1' + rnd(7);
		len = 4096;
		break;
	case 2:		/* a 1 and 4095 zeros: overflows */
		memset(s, '0', 4096);
		s[0] = '1';
		len = 4096;
		break;
	case 3:		/* longer than a page: the store sees its first page */
		len = 4097 + rnd(8000);
		memset(s, rnd(2) ? '0' : '7', len);
		break;
	case 4:		/* 4 KiB of one character */
		len = 4096;
		memset(s, " a\n\t9x"[rnd(6)], len);
		break;
	case 5:		/* a name or command padded to 4 KiB */
		len = 4096;
		memset(s, '\n', len);
		memcpy(s, "start", 5);
		break;
	case 6:		/* random bytes, NULs included */
		len = 1 + rnd(64);
		for (i = 0; i < len; i++)
			s[i] = (char)rnd(256);
		break;
	case 7:		/* random printable */
		len = 1 + rnd(40);
		for (i = 0; i < len; i++)
			s[i] = (char)(0x20 + rnd(95));
		break;
	default:	/* random hex */
		len = (size_t)sprintf(s, "0x%" PRIx64, rnd64() >> rnd(64));
	}
	*out = s;
	return len;
}

/* ---- the model check, after every case ----------------------------------- */

static const char *want_state(const struct cpu_model *x, const char **alt)
{
	*alt = NULL;
	if (!x->registered)
		return x->started ? "stopped" : "idle";
	if (x->stopping) {
		*alt = "stopped";	/* the service returned late */
		return "stopping";
	}
	if (svc_counts(x->run_service))
		*alt = "stopped";	/* a complete run, still registered */
	return "running";
}

static void check_all(void)
{
	char buf[64];
	const char *st, *alt;
	unsigned long v;
	int c, f;

	for (c = 0; c < ncpu; c++) {
		struct cpu_model *x = &m[c];

		if (!x->present)
			continue;
		buf[0] = 0;
		if (read_text(cpath(c, "service"), buf, sizeof(buf)) < 0 ||
		    strcmp(buf, svc_names[x->service]))
			report("then cpu%d service reads '%s', want %s", c, buf,
			       svc_names[x->service]);
		for (f = 1; f < NCFG; f++) {
			v = read_num(cpath(c, cfgs[f].name));
			if (v != x->cfg[f])
				report("then cpu%d %s reads %lu, want %lu", c,
				       cfgs[f].name, v, x->cfg[f]);
		}
		v = read_num(cpath(c, "runs"));
		if (v != x->runs)
			report("then cpu%d runs reads %lu, want %lu", c, v, x->runs);
		v = read_num(cpath(c, "stop_timeouts"));
		if (v != x->timeouts)
			report("then cpu%d stop_timeouts reads %lu, want %lu", c, v,
			       x->timeouts);
		st = want_state(x, &alt);
		buf[0] = 0;
		if (read_text(cpath(c, "state"), buf, sizeof(buf)) < 0 ||
		    (strcmp(buf, st) && (!alt || strcmp(buf, alt))))
			report("then cpu%d state reads '%s', want %s%s%s", c, buf, st,
			       alt ? " or " : "", alt ? alt : "");
	}
	snprintf(buf, sizeof(buf), SYSCPU "/cpu%d/online", cpu);
	v = read_num(buf);
	if (v != (m[cpu].registered ? 0UL : 1UL))
		report("then cpu%d/online reads %lu, want %d", cpu, v,
		       !m[cpu].registered);
	v = read_num(PARAM);
	if (v != timeout0)
		report("then stop_timeout_ms reads %lu, want %lu", v, timeout0);
}

/* ---- writes to the sysfs files ------------------------------------------- */

/* How a case writes: see do_write(). */
enum { W_WRITE, W_PWRITE, W_PWRITE_NEG, W_WRITEV, W_NULL, W_GUARD, W_RDONLY, W_NR };

/*
 * Write @len bytes of @s to @path (@wo: a write-only file) the way @how
 * says. Returns 0 or the errno, *ret the bytes written; sets *eff to the
 * bytes the store gets (-1: the write cannot reach the store, which then
 * fails with *pre).
 */
static int do_write(const char *path, int wo, int how, const char *s, size_t len,
		    ssize_t *ret, long *eff, int *pre)
{
	int fd, e = 0;
	size_t claim, need, pieces;
	struct iovec iov[3];
	char *g;

	*pre = 0;
	*eff = (long)(len < PAGE ? len : PAGE);
	*ret = -1;
	if (how == W_RDONLY) {
		/* open(2) against the mode: EACCES; write(2): EBADF */
		*pre = wo ? EACCES : EBADF;
		*eff = -1;
	}
	fd = open(path, how == W_RDONLY ? O_RDONLY : O_WRONLY);
	if (fd < 0)
		return errno;
	switch (how) {
	case W_PWRITE:
		*ret = pwrite(fd, s, len, (off_t)(rnd(2) ? 1 + rnd(8192) : 1ULL << 40));
		break;
	case W_PWRITE_NEG:	/* pwrite(2): EINVAL for a negative offset */
		*ret = pwrite(fd, s, len, -1 - (off_t)rnd(4096));
		*pre = EINVAL;
		*eff = -1;
		break;
	case W_WRITEV:
		pieces = 2 + rnd(2);
		iov[0].iov_base = (void *)s;
		iov[0].iov_len = rnd(len + 1);
		iov[1].iov_base = (void *)(s + iov[0].iov_len);
		iov[1].iov_len = pieces == 2 ? len - iov[0].iov_len :
				 rnd(len - iov[0].iov_len + 1);
		iov[2].iov_base = (void *)(s + iov[0].iov_len + iov[1].iov_len);
		iov[2].iov_len = len - iov[0].iov_len - iov[1].iov_len;
		*ret = writev(fd, iov, (int)pieces);
		break;
	case W_NULL:		/* write(2): EFAULT, unless nothing is written */
		*ret = write(fd, NULL, len);
		if (len) {
			*pre = EFAULT;
			*eff = -1;
		}
		break;
	case W_GUARD:
		/*
		 * The bytes end where an inaccessible page starts, and the
		 * length claims up to 100 more: EFAULT when the page that the
		 * store gets would take any of them.
		 */
		if (len > PAGE)
			len = PAGE;
		g = guard + PAGE - len;
		memmove(g, s, len);
		claim = len + 1 + rnd(100);
		need = claim < PAGE ? claim : PAGE;
		if (need > len) {
			*pre = EFAULT;
			*eff = -1;
		} else {
			*eff = (long)need;
		}
		*ret = write(fd, g, claim);
		break;
	default:
		*ret = write(fd, s, len);
	}
	if (*ret < 0)
		e = errno;
	close(fd);
	return e;
}


/* ---- cases: the management files ----------------------------------------- */

/* A configuration file of any present CPU. */
static int case_cfg(void)
{
	char text[PAGE + 1];
	const char *s;
	unsigned long val = 0;
	ssize_t ret;
	long eff;
	size_t len;
	int c, f, how, e, want, pre, i;
	struct cpu_model *x;

	do
		c = (int)rnd((unsigned long)ncpu);
	while (!m[c].present);
	x = &m[c];
	f = (int)rnd(NCFG);
	len = gen_value(f, &s);
	how = rnd(3) ? W_WRITE : (int)rnd(W_NR);
	snprintf(what, sizeof(what), "cpu%d/%s: write '%s' (how %d)", c,
		 cfgs[f].name, show(s, len), how);
	e = do_write(cpath(c, cfgs[f].name), 0, how, s, len, &ret, &eff, &pre);
	if (eff < 0) {
		want = pre;
	} else if (eff == 0) {
		want = 0;		/* sysfs calls no store for 0 bytes */
	} else {
		store_text(s, (size_t)eff, text);
		if (f == F_SERVICE) {
			/* ABI: "ftq", "echo", "timer", "pkt" or "none", else EINVAL */
			want = EINVAL;
			for (i = 0; i < NR_SVC; i++)
				if (streq_model(text, svc_names[i])) {
					want = 0;
					val = (unsigned long)i;
				}
		} else {
			/* ABI: EINVAL not a number, ERANGE out of range */
			want = kstrtou32_model(text, &val);
			if (!want && (val < cfgs[f].min || val > cfgs[f].max))
				want = ERANGE;
		}
		if (!want && x->registered)
			want = EBUSY;	/* ABI: EBUSY while started */
	}
	if (!expect(e, want, -1))
		return e;
	if (!e && ret != (eff > 0 ? eff : 0))
		report("wrote %zd bytes, want %ld", ret, eff > 0 ? eff : 0);
	if (!e && eff > 0) {
		if (f == F_SERVICE)
			x->service = (int)val;
		else
			x->cfg[f] = val;
	}
	return e;
}

/* The core's stop_timeout_ms, set back to its value after the case. */
static int case_param(void)
{
	char text[PAGE + 1], buf[32];
	const char *s;
	unsigned long val = 0, got;
	ssize_t ret;
	long eff;
	size_t len;
	int how, e, want, pre;

	len = gen_value(F_TIMEOUT, &s);
	how = rnd(3) ? W_WRITE : (int)rnd(W_NR);
	snprintf(what, sizeof(what), "stop_timeout_ms: write '%s' (how %d)",
		 show(s, len), how);
	e = do_write(PARAM, 0, how, s, len, &ret, &eff, &pre);
	if (eff < 0) {
		want = pre;
	} else if (eff == 0) {
		want = 0;
		val = timeout0;
	} else {
		/* param_set_uint_minmax(): kstrtouint(), EINVAL out of range */
		store_text(s, (size_t)eff, text);
		want = kstrtou32_model(text, &val);
		if (!want && (val < cfgs[F_TIMEOUT].min ||
			      val > cfgs[F_TIMEOUT].max))
			want = EINVAL;
	}
	if (!expect(e, want, -1))
		val = ULONG_MAX;
	if (e)
		val = timeout0;
	got = read_num(PARAM);
	if (val != ULONG_MAX && got != val)
		report("reads %lu, want %lu", got, val);
	snprintf(buf, sizeof(buf), "%lu", timeout0);
	if (write_str(PARAM, buf))
		report("cannot set stop_timeout_ms back to %lu", timeout0);
	return e;
}

/* "start" and "stop" on CPU (for real) and on CPU 0 (refused). */
static int case_control(void)
{
	char text[PAGE + 1];
	const char *s;
	ssize_t ret;
	long eff;
	size_t len;
	int c = rnd(4) ? cpu : 0, how, e, want, alt = -1, pre;
	struct cpu_model *x = &m[c];

	len = gen_value(-1, &s);
	if (rnd(3) == 0) {	/* the command that changes something */
		len = (size_t)sprintf((char *)scratch, "%s%s",
				      x->registered ? "stop" : "start",
				      rnd(2) ? "\n" : "");
		s = (char *)scratch;
	}
	how = rnd(4) ? W_WRITE : (int)rnd(W_NR);
	snprintf(what, sizeof(what), "cpu%d/control: write '%s' (how %d, %s)", c,
		 show(s, len), how, svc_names[x->service]);
	e = do_write(cpath(c, "control"), 1, how, s, len, &ret, &eff, &pre);
	if (eff < 0) {
		want = pre;
	} else if (eff == 0) {
		want = 0;
	} else {
		store_text(s, (size_t)eff, text);
		/* the ABI's errors of "start" and "stop", in the code's order */
		if (streq_model(text, "start")) {
			if (x->registered)
				want = EBUSY;
			else if (x->service == SVC_NONE)
				want = EINVAL;
			else if (svc_counts(x->service) && !tsc_khz)
				want = ENODEV;
			else if (c == 0)
				want = EPERM;
			else
				want = 0, alt = ENOMEM;
		} else if (streq_model(text, "stop")) {
			if (!x->registered)
				want = EINVAL;
			else
				want = 0, alt = ETIMEDOUT;
		} else {
			want = EINVAL;
		}
	}
	if (!expect(e, want, alt))
		return e;
	if (e == 0 && eff > 0 && ret != eff)
		report("wrote %zd bytes, want %ld", ret, eff);
	if (e == 0 && eff > 0 && !x->registered) {
		x->registered = 1;
		x->started = 1;
		x->stopping = 0;
		x->runs++;
		x->run_id++;
		x->run_service = x->service;
		x->run_size = 0;
		x->run_pfn = 0;
		x->ring_dirty = 0;
	} else if (e == 0 && eff > 0) {
		x->registered = 0;
		x->stopping = 0;
	} else if (e == ETIMEDOUT) {
		x->stopping = 1;
		x->timeouts++;
	}
	return e;
}

/* Opens against each file's mode, and reads at any offset and size. */
static int case_files(void)
{
	static const char *const rw[] = {
		"service", "quantum_ns", "samples", "gap_ns", "fwq_work", "fwq_reps",
	};
	static const size_t sizes[] = { 0, 1, 2, 7, 100, 4095, 4096, 65536 };
	const char *file;
	char path[128];
	unsigned char *full = scratch + (1 << 20), *buf = scratch;
	long off;
	size_t n, total;
	ssize_t got, want;
	int c, kind, fd, e, flags, nul, stable, i;

	do
		c = (int)rnd((unsigned long)ncpu);
	while (!m[c].present);
	kind = (int)rnd(4);	/* 0 rw, 1 control, 2 ro text, 3 ro binary */
	file = kind == 0 ? rw[rnd(ARRAY_LEN(rw))] : kind == 1 ? "control" :
	       kind == 2 ? ro_text[rnd(ARRAY_LEN(ro_text))] :
			   ro_bin[rnd(ARRAY_LEN(ro_bin))];
	snprintf(path, sizeof(path), "%s", cpath(c, file));
	if (kind == 1 || rnd(4) == 0) {
		/* open(2): EACCES against the file's mode */
		flags = kind == 1 ? (rnd(2) ? O_RDONLY : O_RDWR) :
			kind == 0 ? O_RDWR : (rnd(2) ? O_WRONLY : O_RDWR);
		snprintf(what, sizeof(what), "cpu%d/%s: open(%#x)", c, file, flags);
		fd = open(path, flags);
		e = fd < 0 ? errno : 0;
		if (fd >= 0)
			close(fd);
		expect(e, kind == 0 && flags == O_RDWR ? 0 : EACCES, -1);
		return e;
	}
	/* What a whole read returns now. */
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(what, sizeof(what), "cpu%d/%s: open", c, file);
		report("%s", ename(errno));
		return errno;
	}
	total = 0;
	while ((got = pread(fd, full + total, 4096, (off_t)total)) > 0 &&
	       total < (1 << 20) - 4096)
		total += (size_t)got;
	/*
	 * Files that a running service changes, and those longer than
	 * what was read of them, are compared less.
	 */
	stable = (!m[c].registered || kind == 0 || !strcmp(file, "runs") ||
		  !strcmp(file, "stop_timeouts")) && got == 0;
	switch (rnd(8)) {
	case 0: off = -1 - (long)rnd(100); break;
	case 1: off = 1L << 40; break;
	case 2: off = (long)total + (long)rnd(3) - 1; break;
	case 3: off = (long)rnd(total + 1); break;
	default: off = rnd(4) ? 0 : (long)rnd(5);
	}
	if (off < 0 && rnd(2))
		off = 0;
	n = rnd(3) ? sizes[rnd(ARRAY_LEN(sizes))] : rnd(8192);
	nul = rnd(8) == 0;
	snprintf(what, sizeof(what), "cpu%d/%s: pread(%s, %zu, %ld) of %zu bytes", c,
		 file, nul ? "NULL" : "buf", n, off, total);
	got = pread(fd, nul ? NULL : buf, n, off);
	e = got < 0 ? errno : 0;
	close(fd);
	/* read(2): EINVAL for a negative offset, EFAULT for no buffer */
	if (off < 0) {
		expect(e, EINVAL, -1);
		return e;
	}
	want = off >= (long)total ? 0 : (ssize_t)(total - (size_t)off);
	if ((size_t)want > n)
		want = (ssize_t)n;
	if (kind == 3 && want > 4096)
		want = 4096;	/* a binary file's read gives at most a page */
	if (nul && want) {
		expect(e, EFAULT, -1);
		return e;
	}
	if (!stable) {
		/* it may have grown: EFAULT for no buffer then */
		if (e && !(nul && e == EFAULT))
			report("%s", ename(e));
		else if (got > (ssize_t)n || (kind == 3 && got > 4096))
			report("read %zd bytes", got);
		return e;
	}
	if (!expect(e, 0, -1))
		return e;
	if (got != want)
		report("read %zd bytes, want %zd", got, want);
	else if (!nul && memcmp(buf, full + off, (size_t)got))
		report("read other bytes than a whole read has there");
	/* What a text file says. */
	if (kind != 3 && total && off == 0) {
		full[total] = 0;
		if (!strcmp(file, "state")) {
			static const char *const st[] = {
				"idle\n", "armed\n", "running\n", "stopping\n", "stopped\n",
			};
			for (i = 0; i < 5 && strcmp((char *)full, st[i]); i++)
				;
			if (i == 5)
				report("state '%s'", show((char *)full, total));
		} else if (strcmp(file, "service")) {
			for (i = 0; full[i] >= '0' && full[i] <= '9'; i++)
				;
			if (!i || full[i] != '\n' || (size_t)i + 1 != total)
				report("not a number: '%s'", show((char *)full, total));
		}
	}
	return e;
}

/* ---- cases: /dev/offsched ------------------------------------------------ */

static int present(uint64_t c)
{
	return c < MAXCPU && m[c].present;
}

/* OFFSCHED_IOC_ATTACH to c on fd: 0 or the errno, *size the size. */
static int attach(int fd, uint32_t c, uint64_t *size)
{
	struct offsched_attach a = { .cpu = c };

	if (ioctl(fd, OFFSCHED_IOC_ATTACH, &a))
		return errno;
	*size = a.size;
	return 0;
}

/*
 * Learn the size and first page of the current run of c, through a
 * descriptor of its own; check its header. 0 when known, -1 if c has no run.
 */
static int learn_run(int c)
{
	struct cpu_model *x = &m[c];
	struct offsched_shm *shm;
	uint64_t size = 0;
	int fd, e;

	if (!x->started)
		return -1;
	if (x->run_pfn)
		return 0;
	fd = open(DEV, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		report("open " DEV ": %s", ename(errno));
		return -1;
	}
	e = attach(fd, (uint32_t)c, &size);
	if (e) {
		report("attach to cpu%d, which has a run: %s", c, ename(e));
		close(fd);
		return -1;
	}
	shm = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (shm == MAP_FAILED) {
		report("mmap of cpu%d's run: %s", c, ename(errno));
		return -1;
	}
	if (size % PAGE || size < SHM_SIZE || size > 64UL << 20)
		report("cpu%d's run has %" PRIu64 " bytes", c, size);
	if (shm->magic != OFFSCHED_SHM_MAGIC || shm->version != OFFSCHED_SHM_VERSION ||
	    shm->cpu != (uint32_t)c || shm->size != size)
		report("cpu%d's run: header magic %#x version %u cpu %u size %u",
		       c, shm->magic, shm->version, shm->cpu, shm->size);
	x->run_size = size;
	x->run_pfn = pfn_of(shm);
	munmap(shm, PAGE);
	if (!x->run_pfn)
		report("no page frame for cpu%d's run", c);
	return x->run_pfn ? 0 : -1;
}

/* An ioctl number near OFFSCHED_IOC_ATTACH, or a random one. */
static unsigned int pick_cmd(void)
{
	static const unsigned int nrs[] = { 0, 2, 3, 0x7f, 0x80, 0xfe, 0xff };
	static const unsigned int sizes[] = {
		0, 1, 4, 8, 12, 15, 17, 24, 32, 4096, 0x3fff,
	};
	static const unsigned int types[] = {
		0xb8, 0xba, 0x39, 0xb0, 0xbf, 0xff, 0x01, 0x9b, 0xb9 ^ 0x40,
	};
	unsigned int dir = _IOC_READ | _IOC_WRITE, type = OFFSCHED_IOC_MAGIC;
	unsigned int nr = 1, size = sizeof(struct offsched_attach), c, t;

	switch (rnd(10)) {
	case 0: case 1: case 2: case 3:
		return OFFSCHED_IOC_ATTACH;
	case 4: nr = rnd(2) ? nrs[rnd(ARRAY_LEN(nrs))] : (unsigned int)rnd(256); break;
	case 5: size = rnd(2) ? sizes[rnd(ARRAY_LEN(sizes))] : (unsigned int)rnd(0x4000); break;
	case 6: dir = (unsigned int)rnd(3); break;	/* none, write, read */
	case 7: type = types[rnd(ARRAY_LEN(types))]; break;
	case 8:
		nr = (unsigned int)rnd(256);
		size = (unsigned int)rnd(0x4000);
		dir = (unsigned int)rnd(4);
		break;
	default:
		/*
		 * Any number but those of the types that the VFS answers
		 * itself before the driver (FIOCLEX and co. 'T', FIBMAP and
		 * FIGETBSZ 0, FS_IOC_* 'f' and 'X', FICLONE 0x94).
		 */
		do {
			c = (unsigned int)rnd64();
			t = _IOC_TYPE(c);
		} while (t == 0 || t == 'T' || t == 'X' || t == 'f' || t == 0x94);
		return c;
	}
	return _IOC(dir, type, nr, size);
}

static const int dev_modes[] = { O_RDWR, O_RDWR, O_RDWR, O_RDONLY, O_WRONLY, 3, O_PATH };
#define MODE_R(md)	((md) == O_RDONLY || (md) == O_RDWR)
#define MODE_W(md)	((md) == O_WRONLY || (md) == O_RDWR)

/*
 * The run that fd is attached to must be @now's current one (-1: none):
 * a one-page mapping shows its first page, or fails with ENODATA.
 */
static void check_attached(int fd, int now)
{
	void *p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);
	int e = p == MAP_FAILED ? errno : 0;

	if (now < 0) {
		if (e != ENODATA)
			report("then mmap of an unattached file: %s, want ENODATA", ename(e));
	} else if (e) {
		report("then mmap of the file attached to cpu%d: %s", now, ename(e));
	} else if (learn_run(now) == 0 && pfn_of(p) != m[now].run_pfn) {
		report("then the file maps another page than cpu%d's run", now);
	}
	if (!e)
		munmap(p, PAGE);
}

static int case_ioctl(void)
{
	struct offsched_attach *a, saved;
	uint64_t size = 0;
	unsigned int cmd = pick_cmd();
	int mode = dev_modes[rnd(ARRAY_LEN(dev_modes))], fd, e, want, pre = -1;
	int readable = 1, writable = 1, ak = (int)rnd(12), is_attach;
	char desc[48];
	static const uint32_t cpus[] = { 0, 1, 2, 3, 63, 64, 4096, 0x7fffffff,
					 0x80000000, 0xffffffff };

	if (rnd(2) && m[cpu].started)
		pre = cpu;
	switch (ak) {
	case 0: a = (void *)((uintptr_t)scratch + 1 + rnd(7));
		snprintf(desc, sizeof(desc), "misaligned"); break;
	case 1: a = NULL; readable = writable = 0;
		snprintf(desc, sizeof(desc), "NULL"); break;
	case 2: a = (void *)(1 + rnd(4095)); readable = writable = 0;
		snprintf(desc, sizeof(desc), "%p", (void *)a); break;
	case 3: a = (void *)(guard + PAGE - sizeof(*a));
		snprintf(desc, sizeof(desc), "at the end of a page"); break;
	case 4: a = (void *)(guard + PAGE - 1 - rnd(sizeof(*a) - 1));
		readable = writable = 0;
		snprintf(desc, sizeof(desc), "half in an unmapped page"); break;
	case 5: a = (void *)(guard + PAGE); readable = writable = 0;
		snprintf(desc, sizeof(desc), "in an unmapped page"); break;
	case 6: a = (void *)ro_page; writable = 0;
		snprintf(desc, sizeof(desc), "in a read-only page"); break;
	case 7: a = rnd(2) ? KERNEL_PTR : (void *)(uintptr_t)(rnd(2) ? ~0UL : 1UL << 63);
		readable = writable = 0;
		snprintf(desc, sizeof(desc), "%p", (void *)a); break;
	default: a = (void *)scratch;
		snprintf(desc, sizeof(desc), "valid");
	}
	memset(&saved, 0, sizeof(saved));
	saved.cpu = rnd(3) ? (rnd(2) ? (uint32_t)cpu : 0) :
		    rnd(2) ? cpus[rnd(ARRAY_LEN(cpus))] : (uint32_t)rnd64();
	saved.__pad = rnd(6) ? 0 : rnd(2) ? 1 : (uint32_t)rnd64();
	saved.size = rnd(2) ? 0 : rnd64();
	if (ak == 6) {
		mprotect(ro_page, PAGE, PROT_READ | PROT_WRITE);
		memcpy(a, &saved, sizeof(saved));
		mprotect(ro_page, PAGE, PROT_READ);
	} else if (readable) {
		memcpy(a, &saved, sizeof(saved));
	}
	fd = open(DEV, mode | O_CLOEXEC);
	if (fd < 0) {
		snprintf(what, sizeof(what), "open " DEV " (%#x)", mode);
		report("%s", ename(errno));
		return errno;
	}
	if (pre >= 0 && mode != O_PATH && attach(fd, (uint32_t)pre, &size)) {
		snprintf(what, sizeof(what), "attach to cpu%d", pre);
		report("%s", ename(errno));
	}
	if (mode == O_PATH)
		pre = -1;
	is_attach = cmd == OFFSCHED_IOC_ATTACH;
	snprintf(what, sizeof(what),
		 "ioctl(%#x, arg %s {cpu %u pad %u}) on a file opened %#x%s", cmd,
		 desc, saved.cpu, saved.__pad, mode, pre >= 0 ? ", attached" : "");
	e = ioctl(fd, cmd, a) ? errno : 0;
	/* ioctl(2): EBADF, ENOTTY; offsched.rst: EINVAL, ENODATA; EFAULT */
	if (mode == O_PATH)
		want = EBADF;
	else if (!is_attach)
		want = ENOTTY;
	else if (!readable)
		want = EFAULT;
	else if (saved.__pad || !present(saved.cpu))
		want = EINVAL;
	else if (!m[saved.cpu].started)
		want = ENODATA;
	else if (!writable)
		want = EFAULT;
	else
		want = 0;
	if (!expect(e, want, -1)) {
		close(fd);
		return e;
	}
	if (e && readable && memcmp(a, &saved, sizeof(saved)))
		report("failed, but changed its argument");
	if (!e) {
		if (a->cpu != saved.cpu || a->__pad)
			report("changed cpu or pad of its argument");
		if (learn_run((int)saved.cpu) == 0 && a->size != m[saved.cpu].run_size)
			report("size %" PRIu64 ", want %" PRIu64, (uint64_t)a->size,
			       m[saved.cpu].run_size);
	}
	if (mode == O_RDWR)
		check_attached(fd, e ? pre : (int)saved.cpu);
	close(fd);
	return e;
}

/* ---- mappings ------------------------------------------------------------ */

struct mapping {
	unsigned char *p;
	size_t len;		/* bytes mapped from p */
	uint64_t off;		/* offset in the run's memory */
	int cpu;
	unsigned long run_id;
	uint64_t size;		/* the run's size */
	uint64_t pfn;		/* the frame of its first page */
};
#define POOL 6
static struct mapping pool[POOL];
static int npool;

/* A fresh inaccessible reservation of @len bytes, as a MAP_FIXED target. */
static void *reserve(size_t len)
{
	void *p = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* The mapping's header and pages, and its first page's frame. */
static void check_mapping(const struct mapping *mp, int pfn, const char *when)
{
	const struct offsched_shm *shm = (const void *)mp->p;
	int sig = touch(mp->p, mp->len);

	if (sig) {
		report("%s: signal %d reading the mapping", when, sig);
		return;
	}
	if (mp->off == 0 &&
	    (shm->magic != OFFSCHED_SHM_MAGIC || shm->cpu != (uint32_t)mp->cpu ||
	     shm->size != mp->size))
		report("%s: header magic %#x cpu %u size %u, want cpu%d size %" PRIu64,
		       when, shm->magic, shm->cpu, shm->size, mp->cpu, mp->size);
	if (pfn && pfn_of(mp->p) != mp->pfn)
		report("%s: the mapping's first page moved", when);
}

struct mcase {
	int mode, attached;
	uint64_t size, len, off;
	int prot, flags;
	int fixed;		/* 0 no address, 1 a free range, 2 unaligned, 3 taken */
};

/*
 * mmap(2)'s answer, in the order of the x86 system call, ksys_mmap_pgoff()
 * and do_mmap() for the generic part (mmap(2): EINVAL, ENOMEM, EOVERFLOW,
 * EEXIST, EOPNOTSUPP, EACCES, EPERM, EBADF), then the driver's (offsched.rst:
 * EINVAL for MAP_PRIVATE or beyond the memory, ENODATA before an attach).
 * *alt: another acceptable answer; *ro_shared: a read-only shared mapping.
 */
static int mmap_model(const struct mcase *c, int *alt, int *ro_shared)
{
	unsigned long legacy = MAP_SHARED | MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS |
		MAP_DENYWRITE | MAP_EXECUTABLE | MAP_UNINITIALIZED | MAP_GROWSDOWN |
		MAP_LOCKED | MAP_NORESERVE | MAP_POPULATE | MAP_NONBLOCK | MAP_STACK |
		MAP_HUGETLB | MAP_32BIT | MAP_HUGE_2MB | MAP_HUGE_1GB;
	unsigned long flags = (unsigned int)c->flags, pgoff = c->off >> 12, len, end;
	*alt = -1;
	*ro_shared = 0;
	if (c->off & (PAGE - 1))
		return EINVAL;
	if (c->mode == O_PATH)
		return EBADF;
	if (flags & MAP_HUGETLB)
		return EINVAL;		/* not a hugetlbfs file */
	if (!c->len)
		return EINVAL;
	if (flags & MAP_FIXED_NOREPLACE)
		flags |= MAP_FIXED;
	len = (c->len + PAGE - 1) & ~(PAGE - 1);
	if (!len)
		return ENOMEM;
	if (pgoff + (len >> 12) < pgoff)
		return EOVERFLOW;
	if (len > TASK_SIZE_MAX)
		return ENOMEM;
	if ((flags & MAP_FIXED) && c->fixed == 2)
		return EINVAL;
	if (!(flags & MAP_FIXED) && len > 1UL << 40)
		*alt = ENOMEM;		/* no room that large */
	if (!(flags & MAP_FIXED) && (flags & MAP_32BIT) && len > 1UL << 29)
		*alt = ENOMEM;		/* nor below 2 GiB */
	if ((flags & MAP_FIXED_NOREPLACE) && c->fixed == 3)
		return EEXIST;
	if (pgoff > (~0UL - len) >> 12)
		return EOVERFLOW;	/* file_mmap_ok() */
	switch (flags & MAP_TYPE) {
	case MAP_SHARED:
		flags &= legacy;
		/* fallthrough */
	case MAP_SHARED_VALIDATE:
		if (flags & ~legacy)
			return EOPNOTSUPP;
		if ((c->prot & PROT_WRITE) && !MODE_W(c->mode))
			return EACCES;
		*ro_shared = !MODE_W(c->mode);
		/* fallthrough */
	case MAP_PRIVATE:
		if (!MODE_R(c->mode))
			return EACCES;
		if ((c->prot & PROT_EXEC) && dev_noexec)
			return EPERM;
		if (flags & MAP_GROWSDOWN)
			return EINVAL;
		break;
	default:
		return EINVAL;
	}
	/*
	 * mmap_region(): a private writable mapping is charged (ENOMEM:
	 * beyond RAM and swap with the default overcommit heuristic).
	 */
	if ((flags & MAP_TYPE) == MAP_PRIVATE && (c->prot & PROT_WRITE) &&
	    !((flags & MAP_NORESERVE) && overcommit != 2)) {
		if (overcommit == 0 && len / PAGE > ram_pages)
			return ENOMEM;
		if (overcommit == 2)
			*alt = ENOMEM;
	}
	if ((flags & MAP_TYPE) == MAP_PRIVATE)
		return EINVAL;
	if (!c->attached)
		return ENODATA;
	if (__builtin_add_overflow(c->off, len, &end) || end > c->size)
		return EINVAL;
	return 0;
}

static void pool_add(unsigned char *p, size_t len, uint64_t off, int c)
{
	struct mapping *mp;

	if (npool == POOL) {
		munmap(p, len);
		return;
	}
	mp = &pool[npool++];
	mp->p = p;
	mp->len = len;
	mp->off = off;
	mp->cpu = c;
	mp->run_id = m[c].run_id;
	mp->size = m[c].run_size;
	mp->pfn = pfn_of(p);
}

static void pool_del(int i)
{
	pool[i] = pool[--npool];
}

/* One deviation from a valid mapping (1 to 8); case_mmap() combines some. */
static void deviate(struct mcase *c, int d, char *desc, size_t n)
{
	static const int prots[] = {
		PROT_READ, PROT_WRITE, PROT_NONE, PROT_EXEC, PROT_READ | PROT_EXEC,
		PROT_READ | PROT_WRITE | PROT_EXEC,
	};
	static const int extra[] = {
		MAP_POPULATE, MAP_LOCKED, MAP_NORESERVE, MAP_32BIT, MAP_SYNC,
		MAP_FIXED_NOREPLACE, MAP_HUGETLB, MAP_GROWSDOWN, MAP_STACK,
		MAP_NONBLOCK, MAP_DENYWRITE, MAP_EXECUTABLE, MAP_UNINITIALIZED,
		1 << 21, 1 << 22, 1 << 23, 1 << 24, 1 << 25,
	};
	uint64_t s = c->size ? c->size : 2 * PAGE;
	size_t l = strlen(desc);
	int f;

	switch (d) {
	case 1:
		c->prot = prots[rnd(ARRAY_LEN(prots))];
		snprintf(desc + l, n - l, " prot %#x", c->prot);
		break;
	case 2:
		c->flags = (c->flags & ~MAP_TYPE) |
			   (rnd(3) ? (rnd(2) ? MAP_PRIVATE : MAP_SHARED_VALIDATE) :
			    (int)rnd(16));
		snprintf(desc + l, n - l, " type %#x", c->flags & MAP_TYPE);
		break;
	case 3:
		f = extra[rnd(ARRAY_LEN(extra))];
		if (f == MAP_FIXED_NOREPLACE && c->len > 64UL << 20)
			f = MAP_POPULATE;	/* never a fixed range that large */
		c->flags |= f;
		if (rnd(3) == 0)
			c->flags = (c->flags & ~MAP_TYPE) | MAP_SHARED_VALIDATE;
		if (c->flags & MAP_FIXED_NOREPLACE)
			c->fixed = rnd(2) ? 1 : 3;
		snprintf(desc + l, n - l, " flags %#x", c->flags);
		break;
	case 4:
		switch (rnd(10)) {
		case 0: c->len = 0; break;
		case 1: c->len = s + 1; break;
		case 2: c->len = s + PAGE; break;
		case 3: c->len = 2 * s; break;
		case 4: c->len = 1ULL << 46; break;
		case 5: c->len = 1ULL << 47; break;
		case 6: c->len = ~0ULL; break;
		case 7: c->len = ~0ULL - 2 * PAGE; break;
		case 8: c->len = (ram_pages + rnd(2)) * PAGE; break;	/* the charge */
		default: c->len = rnd64() >> rnd(64);
		}
		c->fixed = 0;	/* never MAP_FIXED over more than reserved */
		c->flags &= ~(MAP_FIXED | MAP_FIXED_NOREPLACE | MAP_32BIT);
		snprintf(desc + l, n - l, " len %#" PRIx64, c->len);
		break;
	case 5:
		switch (rnd(11)) {
		case 0: c->off = 1; break;
		case 1: c->off = PAGE - 1; break;
		case 2: c->off = s - 1; break;
		case 3: c->off = s; break;
		case 4: c->off = s + PAGE; break;
		case 5: c->off = 1ULL << 40; break;
		case 6: c->off = -PAGE; break;
		case 7: c->off = -(1ULL << 40); break;
		case 8: c->off = 0x7ffffffffffff000ULL; break;
		case 9: c->off = s - PAGE; break;
		default: c->off = rnd64() & ~(PAGE - 1);
		}
		snprintf(desc + l, n - l, " off %#" PRIx64, c->off);
		break;
	case 6:
		if (c->len > 64UL << 20)
			break;
		c->fixed = 1 + (int)rnd(3);
		c->flags |= c->fixed == 3 || rnd(2) ? MAP_FIXED_NOREPLACE : MAP_FIXED;
		snprintf(desc + l, n - l, " fixed %d", c->fixed);
		break;
	case 7:
		c->mode = dev_modes[rnd(ARRAY_LEN(dev_modes))];
		snprintf(desc + l, n - l, " mode %#x", c->mode);
		break;
	case 8:		/* a reader's mapping */
		c->mode = O_RDONLY;
		c->prot = PROT_READ;
		snprintf(desc + l, n - l, " read-only");
		break;
	}
}

static int case_mmap(void)
{
	struct mcase c = { .mode = O_RDWR, .prot = PROT_READ | PROT_WRITE,
			   .flags = MAP_SHARED };
	struct mapping mp;
	char desc[200] = "";
	unsigned char *p, *addr = NULL;
	uint64_t size = 0, pages;
	int fd, e, want, alt, ro_shared, d, i, attach_to = -1;

	if (rnd(8) && m[cpu].started && learn_run(cpu) == 0)
		attach_to = cpu;
	c.attached = attach_to >= 0;
	c.size = attach_to >= 0 ? m[cpu].run_size : 0;
	pages = (c.size ? c.size : 4 * PAGE) / PAGE;
	/* A valid mapping: any length and page offset inside the memory. */
	c.off = rnd(2) ? 0 : rnd(pages) * PAGE;
	c.len = rnd(2) ? (pages - c.off / PAGE) * PAGE :
		1 + rnd((pages - c.off / PAGE) * PAGE);
	d = (int)rnd(10);
	if (d == 9) {
		for (i = 0; i < 2 + (int)rnd(3); i++)
			deviate(&c, 1 + (int)rnd(8), desc, sizeof(desc));
	} else {
		deviate(&c, d, desc, sizeof(desc));
	}
	want = mmap_model(&c, &alt, &ro_shared);
	if (c.fixed) {
		size_t rl = c.len ? (c.len + PAGE - 1) & ~(PAGE - 1) : PAGE;

		addr = reserve(rl);
		if (!addr) {
			snprintf(what, sizeof(what), "reserve %zu bytes", rl);
			report("%s", ename(errno));
			return errno;
		}
		if (c.fixed == 1 && (c.flags & MAP_FIXED_NOREPLACE))
			munmap(addr, rl);	/* a hole */
		if (c.fixed == 2)
			addr += 1 + rnd(PAGE - 1);
	}
	fd = open(DEV, c.mode | O_CLOEXEC);
	if (fd < 0) {
		snprintf(what, sizeof(what), "open " DEV " (%#x)", c.mode);
		report("%s", ename(errno));
		return errno;
	}
	if (c.attached && c.mode != O_PATH && attach(fd, (uint32_t)cpu, &size)) {
		snprintf(what, sizeof(what), "attach to cpu%d", cpu);
		report("%s", ename(errno));
	}
	snprintf(what, sizeof(what),
		 "mmap(%p, %#" PRIx64 ", prot %#x, flags %#x, off %#" PRIx64 ") of %#" PRIx64
		 " bytes, opened %#x, %sattached:%s", (void *)addr, c.len, c.prot, c.flags,
		 c.off, c.size, c.mode, c.attached ? "" : "not ", desc);
	p = mmap(addr, c.len, c.prot, c.flags, fd, (off_t)c.off);
	e = p == MAP_FAILED ? errno : 0;
	close(fd);
	nro_shared += ro_shared && !want;
	if (e != want && !(alt >= 0 && e == alt))
		expect(e, want, alt);
	if (e) {
		if (c.fixed && !(c.fixed == 1 && (c.flags & MAP_FIXED_NOREPLACE)))
			munmap((void *)((uintptr_t)addr & ~(PAGE - 1)),
			       c.len ? (c.len + PAGE - 1) & ~(PAGE - 1) : PAGE);
		return e;
	}
	/* Done: the pages of the run at the offset, where asked. */
	mp.p = p;
	mp.len = (c.len + PAGE - 1) & ~(PAGE - 1);
	mp.off = c.off;
	mp.cpu = cpu;
	mp.size = c.size;
	if (c.fixed && p != addr)
		report("mapped at %p, not at %p", (void *)p, (void *)addr);
	if ((c.flags & MAP_32BIT) && !c.fixed && (uintptr_t)p + mp.len > 1UL << 31)
		report("MAP_32BIT mapped at %p", (void *)p);
	if (c.prot & (PROT_READ | PROT_WRITE))
		check_mapping(&mp, 0, "mapped");	/* header, pages */
	/* The first page is the run's page at off (from a reference map). */
	fd = open(DEV, O_RDWR | O_CLOEXEC);
	if (fd >= 0 && !attach(fd, (uint32_t)cpu, &size)) {
		void *r = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, (off_t)c.off);

		if (r == MAP_FAILED || !pfn_of(r) || pfn_of(r) != pfn_of(p))
			report("the mapping's first page is not the run's page at %#" PRIx64,
			       c.off);
		if (r != MAP_FAILED)
			munmap(r, PAGE);
	}
	if (fd >= 0)
		close(fd);
	if ((c.prot & PROT_READ) && (c.prot & PROT_WRITE) && MODE_W(c.mode) &&
	    !c.fixed && rnd(2))
		pool_add(p, mp.len, c.off, cpu);
	else
		munmap(p, mp.len);
	return e;
}

/* Operations on a kept mapping, some of them across later starts. */
static int case_pool(void)
{
	struct mapping *mp;
	unsigned char *r;
	void *q;
	pid_t pid;
	int i, e = 0, status, op;

	if (!npool) {
		/* a new one, of the current run, kept */
		snprintf(what, sizeof(what), "map cpu%d's run to keep it", cpu);
		if (!m[cpu].started || learn_run(cpu))
			return -1;
		i = open(DEV, O_RDWR | O_CLOEXEC);
		if (i < 0 || attach(i, (uint32_t)cpu, &m[cpu].run_size)) {
			report("open and attach: %s", ename(errno));
			if (i >= 0)
				close(i);
			return errno;
		}
		q = mmap(NULL, m[cpu].run_size, PROT_READ | PROT_WRITE, MAP_SHARED, i, 0);
		e = q == MAP_FAILED ? errno : 0;
		close(i);
		if (!expect(e, 0, -1))
			return e;
		pool_add(q, m[cpu].run_size, 0, cpu);
		check_mapping(&pool[npool - 1], 1, "kept");
		return 0;
	}
	i = (int)rnd((unsigned long)npool);
	mp = &pool[i];
	op = (int)rnd(9);
	snprintf(what, sizeof(what), "op %d on a kept mapping of cpu%d's run %lu%s "
		 "(%zu of %" PRIu64 " bytes at %#" PRIx64 ")", op, mp->cpu, mp->run_id,
		 mp->run_id == m[mp->cpu].run_id ? " (current)" : "", mp->len,
		 mp->size, mp->off);
	switch (op) {
	case 0:		/* still there, after whatever came since */
		break;
	case 1:		/* mprotect(2) down and up again */
		e = mprotect(mp->p, mp->len, PROT_READ) ? errno : 0;
		if (expect(e, 0, -1))
			e = mprotect(mp->p, mp->len, PROT_READ | PROT_WRITE) ? errno : 0;
		expect(e, 0, -1);
		break;
	case 2:		/* munmap(2) of the last page: the VMA is split */
		if (mp->len < 2 * PAGE)
			break;
		e = munmap(mp->p + mp->len - PAGE, PAGE) ? errno : 0;
		if (expect(e, 0, -1))
			mp->len -= PAGE;
		break;
	case 3:		/* mremap(2): the mapping cannot grow (VM_DONTEXPAND) */
		q = mremap(mp->p, mp->len, mp->len + PAGE, rnd(2) ? MREMAP_MAYMOVE : 0);
		e = q == MAP_FAILED ? errno : 0;
		expect(e, EFAULT, -1);
		break;
	case 4:		/* nor be kept behind (MREMAP_DONTUNMAP), nor duplicated */
		if (rnd(2)) {
			q = mremap(mp->p, mp->len, mp->len, MREMAP_MAYMOVE | MREMAP_DONTUNMAP);
			e = q == MAP_FAILED ? errno : 0;
			expect(e, EINVAL, -1);
		} else {
			q = mremap(mp->p, 0, PAGE, MREMAP_MAYMOVE);
			e = q == MAP_FAILED ? errno : 0;
			expect(e, EFAULT, -1);
		}
		if (!e)
			munmap(q, mp->len);
		break;
	case 5:		/* shrink in place */
		if (mp->len < 2 * PAGE)
			break;
		q = mremap(mp->p, mp->len, mp->len - PAGE, 0);
		e = q == MAP_FAILED ? errno : 0;
		if (expect(e, 0, -1))
			mp->len -= PAGE;
		break;
	case 6:		/* move elsewhere */
		r = reserve(mp->len);
		if (!r)
			break;
		q = mremap(mp->p, mp->len, mp->len, MREMAP_MAYMOVE | MREMAP_FIXED, r);
		e = q == MAP_FAILED ? errno : 0;
		if (expect(e, 0, -1))
			mp->p = q;
		else
			munmap(r, mp->len);
		break;
	case 7:		/* a child reads it, and exits: its copy goes away */
		pid = fork();
		if (pid == 0) {
			const struct offsched_shm *shm = (const void *)mp->p;

			_exit(touch(mp->p, mp->len) ? 2 :
			      mp->off == 0 && shm->magic != OFFSCHED_SHM_MAGIC ? 3 : 0);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid) {
			report("fork: %s", ename(errno));
			return errno;
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			report("the child read it with status %#x", status);
		break;
	default:	/* unmapped for good */
		e = munmap(mp->p, mp->len) ? errno : 0;
		expect(e, 0, -1);
		pool_del(i);
		return e;
	}
	check_mapping(mp, 1, "then");
	return e;
}

/* /dev/offsched: opens with odd flags; read, write, lseek, poll. */
static int case_open(void)
{
	static const int extra[] = {
		0, O_NONBLOCK, O_APPEND, O_TRUNC, O_SYNC, O_NOCTTY, O_NOFOLLOW,
		O_NOATIME, O_ASYNC, O_DIRECT, O_DIRECTORY, O_CREAT | O_EXCL,
		O_TMPFILE, O_CREAT,
	};
	int mode = dev_modes[rnd(ARRAY_LEN(dev_modes))];
	int x = extra[rnd(ARRAY_LEN(extra))], fd, e, want, op = (int)rnd(4);
	char buf[16];
	struct pollfd pfd;
	ssize_t n;
	off_t o;

	if (mode == O_PATH)
		x &= O_NOFOLLOW | O_DIRECTORY;	/* what O_PATH takes */
	snprintf(what, sizeof(what), "open " DEV " (%#x | %#x)", mode, x);
	fd = open(DEV, mode | x | O_CLOEXEC, 0600);
	e = fd < 0 ? errno : 0;
	/* open(2) */
	if ((x & O_TMPFILE) == O_TMPFILE)	/* access mode 3 asks for write */
		want = MODE_W(mode) || mode == 3 ? ENOTDIR : EINVAL;
	else if (x & O_DIRECTORY)
		want = ENOTDIR;
	else if ((x & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		want = EEXIST;
	else if (x & O_DIRECT)
		want = EINVAL;	/* no O_DIRECT on a character device */
	else
		want = 0;
	if (!expect(e, want, -1) || e) {
		if (fd >= 0)
			close(fd);
		return e;
	}
	/*
	 * read(2), write(2): EBADF against the mode. read() waits for the
	 * doorbell of an attached CPU: EINVAL below 8 bytes, else ENODATA
	 * (nothing is attached here); write: EINVAL, no such operation.
	 */
	switch (op) {
	case 0:
		x = rnd(2) ? (int)sizeof(buf) : 0;
		n = read(fd, rnd(2) ? buf : NULL, (size_t)x);
		e = n < 0 ? errno : 0;
		snprintf(what + strlen(what), sizeof(what) - strlen(what), ": read");
		expect(e, !MODE_R(mode) ? EBADF : x < 8 ? EINVAL : ENODATA, -1);
		break;
	case 1:
		n = write(fd, buf, rnd(2) ? sizeof(buf) : 0);
		e = n < 0 ? errno : 0;
		snprintf(what + strlen(what), sizeof(what) - strlen(what), ": write");
		expect(e, MODE_W(mode) ? EINVAL : EBADF, -1);
		break;
	case 2:		/* lseek(2): noop_llseek() stays at 0; EINVAL for whence */
		x = (int)rnd(7);
		o = lseek(fd, (off_t)rnd64(), x);
		e = o < 0 ? errno : 0;
		snprintf(what + strlen(what), sizeof(what) - strlen(what),
			 ": lseek whence %d", x);
		if (expect(e, mode == O_PATH ? EBADF : x > SEEK_HOLE ? EINVAL : 0, -1) &&
		    !e && o)
			report("lseek returned %lld", (long long)o);
		break;
	default:	/* poll(2): POLLERR, no CPU attached */
		pfd.fd = fd;
		pfd.events = POLLIN | POLLOUT;
		pfd.revents = 0;
		e = poll(&pfd, 1, 0) < 0 ? errno : 0;
		snprintf(what + strlen(what), sizeof(what) - strlen(what), ": poll");
		if (expect(e, 0, -1) && pfd.revents !=
		    (mode == O_PATH ? POLLNVAL : POLLERR))
			report("revents %#x", pfd.revents);
	}
	close(fd);
	return e;
}

/*
 * Open the device, attach to the current CPU's run and map all of its
 * memory (*size: its size, as the attach gives it). NULL with errno set,
 * the failure reported as bad, when any step fails.
 */
static struct offsched_shm *map_run(uint64_t *size)
{
	struct offsched_shm *shm;
	int fd = open(DEV, O_RDWR | O_CLOEXEC), e;

	if (fd < 0 || attach(fd, (uint32_t)cpu, size)) {
		e = errno;
		snprintf(what, sizeof(what), "open and attach");
		report("%s", ename(e));
		if (fd >= 0)
			close(fd);
		errno = e;
		return NULL;
	}
	shm = mmap(NULL, *size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	e = errno;
	close(fd);
	if (shm == MAP_FAILED) {
		snprintf(what, sizeof(what), "mmap %" PRIu64 " bytes", *size);
		report("%s", ename(e));
		errno = e;
		return NULL;
	}
	return shm;
}

/*
 * The shared memory is user memory: garbage in the offsets and counts of
 * an ftq array, then its result file must give the bytes of the run's
 * memory that the garbage points at, never beyond the memory.
 */
static int case_scribble(void)
{
	static const char *const files[] = { "results", "gaps", "fwq" };
	struct cpu_model *x = &m[cpu];
	struct offsched_shm *shm;
	uint32_t *offp, *donep, off0, done0, off, done;
	uint64_t size, total, start, got = 0;
	unsigned char *buf = scratch;
	int fd, a = (int)rnd(3), e = 0, cmp;
	ssize_t n;
	size_t elem = a == 0 ? 4 : a == 1 ? 16 : 8;
	char path[128];

	/* Not while ftq or timer runs: it writes these counts itself. */
	if (!x->started || (x->registered && svc_counts(x->run_service)) ||
	    learn_run(cpu))
		return -1;
	shm = map_run(&size);
	if (!shm)
		return errno;
	offp = a == 0 ? &shm->samples_offset : a == 1 ? &shm->gaps_offset : &shm->fwq_offset;
	donep = a == 0 ? &shm->samples_done : a == 1 ? &shm->gaps_done : &shm->fwq_done;
	off0 = *offp;
	done0 = *donep;
	switch (rnd(9)) {
	case 0: off = 0; break;
	case 1: off = 1; break;
	case 2: off = SHM_SIZE; break;
	case 3: off = (uint32_t)size - 1; break;
	case 4: off = (uint32_t)size; break;
	case 5: off = (uint32_t)size + 1; break;
	case 6: off = 0xffffffff; break;
	case 7: off = off0; break;
	default: off = (uint32_t)rnd64();
	}
	switch (rnd(7)) {
	case 0: done = 0; break;
	case 1: done = 1; break;
	case 2: done = 0xffffffff; break;
	case 3: done = (uint32_t)(size / elem); break;
	case 4: done = (uint32_t)(size / elem) + 1; break;
	case 5: done = done0; break;
	default: done = (uint32_t)rnd64();
	}
	snprintf(what, sizeof(what), "cpu%d/%s with offset %#x and count %#x in a run "
		 "of %" PRIu64 " bytes%s", cpu, files[a], off, done, size,
		 x->registered ? " (echo running)" : "");
	*offp = off;
	*donep = done;
	start = off < size ? off : size;
	total = (uint64_t)done * elem;
	if (total > size - start)
		total = size - start;
	snprintf(path, sizeof(path), "%s", cpath(cpu, files[a]));
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		e = errno;
		report("open: %s", ename(e));
	} else {
		size_t chunk = rnd(2) ? 4096 : 1 + rnd(5000);

		while ((n = pread(fd, buf + got, chunk, (off_t)got)) > 0 &&
		       got + (uint64_t)n <= (1 << 20) - 8192)
			got += (uint64_t)n;
		if (n < 0) {
			e = errno;
			report("read: %s", ename(e));
		}
		close(fd);
	}
	/* The echo service writes the header and rings; not the rest. */
	cmp = !x->registered || start >= SHM_SIZE;
	if (!e && total <= (1 << 20) - 8192) {
		if (got != total)
			report("read %" PRIu64 " bytes, want %" PRIu64, got, total);
		else if (cmp && memcmp(buf, (unsigned char *)shm + start, total))
			report("read other bytes than the memory has at %#" PRIx64, start);
	} else if (!e && got > total) {
		report("read %" PRIu64 " bytes, more than %" PRIu64, got, total);
	}
	*offp = off0;
	*donep = done0;
	munmap(shm, size);
	return e;
}

/* Words through the echo service's rings, or garbage in their counters. */
static int case_ring(void)
{
	struct cpu_model *x = &m[cpu];
	struct offsched_shm *shm;
	struct offsched_ring *in, *out;
	uint64_t size, m0, w, got, t0;
	uint32_t head, tail, k, i, n;

	if (!x->registered || x->run_service != SVC_ECHO || x->stopping ||
	    learn_run(cpu))
		return -1;
	shm = map_run(&size);
	if (!shm)
		return errno;
	in = &shm->in;
	out = &shm->out;
	if (x->ring_dirty || rnd(4) == 0) {
		/* garbage: the service must go on, and stop when asked */
		static const uint32_t d[] = {
			1, 255, 256, 257, 0x7fffffff, 0x80000000, 0xffffffff,
		};
		uint32_t dh = rnd(2) ? d[rnd(ARRAY_LEN(d))] : (uint32_t)rnd64();
		uint32_t dt = rnd(2) ? d[rnd(ARRAY_LEN(d))] : (uint32_t)rnd64();
		uint64_t l0 = __atomic_load_n(&shm->loops, __ATOMIC_RELAXED);

		snprintf(what, sizeof(what), "echo rings: in.head += %#x, out.tail += %#x",
			 dh, dt);
		__atomic_store_n(&in->head, __atomic_load_n(&in->head, __ATOMIC_RELAXED) + dh,
				 __ATOMIC_RELEASE);
		__atomic_store_n(&out->tail, __atomic_load_n(&out->tail, __ATOMIC_RELAXED) + dt,
				 __ATOMIC_RELEASE);
		x->ring_dirty = 1;
		/* Still looping (a bound for a broken kernel only: 30 s). */
		t0 = now_ns();
		while (__atomic_load_n(&shm->loops, __ATOMIC_RELAXED) == l0 &&
		       now_ns() - t0 < 30000000000ULL)
			;
		if (__atomic_load_n(&shm->loops, __ATOMIC_RELAXED) == l0)
			report("the service stopped looping");
		munmap(shm, size);
		return 0;
	}
	/* k words, each answered + 1 in order (bound: 30 s for each) */
	k = 1 + (uint32_t)rnd(20);
	snprintf(what, sizeof(what), "echo rings: %u words", k);
	m0 = __atomic_load_n(&shm->messages, __ATOMIC_RELAXED);
	for (i = 0; i < k; i++) {
		do
			w = rnd64();
		while (w == OFFSCHED_ECHO_DEAF || w == OFFSCHED_ECHO_HEAR);
		head = __atomic_load_n(&in->head, __ATOMIC_RELAXED);
		tail = __atomic_load_n(&out->tail, __ATOMIC_RELAXED);
		in->data[head % OFFSCHED_RING_SIZE] = w;
		__atomic_store_n(&in->head, head + 1, __ATOMIC_RELEASE);
		t0 = now_ns();
		while (__atomic_load_n(&out->head, __ATOMIC_ACQUIRE) == tail &&
		       now_ns() - t0 < 30000000000ULL)
			;
		n = __atomic_load_n(&out->head, __ATOMIC_ACQUIRE) - tail;
		if (n != 1) {
			report("word %u: %u answers", i, n);
			x->ring_dirty = 1;
			break;
		}
		got = out->data[tail % OFFSCHED_RING_SIZE];
		__atomic_store_n(&out->tail, tail + 1, __ATOMIC_RELEASE);
		if (got != w + 1) {
			report("word %u: %#" PRIx64 " answered %#" PRIx64, i, w, got);
			break;
		}
	}
	if (!in_case_bad && __atomic_load_n(&shm->messages, __ATOMIC_RELAXED) != m0 + k)
		report("messages %" PRIu64 ", want %" PRIu64,
		       (uint64_t)__atomic_load_n(&shm->messages, __ATOMIC_RELAXED), m0 + k);
	munmap(shm, size);
	return 0;
}

/* delete_module(2) while a descriptor is open: EWOULDBLOCK, nothing changes. */
static int case_rmmod(void)
{
	int fd = open(DEV, O_RDONLY | O_CLOEXEC), e;

	snprintf(what, sizeof(what), "rmmod offsched_mgr with " DEV " open%s",
		 m[cpu].registered ? ", a service started" : "");
	if (fd < 0) {
		report("open: %s", ename(errno));
		return errno;
	}
	e = syscall(SYS_delete_module, "offsched_mgr", O_NONBLOCK) ? errno : 0;
	expect(e, EWOULDBLOCK, -1);
	close(fd);
	return e;
}

/* ---- the loop ------------------------------------------------------------ */

static const struct {
	const char *name;
	int (*fn)(void);
	int weight;		/* per mille */
} kinds[] = {
	{ "cfg", case_cfg, 290 },
	{ "control", case_control, 25 },
	{ "param", case_param, 30 },
	{ "files", case_files, 100 },
	{ "ioctl", case_ioctl, 200 },
	{ "mmap", case_mmap, 190 },
	{ "mapping", case_pool, 80 },
	{ "open", case_open, 45 },
	{ "scribble", case_scribble, 20 },
	{ "ring", case_ring, 15 },
	{ "rmmod", case_rmmod, 5 },
};
#define NKINDS	ARRAY_LEN(kinds)

static int parse_cpus(const char *path, int *max)
{
	char buf[256], *s = buf, *end;
	long a, b;

	if (read_text(path, buf, sizeof(buf)) <= 0)
		return -1;
	*max = -1;
	while (*s) {
		a = strtol(s, &end, 10);
		b = *end == '-' ? strtol(end + 1, &end, 10) : a;
		if (end == s || a < 0 || b >= MAXCPU)
			return -1;
		for (; a <= b; a++)
			m[a].present = 1;
		if (b > *max)
			*max = (int)b;
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long cases = 0, ok = 0, refused = 0, hist[4096] = { 0 };
	unsigned long per_kind[NKINDS] = { 0 }, i;
	uint64_t ns_kind[NKINDS] = { 0 }, ns_check = 0, t;
	struct sigaction sa;
	double secs;
	uint64_t t0;
	int c, f, e, max, tries, final_bad;
	char buf[64];

	if (argc != 4) {
		fprintf(stderr, "usage: osfuzz CPU SECONDS SEED\n");
		return 2;
	}
	cpu = atoi(argv[1]);
	secs = atof(argv[2]);
	srandom((unsigned int)strtoul(argv[3], NULL, 0));
	setvbuf(stdout, NULL, _IOLBF, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fault;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);

	scratch = mmap(NULL, 2 << 20, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	guard = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ro_page = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (scratch == MAP_FAILED || guard == MAP_FAILED || ro_page == MAP_FAILED ||
	    mprotect(guard + PAGE, PAGE, PROT_NONE)) {
		perror("osfuzz: mmap");
		return 2;
	}
	if (parse_cpus(SYSCPU "/present", &max) || cpu <= 0 || cpu > max ||
	    !m[cpu].present) {
		fprintf(stderr, "osfuzz: CPU %d is not a present CPU other than 0\n", cpu);
		return 2;
	}
	ncpu = max + 1;
	tsc_khz = read_num(SYSCPU "/offsched/tsc_khz");
	timeout0 = read_num(PARAM);
	for (c = 0; c < ncpu; c++) {
		if (!m[c].present)
			continue;
		if (read_text(cpath(c, "state"), buf, sizeof(buf)) < 0 ||
		    strcmp(buf, "idle")) {
			fprintf(stderr, "osfuzz: cpu%d is not idle\n", c);
			return 2;
		}
		read_text(cpath(c, "service"), buf, sizeof(buf));
		for (f = 0; f < NR_SVC && strcmp(buf, svc_names[f]); f++)
			;
		m[c].service = f % NR_SVC;
		for (f = 1; f < NCFG; f++)
			m[c].cfg[f] = read_num(cpath(c, cfgs[f].name));
		m[c].runs = read_num(cpath(c, "runs"));
		m[c].timeouts = read_num(cpath(c, "stop_timeouts"));
	}
	/* For the memory charge of private writable mappings. */
	overcommit = (int)read_num("/proc/sys/vm/overcommit_memory");
	f = open("/proc/meminfo", O_RDONLY);
	if (f >= 0) {
		char mi[4096], *l;
		ssize_t n = read(f, mi, sizeof(mi) - 1);

		close(f);
		mi[n > 0 ? n : 0] = 0;
		l = strstr(mi, "MemTotal:");
		if (l)
			ram_pages += strtoul(l + 9, NULL, 10) / (PAGE / 1024);
		l = strstr(mi, "SwapTotal:");
		if (l)
			ram_pages += strtoul(l + 10, NULL, 10) / (PAGE / 1024);
	}
	/* Is /dev mounted noexec? Then PROT_EXEC mappings of it are EPERM. */
	c = open("/dev/zero", O_RDONLY);
	if (c >= 0) {
		void *z = mmap(NULL, PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE, c, 0);

		dev_noexec = z == MAP_FAILED && errno == EPERM;
		if (z != MAP_FAILED)
			munmap(z, PAGE);
		close(c);
	}
	if (tsc_khz == ULONG_MAX || timeout0 == ULONG_MAX) {
		fprintf(stderr, "osfuzz: cannot read tsc_khz or stop_timeout_ms\n");
		return 2;
	}
	printf("cpus=%d tsc_khz=%lu stop_timeout_ms=%lu dev_noexec=%d overcommit=%d "
	       "ram_pages=%lu\n", ncpu, tsc_khz, timeout0, dev_noexec, overcommit,
	       ram_pages);

	t0 = now_ns();
	do {
		int r = (int)rnd(1000), k;

		for (k = 0; r >= kinds[k].weight; k++)
			r -= kinds[k].weight;
		in_case_bad = 0;
		case_no = cases + 1;
		snprintf(what, sizeof(what), "%s", kinds[k].name);
		t = now_ns();
		e = kinds[k].fn();
		if (e < 0)
			continue;	/* not possible now: not a case */
		ns_kind[k] += now_ns() - t;
		t = now_ns();
		check_all();
		ns_check += now_ns() - t;
		cases++;
		per_kind[k]++;
		hist[e < 4095 ? e : 4095]++;
		if (in_case_bad)
			nbad++;
		else if (e)
			refused++;
		else
			ok++;
	} while ((double)(now_ns() - t0) / 1e9 < secs || !cases);

	/* Leave no service started, no mapping, stop_timeout_ms as found. */
	in_case_bad = 0;
	case_no = 0;
	snprintf(what, sizeof(what), "the final stop");
	for (tries = 0; m[cpu].registered && tries < 10; tries++) {
		e = write_str(cpath(cpu, "control"), "stop");
		if (!e)
			m[cpu].registered = 0;
		else if (e == ETIMEDOUT)
			sleep(1);
		else
			report("%s", ename(e));
	}
	if (m[cpu].registered)
		report("the service did not stop");
	while (npool)
		munmap(pool[npool - 1].p, pool[npool - 1].len), npool--;
	snprintf(buf, sizeof(buf), "%lu", timeout0);
	write_str(PARAM, buf);
	check_all();
	final_bad = in_case_bad;

	printf("cases=%lu\n", cases);
	for (i = 0; i < NKINDS; i++)
		printf("kind %s %lu %" PRIu64 " ms\n", kinds[i].name, per_kind[i],
		       ns_kind[i] / 1000000);
	printf("checks %" PRIu64 " ms\n", ns_check / 1000000);
	for (i = 0; i < 4096; i++)
		if (hist[i])
			printf("errno %s %lu\n", i == 4095 ? "other" : ename((int)i),
			       hist[i]);
	for (c = 0; c < ncpu; c++)
		if (m[c].present)
			printf("cpu%d runs=%lu stop_timeouts=%lu\n", c, m[c].runs,
			       m[c].timeouts);
	printf("ok=%lu\nrefused=%lu\nro_shared=%lu\n", ok, refused, nro_shared);
	printf("cleanup=%s\n", final_bad ? "bad" : "ok");
	printf("bad=%lu\n", nbad);
	return nbad || final_bad ? 1 : 0;
}
