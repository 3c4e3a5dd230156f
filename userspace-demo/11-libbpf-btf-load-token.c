// SPDX-License-Identifier: GPL-2.0
/*
 * Step 11: bpf_btf_load() with opts.token_fd.  Read it next to
 * steps/11-libbpf-btf-load-token/NOTES.md.
 *
 * The series' BTF scenario: libbpf builds the BTF (an empty BTF plus one
 * "int"), the container loads it with its token.  Compare with demo 05,
 * which lays out the same BTF by hand.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "demo.h"

struct btf_case {
	bool token;
	bool caps;
};

static int load_int_btf(int token_fd)
{
	LIBBPF_OPTS(bpf_btf_load_opts, opts);
	const void *raw;
	struct btf *btf;
	__u32 size;
	int err;

	DEMO_SET_TOKEN(opts.token_fd, opts.btf_flags, token_fd);

	btf = btf__new_empty();
	if (!btf)
		return -DEMO_SETUP_FAILED;
	if (btf__add_int(btf, "int", 4, BTF_INT_SIGNED) < 0) {
		btf__free(btf);
		return -DEMO_SETUP_FAILED;
	}
	raw = btf__raw_data(btf, &size);
	err = raw ? demo_close_result(bpf_btf_load(raw, size, &opts)) : -DEMO_SETUP_FAILED;
	btf__free(btf);
	return err;
}

static int in_container(int mnt_fd, void *arg)
{
	const struct btf_case *c = arg;
	int token_fd, err = 0;

	token_fd = demo_libbpf_token_create(mnt_fd, "", NULL);
	if (token_fd < 0)
		return token_fd;
	if (!c->caps)
		err = demo_caps_drop(DEMO_CAPS(CAP_BPF, CAP_PERFMON, CAP_NET_ADMIN, CAP_SYS_ADMIN));
	if (!err)
		err = load_int_btf(c->token ? token_fd : 0);
	close(token_fd);
	return err;
}

static int run(const struct btf_case *c)
{
	static const struct demo_delegation btf_load = { .cmds = 1ULL << BPF_BTF_LOAD };

	return demo_run_delegated(&btf_load, in_container, (void *)c);
}

static int token_and_cap(void)
{
	static const struct btf_case c = { .token = true, .caps = true };

	return run(&c);
}

static int token_no_cap(void)
{
	static const struct btf_case c = { .token = true, .caps = false };

	return run(&c);
}

static int cap_no_token(void)
{
	static const struct btf_case c = { .token = false, .caps = true };

	return run(&c);
}

/* 00-01 no BPF FS, 02 no BPF_TOKEN_CREATE, 03-04 btf_token_fd unknown */
#define TOKEN_BEFORE_05 { "00", -EPERM }, { "02", -EINVAL }

static const struct demo_case cases[] = {
	{ "libbpf.btf_token_and_cap", token_and_cap, EXPECT(TOKEN_BEFORE_05, { "05", 0 }) },
	{ "libbpf.btf_token_no_cap", token_no_cap, EXPECT(TOKEN_BEFORE_05, { "05", -EPERM }) },
	{ "libbpf.btf_cap_no_token", cap_no_token, EXPECT(TOKEN_BEFORE_05, { "03", -EPERM }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
