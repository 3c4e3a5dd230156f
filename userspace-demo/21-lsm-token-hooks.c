// SPDX-License-Identifier: GPL-2.0
/*
 * Step 21: LSM hooks on the token itself.  bpf_token_create may refuse
 * a token; bpf_token_cmd and bpf_token_capable may veto, one command or
 * one capability at a time, what delegation and the namespace allow.
 * Read it next to steps/21-lsm-token-hooks/NOTES.md.
 *
 * Init-namespace root attaches a BPF LSM program to one hook for the
 * length of a case; then the container does what step 04's
 * map.token_and_cap does: a token, and a STACK map (CAP_BPF) with it.
 *
 *   - on bpf_token_create, a program that refuses every token: the
 *     token create fails, EPERM;
 *   - on bpf_token_capable, a program that refuses CAP_BPF: the token
 *     is made, but does not vouch for the container's CAP_BPF, and
 *     bpf_token_capable() says "not capable": EPERM.  Nothing falls
 *     back to the init namespace (the command hook's refusal does).
 *
 * The third hook, bpf_token_cmd, has its case in step 04's demo
 * (map.lsm_denies_token_cmd), which flips here too.  Before step 21
 * none of the hooks exists: ENOENT, from the missing vmlinux BTF before
 * step 18, from the BTF lookup of the hook on 18-20.
 */
#define _GNU_SOURCE
#include <unistd.h>

#include "demo.h"

/* The container's token and map while `insns` sit on `hook`. */
static int map_under(const char *hook, const struct bpf_insn *insns, uint32_t insn_cnt,
		     const char *what)
{
	int link_fd = demo_lsm_attach(hook, insns, insn_cnt), err;

	if (link_fd < 0)
		return link_fd;
	demo_note("a BPF LSM program on %s %s", hook, what);
	err = demo_run_delegated(&DEMO_STACK_MAP_DELEGATION, demo_stack_map_with_token, NULL);
	close(link_fd);
	return err;
}

static int create_refused(void)
{
	static const struct bpf_insn refuse[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = -EPERM },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return map_under("bpf_token_create", refuse, DEMO_ARRAY_SIZE(refuse),
			 "refuses every token");
}

static int capable_refused(void)
{
	static const struct bpf_insn refuse_cap_bpf[] = {
		/*
		 * r2 = ctx[1]: the hook's int capability argument, in the
		 * low half of its u64 slot, so compared in 32 bits
		 */
		{ .code = BPF_LDX | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_2, .src_reg = BPF_REG_1, .off = 8 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP32 | BPF_JNE | BPF_K, .dst_reg = BPF_REG_2, .off = 1, .imm = CAP_BPF },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = -EPERM },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return map_under("bpf_token_capable", refuse_cap_bpf, DEMO_ARRAY_SIZE(refuse_cap_bpf),
			 "refuses CAP_BPF");
}

static const struct demo_case cases[] = {
	{ "token.lsm_refuses_create", create_refused,
	  EXPECT({ "00", -ENOENT }, { "21", -EPERM }) },
	{ "token.lsm_refuses_cap_bpf", capable_refused,
	  EXPECT({ "00", -ENOENT }, { "21", -EPERM }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
