// SPDX-License-Identifier: GPL-2.0
/*
 * Escape attempts: a token is meant to work for the processes of one
 * container and for nothing the container's BPF FS did not delegate.
 * Each case takes a token (or the BPF FS it comes from) somewhere it
 * should not be usable and tries.  docs/reliability.md explains each one.
 *
 * Three cases show what v6 does allow and a reviewer would call a hole:
 * escape.owner_outside_userns, escape.token_from_sibling_bpffs and
 * escape.cgroup_skb_attach_type_not_delegated.  They expect success on
 * the v6 steps, because that is what v6 does.  The NOTES.md of the step
 * that brings each one says why (steps/03-token-object for the first
 * two, steps/06-prog-load-token for the third), and docs/reliability.md
 * what upstream's 6.12 does about it: it closes only the sibling's BPF
 * FS (EPERM there), as step 15 does on 6.1; the other two still succeed.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>
#include <unistd.h>

#include "demo.h"
#include "suite.h"

#define BPFFS "/tmp/bpffs"
#define UNPRIVILEGED_UID 65534

static const struct demo_delegation stack_maps = {
	.cmds = 1ULL << BPF_MAP_CREATE,
	.maps = 1ULL << BPF_MAP_TYPE_STACK,
};

/* a STACK map needs CAP_BPF: the token must stand in for it */
static int stack_map_create(int token_fd)
{
	return demo_close_result(suite_stack_map_create(token_fd));
}

/* Clear every capability set for good: no effective, permitted or inheritable. */
static int drop_all_caps(void)
{
	cap_t none = cap_init();
	int err = 0;

	if (!none)
		return -DEMO_SETUP_FAILED;
	if (cap_set_proc(none))
		err = -DEMO_SETUP_FAILED;
	cap_free(none);
	return err;
}

/*
 * A token of the init user namespace, handed to a process that is not
 * root.  It may only stand in for capabilities the holder has in the
 * token's namespace, and this holder has none anywhere.
 */
static int init_ns_token_unprivileged(void)
{
	static const struct demo_fsopt any[] = {
		{ "delegate_cmds", "any" },
		{ "delegate_maps", "any" },
		{ NULL, NULL },
	};
	int root_fd, token_fd;

	root_fd = demo_bpffs_mount(BPFFS, any);
	if (root_fd < 0)
		return -DEMO_SETUP_FAILED;
	token_fd = demo_token_create(root_fd, "", 0);
	if (token_fd < 0)
		return token_fd;
	if (setresgid(UNPRIVILEGED_UID, UNPRIVILEGED_UID, UNPRIVILEGED_UID) ||
	    setresuid(UNPRIVILEGED_UID, UNPRIVILEGED_UID, UNPRIVILEGED_UID))
		return -DEMO_SETUP_FAILED;
	return stack_map_create(token_fd);
}

/*
 * Run fn in a fresh user namespace of its own - a sibling of any
 * container's - with the fd that arrives over SCM_RIGHTS after it is in.
 */
struct sibling_job {
	int (*fn)(int fd);
};

static int sibling(int sock, void *arg)
{
	const struct sibling_job *job = arg;
	int fd, err;

	err = demo_enter_container();
	if (!err)
		err = demo_recv_fd(sock, &fd);
	return err ? err : job->fn(fd);
}

/* Bring fd `what` out of a container and hand it to a sibling running fn. */
static int hand_to_sibling(enum demo_fd_out what, int (*fn)(int fd))
{
	struct sibling_job job = { .fn = fn };
	int sock, pid, fd, err;

	err = demo_fork_connected(sibling, &job, &sock, &pid);
	if (err)
		return err;
	err = demo_fd_from_container(&stack_maps, what, &fd);
	demo_send_fd(sock, fd, err);	/* the sibling stops on err too */
	close(sock);
	if (fd >= 0)
		close(fd);
	err = demo_wait_result(pid);
	return err;
}

/*
 * The sibling is root of its own namespace with every capability there,
 * but holds nothing in the token's namespace.
 */
static int token_to_sibling_userns(void)
{
	return hand_to_sibling(DEMO_OUT_TOKEN, stack_map_create);
}

/*
 * v6 hole: BPF_TOKEN_CREATE does not compare the caller's user namespace
 * with the one owning the BPF FS, so a sibling can make a token from
 * another container's mount.  (Using it then fails, as above.)  From
 * step 15 on, as upstream, only the owning namespace makes one: EPERM.
 */
static int create_from_sibling_mount(int mnt_fd)
{
	return demo_close_result(demo_token_create(mnt_fd, "", 0));
}

static int token_from_sibling_bpffs(void)
{
	return hand_to_sibling(DEMO_OUT_MOUNT, create_from_sibling_mount);
}

static int use_token_from_sibling_mount(int mnt_fd)
{
	int token_fd = demo_token_create(mnt_fd, "", 0);
	int err;

	if (token_fd < 0)
		return token_fd;
	err = stack_map_create(token_fd);
	close(token_fd);
	return err;
}

static int use_token_from_sibling_bpffs(void)
{
	return hand_to_sibling(DEMO_OUT_MOUNT, use_token_from_sibling_mount);
}

/*
 * v6 hole: the container's user namespace is owned by the euid that
 * created it (a uid, not a process), and cap_capable() grants every
 * process of the parent namespace with that euid every capability in
 * the namespace.  So the container's token works in the init namespace
 * too, for any process with the owner's euid - here one that has
 * dropped every capability of its own.
 */
static int owner_outside_userns(void)
{
	int token_fd, err;

	err = demo_fd_from_container(&stack_maps, DEMO_OUT_TOKEN, &token_fd);
	if (err)
		return err;
	err = drop_all_caps();
	if (!err)
		err = stack_map_create(token_fd);
	close(token_fd);
	return err;
}

/* The control: the same process without the token. */
static int owner_outside_no_token(void)
{
	int err = drop_all_caps();

	return err ? err : stack_map_create(0);
}

/*
 * Attach types.  A token covers a program load only if the program's
 * expected attach type is delegated; whether the program can then be
 * attached some other way is up to the attach path.  For CGROUP_SOCK the
 * attach type must equal the expected one, so the delegation holds.  For
 * CGROUP_SKB it need not: the kernel binds the program to its expected
 * attach type only when the verifier saw an egress program that may
 * return 2 or 3 (prog->enforce_expected_attach_type), so a program loaded
 * for ingress attaches for egress too: another thing a reviewer would
 * call a hole.  steps/06-prog-load-token/NOTES.md gives the lines.
 */
struct attach_case {
	enum bpf_prog_type type;
	enum bpf_attach_type delegated;	/* and the program's expected type */
	enum bpf_attach_type attach_as;
};

static int load_and_attach(int mnt_fd, void *arg)
{
	const struct attach_case *c = arg;
	int token_fd, prog_fd, err;

	token_fd = demo_token_create(mnt_fd, "", 0);
	if (token_fd < 0)
		return token_fd;
	prog_fd = demo_prog_load_token(c->type, c->delegated, demo_return_one,
				       DEMO_RETURN_ONE_LEN, token_fd);
	close(token_fd);
	if (prog_fd < 0)
		return prog_fd;
	err = demo_cgroup_attach_root(prog_fd, c->attach_as);
	close(prog_fd);
	return err;
}

static int attach_as(const struct attach_case *c)
{
	const struct demo_delegation d = {
		.cmds = 1ULL << BPF_PROG_LOAD,
		.progs = 1ULL << c->type,
		.attachs = 1ULL << c->delegated,
	};

	return demo_run_delegated(&d, load_and_attach, (void *)c);
}

static int attach_type_not_delegated(void)
{
	static const struct attach_case c = {
		BPF_PROG_TYPE_CGROUP_SOCK, BPF_CGROUP_INET_SOCK_CREATE, BPF_CGROUP_INET_SOCK_RELEASE,
	};

	return attach_as(&c);
}

static int cgroup_skb_attach_type_not_delegated(void)
{
	static const struct attach_case c = {
		BPF_PROG_TYPE_CGROUP_SKB, BPF_CGROUP_INET_INGRESS, BPF_CGROUP_INET_EGRESS,
	};

	return attach_as(&c);
}

/*
 * Before the token steps: on 00-01 no container gets a BPF FS (EPERM),
 * 02 has no BPF_TOKEN_CREATE (EINVAL), 03 no map_token_fd (EINVAL) and
 * no prog_token_fd (past the end of its union: E2BIG).
 */
#define MAP_TOKEN_BEFORE_04 { "00", -EPERM }, { "02", -EINVAL }
#define PROG_TOKEN_BEFORE_06 { "00", -EPERM }, { "02", -EINVAL }, { "03", -E2BIG }

static const struct demo_case cases[] = {
	{ "escape.init_ns_token_unprivileged", init_ns_token_unprivileged,
	  EXPECT({ "00", -EINVAL }, { "04", -EPERM }, { "15", -EOPNOTSUPP }) },
	{ "escape.token_to_sibling_userns", token_to_sibling_userns,
	  EXPECT(MAP_TOKEN_BEFORE_04, { "04", -EPERM }) },
	{ "escape.token_from_sibling_bpffs", token_from_sibling_bpffs,
	  EXPECT({ "00", -EPERM }, { "02", -EINVAL }, { "03", 0 }, { "15", -EPERM }) },
	{ "escape.use_token_from_sibling_bpffs", use_token_from_sibling_bpffs,
	  EXPECT(MAP_TOKEN_BEFORE_04, { "04", -EPERM }) },
	{ "escape.owner_outside_userns", owner_outside_userns,
	  EXPECT(MAP_TOKEN_BEFORE_04, { "04", 0 }) },
	{ "escape.owner_outside_no_token", owner_outside_no_token, EXPECT({ "00", -EPERM }) },
	{ "escape.attach_type_not_delegated", attach_type_not_delegated,
	  EXPECT(PROG_TOKEN_BEFORE_06, { "06", -EINVAL }) },
	{ "escape.cgroup_skb_attach_type_not_delegated", cgroup_skb_attach_type_not_delegated,
	  EXPECT(PROG_TOKEN_BEFORE_06, { "06", 0 }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
