// SPDX-License-Identifier: GPL-2.0
/*
 * Step 00a (prerequisite from Linux 6.5): the "unprivileged BPF is
 * disabled" gate moves from __sys_bpf() into map_create() and
 * bpf_prog_load().  Read it next to steps/00a-move-unpriv-checks/NOTES.md.
 *
 * The rule is the same; the order is not.  On step 00 a caller without
 * CAP_BPF is turned away before the kernel looks at the attributes, so
 * every mistake reads as EPERM.  From 00a on, the attributes are checked
 * first.  That is the point: a token fd is an attribute, so the gate has
 * to sit where the attributes are known.
 */
#define _GNU_SOURCE
#include <string.h>
#include <unistd.h>

#include "demo.h"

/* bpf_capable() is CAP_BPF or CAP_SYS_ADMIN: drop both from the effective set. */
static int drop_bpf_capable(void)
{
	return demo_caps_drop(DEMO_CAPS(CAP_BPF, CAP_SYS_ADMIN));
}

/*
 * Unprivileged, with a byte the kernel does not know: which check wins?
 * (From step 17 on the kernel knows that byte, value_type_btf_obj_fd,
 * and ignores it: the permission check answers.)
 */
static int map_unpriv_unknown_field(void)
{
	int err = drop_bpf_capable();

	return err ? err : demo_map_create_token_field(1);
}

/* The same for BPF_PROG_LOAD, with a prog_flags bit no kernel defines. */
static int prog_unpriv_bad_flags(void)
{
	const struct bpf_insn ret0[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;
	int err = drop_bpf_capable();

	if (err)
		return err;
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (uintptr_t)ret0;
	attr.insn_cnt = DEMO_ARRAY_SIZE(ret0);
	attr.license = (uintptr_t)"GPL";
	attr.prog_flags = 1U << 31;
	return demo_close_result(demo_bpf(BPF_PROG_LOAD, &attr, sizeof(attr)));
}

/* The rule itself did not change: a well-formed request is still EPERM. */
static int map_unpriv_array(void)
{
	int err = drop_bpf_capable();

	return err ? err : demo_close_result(demo_map_create_simple(BPF_MAP_TYPE_ARRAY, 4, 8, 1));
}

/* Inside a user namespace the token field now gets looked at, too. */
static int map_userns_unknown_field(void)
{
	int err = demo_enter_userns();

	return err ? err : demo_map_create_token_field(1);
}

static const struct demo_case cases[] = {
	{ "map.unpriv_unknown_field", map_unpriv_unknown_field,
	  EXPECT({ "00", -EPERM }, { "00a", -EINVAL }, { "17", -EPERM }) },
	{ "prog.unpriv_bad_flags", prog_unpriv_bad_flags,
	  EXPECT({ "00", -EPERM }, { "00a", -EINVAL }) },
	{ "map.unpriv_array", map_unpriv_array, EXPECT({ "00", -EPERM }) },
	{ "map.userns_unknown_field", map_userns_unknown_field,
	  EXPECT({ "00", -EPERM }, { "00a", -EINVAL }, { "17", -EPERM }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
