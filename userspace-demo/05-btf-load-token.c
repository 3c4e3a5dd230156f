// SPDX-License-Identifier: GPL-2.0
/*
 * Step 05: BPF_BTF_LOAD with a token (btf_token_fd).  Read it next to
 * steps/05-btf-load-token/NOTES.md.
 *
 * The container's BPF FS delegates BPF_BTF_LOAD; the child loads a tiny
 * BTF blob (one "int" type) with and without the token, with and without
 * its namespaced CAP_BPF.  As for maps, only both together work.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/btf.h>

#include "demo.h"

/* The smallest useful BTF: a header, one INT type, its name. */
struct tiny_btf {
	struct btf_header hdr;
	struct btf_type int_type;
	__u32 int_encoding;
	char strings[5];
};

static const struct tiny_btf tiny_btf = {
	.hdr = {
		.magic = BTF_MAGIC,
		.version = BTF_VERSION,
		.hdr_len = sizeof(struct btf_header),
		.type_off = 0,
		.type_len = sizeof(struct btf_type) + sizeof(__u32),
		.str_off = sizeof(struct btf_type) + sizeof(__u32),
		.str_len = sizeof("\0int"),
	},
	.int_type = {
		.name_off = 1,
		.info = BTF_KIND_INT << 24,
		.size = 4,
	},
	.int_encoding = (BTF_INT_SIGNED << 24) | 32,
	.strings = "\0int",
};

static int btf_load(int token_fd, __u32 log_true_size)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.btf = (uintptr_t)&tiny_btf;
	/* up to the last string byte: the struct's tail padding is no section */
	attr.btf_size = offsetof(struct tiny_btf, strings) + sizeof(tiny_btf.strings);
	DEMO_SET_TOKEN(attr.btf_token_fd, attr.btf_flags, token_fd);
	attr.btf_log_true_size = log_true_size;
	return demo_close_result(demo_bpf(BPF_BTF_LOAD, &attr, sizeof(attr)));
}

struct btf_case {
	unsigned long long delegate_cmds;
	bool token;
	bool caps;
};

static int in_container(int mnt_fd, void *arg)
{
	const struct btf_case *c = arg;
	int token_fd = 0, err = 0;

	if (c->token) {
		token_fd = demo_token_create(mnt_fd, "", 0);
		if (token_fd < 0)
			return token_fd;
	}
	if (!c->caps)
		err = demo_caps_drop(DEMO_CAPS(CAP_BPF, CAP_PERFMON, CAP_NET_ADMIN, CAP_SYS_ADMIN));
	if (!err)
		err = btf_load(token_fd, 0);
	if (token_fd > 0)
		close(token_fd);
	return err;
}

static int run(const struct btf_case *c)
{
	const struct demo_delegation d = { .cmds = c->delegate_cmds };

	return demo_run_delegated(&d, in_container, (void *)c);
}

#define BTF_LOAD_CMD (1ULL << BPF_BTF_LOAD)
#define CASE(fn, ...)							\
	static int fn(void)						\
	{								\
		static const struct btf_case c = { __VA_ARGS__ };	\
		return run(&c);						\
	}

CASE(token_and_cap, BTF_LOAD_CMD, true, true)
CASE(token_no_cap, BTF_LOAD_CMD, true, false)
CASE(cap_no_token, BTF_LOAD_CMD, false, true)
CASE(no_token_no_cap, BTF_LOAD_CMD, false, false)
CASE(disallowed_cmd, 1ULL << BPF_MAP_CREATE, true, true)

/* Control: init-namespace root needs no token. */
static int init_ns_root(void)
{
	return btf_load(0, 0);
}

/* The reserved field that keeps btf_token_fd's offset: must be zero. */
static int log_true_size_set(void)
{
	return btf_load(0, 1);
}

/* 00-01: no BPF FS for the container; 02: no BPF_TOKEN_CREATE;
 * 03-04: btf_token_fd is an unknown attr field.
 */
#define TOKEN_BEFORE_05 { "00", -EPERM }, { "02", -EINVAL }

static const struct demo_case cases[] = {
	{ "btf.token_and_cap", token_and_cap, EXPECT(TOKEN_BEFORE_05, { "05", 0 }) },
	{ "btf.token_no_cap", token_no_cap, EXPECT(TOKEN_BEFORE_05, { "05", -EPERM }) },
	{ "btf.cap_no_token", cap_no_token, EXPECT({ "00", -EPERM }) },
	{ "btf.no_token_no_cap", no_token_no_cap, EXPECT({ "00", -EPERM }) },
	{ "btf.disallowed_cmd", disallowed_cmd, EXPECT(TOKEN_BEFORE_05, { "05", -EPERM }) },
	{ "btf.init_ns_root", init_ns_root, EXPECT({ "00", 0 }) },
	{ "btf.log_true_size_set", log_true_size_set, EXPECT({ "00", -EINVAL }, { "mainline", 0 }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
