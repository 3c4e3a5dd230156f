// SPDX-License-Identifier: GPL-2.0
/*
 * Step 19: the LSM hook of BPF_PROG_LOAD becomes bpf_prog_load(prog,
 * attr, token), called once the program is filled in, just before the
 * verifier.  Read it next to steps/19-lsm-prog-hooks/NOTES.md.
 *
 * Init-namespace root attaches a BPF LSM program to the hook for the
 * length of a case; then the container loads an XDP program with its
 * token, as step 06's prog.token_and_caps does.  The two programs ask
 * two questions of the same load:
 *
 *   - does the hook's third argument, the token, say "token"?  No: the
 *     load moves its token reference into prog->aux->token before the
 *     hook runs, and passes the emptied local (kernel/bpf/syscall.c,
 *     bpf_prog_load(); 6.12 does the same).  The load goes through.
 *   - does the program the hook is given carry the token?  Yes: the
 *     program reading prog->aux->token refuses the load, EPERM.
 *
 * Before step 19 there is no bpf_lsm_bpf_prog_load to attach to:
 * ENOENT, from the missing vmlinux BTF before step 18, from the BTF
 * lookup on 18, whose hook was still bpf_prog_alloc_security(aux).
 */
#define _GNU_SOURCE
#include <unistd.h>

#include "demo.h"

#define LDX_DW(dst, src, offset) \
	{ .code = BPF_LDX | BPF_MEM | BPF_DW, .dst_reg = dst, .src_reg = src, .off = offset }
#define MOV_IMM(dst, value) \
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = dst, .imm = value }
#define JEQ_IMM(dst, value, skip) \
	{ .code = BPF_JMP | BPF_JEQ | BPF_K, .dst_reg = dst, .off = skip, .imm = value }
#define EXIT { .code = BPF_JMP | BPF_EXIT }

/* Runs in the container: a token, then the XDP load with it. */
static int load_with_token(int mnt_fd, void *arg)
{
	int token_fd = demo_token_create(mnt_fd, "", 0), err;

	(void)arg;
	if (token_fd < 0)
		return token_fd;
	err = demo_close_result(demo_prog_load_token(BPF_PROG_TYPE_XDP, BPF_XDP,
						     demo_return_one,
						     DEMO_RETURN_ONE_LEN, token_fd));
	close(token_fd);
	return err;
}

/* The container's load while `insns` sit on bpf_prog_load. */
static int load_under(const struct bpf_insn *insns, uint32_t insn_cnt, const char *what)
{
	int link_fd = demo_lsm_attach("bpf_prog_load", insns, insn_cnt), err;

	if (link_fd < 0)
		return link_fd;
	demo_note("a BPF LSM program on bpf_prog_load refuses a load %s", what);
	err = demo_run_delegated(&DEMO_XDP_DELEGATION, load_with_token, NULL);
	close(link_fd);
	return err;
}

/* EPERM if ctx[2], the hook's token argument, is not NULL. */
static int token_argument_is_null(void)
{
	static const struct bpf_insn deny_if_token_arg[] = {
		LDX_DW(BPF_REG_2, BPF_REG_1, 16),	/* r2 = ctx[2] */
		MOV_IMM(BPF_REG_0, 0),
		JEQ_IMM(BPF_REG_2, 0, 1),
		MOV_IMM(BPF_REG_0, -EPERM),
		EXIT,
	};

	return load_under(deny_if_token_arg, DEMO_ARRAY_SIZE(deny_if_token_arg),
			  "whose token argument is set");
}

/*
 * EPERM if ctx[0]->aux->token, the token the program keeps, is not
 * NULL.  The verifier knows ctx[0] as a struct bpf_prog pointer (from
 * the hook's BTF) and lets the program follow it; the two offsets come
 * from the running kernel's BTF.
 */
static int program_keeps_token(void)
{
	int aux_off = demo_kernel_member_offset("bpf_prog", "aux");
	int token_off = demo_kernel_member_offset("bpf_prog_aux", "token");

	if (aux_off < 0)
		return aux_off;
	if (token_off < 0)
		return token_off;

	const struct bpf_insn deny_if_aux_token[] = {
		LDX_DW(BPF_REG_2, BPF_REG_1, 0),		/* r2 = prog */
		LDX_DW(BPF_REG_3, BPF_REG_2, aux_off),		/* r3 = prog->aux */
		LDX_DW(BPF_REG_4, BPF_REG_3, token_off),	/* r4 = aux->token */
		MOV_IMM(BPF_REG_0, 0),
		JEQ_IMM(BPF_REG_4, 0, 1),
		MOV_IMM(BPF_REG_0, -EPERM),
		EXIT,
	};

	return load_under(deny_if_aux_token, DEMO_ARRAY_SIZE(deny_if_aux_token),
			  "whose prog->aux->token is set");
}

static const struct demo_case cases[] = {
	{ "prog.lsm_token_argument_is_null", token_argument_is_null,
	  EXPECT({ "00", -ENOENT }, { "19", 0 }) },
	{ "prog.lsm_sees_prog_aux_token", program_keeps_token,
	  EXPECT({ "00", -ENOENT }, { "19", -EPERM }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
