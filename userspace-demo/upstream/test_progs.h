/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of test_progs (tools/testing/selftests/bpf/test_progs.h) that
 * upstream's prog_tests/token.c uses, written for this project: the
 * ASSERT_* macros, test__start_subtest(), and the headers token.c takes
 * from test_progs.h.  token.c itself is compiled unchanged from the 6.12
 * tree; test_progs.c runs it and prints one KTAP line per subtest.
 *
 * Each ASSERT_* evaluates to true when the assertion holds; when it does
 * not, it prints a "# " line naming the check and counts a failure
 * against the running subtest.  The count lives in memory shared with
 * every process the subtest forks, so an assertion that fails in
 * token.c's container child (which reports to nobody but its exit
 * status) still fails the subtest.
 */
#ifndef TEST_PROGS_H
#define TEST_PROGS_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* true: run the subtest named so (its KTAP line follows it) */
bool test__start_subtest(const char *name);

/* one failed assertion of the running subtest: print it and count it */
void test__fail(const char *file, int line, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* an ERR_PTR()-style pointer, as libbpf returned them before 1.0 */
#define TEST__IS_ERR(p) ((unsigned long)(p) >= (unsigned long)-4095)

#define TEST__CMP(actual, op, expected, name) ({			\
	typeof(actual) test_act_ = (actual);				\
	typeof(expected) test_exp_ = (expected);			\
	bool test_ok_ = test_act_ op test_exp_;				\
									\
	if (!test_ok_)							\
		test__fail(__FILE__, __LINE__, (name),			\
			   "want actual %s expected: actual %lld, expected %lld", \
			   #op, (long long)test_act_, (long long)test_exp_); \
	test_ok_;							\
})

#define ASSERT_EQ(actual, expected, name) TEST__CMP(actual, ==, expected, name)
#define ASSERT_NEQ(actual, expected, name) TEST__CMP(actual, !=, expected, name)
#define ASSERT_LT(actual, expected, name) TEST__CMP(actual, <, expected, name)
#define ASSERT_LE(actual, expected, name) TEST__CMP(actual, <=, expected, name)
#define ASSERT_GT(actual, expected, name) TEST__CMP(actual, >, expected, name)
#define ASSERT_GE(actual, expected, name) TEST__CMP(actual, >=, expected, name)

#define ASSERT_OK(res, name) ({						\
	long long test_res_ = (res);					\
	bool test_ok_ = test_res_ == 0;					\
									\
	if (!test_ok_)							\
		test__fail(__FILE__, __LINE__, (name),			\
			   "unexpected error: %lld (errno %d)", test_res_, errno); \
	test_ok_;							\
})

#define ASSERT_ERR(res, name) ({					\
	long long test_res_ = (res);					\
	bool test_ok_ = test_res_ < 0;					\
									\
	if (!test_ok_)							\
		test__fail(__FILE__, __LINE__, (name),			\
			   "unexpected success: %lld", test_res_);	\
	test_ok_;							\
})

#define ASSERT_OK_PTR(ptr, name) ({					\
	const void *test_ptr_ = (ptr);					\
	bool test_ok_ = test_ptr_ && !TEST__IS_ERR(test_ptr_);		\
									\
	if (!test_ok_)							\
		test__fail(__FILE__, __LINE__, (name),			\
			   "unexpected error: %p (errno %d)", test_ptr_, errno); \
	test_ok_;							\
})

#define ASSERT_ERR_PTR(ptr, name) ({					\
	const void *test_ptr_ = (ptr);					\
	bool test_ok_ = !test_ptr_ || TEST__IS_ERR(test_ptr_);		\
									\
	if (!test_ok_)							\
		test__fail(__FILE__, __LINE__, (name),			\
			   "unexpected pointer: %p", test_ptr_);	\
	test_ok_;							\
})

#endif /* TEST_PROGS_H */
