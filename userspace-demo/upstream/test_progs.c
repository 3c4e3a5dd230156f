// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in for test_progs, enough to run upstream's own token selftest
 * (tools/testing/selftests/bpf/prog_tests/token.c from the 6.12 tree,
 * compiled unchanged) as a kselftest binary in the VM:
 *
 *   upstream_token        run every subtest, KTAP on stdout
 *
 * test_token() is called twice.  The first time test__start_subtest()
 * only counts the subtests and answers false, which gives the KTAP plan;
 * the second time it runs each one and prints "ok N name" or "not ok N
 * name" when the next one starts (or test_token() returns).  A subtest
 * fails when any ASSERT_* failed in it, in this process or in one it
 * forked (the count is in a MAP_SHARED page), and a subtest that takes
 * longer than TEST_TIMEOUT seconds ends the run with "not ok".
 *
 * The environment is the one the selftests' kernel config makes
 * (tools/testing/selftests/bpf/config: "# CONFIG_BPF_UNPRIV_DEFAULT_OFF
 * is not set"): unprivileged BPF enabled, so a plain ARRAY map needs no
 * capability.  token.c relies on it: libbpf's feature probes and a
 * skeleton's .bss map are ARRAY maps, which the struct_ops subtests'
 * BPF FS does not delegate.  The mainline kernel boots with it disabled,
 * like the distributions, so kernel.unprivileged_bpf_disabled is set to 0
 * while the test runs and put back afterwards.
 *
 * Exit status: 0 when every subtest passed, 1 otherwise.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdarg.h>
#include <sys/mman.h>

#include "test_progs.h"

#define TEST_TIMEOUT 60
#define UNPRIV_SYSCTL "/proc/sys/kernel/unprivileged_bpf_disabled"

void test_token(void);

/* shared with every process a subtest forks */
struct test_shared {
	int failures;		/* failed assertions of the running subtest */
};

static struct test_shared *shared;
static bool counting;		/* first pass: count the subtests only */
static int n_subtests;		/* counted, then: the number of the running one */
static const char *running;	/* the running subtest's name, or NULL */
static int passed, failed;
static char timeout_line[160];	/* what SIGALRM prints */

void test__fail(const char *file, int line, const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("# %s: %s:%d: %s: ", running ? running : "-", file, line, name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	__atomic_fetch_add(&shared->failures, 1, __ATOMIC_SEQ_CST);
}

static void end_subtest(void)
{
	int failures = __atomic_load_n(&shared->failures, __ATOMIC_SEQ_CST);

	if (!running)
		return;
	alarm(0);
	if (failures) {
		printf("not ok %d %s # %d failed assertion(s)\n", n_subtests, running, failures);
		failed++;
	} else {
		printf("ok %d %s\n", n_subtests, running);
		passed++;
	}
	fflush(stdout);
	running = NULL;
}

static void timed_out(int sig)
{
	(void)sig;
	/* write(2) only: stdio is not async-signal-safe */
	if (write(STDOUT_FILENO, timeout_line, strlen(timeout_line)) < 0)
		_exit(2);
	_exit(1);
}

bool test__start_subtest(const char *name)
{
	if (counting) {
		n_subtests++;
		return false;
	}
	end_subtest();
	n_subtests++;
	running = name;
	__atomic_store_n(&shared->failures, 0, __ATOMIC_SEQ_CST);
	snprintf(timeout_line, sizeof(timeout_line),
		 "not ok %d %s # timed out after %d s\n", n_subtests, name, TEST_TIMEOUT);
	printf("# subtest %d: %s\n", n_subtests, name);
	fflush(stdout);
	alarm(TEST_TIMEOUT);
	return true;
}

/* read the sysctl into old (if not NULL), then write value; 0 or -1 */
static int unpriv_bpf_disabled(char *old, size_t len, const char *value)
{
	FILE *f = fopen(UNPRIV_SYSCTL, "r+");
	int ok;

	if (!f)
		return -1;
	ok = !old || fgets(old, len, f);
	ok = ok && !fseek(f, 0, SEEK_SET) && fputs(value, f) >= 0;
	return fclose(f) || !ok ? -1 : 0;
}

int main(void)
{
	char unpriv_old[16] = "";

	/* line-buffered: a forked child never inherits a half-written line */
	setvbuf(stdout, NULL, _IOLBF, 0);
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		perror("upstream_token: mmap");
		return 1;
	}
	signal(SIGALRM, timed_out);
	if (unpriv_bpf_disabled(unpriv_old, sizeof(unpriv_old), "0"))
		printf("# cannot set %s to 0 (%s): subtests that need unprivileged ARRAY maps will fail\n",
		       UNPRIV_SYSCTL, strerror(errno));

	counting = true;
	test_token();
	counting = false;
	printf("TAP version 13\n1..%d\n", n_subtests);
	if (!n_subtests)
		return 1;
	n_subtests = 0;
	test_token();
	end_subtest();
	if (*unpriv_old && unpriv_bpf_disabled(NULL, 0, unpriv_old))
		printf("# could not put %s back to %s", UNPRIV_SYSCTL, unpriv_old);
	printf("# Totals: pass:%d fail:%d\n", passed, failed);
	return failed ? 1 : 0;
}
