// SPDX-License-Identifier: GPL-2.0
/*
 * Step 15: a token is made only inside the user namespace that owns the
 * BPF FS, with CAP_BPF there, and only from the root of its superblock.
 * Read it next to steps/15-token-create-checks/NOTES.md.
 *
 * Each case asks BPF_TOKEN_CREATE from somewhere that v6 accepted.  The
 * init-namespace side of the same change (EOPNOTSUPP) shows in step 03's
 * token.init_ns_root and its neighbours, which flip here too.  Before
 * step 03 the command does not exist, before step 02 the container gets
 * no BPF FS at all: the first two entries of every EXPECT below.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/mount.h>

#include "demo.h"

#define BPFFS "/tmp/bpffs"
#define NO_TOKEN_BEFORE_03 { "00", -EPERM }, { "02", -EINVAL }

static const struct demo_delegation stack_maps = {
	.cmds = 1ULL << BPF_MAP_CREATE,
	.maps = 1ULL << BPF_MAP_TYPE_STACK,
};

/*
 * In the container, without CAP_BPF but still with CAP_SYS_ADMIN, which
 * stands in for CAP_BPF almost everywhere else (bpf_ns_capable()).  The
 * create check asks for CAP_BPF itself.
 */
static int create_without_cap_bpf(int mnt_fd, void *arg)
{
	int token_fd;

	(void)arg;
	if (demo_caps_drop(DEMO_CAPS(CAP_BPF)))
		return -DEMO_SETUP_FAILED;
	token_fd = demo_token_create(mnt_fd, "", 0);
	return demo_close_result(token_fd);
}

static int token_without_cap_bpf(void)
{
	return demo_run_delegated(&stack_maps, create_without_cap_bpf, NULL);
}

/*
 * The container's BPF FS, brought out to its privileged parent (init
 * namespace root, every capability): the parent asks for a token of it.
 */
static int token_by_parent_namespace(void)
{
	int mnt_fd, err;

	err = demo_fd_from_container(&stack_maps, DEMO_OUT_MOUNT, &mnt_fd);
	if (err)
		return err;
	err = demo_close_result(demo_token_create(mnt_fd, "", 0));
	close(mnt_fd);
	return err;
}

/*
 * A bind mount of a directory of the container's BPF FS: the root of
 * that mount, but not the root of the superblock.
 */
static int create_from_subdir_mount(int mnt_fd, void *arg)
{
	int clone_fd, err;

	(void)arg;
	mkdir(BPFFS, 0700);
	err = demo_mount_at(mnt_fd, BPFFS);
	if (err)
		return err;
	if (mkdir(BPFFS "/sub", 0700))
		return -DEMO_SETUP_FAILED;
	clone_fd = syscall(SYS_open_tree, AT_FDCWD, BPFFS "/sub",
			   OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (clone_fd < 0)
		return -DEMO_SETUP_FAILED;
	err = demo_close_result(demo_token_create(clone_fd, "", 0));
	close(clone_fd);
	return err;
}

static int token_from_subdir_mount(void)
{
	return demo_run_delegated(&stack_maps, create_from_subdir_mount, NULL);
}

static const struct demo_case cases[] = {
	{ "token.without_cap_bpf", token_without_cap_bpf,
	  EXPECT(NO_TOKEN_BEFORE_03, { "03", 0 }, { "15", -EPERM }) },
	{ "token.by_parent_namespace", token_by_parent_namespace,
	  EXPECT(NO_TOKEN_BEFORE_03, { "03", 0 }, { "15", -EPERM }) },
	{ "token.from_subdir_mount", token_from_subdir_mount,
	  EXPECT(NO_TOKEN_BEFORE_03, { "03", 0 }, { "15", -EINVAL }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
