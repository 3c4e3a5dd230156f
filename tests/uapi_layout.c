// SPDX-License-Identifier: GPL-2.0
/*
 * The UAPI the steps add must be ABI-identical to the series: the same
 * enum values and the same offsets in union bpf_attr.  Compiled by
 * tests/host/uapi.sh against each step's installed headers, with one
 * -DHAVE_* per feature the step's header has; a mismatch fails the
 * build of this file with the failed assertion in the message.
 */
#include <stddef.h>
#include <linux/bpf.h>
#include "demo.h"

#define SAME(a, b) _Static_assert((a) == (b), #a " == " #b)

/* unchanged by the series: what every step must keep */
SAME(BPF_PROG_BIND_MAP, 35);
SAME(offsetof(union bpf_attr, map_extra), 64);
SAME(__MAX_BPF_ATTACH_TYPE, 44);	/* what "any" attach type means on 6.1 */

#ifdef HAVE_TOKEN_CREATE
SAME(BPF_TOKEN_CREATE, 36);
SAME(__MAX_BPF_CMD, 37);
SAME(offsetof(union bpf_attr, token_create.flags), 0);
/* the demo library's spelled-out copy of v6's attr, used before step 03 */
SAME(DEMO_BPF_TOKEN_CREATE, BPF_TOKEN_CREATE);
#ifndef HAVE_SHIPPED_ABI
SAME(offsetof(union bpf_attr, token_create.bpffs_path_fd), 4);
SAME(offsetof(union bpf_attr, token_create.bpffs_pathname), 8);
SAME(sizeof(((union bpf_attr *)0)->token_create), 16);
SAME(offsetof(struct demo_token_create_attr, bpffs_path_fd),
     offsetof(union bpf_attr, token_create.bpffs_path_fd));
SAME(offsetof(struct demo_token_create_attr, bpffs_pathname),
     offsetof(union bpf_attr, token_create.bpffs_pathname));
#endif
#endif

#ifdef HAVE_MAP_TOKEN_FD
SAME(__MAX_BPF_MAP_TYPE, 32);	/* 33 in the series: no CGRP_STORAGE in 6.1 */
SAME(sizeof(((union bpf_attr *)0)->map_token_fd), 4);
#ifndef HAVE_SHIPPED_ABI
SAME(offsetof(union bpf_attr, map_token_fd), 72);
#endif
#endif

#ifdef HAVE_BTF_TOKEN_FD
SAME(offsetof(union bpf_attr, btf_log_true_size), 28);
#ifndef HAVE_SHIPPED_ABI
SAME(offsetof(union bpf_attr, btf_token_fd), 32);
#endif
#endif

#ifdef HAVE_PROG_TOKEN_FD
SAME(__MAX_BPF_PROG_TYPE, 32);	/* 33 in the series: no NETFILTER in 6.1 */
SAME(offsetof(union bpf_attr, log_true_size), 140);
SAME(offsetof(union bpf_attr, prog_token_fd), 144);
#endif

/*
 * The ABI Linux 6.9 shipped (step 17 on), as Debian's 6.12 has it:
 * tests/uapi_probe.c compares every member with 6.12's header, these
 * are the values a reader looks for.
 */
#ifdef HAVE_SHIPPED_ABI
SAME(BPF_F_TOKEN_FD, 1U << 16);
SAME(offsetof(union bpf_attr, token_create.bpffs_fd), 4);
SAME(sizeof(((union bpf_attr *)0)->token_create), 8);
SAME(offsetof(union bpf_attr, value_type_btf_obj_fd), 72);
SAME(offsetof(union bpf_attr, map_token_fd), 76);
SAME(offsetof(union bpf_attr, btf_flags), 32);
SAME(offsetof(union bpf_attr, btf_token_fd), 36);
#endif

int main(void)
{
	return 0;
}
