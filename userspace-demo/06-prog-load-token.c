// SPDX-License-Identifier: GPL-2.0
/*
 * Step 06: BPF_PROG_LOAD with a token (prog_token_fd).  Read it next to
 * steps/06-prog-load-token/NOTES.md.
 *
 * The container's BPF FS delegates BPF_PROG_LOAD for XDP programs with
 * the BPF_XDP attach type, as in the series' selftest.  An XDP program
 * needs CAP_BPF and CAP_NET_ADMIN: with a token, both may come from the
 * container's user namespace.  The token covers a program only if both
 * its type and its expected attach type are delegated.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "demo.h"

enum token_use { WITH_TOKEN, NO_TOKEN, NOT_A_TOKEN, CLOSED_FD };

struct prog_case {
	enum bpf_prog_type type;
	enum bpf_attach_type attach;
	enum token_use token;
	const int *drop;	/* capabilities to drop from the effective set */
	int n_drop;
	bool attach_after_close; /* CGROUP_SKB: close the token, then attach */
};

static const int all_caps[] = { CAP_BPF, CAP_PERFMON, CAP_NET_ADMIN, CAP_SYS_ADMIN };
static const int net_caps[] = { CAP_NET_ADMIN, CAP_SYS_ADMIN };


static int in_container(int mnt_fd, void *arg)
{
	const struct prog_case *c = arg;
	int token_fd = 0, prog_fd, err = 0;

	if (c->token == WITH_TOKEN) {
		token_fd = demo_token_create(mnt_fd, "", 0);
		if (token_fd < 0)
			return token_fd;
	} else if (c->token != NO_TOKEN) {
		token_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (c->token == CLOSED_FD)
			close(token_fd);
	}
	if (c->n_drop)
		err = demo_caps_drop(c->drop, c->n_drop);
	if (err)
		return err;
	prog_fd = demo_prog_load_token(c->type, c->attach, demo_return_one,
				       DEMO_RETURN_ONE_LEN, token_fd);
	if (c->token != CLOSED_FD && token_fd > 0)
		close(token_fd);
	if (prog_fd < 0)
		return prog_fd;
	/*
	 * CGROUP_SKB programs are checked at attach time, against the token
	 * the program was loaded with - even after the token fd is gone.
	 */
	if (c->attach_after_close)
		err = demo_cgroup_attach_root(prog_fd, BPF_CGROUP_INET_INGRESS);
	close(prog_fd);
	return err;
}

/* what the series' selftest delegates */
static int run_xdp(const struct prog_case *c)
{
	return demo_run_delegated(&DEMO_XDP_DELEGATION, in_container, (void *)c);
}

#define CASE(fn, ...)							\
	static int fn(void)						\
	{								\
		static const struct prog_case c = { __VA_ARGS__ };	\
		return run_xdp(&c);					\
	}

#define XDP .type = BPF_PROG_TYPE_XDP, .attach = BPF_XDP
#define DROP(caps) .drop = caps, .n_drop = DEMO_ARRAY_SIZE(caps)

CASE(token_and_caps, XDP, .token = WITH_TOKEN)
CASE(token_no_caps, XDP, .token = WITH_TOKEN, DROP(all_caps))
CASE(caps_no_token, XDP, .token = NO_TOKEN)
CASE(no_token_no_caps, XDP, .token = NO_TOKEN, DROP(all_caps))
/* CAP_BPF alone is not enough for a network program type */
CASE(token_bpf_cap_only, XDP, .token = WITH_TOKEN, DROP(net_caps))
/* not delegated: the token is dropped and the init namespace says no */
CASE(disallowed_prog_type, .type = BPF_PROG_TYPE_SCHED_CLS, .attach = BPF_XDP,
     .token = WITH_TOKEN)
CASE(disallowed_attach_type, .type = BPF_PROG_TYPE_XDP, .attach = BPF_CGROUP_INET_INGRESS,
     .token = WITH_TOKEN)
CASE(not_a_token, XDP, .token = NOT_A_TOKEN)
CASE(closed_fd, XDP, .token = CLOSED_FD)

/* The program keeps its token: attach works after the token fd is closed. */
static int cgroup_skb_attach_after_close(void)
{
	static const struct prog_case c = {
		.type = BPF_PROG_TYPE_CGROUP_SKB, .attach = BPF_CGROUP_INET_INGRESS,
		.token = WITH_TOKEN, .attach_after_close = true,
	};
	static const struct demo_delegation cgroup_skb = {
		.cmds = 1ULL << BPF_PROG_LOAD,
		.progs = 1ULL << BPF_PROG_TYPE_CGROUP_SKB,
		.attachs = 1ULL << BPF_CGROUP_INET_INGRESS,
	};

	return demo_run_delegated(&cgroup_skb, in_container, (void *)&c);
}

/*
 * A refused load must put the token too.  bpf_prog_load() takes its
 * reference before the permission checks, so every refusal after that
 * (here: a token but no CAP_NET_ADMIN for an XDP program) has to drop
 * it on the way out.  A reference left behind pins the token and the
 * user namespace it holds, and the result would not even change: EPERM
 * either way.  What does change is that namespace's count: under
 * demo_leak_rounds()'s lowered user.max_user_namespaces, a leak turns a
 * later round's unshare(CLONE_NEWUSER) into ENOSPC.
 */
#define LEAK_ROUNDS 12

static int one_refused_load(const void *arg)
{
	return run_xdp(arg);
}

static int refused_token_released(void)
{
	static const struct prog_case c = { XDP, .token = WITH_TOKEN, DROP(net_caps) };

	return demo_leak_rounds(LEAK_ROUNDS, one_refused_load, &c);
}

/*
 * Before 06: 00-01 no BPF FS for the container (EPERM), 02 no
 * BPF_TOKEN_CREATE (EINVAL).  On 03-05 the load reaches the kernel with
 * prog_token_fd set, and that field lies past the end of those kernels'
 * union bpf_attr (this step makes the union 8 bytes longer): __sys_bpf()'s
 * bpf_check_uarg_tail_zero() refuses non-zero bytes beyond what the
 * kernel knows with E2BIG, before any command looks at them.  Compare
 * map_token_fd in step 04, which fit inside the old union: EINVAL there.
 */
#define TOKEN_BEFORE_06 { "00", -EPERM }, { "02", -EINVAL }, { "03", -E2BIG }

static const struct demo_case cases[] = {
	{ "prog.token_and_caps", token_and_caps, EXPECT(TOKEN_BEFORE_06, { "06", 0 }) },
	{ "prog.token_no_caps", token_no_caps, EXPECT(TOKEN_BEFORE_06, { "06", -EPERM }) },
	{ "prog.caps_no_token", caps_no_token, EXPECT({ "00", -EPERM }) },
	{ "prog.no_token_no_caps", no_token_no_caps, EXPECT({ "00", -EPERM }) },
	{ "prog.token_bpf_cap_only", token_bpf_cap_only, EXPECT(TOKEN_BEFORE_06, { "06", -EPERM }) },
	{ "prog.disallowed_prog_type", disallowed_prog_type,
	  EXPECT(TOKEN_BEFORE_06, { "06", -EPERM }) },
	{ "prog.disallowed_attach_type", disallowed_attach_type,
	  EXPECT(TOKEN_BEFORE_06, { "06", -EPERM }) },
	{ "prog.not_a_token", not_a_token,
	  EXPECT({ "00", -EPERM }, { "02", -E2BIG }, { "06", -EINVAL }) },
	{ "prog.closed_fd", closed_fd, EXPECT({ "00", -EPERM }, { "02", -E2BIG }, { "06", -EBADF }) },
	{ "prog.cgroup_skb_attach_after_close", cgroup_skb_attach_after_close,
	  EXPECT(TOKEN_BEFORE_06, { "06", 0 }) },
	{ "prog.refused_token_released", refused_token_released,
	  EXPECT(TOKEN_BEFORE_06, { "06", -EPERM }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
