// SPDX-License-Identifier: GPL-2.0
/*
 * Step 20: the LSM hook of BPF_MAP_CREATE becomes bpf_map_create(map,
 * attr, token).  Read it next to steps/20-lsm-map-hooks/NOTES.md.
 *
 * Init-namespace root attaches a BPF LSM program that refuses every map
 * created with a token (the hook's third argument), for the length of a
 * case.  Unlike the program load of step 19, BPF_MAP_CREATE still holds
 * its token when it calls the hook (kernel/bpf/syscall.c, map_create()),
 * so the argument says what the caller used:
 *
 *   - the container's STACK map, made with its token: EPERM;
 *   - root's own ARRAY map, made without one: created.
 *
 * Before step 20 there is no bpf_lsm_bpf_map_create to attach to:
 * ENOENT, from the missing vmlinux BTF before step 18, from the BTF
 * lookup on 18 and 19, whose hook is still bpf_map_alloc_security(map).
 */
#define _GNU_SOURCE
#include <unistd.h>

#include "demo.h"

static const struct bpf_insn deny_if_token_arg[] = {
	/* r2 = ctx[2]: the hook's token argument */
	{ .code = BPF_LDX | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_2, .src_reg = BPF_REG_1, .off = 16 },
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
	{ .code = BPF_JMP | BPF_JEQ | BPF_K, .dst_reg = BPF_REG_2, .off = 1, .imm = 0 },
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = -EPERM },
	{ .code = BPF_JMP | BPF_EXIT },
};

static int attach_deny_if_token(void)
{
	int link_fd = demo_lsm_attach("bpf_map_create", deny_if_token_arg,
				      DEMO_ARRAY_SIZE(deny_if_token_arg));

	if (link_fd >= 0)
		demo_note("a BPF LSM program on bpf_map_create refuses maps made with a token");
	return link_fd;
}

static int token_map_refused(void)
{
	int link_fd = attach_deny_if_token(), err;

	if (link_fd < 0)
		return link_fd;
	err = demo_run_delegated(&DEMO_STACK_MAP_DELEGATION, demo_stack_map_with_token, NULL);
	close(link_fd);
	return err;
}

static int map_without_token_created(void)
{
	int link_fd = attach_deny_if_token(), err;

	if (link_fd < 0)
		return link_fd;
	err = demo_close_result(demo_map_create_simple(BPF_MAP_TYPE_ARRAY, 4, 8, 1));
	close(link_fd);
	return err;
}

static const struct demo_case cases[] = {
	{ "map.lsm_refuses_token_map", token_map_refused,
	  EXPECT({ "00", -ENOENT }, { "20", -EPERM }) },
	{ "map.lsm_passes_map_without_token", map_without_token_created,
	  EXPECT({ "00", -ENOENT }, { "20", 0 }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
