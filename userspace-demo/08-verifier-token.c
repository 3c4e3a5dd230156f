// SPDX-License-Identifier: GPL-2.0
/*
 * Step 08: the verifier's privilege decisions follow the token.  Read it
 * next to steps/08-verifier-token/NOTES.md.
 *
 * Two programs that only a CAP_PERFMON holder may load: one returns a
 * kernel address (the frame pointer) to its caller, a pointer leak; the
 * other reads stack memory it never wrote.  Loaded in the container
 * through a token, they pass the verifier from step 08 on - if the
 * process holds CAP_PERFMON in the container's namespace.  On step 07
 * the load and the helpers follow the token but these decisions still
 * ask the init namespace: EACCES.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "demo.h"

/* r0 = r10 (the frame pointer); exit: "R0 leaks addr as return value" */
static const struct bpf_insn leaks_frame_pointer[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_0, .src_reg = BPF_REG_10 },
	{ .code = BPF_JMP | BPF_EXIT },
};

/*
 * *(u64 *)(r10 - 16) = 0; r0 = *(u64 *)(r10 - 8); exit: "invalid read
 * from stack" for r10 - 8, which was never written.  The store first
 * grows the frame past the slot read, so the read is of allocated but
 * uninitialized stack on every 6.1.y: before the stable fix "bpf: Fix
 * accesses to uninit stack slots" (6.1.191, Debian 6.1.192-1) a read
 * beyond the deepest write was refused even with allow_uninit_stack,
 * which would make this case test that fix rather than the token.
 */
static const struct bpf_insn reads_uninit_stack[] = {
	{ .code = BPF_ST | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_10, .off = -16, .imm = 0 },
	{ .code = BPF_LDX | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_0, .src_reg = BPF_REG_10,
	  .off = -8 },
	{ .code = BPF_JMP | BPF_EXIT },
};

struct verifier_case {
	const struct bpf_insn *insns;
	unsigned int insn_cnt;
	bool keep_perfmon;
};

static int xdp_load(const struct verifier_case *c, int token_fd)
{
	return demo_close_result(demo_prog_load_token(BPF_PROG_TYPE_XDP, BPF_XDP, c->insns,
						      c->insn_cnt, token_fd));
}

static int in_container(int mnt_fd, void *arg)
{
	const struct verifier_case *c = arg;
	int token_fd, err = 0;

	token_fd = demo_token_create(mnt_fd, "", 0);
	if (token_fd < 0)
		return token_fd;
	/* CAP_BPF and CAP_NET_ADMIN stay: enough to load an XDP program */
	if (!c->keep_perfmon)
		err = demo_caps_drop(DEMO_CAPS(CAP_PERFMON, CAP_SYS_ADMIN));
	if (!err)
		err = xdp_load(c, token_fd);
	close(token_fd);
	return err;
}

static int run(const struct verifier_case *c)
{
	return demo_run_delegated(&DEMO_XDP_DELEGATION, in_container, (void *)c);
}

#define PROG(p) .insns = p, .insn_cnt = DEMO_ARRAY_SIZE(p)
#define CASE(fn, ...)							\
	static int fn(void)						\
	{								\
		static const struct verifier_case c = { __VA_ARGS__ };	\
		return run(&c);						\
	}

CASE(ptr_leak, PROG(leaks_frame_pointer), .keep_perfmon = true)
CASE(ptr_leak_no_perfmon, PROG(leaks_frame_pointer), .keep_perfmon = false)
CASE(uninit_stack, PROG(reads_uninit_stack), .keep_perfmon = true)
CASE(uninit_stack_no_perfmon, PROG(reads_uninit_stack), .keep_perfmon = false)

/* Control: init-namespace root has CAP_PERFMON and needs no token. */
static int init_ns_root(void)
{
	static const struct verifier_case c = { PROG(leaks_frame_pointer) };

	return xdp_load(&c, 0);
}

/*
 * Before 08: 00-01 no BPF FS in the container, 02 no BPF_TOKEN_CREATE,
 * 03-05 prog_token_fd past the end of those kernels' attr (E2BIG); 06-07
 * load through the token but the verifier refuses (EACCES).
 */
#define VERIFIER_BEFORE_08 { "00", -EPERM }, { "02", -EINVAL }, { "03", -E2BIG }, { "06", -EACCES }

static const struct demo_case cases[] = {
	{ "verifier.ptr_leak", ptr_leak, EXPECT(VERIFIER_BEFORE_08, { "08", 0 }) },
	{ "verifier.ptr_leak_no_perfmon", ptr_leak_no_perfmon,
	  EXPECT(VERIFIER_BEFORE_08, { "08", -EACCES }) },
	{ "verifier.uninit_stack", uninit_stack, EXPECT(VERIFIER_BEFORE_08, { "08", 0 }) },
	{ "verifier.uninit_stack_no_perfmon", uninit_stack_no_perfmon,
	  EXPECT(VERIFIER_BEFORE_08, { "08", -EACCES }) },
	{ "verifier.init_ns_root", init_ns_root, EXPECT({ "00", 0 }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
