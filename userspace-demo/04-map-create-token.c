// SPDX-License-Identifier: GPL-2.0
/*
 * Step 04: BPF_MAP_CREATE with a token (map_token_fd).  Read it next to
 * steps/04-map-create-token/NOTES.md.
 *
 * Every case is the container flow: the child's BPF FS delegates
 * BPF_MAP_CREATE and the STACK map type (unless the case says
 * otherwise), the child makes a token, then asks for a STACK map - a
 * CAP_BPF map type - with or without the token, with or without its
 * namespaced capabilities.  Only token + capability works: the token
 * says "this container may", the namespaced CAP_BPF "this process may".
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "demo.h"

enum token_use {
	WITH_TOKEN,	/* map_token_fd = the token */
	NO_TOKEN,	/* map_token_fd = 0 */
	NOT_A_TOKEN,	/* map_token_fd = some other open fd */
	CLOSED_FD,	/* map_token_fd = an fd number that is not open */
};

struct map_case {
	unsigned long long delegate_cmds;
	unsigned long long delegate_maps;
	enum bpf_map_type type;
	enum token_use token;
	bool caps;		/* keep the namespace's CAP_BPF & co */
};

/* What the series' selftest drops: everything a token could stand in for. */
static int drop_bpf_caps(void)
{
	return demo_caps_drop(DEMO_CAPS(CAP_BPF, CAP_PERFMON, CAP_NET_ADMIN, CAP_SYS_ADMIN));
}

static int map_create(enum bpf_map_type type, int token_fd)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = type;
	/* queue and stack maps have no key, hash maps need one */
	attr.key_size = type == BPF_MAP_TYPE_QUEUE || type == BPF_MAP_TYPE_STACK ? 0 : 4;
	attr.value_size = 8;
	attr.max_entries = 1;
	DEMO_SET_TOKEN(attr.map_token_fd, attr.map_flags, token_fd);
	return demo_close_result(demo_bpf(BPF_MAP_CREATE, &attr, sizeof(attr)));
}

static int token_fd_for(const struct map_case *c, int mnt_fd, int *to_close)
{
	int fd;

	*to_close = -1;
	switch (c->token) {
	case NO_TOKEN:
		return 0;
	case NOT_A_TOKEN:
		fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		break;
	case CLOSED_FD:
		fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		close(fd);
		return fd;
	default:
		fd = demo_token_create(mnt_fd, "", 0);
		break;
	}
	*to_close = fd;
	return fd;
}

/* Runs in the container child, with the BPF FS mount fd. */
static int in_container(int mnt_fd, void *arg)
{
	const struct map_case *c = arg;
	int token_fd, to_close, err = 0;

	token_fd = token_fd_for(c, mnt_fd, &to_close);
	if (token_fd < 0)
		return token_fd;
	if (!c->caps)
		err = drop_bpf_caps();
	if (!err)
		err = map_create(c->type, token_fd);
	if (to_close >= 0)
		close(to_close);
	return err;
}

static int run(const struct map_case *c)
{
	const struct demo_delegation d = {
		.cmds = c->delegate_cmds,
		.maps = c->delegate_maps,
	};

	return demo_run_delegated(&d, in_container, (void *)c);
}

#define MAP_CREATE_CMD (1ULL << BPF_MAP_CREATE)
#define STACK_MAPS (1ULL << BPF_MAP_TYPE_STACK)

#define CASE(fn, ...)							\
	static int fn(void)						\
	{								\
		static const struct map_case c = { __VA_ARGS__ };	\
		return run(&c);						\
	}

/* the four combinations of the series' selftest */
CASE(token_and_cap, MAP_CREATE_CMD, STACK_MAPS, BPF_MAP_TYPE_STACK, WITH_TOKEN, true)
CASE(token_no_cap, MAP_CREATE_CMD, STACK_MAPS, BPF_MAP_TYPE_STACK, WITH_TOKEN, false)
CASE(cap_no_token, MAP_CREATE_CMD, STACK_MAPS, BPF_MAP_TYPE_STACK, NO_TOKEN, true)
CASE(no_token_no_cap, MAP_CREATE_CMD, STACK_MAPS, BPF_MAP_TYPE_STACK, NO_TOKEN, false)
/* a token that does not cover the request is ignored, not an error */
CASE(disallowed_type, MAP_CREATE_CMD, STACK_MAPS, BPF_MAP_TYPE_QUEUE, WITH_TOKEN, true)
CASE(disallowed_cmd, 1ULL << BPF_PROG_LOAD, ~0ULL, BPF_MAP_TYPE_STACK, WITH_TOKEN, true)
/* a map_token_fd that is no token */
CASE(not_a_token, MAP_CREATE_CMD, STACK_MAPS, BPF_MAP_TYPE_STACK, NOT_A_TOKEN, true)
CASE(closed_fd, MAP_CREATE_CMD, STACK_MAPS, BPF_MAP_TYPE_STACK, CLOSED_FD, true)

/*
 * With unprivileged BPF enabled, no token and the namespace's
 * capabilities: the gate no longer stops anyone, so the map-type switch
 * decides.  A HASH map is open to everybody; a STACK map still needs
 * CAP_BPF, and without a token that means the init namespace's.
 */
static int run_unpriv_bpf_enabled(const struct map_case *c)
{
	/* init-namespace root may lower the sysctl; the harness restores it */
	if (demo_set_unpriv_bpf_disabled(0) < 0)
		return -DEMO_SETUP_FAILED;
	return run(c);
}

static int hash_no_token_unpriv_bpf(void)
{
	static const struct map_case c = {
		MAP_CREATE_CMD, STACK_MAPS, BPF_MAP_TYPE_HASH, NO_TOKEN, true
	};

	return run_unpriv_bpf_enabled(&c);
}

static int stack_no_token_unpriv_bpf(void)
{
	static const struct map_case c = {
		MAP_CREATE_CMD, STACK_MAPS, BPF_MAP_TYPE_STACK, NO_TOKEN, true
	};

	return run_unpriv_bpf_enabled(&c);
}

/*
 * The token must not outlive its users: a map created with a token must
 * not keep the token, or the user namespace it pins, alive.  Twelve
 * container runs under a lowered user.max_user_namespaces
 * (demo_leak_rounds()): one forgotten reference per run exhausts the
 * limit and a later run fails with ENOSPC.
 */
#define LEAK_ROUNDS 12

static int one_token_map(const void *arg)
{
	return run(arg);
}

static int token_released(void)
{
	static const struct map_case c = {
		MAP_CREATE_CMD, STACK_MAPS, BPF_MAP_TYPE_STACK, WITH_TOKEN, true
	};

	return demo_leak_rounds(LEAK_ROUNDS, one_token_map, &c);
}

/*
 * Policy on top of delegation: upstream's kernel calls an LSM hook,
 * security_bpf_token_cmd(), each time a token is asked to allow a
 * command (kernel/bpf/token.c, bpf_token_allow_cmd()), and a BPF LSM
 * program on it can say no.  Init-namespace root attaches one that
 * denies BPF_MAP_CREATE through any token while the case runs (the link
 * goes with the case's process); then the container does what
 * map.token_and_cap does.  The token is created, but is ignored for the
 * map, which leaves the container's namespaced CAP_BPF: EPERM.  v6 has
 * no such hook; step 21 adds it (steps/21-lsm-token-hooks).  Before,
 * demo_lsm_attach() answers ENOENT: no /sys/kernel/btf/vmlinux before
 * step 18, no bpf_lsm_bpf_token_cmd in it on 18-20.
 */
static const struct bpf_insn deny_token_map_create[] = {
	/*
	 * r2 = ctx[1]: the hook's enum bpf_cmd argument, in the low half
	 * of its u64 slot, so compared in 32 bits
	 */
	{ .code = BPF_LDX | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_2, .src_reg = BPF_REG_1, .off = 8 },
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
	{ .code = BPF_JMP32 | BPF_JNE | BPF_K, .dst_reg = BPF_REG_2, .off = 1, .imm = BPF_MAP_CREATE },
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = -EPERM },
	{ .code = BPF_JMP | BPF_EXIT },
};

static int lsm_denies_token_cmd(void)
{
	static const struct map_case c = {
		MAP_CREATE_CMD, STACK_MAPS, BPF_MAP_TYPE_STACK, WITH_TOKEN, true
	};
	int link_fd = demo_lsm_attach("bpf_token_cmd", deny_token_map_create,
				      DEMO_ARRAY_SIZE(deny_token_map_create));
	int err;

	if (link_fd < 0)
		return link_fd;
	demo_note("a BPF LSM program on bpf_token_cmd denies BPF_MAP_CREATE");
	err = run(&c);
	close(link_fd);
	return err;
}

/*
 * Before 04: on 00-01 the container gets no BPF FS (EPERM); on 02 there
 * is no BPF_TOKEN_CREATE (EINVAL); on 03 the token exists but
 * map_token_fd is an unknown attr field (EINVAL).  Cases without a
 * token reach the map create from 02 on and meet the unprivileged gate.
 */
#define TOKEN_BEFORE_04 { "00", -EPERM }, { "02", -EINVAL }
#define NO_TOKEN_BEFORE_04 { "00", -EPERM }

static const struct demo_case cases[] = {
	{ "map.token_and_cap", token_and_cap, EXPECT(TOKEN_BEFORE_04, { "04", 0 }) },
	{ "map.token_no_cap", token_no_cap, EXPECT(TOKEN_BEFORE_04, { "04", -EPERM }) },
	{ "map.cap_no_token", cap_no_token, EXPECT(NO_TOKEN_BEFORE_04) },
	{ "map.no_token_no_cap", no_token_no_cap, EXPECT(NO_TOKEN_BEFORE_04) },
	{ "map.hash_no_token_unpriv_bpf", hash_no_token_unpriv_bpf,
	  EXPECT({ "00", -EPERM }, { "02", 0 }) },
	{ "map.stack_no_token_unpriv_bpf", stack_no_token_unpriv_bpf,
	  EXPECT(NO_TOKEN_BEFORE_04) },
	{ "map.disallowed_type", disallowed_type, EXPECT(TOKEN_BEFORE_04, { "04", -EPERM }) },
	{ "map.disallowed_cmd", disallowed_cmd, EXPECT(TOKEN_BEFORE_04, { "04", -EPERM }) },
	{ "map.not_a_token", not_a_token, EXPECT({ "00", -EPERM }, { "02", -EINVAL }) },
	{ "map.closed_fd", closed_fd, EXPECT({ "00", -EPERM }, { "02", -EINVAL }, { "04", -EBADF }) },
	{ "map.token_released", token_released, EXPECT(TOKEN_BEFORE_04, { "04", 0 }) },
	{ "map.lsm_denies_token_cmd", lsm_denies_token_cmd,
	  EXPECT({ "00", -ENOENT }, { "21", -EPERM }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
