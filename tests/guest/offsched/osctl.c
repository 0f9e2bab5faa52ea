// SPDX-License-Identifier: GPL-2.0
/*
 * osctl - helper of the OFFSCHED guest tests.
 *
 *   osctl write FILE VALUE      one write(2); prints OK or the errno name
 *   osctl rmmod NAME            delete_module(NAME, O_NONBLOCK); same output
 *   osctl results FILE          read u32 ftq samples; prints
 *                               "n=N sum=S min=A max=B zero=Z"
 *   osctl lateness FILE Q       read the u32 results of the timer service,
 *                               Q its period in TSC cycles; prints "n=N
 *                               missed=M late=L p50=A p99=B max=C last=D":
 *                               M results U32_MAX, L others not below Q
 *                               (but the last), A, B, C over the others,
 *                               D the last result
 *   osctl timer CPU             map CPU's shared memory while the timer
 *                               service runs there and poll samples_done
 *                               until it reaches the event count or the
 *                               service returns; prints "changes=S
 *                               backwards=B final=F events=N
 *                               delivered_p50=A delivered_max=C": S
 *                               changes seen, B of them to a smaller
 *                               count, A and C the TSC cycles from each
 *                               deadline seen to the poll that saw it
 *   osctl attach CPU            OFFSCHED_IOC_ATTACH; prints OK or errno name
 *   osctl private CPU           attach, then mmap(MAP_PRIVATE); same output
 *   osctl gaps FILE START END   read u64 (start, end) gap pairs; prints
 *                               "bytes=B n=N bad=X unordered=Y lost=L
 *                               last=S,E": X pairs not START <= start <
 *                               end <= END, Y pairs that start before the
 *                               previous one ended, L the gaps' total
 *                               length, S,E the last pair (0,0 if none)
 *   osctl fwq FILE              read u64 FWQ results; prints
 *                               "bytes=B n=N zero=Z min=A max=B"
 *   osctl shm CPU               prints "status=S samples_done=N messages=M
 *                               gaps_done=G gaps_lost=L fwq_done=F loops=P
 *                               run=R" (timer: samples_done is events_done,
 *                               loops on_time; R the run the memory is of)
 *   osctl phys CPU              prints the physical address of the loops
 *                               counter in CPU's shared memory (pagemap)
 *   osctl peek ADDR             prints the u64 at physical address ADDR,
 *                               read through /dev/mem (in a crash kernel:
 *                               the crashed kernel's, from /proc/vmcore)
 *   osctl setq CPU CYCLES       write CYCLES to quantum_cycles in CPU's
 *                               shared memory, as any user could
 *   osctl ring CPU N            send N words through the in ring, check that
 *                               each comes back + 1 on the out ring, in order
 *   osctl send CPU WORD         send one word, check its answer
 *   osctl fill CPU              fill the out ring (256 words unread), then
 *                               the in ring (256 more), check that the
 *                               service takes no more while out is full and
 *                               counts it (ring_full), then read all 512
 *                               answers: each w + 1, in order, once. Prints
 *                               "OK full=F messages=M" or "FAIL ..."
 *   osctl kexec                 reboot(LINUX_REBOOT_CMD_KEXEC): execute the
 *                               loaded kexec image; prints OK (a kexec jump
 *                               that came back) or the errno name
 *   osctl hold CPU              map CPU's shared memory, print "status=S
 *                               messages=M start_tsc=T" from it, wait for a
 *                               line on stdin, print the same again from the
 *                               same mapping and exit
 *
 * Exit status: 0 when the command ran (whatever errno it reports), 1 when a
 * ring check failed, 2 on usage or setup errors.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/reboot.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* From the kernel tree: the build adds -idirafter <tree>/include/uapi. */
#include <linux/offsched.h>

_Static_assert(sizeof(struct offsched_shm) == 192 + 2 * 2176,
	       "struct offsched_shm layout");

static const struct {
	int err;
	const char *name;
} errnames[] = {
	{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { EIO, "EIO" },
	{ EAGAIN, "EAGAIN" }, { ENOMEM, "ENOMEM" }, { EBUSY, "EBUSY" },
	{ ENODEV, "ENODEV" }, { EINVAL, "EINVAL" }, { ERANGE, "ERANGE" },
	{ ENOSYS, "ENOSYS" }, { ETIMEDOUT, "ETIMEDOUT" }, { ENODATA, "ENODATA" },
	{ EFAULT, "EFAULT" }, { ENOTTY, "ENOTTY" }, { EEXIST, "EEXIST" },
	{ EACCES, "EACCES" }, { ENOSPC, "ENOSPC" }, { EOPNOTSUPP, "EOPNOTSUPP" },
};

static void print_result(int ret, int err)
{
	size_t i;

	if (ret >= 0) {
		puts("OK");
		return;
	}
	for (i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++) {
		if (errnames[i].err == err) {
			puts(errnames[i].name);
			return;
		}
	}
	printf("E%d\n", err);
}

static int do_write(const char *file, const char *value)
{
	int fd = open(file, O_WRONLY);
	ssize_t ret;

	if (fd < 0) {
		print_result(-1, errno);
		return 0;
	}
	ret = write(fd, value, strlen(value));
	print_result(ret < 0 ? -1 : 0, errno);
	close(fd);
	return 0;
}

static int do_rmmod(const char *name)
{
	long ret = syscall(SYS_delete_module, name, O_NONBLOCK);

	print_result(ret < 0 ? -1 : 0, errno);
	return 0;
}

static int do_results(const char *file)
{
	uint64_t n = 0, sum = 0, zero = 0;
	uint32_t min = UINT32_MAX, max = 0, v;
	FILE *f = fopen(file, "r");

	if (!f) {
		perror(file);
		return 2;
	}
	while (fread(&v, sizeof(v), 1, f) == 1) {
		n++;
		/* Position-weighted, so that reordered samples differ. */
		sum += (uint64_t)v * n;
		if (v < min)
			min = v;
		if (v > max)
			max = v;
		if (!v)
			zero++;
	}
	fclose(f);
	if (!n)
		min = 0;
	printf("n=%" PRIu64 " sum=%" PRIu64 " min=%u max=%u zero=%" PRIu64 "\n",
	       n, sum, min, max, zero);
	return 0;
}

static int do_gaps(const char *file, uint64_t start, uint64_t end)
{
	uint64_t pair[2], n = 0, bytes = 0, bad = 0, unordered = 0, prev = 0;
	uint64_t lost = 0, last[2] = { 0, 0 };
	FILE *f = fopen(file, "r");
	size_t got;

	if (!f) {
		perror(file);
		return 2;
	}
	while ((got = fread(pair, 1, sizeof(pair), f)) > 0) {
		bytes += got;
		if (got < sizeof(pair))
			break;
		n++;
		if (pair[0] < start || pair[0] >= pair[1] || pair[1] > end)
			bad++;
		if (pair[0] < prev)
			unordered++;
		prev = pair[1];
		if (pair[1] > pair[0])
			lost += pair[1] - pair[0];
		last[0] = pair[0];
		last[1] = pair[1];
	}
	fclose(f);
	printf("bytes=%" PRIu64 " n=%" PRIu64 " bad=%" PRIu64
	       " unordered=%" PRIu64 " lost=%" PRIu64 " last=%" PRIu64 ",%" PRIu64 "\n",
	       bytes, n, bad, unordered, lost, last[0], last[1]);
	return 0;
}

static int do_fwq(const char *file)
{
	uint64_t v, n = 0, bytes = 0, zero = 0, min = UINT64_MAX, max = 0;
	FILE *f = fopen(file, "r");
	size_t got;

	if (!f) {
		perror(file);
		return 2;
	}
	while ((got = fread(&v, 1, sizeof(v), f)) > 0) {
		bytes += got;
		if (got < sizeof(v))
			break;
		n++;
		if (!v)
			zero++;
		if (v < min)
			min = v;
		if (v > max)
			max = v;
	}
	fclose(f);
	if (!n)
		min = 0;
	printf("bytes=%" PRIu64 " n=%" PRIu64 " zero=%" PRIu64 " min=%" PRIu64
	       " max=%" PRIu64 "\n", bytes, n, zero, min, max);
	return 0;
}

static int attach(unsigned int cpu, struct offsched_attach *arg)
{
	int fd = open("/dev/offsched", O_RDWR);

	if (fd < 0)
		return -1;
	memset(arg, 0, sizeof(*arg));
	arg->cpu = cpu;
	if (ioctl(fd, OFFSCHED_IOC_ATTACH, arg) < 0) {
		int err = errno;

		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The value at fraction @f of @v[0..@n-1] sorted in place, 0 if empty */
static uint32_t quantile(uint32_t *v, size_t n, double f)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_u32);
	return v[(size_t)(f * (double)(n - 1))];
}

static int do_lateness(const char *file, uint64_t period)
{
	uint32_t *v = NULL, x, last = 0;
	size_t n = 0, kept = 0, cap = 0, missed = 0, late = 0;
	FILE *f = fopen(file, "r");

	if (!f) {
		perror(file);
		return 2;
	}
	while (fread(&x, sizeof(x), 1, f) == 1) {
		/* The previous result is not the last one: only it may be late */
		if (n && last != UINT32_MAX && last >= period)
			late++;
		n++;
		last = x;
		if (x == UINT32_MAX) {
			missed++;
			continue;
		}
		if (kept == cap) {
			cap = cap ? 2 * cap : 1024;
			v = realloc(v, cap * sizeof(*v));
			if (!v) {
				perror("realloc");
				return 2;
			}
		}
		v[kept++] = x;
	}
	fclose(f);
	printf("n=%zu missed=%zu late=%zu p50=%u p99=%u max=%u last=%u\n",
	       n, missed, late, quantile(v, kept, 0.5), quantile(v, kept, 0.99),
	       quantile(v, kept, 1.0), last);
	free(v);
	return 0;
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static int do_timer(struct offsched_shm *shm)
{
	uint32_t n = shm->nr_events, seen, k, *delivered;
	uint64_t start = shm->start_tsc, period = shm->period_cycles, now;
	size_t changes = 0, backwards = 0, kept = 0;

	delivered = calloc(n ? n : 1, sizeof(*delivered));
	if (!delivered) {
		perror("calloc");
		return 2;
	}
	seen = __atomic_load_n(&shm->events_done, __ATOMIC_ACQUIRE);
	for (;;) {
		k = __atomic_load_n(&shm->events_done, __ATOMIC_ACQUIRE);
		now = rdtsc();
		if (k != seen) {
			changes++;
			if (k < seen) {
				backwards++;
			} else if (kept < n) {
				uint64_t d = start + (uint64_t)(k - 1) * period;

				delivered[kept++] = now >= d ?
					(uint32_t)(now - d < UINT32_MAX ?
						   now - d : UINT32_MAX - 1) : 0;
			}
			seen = k;
		}
		if (k >= n)
			break;
		/* Returned (stopped): nothing more comes */
		if (__atomic_load_n(&shm->status, __ATOMIC_ACQUIRE) >
		    OFFSCHED_STATUS_RUNNING &&
		    __atomic_load_n(&shm->events_done, __ATOMIC_ACQUIRE) == k)
			break;
	}
	printf("changes=%zu backwards=%zu final=%u events=%u delivered_p50=%u delivered_max=%u\n",
	       changes, backwards, seen, n, quantile(delivered, kept, 0.5),
	       quantile(delivered, kept, 1.0));
	free(delivered);
	return 0;
}

static struct offsched_shm *map_shm(unsigned int cpu)
{
	struct offsched_attach arg;
	struct offsched_shm *shm;
	int fd = attach(cpu, &arg);

	if (fd < 0) {
		perror("attach");
		return NULL;
	}
	shm = mmap(NULL, arg.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (shm == MAP_FAILED) {
		perror("mmap");
		return NULL;
	}
	if (shm->magic != OFFSCHED_SHM_MAGIC || shm->cpu != cpu ||
	    shm->size != arg.size) {
		fprintf(stderr, "bad shared memory header\n");
		return NULL;
	}
	return shm;
}

static int do_attach(unsigned int cpu, int private)
{
	struct offsched_attach arg;
	int fd = attach(cpu, &arg);
	void *p;

	if (fd < 0 || !private) {
		print_result(fd, errno);
		if (fd >= 0)
			close(fd);
		return 0;
	}
	p = mmap(NULL, arg.size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	print_result(p == MAP_FAILED ? -1 : 0, errno);
	close(fd);
	return 0;
}

/* Physical address of a mapped user address, from /proc/self/pagemap. */
static int do_phys(const volatile void *p)
{
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t va = (uintptr_t)p;
	uint64_t entry;
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (fd < 0) {
		perror("/proc/self/pagemap");
		return 2;
	}
	if (pread(fd, &entry, sizeof(entry), va / page * sizeof(entry)) !=
	    sizeof(entry)) {
		perror("pagemap");
		close(fd);
		return 2;
	}
	close(fd);
	/* Bit 63: present; bits 0-54: the page frame (0 without privilege). */
	if (!(entry >> 63) || !(entry & ((1ull << 55) - 1))) {
		fprintf(stderr, "no page frame for %#lx\n", (unsigned long)va);
		return 2;
	}
	printf("%#" PRIx64 "\n",
	       (uint64_t)((entry & ((1ull << 55) - 1)) * page + va % page));
	return 0;
}

/*
 * The file offset of physical address @addr in /proc/vmcore (@fd), from
 * its ELF program headers: the crashed kernel's RAM, which a crash kernel
 * cannot read through /dev/mem above its own memory. -1 if not there.
 */
static off_t vmcore_offset(int fd, uint64_t addr)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int i;

	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64)
		return -1;
	for (i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + (off_t)i * eh.e_phentsize) != sizeof(ph))
			return -1;
		if (ph.p_type == PT_LOAD && addr >= ph.p_paddr &&
		    addr + 8 <= ph.p_paddr + ph.p_filesz)
			return (off_t)(ph.p_offset + (addr - ph.p_paddr));
	}
	return -1;
}

/*
 * The u64 at a physical address: in a crash kernel, the crashed kernel's
 * through /proc/vmcore; otherwise through /dev/mem.
 */
static int do_peek(uint64_t addr)
{
	const char *path = "/proc/vmcore";
	int fd = open(path, O_RDONLY);
	off_t off = -1;
	uint64_t v;

	if (fd >= 0) {
		off = vmcore_offset(fd, addr);
		if (off < 0) {
			fprintf(stderr, "%s: %#" PRIx64 " not in any PT_LOAD\n", path, addr);
			close(fd);
			return 2;
		}
	} else {
		path = "/dev/mem";
		fd = open(path, O_RDONLY);
		off = (off_t)addr;
	}
	if (fd < 0) {
		perror(path);
		return 2;
	}
	if (pread(fd, &v, sizeof(v), off) != sizeof(v)) {
		perror(path);
		close(fd);
		return 2;
	}
	close(fd);
	printf("%" PRIu64 "\n", v);
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/*
 * Round trips of @n words starting at @first. A broken service must not
 * hang the suite: give up after 60 s without progress (a safety bound
 * only; nothing is judged on time).
 */
static int ring_exchange(struct offsched_shm *shm, uint64_t first, uint64_t n,
			 int report)
{
	struct offsched_ring *in = &shm->in, *out = &shm->out;
	uint64_t i, *rtt = calloc(n, sizeof(*rtt));
	uint64_t last = now_ns();

	if (!rtt)
		return 2;
	for (i = 0; i < n; i++) {
		uint32_t head = in->head, tail = out->tail;
		uint64_t word = first + i, got, t0;

		t0 = now_ns();
		in->data[head % OFFSCHED_RING_SIZE] = word;
		__atomic_store_n(&in->head, head + 1, __ATOMIC_RELEASE);
		while (__atomic_load_n(&out->head, __ATOMIC_ACQUIRE) == tail) {
			if (now_ns() - last > 60000000000ull) {
				printf("FAIL no answer to word %" PRIu64 "\n", i);
				free(rtt);
				return 1;
			}
		}
		got = out->data[tail % OFFSCHED_RING_SIZE];
		__atomic_store_n(&out->tail, tail + 1, __ATOMIC_RELEASE);
		last = now_ns();
		rtt[i] = last - t0;
		if (got != word + 1) {
			printf("FAIL word %" PRIu64 ": sent %#" PRIx64
			       " got %#" PRIx64 "\n", i, word, got);
			free(rtt);
			return 1;
		}
	}
	if (report) {
		uint64_t min = UINT64_MAX, max = 0, sum = 0;

		for (i = 0; i < n; i++) {
			sum += rtt[i];
			if (rtt[i] < min)
				min = rtt[i];
			if (rtt[i] > max)
				max = rtt[i];
		}
		printf("OK n=%" PRIu64 " rtt_ns min=%" PRIu64 " avg=%" PRIu64
		       " max=%" PRIu64 "\n", n, min, sum / n, max);
	} else {
		puts("OK");
	}
	free(rtt);
	return 0;
}

/* Ring counter loads and stores, as in <uapi/linux/offsched.h>. */
static uint32_t ring_load(uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void ring_store(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

/* Poll @cond for up to 60 s (a safety bound only). */
#define POLL(cond) ({							\
	uint64_t _t0 = now_ns();					\
	while (!(cond) && now_ns() - _t0 < 60000000000ull)		\
		;							\
	(cond);								\
})

static int do_fill(struct offsched_shm *shm)
{
	struct offsched_ring *in = &shm->in, *out = &shm->out;
	const uint32_t n = OFFSCHED_RING_SIZE;
	uint32_t in0 = ring_load(&in->head), out0 = ring_load(&out->tail);
	uint64_t base = 0x5eed0000, m0, full0, full1, i;

	if (ring_load(&out->head) != out0 || ring_load(&in->tail) != in0) {
		puts("FAIL rings not empty");
		return 1;
	}
	m0 = __atomic_load_n(&shm->messages, __ATOMIC_RELAXED);
	/* 256 words, answered into out, which nobody reads: out is full. */
	for (i = 0; i < n; i++) {
		in->data[(in0 + i) % n] = base + i;
		ring_store(&in->head, in0 + i + 1);
	}
	if (!POLL(ring_load(&out->head) - out0 == n &&
		  ring_load(&in->tail) == in0 + n)) {
		printf("FAIL out ring never filled (head %u tail %u)\n",
		       ring_load(&out->head) - out0, ring_load(&in->tail) - in0);
		return 1;
	}
	/* 256 more: in is full too, and the service must wait. */
	for (i = n; i < 2 * n; i++) {
		in->data[(in0 + i) % n] = base + i;
		ring_store(&in->head, in0 + i + 1);
	}
	full0 = __atomic_load_n(&shm->ring_full, __ATOMIC_RELAXED);
	if (!POLL(__atomic_load_n(&shm->ring_full, __ATOMIC_RELAXED) > full0 + 1000)) {
		printf("FAIL the full-ring branch is not counted (ring_full %llu)\n",
		       (unsigned long long)full0);
		return 1;
	}
	full1 = __atomic_load_n(&shm->ring_full, __ATOMIC_RELAXED);
	if (ring_load(&in->tail) != in0 + n || ring_load(&out->head) != out0 + n ||
	    __atomic_load_n(&shm->messages, __ATOMIC_RELAXED) != m0 + n) {
		puts("FAIL the service went on with out full");
		return 1;
	}
	/* Read every answer: w + 1, in order, each once. */
	for (i = 0; i < 2 * n; i++) {
		uint64_t got;

		if (!POLL(ring_load(&out->head) != out0 + i)) {
			printf("FAIL no answer %llu\n", (unsigned long long)i);
			return 1;
		}
		got = out->data[(out0 + i) % n];
		ring_store(&out->tail, out0 + i + 1);
		if (got != base + i + 1) {
			printf("FAIL answer %llu: %#llx, want %#llx\n",
			       (unsigned long long)i, (unsigned long long)got,
			       (unsigned long long)(base + i + 1));
			return 1;
		}
	}
	if (!POLL(ring_load(&in->tail) == in0 + 2 * n) ||
	    ring_load(&out->head) != out0 + 2 * n ||
	    __atomic_load_n(&shm->messages, __ATOMIC_RELAXED) != m0 + 2 * n) {
		puts("FAIL words lost or answered twice");
		return 1;
	}
	printf("OK full=%llu messages=%llu\n", (unsigned long long)full1,
	       (unsigned long long)(__atomic_load_n(&shm->messages,
						    __ATOMIC_RELAXED) - m0));
	return 0;
}

static int do_hold(struct offsched_shm *shm)
{
	char line[16];
	int pass;

	for (pass = 0; pass < 2; pass++) {
		if (pass && !fgets(line, sizeof(line), stdin))
			return 2;
		printf("status=%u messages=%llu start_tsc=%llu\n",
		       __atomic_load_n(&shm->status, __ATOMIC_ACQUIRE),
		       (unsigned long long)__atomic_load_n(&shm->messages,
							   __ATOMIC_RELAXED),
		       (unsigned long long)shm->start_tsc);
		fflush(stdout);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct offsched_shm *shm;

	if (argc == 4 && !strcmp(argv[1], "write"))
		return do_write(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "rmmod"))
		return do_rmmod(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "results"))
		return do_results(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "gaps"))
		return do_gaps(argv[2], strtoull(argv[3], NULL, 0),
			       strtoull(argv[4], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "fwq"))
		return do_fwq(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "lateness"))
		return do_lateness(argv[2], strtoull(argv[3], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "timer")) {
		shm = map_shm(strtoul(argv[2], NULL, 0));
		if (!shm)
			return 2;
		return do_timer(shm);
	}
	if (argc == 3 && !strcmp(argv[1], "attach"))
		return do_attach(strtoul(argv[2], NULL, 0), 0);
	if (argc == 3 && !strcmp(argv[1], "private"))
		return do_attach(strtoul(argv[2], NULL, 0), 1);
	if (argc == 3 && !strcmp(argv[1], "shm")) {
		shm = map_shm(strtoul(argv[2], NULL, 0));
		if (!shm)
			return 2;
		printf("status=%u samples_done=%u messages=%" PRIu64
		       " gaps_done=%u gaps_lost=%" PRIu64 " fwq_done=%u"
		       " loops=%" PRIu64 " run=%" PRIu64 "\n",
		       __atomic_load_n(&shm->status, __ATOMIC_ACQUIRE),
		       __atomic_load_n(&shm->samples_done, __ATOMIC_ACQUIRE),
		       (uint64_t)__atomic_load_n(&shm->messages, __ATOMIC_RELAXED),
		       __atomic_load_n(&shm->gaps_done, __ATOMIC_ACQUIRE),
		       (uint64_t)__atomic_load_n(&shm->gaps_lost, __ATOMIC_RELAXED),
		       __atomic_load_n(&shm->fwq_done, __ATOMIC_ACQUIRE),
		       (uint64_t)__atomic_load_n(&shm->loops, __ATOMIC_RELAXED),
		       (uint64_t)shm->run);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "phys")) {
		shm = map_shm(strtoul(argv[2], NULL, 0));
		if (!shm)
			return 2;
		return do_phys(&shm->loops);
	}
	if (argc == 4 && !strcmp(argv[1], "setq")) {
		shm = map_shm(strtoul(argv[2], NULL, 0));
		if (!shm)
			return 2;
		shm->quantum_cycles = strtoull(argv[3], NULL, 0);
		puts("OK");
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "kexec")) {
		/* errno read after the call: argument order is unspecified */
		long ret = syscall(SYS_reboot, LINUX_REBOOT_MAGIC1,
				   LINUX_REBOOT_MAGIC2, LINUX_REBOOT_CMD_KEXEC,
				   NULL);

		print_result(ret < 0 ? -1 : 0, errno);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "peek"))
		return do_peek(strtoull(argv[2], NULL, 0));
	if (argc == 4 && !strcmp(argv[1], "ring")) {
		shm = map_shm(strtoul(argv[2], NULL, 0));
		if (!shm)
			return 2;
		return ring_exchange(shm, 1000, strtoull(argv[3], NULL, 0), 1);
	}
	if (argc == 4 && !strcmp(argv[1], "send")) {
		shm = map_shm(strtoul(argv[2], NULL, 0));
		if (!shm)
			return 2;
		return ring_exchange(shm, strtoull(argv[3], NULL, 0), 1, 0);
	}
	if (argc == 3 && !strcmp(argv[1], "fill")) {
		shm = map_shm(strtoul(argv[2], NULL, 0));
		if (!shm)
			return 2;
		return do_fill(shm);
	}
	if (argc == 3 && !strcmp(argv[1], "hold")) {
		shm = map_shm(strtoul(argv[2], NULL, 0));
		if (!shm)
			return 2;
		return do_hold(shm);
	}
	fprintf(stderr, "usage: see the comment at the top of osctl.c\n");
	return 2;
}
