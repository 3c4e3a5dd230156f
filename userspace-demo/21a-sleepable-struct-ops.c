// SPDX-License-Identifier: GPL-2.0
/*
 * Step 21a (prerequisite from Linux 6.3): sleepable struct_ops programs,
 * and bpf_dummy_ops.test_sleepable, the one member of the kernel's test
 * struct_ops that takes them.  Read it next to
 * steps/21a-sleepable-struct-ops/NOTES.md.
 *
 * Upstream's own token selftest loads such a program (its
 * progs/dummy_st_ops_success.c); this demo loads the smallest one
 * without libbpf, as init-namespace root: BPF_PROG_TYPE_STRUCT_OPS,
 * attach_btf_id the kernel's struct bpf_dummy_ops, expected_attach_type
 * the member's index, BPF_F_SLEEPABLE.  The verifier's first complaint
 * is printed as a note.
 *
 *   - for test_sleepable (member 2): loads from 21a on; on 18-21 the
 *     verifier refuses every sleepable struct_ops program before it
 *     looks at the member (EINVAL);
 *   - for test_1 (member 0): EINVAL from 18 on, but for a new reason on
 *     21a: the struct_ops itself refuses a sleepable program for that
 *     member.
 *
 * Before step 18 the struct is not in the kernel's BTF (ENOENT): there
 * is no BTF, and no BPF JIT, without which net/bpf/bpf_dummy_struct_ops.c
 * is not built; steps/18-delegate-names/config turns on both.
 */
#define _GNU_SOURCE
#include <string.h>
#include <bpf/btf.h>

#include "demo.h"

#define DUMMY_OPS_TEST_1 0
#define DUMMY_OPS_TEST_SLEEPABLE 2

static const struct bpf_insn return_zero[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
	{ .code = BPF_JMP | BPF_EXIT },
};

/* The first line of the verifier's log that names a refusal, as a note. */
static void note_refusal(const char *log)
{
	const char *line = strstr(log, "can be sleepable");

	if (!line)
		line = strstr(log, "attach to");
	if (!line)
		return;
	while (line > log && line[-1] != '\n')
		line--;
	demo_note("verifier: %.*s", (int)strcspn(line, "\n"), line);
}

static int load_sleepable_member(int member)
{
	static char log[4096];
	union bpf_attr attr;
	int id = demo_kernel_btf_id("bpf_dummy_ops", BTF_KIND_STRUCT), fd;

	if (id < 0)
		return id;
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_STRUCT_OPS;
	attr.expected_attach_type = member;
	attr.attach_btf_id = id;
	attr.prog_flags = BPF_F_SLEEPABLE;
	attr.insns = (uintptr_t)return_zero;
	attr.insn_cnt = DEMO_ARRAY_SIZE(return_zero);
	attr.license = (uintptr_t)"GPL";
	log[0] = 0;
	attr.log_buf = (uintptr_t)log;
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	fd = demo_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
	if (fd < 0)
		note_refusal(log);
	return demo_close_result(fd);
}

static int sleepable_test_sleepable(void)
{
	return load_sleepable_member(DUMMY_OPS_TEST_SLEEPABLE);
}

static int sleepable_test_1(void)
{
	return load_sleepable_member(DUMMY_OPS_TEST_1);
}

static const struct demo_case cases[] = {
	{ "struct_ops.sleepable_test_sleepable", sleepable_test_sleepable,
	  EXPECT({ "00", -ENOENT }, { "18", -EINVAL }, { "21a", 0 }) },
	{ "struct_ops.sleepable_test_1", sleepable_test_1,
	  EXPECT({ "00", -ENOENT }, { "18", -EINVAL }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
