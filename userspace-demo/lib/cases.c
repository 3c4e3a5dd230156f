// SPDX-License-Identifier: GPL-2.0
/*
 * The case harness: run each selected case in a child process of its own
 * (so namespaces and dropped capabilities never leak into the next case),
 * turn its exit status back into 0/-errno, look up what the running step's
 * kernel should return, and report KTAP through the kernel tree's own
 * kselftest.h.
 *
 * The running step comes from $BPFTOK_STEP, which the VM's /init takes
 * from the kernel command line (bpftok.step=NN).
 */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest.h"
#include "demo.h"

const char *demo_result_name(int result)
{
	static char buf[32];
	const char *name;

	if (result == 0)
		return "ok";
	if (result == -DEMO_SETUP_FAILED)
		return "SETUP_FAILED";
	if (result == -DEMO_CHECK_FAILED)
		return "CHECK_FAILED";
	name = result < 0 ? strerrorname_np(-result) : NULL;
	if (name)
		return name;
	snprintf(buf, sizeof(buf), "result_%d", result);
	return buf;
}

void demo_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("# ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
}

/*
 * Step ids sort as strings in series order: "00" < "00a" < "01" < "13".
 * The last entry not after the running step applies.
 */
static bool expected_result(const struct demo_expect *expect, const char *step,
			    int *result)
{
	bool found = false;

	for (; expect->since; expect++) {
		if (strcmp(expect->since, step) <= 0) {
			*result = expect->result;
			found = true;
		}
	}
	return found;
}

bool demo_step_since(const char *since)
{
	const char *step = getenv("BPFTOK_STEP");

	return step && strcmp(since, step) <= 0;
}

/* A result crosses a process boundary as the exit status: 0 or errno. */
void demo_exit_result(int result)
{
	fflush(stdout);
	_exit(result > 0 || result < -254 ? DEMO_SETUP_FAILED : -result);
}

int demo_wait_result(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) < 0)
		return -DEMO_SETUP_FAILED;
	if (WIFSIGNALED(status)) {
		demo_note("process %d killed by signal %d", pid, WTERMSIG(status));
		return -DEMO_SETUP_FAILED;
	}
	return -WEXITSTATUS(status);
}

static int run_case_isolated(const struct demo_case *c)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -DEMO_SETUP_FAILED;
	if (pid == 0)
		demo_exit_result(c->run());
	return demo_wait_result(pid);
}

/*
 * One KTAP line per case, carrying what the case returned and what the
 * running step's kernel should return:
 *   ok 3 map.token_and_cap # got=ok want=ok
 *   not ok 4 map.token_only # got=EPERM want=ok
 * vm/parse.awk reads the matrix from these lines: keep the format.
 */
static void report_case(const char *name, int result, int expected)
{
	char got[32];

	/* demo_result_name() answers in one static buffer: copy the first */
	snprintf(got, sizeof(got), "%s", demo_result_name(result));
	ksft_test_result(result == expected, "%s # got=%s want=%s\n",
			 name, got, demo_result_name(expected));
}

/*
 * The sysctls a case may change.  The harness reads them before the first
 * case and writes back whatever a case left changed, even a case killed
 * half-way, so every case starts from the VM's defaults.
 */
static const char *const guarded_sysctls[] = {
	UNPRIV_BPF_SYSCTL,	/* demo_set_unpriv_bpf_disabled() */
	USERNS_LIMIT_SYSCTL,	/* demo_leak_rounds() */
};

struct saved_sysctl {
	int value;
	bool saved;
};

static void save_sysctls(struct saved_sysctl *saved)
{
	for (size_t i = 0; i < DEMO_ARRAY_SIZE(guarded_sysctls); i++)
		saved[i].saved = demo_read_int(guarded_sysctls[i], &saved[i].value) == 0;
}

static void restore_sysctls(const struct saved_sysctl *saved)
{
	char text[16];
	int now;

	for (size_t i = 0; i < DEMO_ARRAY_SIZE(guarded_sysctls); i++) {
		if (!saved[i].saved || demo_read_int(guarded_sysctls[i], &now) ||
		    now == saved[i].value)
			continue;
		snprintf(text, sizeof(text), "%d", saved[i].value);
		if (demo_write_file(guarded_sysctls[i], text))
			demo_note("could not restore %s to %s", guarded_sysctls[i], text);
	}
}

static bool selected(const char *name, int argc, char **argv)
{
	if (argc == 0)
		return true;
	for (int i = 0; i < argc; i++)
		if (fnmatch(argv[i], name, 0) == 0)
			return true;
	return false;
}

static void usage(const char *prog, const struct demo_case *cases, int n_cases)
{
	fprintf(stderr, "usage: %s [--list] [CASE-PATTERN...]\n"
		"Runs in the VM; $BPFTOK_STEP names the running step's kernel.\n"
		"Cases:\n", prog);
	for (int i = 0; i < n_cases; i++)
		fprintf(stderr, "  %s\n", cases[i].name);
}

int demo_main(int argc, char **argv, const struct demo_case *cases, int n_cases)
{
	const char *step = getenv("BPFTOK_STEP");
	struct saved_sysctl sysctls[DEMO_ARRAY_SIZE(guarded_sysctls)];
	int n_selected = 0;

	if (argc > 1 && strcmp(argv[1], "--list") == 0) {
		for (int i = 0; i < n_cases; i++)
			printf("%s\n", cases[i].name);
		return 0;
	}
	if (argc > 1 && argv[1][0] == '-') {
		usage(argv[0], cases, n_cases);
		return 2;
	}
	if (!step || !*step) {
		fprintf(stderr, "%s: BPFTOK_STEP is not set; run the demo in the VM "
			"(make vm STEP=NN) or set it to the step of the running kernel\n",
			argv[0]);
		return 2;
	}
	for (int i = 0; i < n_cases; i++)
		n_selected += selected(cases[i].name, argc - 1, argv + 1);
	if (n_selected == 0) {
		fprintf(stderr, "%s: no case matches\n", argv[0]);
		usage(argv[0], cases, n_cases);
		return 2;
	}

	save_sysctls(sysctls);
	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	ksft_set_plan(n_selected);
	for (int i = 0; i < n_cases; i++) {
		const struct demo_case *c = &cases[i];
		int result, expected;

		if (!selected(c->name, argc - 1, argv + 1))
			continue;
		if (!expected_result(c->expect, step, &expected)) {
			ksft_test_result_fail("%s # no expectation for step %s\n", c->name, step);
			continue;
		}
		result = run_case_isolated(c);
		restore_sysctls(sysctls);
		report_case(c->name, result, expected);
	}
	ksft_finished();
	return 0;
}
