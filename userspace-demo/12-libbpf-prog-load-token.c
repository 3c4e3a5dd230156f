// SPDX-License-Identifier: GPL-2.0
/*
 * Step 12: bpf_prog_load() with opts.token_fd.  Read it next to
 * steps/12-libbpf-prog-load-token/NOTES.md.
 *
 * The series' program scenario: an XDP program calling bpf_jiffies64()
 * (CAP_BPF) and bpf_get_current_task() (CAP_PERFMON), loaded in the
 * container through libbpf with the token.  It needs everything from
 * step 06 (load), 07 (helpers) and 12 (library).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "demo.h"

static const struct bpf_insn selftest_prog[] = {
	{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_jiffies64 },
	{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_get_current_task },
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
	{ .code = BPF_JMP | BPF_EXIT },
};

struct prog_case {
	bool token;
	bool caps;
};

static int in_container(int mnt_fd, void *arg)
{
	const struct prog_case *c = arg;
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_XDP);
	int token_fd, err = 0;

	token_fd = demo_libbpf_token_create(mnt_fd, "", NULL);
	if (token_fd < 0)
		return token_fd;
	if (c->token)
		DEMO_SET_TOKEN(opts.token_fd, opts.prog_flags, token_fd);
	if (!c->caps)
		err = demo_caps_drop(DEMO_CAPS(CAP_BPF, CAP_PERFMON, CAP_NET_ADMIN, CAP_SYS_ADMIN));
	if (!err)
		err = demo_close_result(bpf_prog_load(BPF_PROG_TYPE_XDP, "token_prog", "GPL",
						      selftest_prog,
						      DEMO_ARRAY_SIZE(selftest_prog), &opts));
	close(token_fd);
	return err;
}

static int run(const struct prog_case *c)
{
	return demo_run_delegated(&DEMO_XDP_DELEGATION, in_container, (void *)c);
}

static int token_and_caps(void)
{
	static const struct prog_case c = { .token = true, .caps = true };

	return run(&c);
}

static int token_no_caps(void)
{
	static const struct prog_case c = { .token = true, .caps = false };

	return run(&c);
}

static int caps_no_token(void)
{
	static const struct prog_case c = { .token = false, .caps = true };

	return run(&c);
}

/*
 * bpf_prog_load() sends the program's name only if libbpf's
 * FEAT_PROG_NAME probe says the kernel takes names.  The probe loads a
 * tiny socket filter with no token; in the container, with unprivileged
 * BPF disabled, that load is refused, libbpf records the feature as
 * missing, and every load of this process goes out nameless - this one
 * too, although it has a token.  ok: the loaded program has no name.
 */
static int name_dropped_in_container(int mnt_fd, void *arg)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_XDP);
	struct bpf_prog_info info;
	int token_fd, prog_fd, err;

	(void)arg;
	token_fd = demo_libbpf_token_create(mnt_fd, "", NULL);
	if (token_fd < 0)
		return token_fd;
	DEMO_SET_TOKEN(opts.token_fd, opts.prog_flags, token_fd);
	prog_fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "token_prog", "GPL", selftest_prog,
				DEMO_ARRAY_SIZE(selftest_prog), &opts);
	close(token_fd);
	if (prog_fd < 0)
		return prog_fd;
	err = demo_prog_info(prog_fd, &info);
	close(prog_fd);
	if (err)
		return err;
	demo_note("program name: \"%s\"", info.name);
	return info.name[0] ? -EEXIST : 0;
}

static int prog_name_dropped(void)
{
	return demo_run_delegated(&DEMO_XDP_DELEGATION, name_dropped_in_container, NULL);
}

/*
 * 00-01 no BPF FS, 02 no BPF_TOKEN_CREATE, 03-05 prog_token_fd past the
 * end of those kernels' attr, 06 the helpers are refused (step 07).
 */
#define TOKEN_BEFORE_07 { "00", -EPERM }, { "02", -EINVAL }, { "03", -E2BIG }, { "06", -EINVAL }

static const struct demo_case cases[] = {
	{ "libbpf.prog_token_and_caps", token_and_caps, EXPECT(TOKEN_BEFORE_07, { "07", 0 }) },
	{ "libbpf.prog_token_no_caps", token_no_caps,
	  EXPECT({ "00", -EPERM }, { "02", -EINVAL }, { "03", -E2BIG }, { "06", -EPERM }) },
	{ "libbpf.prog_caps_no_token", caps_no_token,
	  EXPECT({ "00", -EPERM }, { "02", -EINVAL }, { "03", -EPERM }) },
	{ "libbpf.prog_name_dropped", prog_name_dropped, EXPECT(TOKEN_BEFORE_07, { "07", 0 }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
