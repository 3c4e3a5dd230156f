// SPDX-License-Identifier: GPL-2.0
/*
 * Step 17: the ABI Linux 6.9 shipped.  A command reads its token fd only
 * with BPF_F_TOKEN_FD in its flags, fd 0 included; BPF_TOKEN_CREATE
 * takes an open fd of the BPF FS root, not a path.  Read it next to
 * steps/17-token-fd-flag/NOTES.md.
 *
 * This demo is built for each ABI, like every demo: against step 16's
 * headers for the v6 steps, against the newest step's for the later
 * ones (and against 6.12's for the mainline column).  Each case
 * writes the same source for both: the raw field without the flag, the
 * flag where the ABI has one (DEMO_TOKEN_FLAG is 0 for v6), v6's
 * token_create attr sent as it is.  What each kernel makes of those
 * bytes is the flip.  The bad-input suite holds the two map cases of the
 * same change: use.token_fd_without_flag and use.token_at_fd_zero.
 *
 * Every case runs in the container flow (lib/container.c).  Before step
 * 03 there is no token to make, which the first entries of each EXPECT
 * say: no BPF FS for the container before 02, no BPF_TOKEN_CREATE in 02.
 * On step 03 the token fd fields of the commands are still unknown
 * bytes of the attr: EINVAL (CHECK_ATTR), E2BIG past the attr's end.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "demo.h"

#define NO_TOKEN_BEFORE_03 { "00", -EPERM }, { "02", -EINVAL }

static const struct demo_delegation stack_maps = {
	.cmds = 1ULL << BPF_MAP_CREATE,
	.maps = 1ULL << BPF_MAP_TYPE_STACK,
};

/* A STACK map (CAP_BPF) with the given token fd and map flags. */
static int stack_map_create(int token_fd, uint32_t map_flags)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_STACK;
	attr.value_size = 8;
	attr.max_entries = 1;
	attr.map_flags = map_flags;
	attr.map_token_fd = token_fd;
	return demo_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
}

/*
 * The map made with a token does not report BPF_F_TOKEN_FD among its
 * flags: the flag said how to read the attr, it is not the map's.
 */
static int token_flag_not_kept(int mnt_fd, void *arg)
{
	int token_fd = demo_token_create(mnt_fd, "", 0), map_fd, err;
	struct bpf_map_info info;
	union bpf_attr attr;

	(void)arg;
	if (token_fd < 0)
		return token_fd;
	map_fd = stack_map_create(token_fd, DEMO_TOKEN_FLAG);
	close(token_fd);
	if (map_fd < 0)
		return map_fd;
	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = map_fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uintptr_t)&info;
	err = demo_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr));
	close(map_fd);
	if (err)
		return err;
	demo_note("map_flags 0x%x", info.map_flags);
	return info.map_flags ? -DEMO_CHECK_FAILED : 0;
}

/*
 * An XDP program (CAP_BPF, CAP_NET_ADMIN), the token without the flag.
 * Before step 06 the kernel's attr ends before prog_token_fd, and a
 * non-zero byte past its end is E2BIG (bpf_check_uarg_tail_zero()).
 */
static int prog_token_without_flag(int mnt_fd, void *arg)
{
	int token_fd = demo_token_create(mnt_fd, "", 0);
	union bpf_attr attr;

	(void)arg;
	if (token_fd < 0)
		return token_fd;
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_XDP;
	attr.expected_attach_type = BPF_XDP;
	attr.insns = (uintptr_t)demo_return_one;
	attr.insn_cnt = DEMO_RETURN_ONE_LEN;
	attr.license = (uintptr_t)"GPL";
	attr.prog_token_fd = token_fd;
	return demo_close_result(demo_bpf(BPF_PROG_LOAD, &attr, sizeof(attr)));
}

/*
 * fsmount() returns an O_PATH fd.  v6 resolves it with an empty
 * pathname; 6.9 wants a file opened for real, and fdget() does not
 * return O_PATH files: EBADF.
 */
static int token_from_o_path_fd(int mnt_fd, void *arg)
{
	(void)arg;
	return demo_close_result(demo_token_create_fd(mnt_fd));
}

/*
 * v6's attr as it is: a directory fd of the root and an empty pathname,
 * whose pointer sits in bytes 8-15.  6.9's token_create ends at byte 8,
 * so those bytes must be zero (CHECK_ATTR): EINVAL.
 */
static int token_create_v6_attr(int mnt_fd, void *arg)
{
	struct demo_token_create_attr v6 = { .bpffs_pathname = (uintptr_t)"" };
	union bpf_attr attr;
	int root_fd, token_fd;

	(void)arg;
	root_fd = openat(mnt_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root_fd < 0)
		return -DEMO_SETUP_FAILED;
	v6.bpffs_path_fd = root_fd;
	memset(&attr, 0, sizeof(attr));
	memcpy(&attr, &v6, sizeof(v6));
	token_fd = demo_bpf(DEMO_BPF_TOKEN_CREATE, &attr, sizeof(attr));
	close(root_fd);
	return demo_close_result(token_fd);
}

static int map_case(demo_userns_fn fn)
{
	return demo_run_delegated(&stack_maps, fn, NULL);
}

static int case_token_flag_not_kept(void)
{
	return map_case(token_flag_not_kept);
}

static int case_prog_token_without_flag(void)
{
	return demo_run_delegated(&DEMO_XDP_DELEGATION, prog_token_without_flag, NULL);
}

static int case_token_from_o_path_fd(void)
{
	return map_case(token_from_o_path_fd);
}

static int case_token_create_v6_attr(void)
{
	return map_case(token_create_v6_attr);
}

static const struct demo_case cases[] = {
	{ "abi.token_flag_not_kept", case_token_flag_not_kept,
	  EXPECT(NO_TOKEN_BEFORE_03, { "04", 0 }) },
	{ "abi.prog_token_without_flag", case_prog_token_without_flag,
	  EXPECT(NO_TOKEN_BEFORE_03, { "03", -E2BIG }, { "06", 0 }, { "17", -EPERM }) },
	{ "abi.token_from_o_path_fd", case_token_from_o_path_fd,
	  EXPECT(NO_TOKEN_BEFORE_03, { "03", 0 }, { "17", -EBADF }) },
	{ "abi.token_create_v6_attr", case_token_create_v6_attr,
	  EXPECT(NO_TOKEN_BEFORE_03, { "03", 0 }, { "17", -EINVAL }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
