// SPDX-License-Identifier: GPL-2.0
/*
 * Step 07: helpers that need CAP_BPF or CAP_PERFMON follow the program's
 * token.  Read it next to steps/07-helper-protos-token/NOTES.md.
 *
 * The container loads the XDP program of the series' selftest, which
 * calls bpf_jiffies64() (a CAP_BPF helper) and bpf_get_current_task() (a
 * CAP_PERFMON helper).  On step 06 the load itself is allowed through
 * the token, but the verifier still asks the init namespace whether the
 * program may call those helpers, and it may not: "unknown func", EINVAL.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "demo.h"

#define CALL(helper) { .code = BPF_JMP | BPF_CALL, .imm = (helper) }
#define RETURN_ZERO \
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 }, \
	{ .code = BPF_JMP | BPF_EXIT }

static const struct bpf_insn calls_jiffies64[] = { CALL(BPF_FUNC_jiffies64), RETURN_ZERO };
static const struct bpf_insn calls_current_task[] = {
	CALL(BPF_FUNC_get_current_task), RETURN_ZERO
};
static const struct bpf_insn calls_both[] = {
	CALL(BPF_FUNC_jiffies64), CALL(BPF_FUNC_get_current_task), RETURN_ZERO
};

struct helper_case {
	const struct bpf_insn *insns;
	unsigned int insn_cnt;
	const int *drop;
	int n_drop;
};

#define PROG(p) .insns = p, .insn_cnt = DEMO_ARRAY_SIZE(p)

static int xdp_load(const struct helper_case *c, int token_fd)
{
	return demo_close_result(demo_prog_load_token(BPF_PROG_TYPE_XDP, BPF_XDP, c->insns,
						      c->insn_cnt, token_fd));
}

static int in_container(int mnt_fd, void *arg)
{
	const struct helper_case *c = arg;
	int token_fd, err = 0;

	token_fd = demo_token_create(mnt_fd, "", 0);
	if (token_fd < 0)
		return token_fd;
	if (c->n_drop)
		err = demo_caps_drop(c->drop, c->n_drop);
	if (!err)
		err = xdp_load(c, token_fd);
	close(token_fd);
	return err;
}

static int run(const struct helper_case *c)
{
	return demo_run_delegated(&DEMO_XDP_DELEGATION, in_container, (void *)c);
}

static const int perfmon_caps[] = { CAP_PERFMON, CAP_SYS_ADMIN };

#define CASE(fn, ...)							\
	static int fn(void)						\
	{								\
		static const struct helper_case c = { __VA_ARGS__ };	\
		return run(&c);						\
	}

CASE(jiffies64, PROG(calls_jiffies64))
CASE(current_task, PROG(calls_current_task))
CASE(selftest_prog, PROG(calls_both))
/* CAP_BPF and CAP_NET_ADMIN kept: enough to load, not for a perfmon helper */
CASE(current_task_no_perfmon, PROG(calls_current_task),
     .drop = perfmon_caps, .n_drop = DEMO_ARRAY_SIZE(perfmon_caps))

/* Control: init-namespace root calls both without any token. */
static int init_ns_root(void)
{
	static const struct helper_case c = { PROG(calls_both) };

	return xdp_load(&c, 0);
}

/*
 * The same helper without a token, from init-namespace root that lost
 * CAP_BPF and CAP_SYS_ADMIN but kept CAP_NET_ADMIN, with unprivileged
 * BPF enabled (demo_as_unprivileged()).  As XDP the load's own check
 * (no CAP_BPF, not a socket filter) refuses it before the verifier runs;
 * as a socket filter, a type anybody may load, the load gets as far as
 * the verifier, whose helper gate finds no bpf_jiffies64() for it.
 */
static int socket_filter_load(const struct bpf_insn *insns, unsigned int insn_cnt, int token_fd)
{
	return demo_close_result(demo_prog_load_token(BPF_PROG_TYPE_SOCKET_FILTER, 0, insns,
						      insn_cnt, token_fd));
}

static int xdp_jiffies64_no_token(void)
{
	static const struct helper_case c = { PROG(calls_jiffies64) };

	return xdp_load(&c, 0);
}

static int socket_filter_jiffies64_no_token(void)
{
	return socket_filter_load(calls_jiffies64, DEMO_ARRAY_SIZE(calls_jiffies64), 0);
}

static int unpriv_xdp_jiffies64(void)
{
	return demo_as_unprivileged(xdp_jiffies64_no_token);
}

static int unpriv_socket_filter_jiffies64(void)
{
	return demo_as_unprivileged(socket_filter_jiffies64_no_token);
}

/*
 * What the socket filter needs instead: a token that covers it and
 * CAP_BPF in the token's namespace.  A zeroed expected_attach_type is
 * BPF_CGROUP_INET_INGRESS (0), and the token judges that value too, so
 * the mount must delegate it alongside the program type.
 */
static int socket_filter_with_token(int mnt_fd, void *arg)
{
	int token_fd, err;

	(void)arg;
	token_fd = demo_token_create(mnt_fd, "", 0);
	if (token_fd < 0)
		return token_fd;
	err = socket_filter_load(calls_jiffies64, DEMO_ARRAY_SIZE(calls_jiffies64), token_fd);
	close(token_fd);
	return err;
}

static int socket_filter_jiffies64_token(void)
{
	static const struct demo_delegation socket_filters = {
		.cmds = 1ULL << BPF_PROG_LOAD,
		.progs = 1ULL << BPF_PROG_TYPE_SOCKET_FILTER,
		.attachs = 1ULL << BPF_CGROUP_INET_INGRESS,
	};

	return demo_run_delegated(&socket_filters, socket_filter_with_token, NULL);
}

/*
 * Before 07: 00-01 no BPF FS in the container, 02 no BPF_TOKEN_CREATE,
 * 03-05 prog_token_fd past the end of those kernels' attr (E2BIG), 06
 * loads with the token but the verifier finds no such helper (EINVAL).
 */
#define HELPERS_BEFORE_07 { "00", -EPERM }, { "02", -EINVAL }, { "03", -E2BIG }, { "06", -EINVAL }

static const struct demo_case cases[] = {
	{ "helper.jiffies64", jiffies64, EXPECT(HELPERS_BEFORE_07, { "07", 0 }) },
	{ "helper.current_task", current_task, EXPECT(HELPERS_BEFORE_07, { "07", 0 }) },
	{ "helper.selftest_prog", selftest_prog, EXPECT(HELPERS_BEFORE_07, { "07", 0 }) },
	{ "helper.current_task_no_perfmon", current_task_no_perfmon,
	  EXPECT(HELPERS_BEFORE_07, { "07", -EINVAL }) },
	{ "helper.init_ns_root", init_ns_root, EXPECT({ "00", 0 }) },
	{ "helper.unpriv_xdp_jiffies64", unpriv_xdp_jiffies64, EXPECT({ "00", -EPERM }) },
	{ "helper.unpriv_socket_filter_jiffies64", unpriv_socket_filter_jiffies64,
	  EXPECT({ "00", -EINVAL }) },
	{ "helper.socket_filter_jiffies64_token", socket_filter_jiffies64_token,
	  EXPECT(HELPERS_BEFORE_07, { "07", 0 }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
