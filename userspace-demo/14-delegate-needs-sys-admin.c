// SPDX-License-Identifier: GPL-2.0
/*
 * Step 14: only CAP_SYS_ADMIN in the init namespace may set a non-zero
 * delegate_* option.  Read it next to
 * steps/14-delegate-needs-sys-admin/NOTES.md.
 *
 * The check looks at the task calling fsconfig(), at the moment it
 * calls it: not at who opened the context, and not at the user
 * namespace the context belongs to.  The cases below take those apart.
 * The container flow itself is in mount.options_set_in_container
 * (userspace-demo/02-delegate-mount-opts.c), which flips here too; from
 * this step on the demo library has the parent set the options.
 */
#define _GNU_SOURCE
#include <unistd.h>

#include "demo.h"

/* A fresh BPF FS context of init-namespace root: fs fd, or -errno. */
static int init_fs_context(void)
{
	int fs_fd, err;

	err = demo_bpffs_context(NULL, &fs_fd);
	if (err) {
		if (fs_fd >= 0)
			close(fs_fd);
		return err;
	}
	return fs_fd;
}

/* Set key=value on fs_fd while `caps` are out of the effective set. */
static int set_without(int fs_fd, const char *key, const char *value,
		       const int *caps, int n_caps)
{
	int err;

	if (demo_caps_drop(caps, n_caps))
		return -DEMO_SETUP_FAILED;
	err = demo_fsconfig_string(fs_fd, key, value);
	if (demo_caps_raise(caps, n_caps))
		return -DEMO_SETUP_FAILED;
	return err;
}

/*
 * Root opened the context with every capability, then lets CAP_SYS_ADMIN
 * go: the capability that counts is the setter's, now.
 */
static int root_without_sys_admin(void)
{
	int fs_fd = init_fs_context(), err;

	if (fs_fd < 0)
		return fs_fd;
	err = set_without(fs_fd, "delegate_cmds", "any", DEMO_CAPS(CAP_SYS_ADMIN));
	close(fs_fd);
	return err;
}

/* CAP_BPF is not what is asked: without it root still delegates. */
static int root_without_cap_bpf(void)
{
	int fs_fd = init_fs_context(), err;

	if (fs_fd < 0)
		return fs_fd;
	err = set_without(fs_fd, "delegate_cmds", "any", DEMO_CAPS(CAP_BPF));
	close(fs_fd);
	return err;
}

/* The container's own context, opened in its own user namespace. */
static int container_set(const char *key, const char *value)
{
	int fs_fd, err;

	if (demo_enter_container())
		return -DEMO_SETUP_FAILED;
	fs_fd = demo_fsopen("bpf");
	if (fs_fd < 0)
		return fs_fd;
	err = demo_fsconfig_string(fs_fd, key, value);
	close(fs_fd);
	return err;
}

/* A zero mask grants nothing, so the container may still "set" it. */
static int container_sets_zero(void)
{
	return container_set("delegate_maps", "0");
}

/* Only the delegation options are checked: the mode is the container's. */
static int container_sets_mode(void)
{
	return container_set("mode", "0700");
}

static const struct demo_case cases[] = {
	{ "delegate.root_without_sys_admin", root_without_sys_admin,
	  EXPECT({ "00", 0 }, { "14", -EPERM }) },
	{ "delegate.root_without_cap_bpf", root_without_cap_bpf,
	  EXPECT({ "00", 0 }) },
	{ "delegate.container_sets_zero", container_sets_zero,
	  EXPECT({ "00", 0 }) },
	{ "delegate.container_sets_mode", container_sets_mode,
	  EXPECT({ "00", 0 }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
