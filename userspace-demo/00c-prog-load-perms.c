// SPDX-License-Identifier: GPL-2.0
/*
 * Step 00c (prerequisite from Linux 6.5): BPF_PROG_LOAD's permission
 * checks no longer have the license copy in their middle.  Read it next
 * to steps/00c-prog-load-perms/NOTES.md.
 *
 * The visible effect is order.  An unprivileged caller loading an XDP
 * program (which needs CAP_BPF) with an unreadable license pointer used
 * to hear EFAULT from the copy; from 00c on the permission checks come
 * first and say EPERM.
 */
#define _GNU_SOURCE
#include <string.h>

#include "demo.h"

static const struct bpf_insn return_zero[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
	{ .code = BPF_JMP | BPF_EXIT },
};

/* An address no process has mapped: the kernel's copy faults. */
#define BAD_LICENSE ((uintptr_t)8)

static int prog_load(enum bpf_prog_type type, uintptr_t license)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = type;
	attr.insns = (uintptr_t)return_zero;
	attr.insn_cnt = DEMO_ARRAY_SIZE(return_zero);
	attr.license = license;
	return demo_close_result(demo_bpf(BPF_PROG_LOAD, &attr, sizeof(attr)));
}

static int xdp_bad_license(void)
{
	return prog_load(BPF_PROG_TYPE_XDP, BAD_LICENSE);
}

static int socket_filter_bad_license(void)
{
	return prog_load(BPF_PROG_TYPE_SOCKET_FILTER, BAD_LICENSE);
}

/* needs CAP_BPF, license unreadable: which check speaks first? */
static int prog_unpriv_xdp_bad_license(void)
{
	return demo_as_unprivileged(xdp_bad_license);
}

/* allowed without privilege: the license copy still happens, and fails */
static int prog_unpriv_socket_filter_bad_license(void)
{
	return demo_as_unprivileged(socket_filter_bad_license);
}

/* the license is still read: a GPL program loads as before */
static int prog_root_gpl(void)
{
	return prog_load(BPF_PROG_TYPE_SOCKET_FILTER, (uintptr_t)"GPL");
}

static const struct demo_case cases[] = {
	{ "prog.unpriv_xdp_bad_license", prog_unpriv_xdp_bad_license,
	  EXPECT({ "00", -EFAULT }, { "00c", -EPERM }) },
	{ "prog.unpriv_socket_filter_bad_license", prog_unpriv_socket_filter_bad_license,
	  EXPECT({ "00", -EFAULT }) },
	{ "prog.root_gpl", prog_root_gpl, EXPECT({ "00", 0 }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
