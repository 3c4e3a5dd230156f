// SPDX-License-Identifier: GPL-2.0
/*
 * Step 10: bpf_map_create() with opts.token_fd.  Read it next to
 * steps/10-libbpf-map-create-token/NOTES.md.
 *
 * The series' map scenario through libbpf: the container's BPF FS
 * delegates BPF_MAP_CREATE for STACK maps; a STACK map needs CAP_BPF.
 * Compare with demo 04, which builds the same attr by hand.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "demo.h"

struct map_case {
	bool token;
	bool caps;
	bool sz_before_token_fd;	/* opts.sz of a caller built for step 09 */
};

static int in_container(int mnt_fd, void *arg)
{
	const struct map_case *c = arg;
	LIBBPF_OPTS(bpf_map_create_opts, opts);
	int token_fd, err = 0;

	token_fd = demo_libbpf_token_create(mnt_fd, "", NULL);
	if (token_fd < 0)
		return token_fd;
	if (c->token)
		DEMO_SET_TOKEN(opts.token_fd, opts.map_flags, token_fd);
	if (c->sz_before_token_fd) {
		/* the field is there and set, but sz says the caller's struct
		 * ends before it; flags untouched, so mainline sees no token
		 * either
		 */
		opts.sz = offsetof(struct bpf_map_create_opts, token_fd);
		opts.token_fd = token_fd;
	}
	if (!c->caps)
		err = demo_caps_drop(DEMO_CAPS(CAP_BPF, CAP_PERFMON, CAP_NET_ADMIN, CAP_SYS_ADMIN));
	if (!err)
		err = demo_close_result(bpf_map_create(BPF_MAP_TYPE_STACK, "token_demo",
						       0, 8, 1, &opts));
	close(token_fd);
	return err;
}

static int run(const struct map_case *c)
{
	static const struct demo_delegation stack_maps = {
		.cmds = 1ULL << BPF_MAP_CREATE,
		.maps = 1ULL << BPF_MAP_TYPE_STACK,
	};

	return demo_run_delegated(&stack_maps, in_container, (void *)c);
}

static int token_and_cap(void)
{
	static const struct map_case c = { .token = true, .caps = true };

	return run(&c);
}

static int token_no_cap(void)
{
	static const struct map_case c = { .token = true, .caps = false };

	return run(&c);
}

static int cap_no_token(void)
{
	static const struct map_case c = { .token = false, .caps = true };

	return run(&c);
}

/*
 * A token_fd past opts.sz: libbpf reads an opts field only if the
 * caller's sz covers it (OPTS_GET), so the token is never sent and the
 * map is judged as one without a token.
 */
static int token_beyond_sz(void)
{
	static const struct map_case c = { .caps = true, .sz_before_token_fd = true };

	return run(&c);
}

/* 00-01 no BPF FS, 02 no BPF_TOKEN_CREATE, 03 map_token_fd unknown */
#define TOKEN_BEFORE_04 { "00", -EPERM }, { "02", -EINVAL }

static const struct demo_case cases[] = {
	{ "libbpf.map_token_and_cap", token_and_cap, EXPECT(TOKEN_BEFORE_04, { "04", 0 }) },
	{ "libbpf.map_token_no_cap", token_no_cap, EXPECT(TOKEN_BEFORE_04, { "04", -EPERM }) },
	{ "libbpf.map_cap_no_token", cap_no_token, EXPECT(TOKEN_BEFORE_04, { "03", -EPERM }) },
	{ "libbpf.map_token_beyond_sz", token_beyond_sz,
	  EXPECT(TOKEN_BEFORE_04, { "03", -EPERM }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
