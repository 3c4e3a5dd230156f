/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The token uses every suite makes.  They live here, not in the demo
 * library, because the library is built for every step and the token
 * fields exist only from step 04 on; the suites are built against the
 * last step (or mainline) only.  Each returns the new fd or -errno.
 */
#ifndef SUITE_H
#define SUITE_H

#include <string.h>

#include "demo.h"

/* a STACK map needs CAP_BPF: without one, only a token lets it through */
static inline int suite_stack_map_create(int token_fd)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_STACK;
	attr.value_size = 8;
	attr.max_entries = 1;
	DEMO_SET_TOKEN(attr.map_token_fd, attr.map_flags, token_fd);
	return demo_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
}

/* an XDP program needs CAP_BPF and CAP_NET_ADMIN, or a token for both */
static inline int suite_xdp_prog_load(int token_fd)
{
	return demo_prog_load_token(BPF_PROG_TYPE_XDP, BPF_XDP, demo_return_one,
				    DEMO_RETURN_ONE_LEN, token_fd);
}

#endif /* SUITE_H */
