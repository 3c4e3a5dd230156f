// SPDX-License-Identifier: GPL-2.0
/*
 * Step 00: the whole BPF token flow on unmodified Linux 6.1, and where it
 * stops.  Read it next to steps/00-baseline/NOTES.md.
 *
 * The flow the series enables:
 *   container child (user ns + mount ns)   privileged parent (init ns)
 *   fsopen("bpf"), delegate_* options  ->  FSCONFIG_CMD_CREATE, fsmount
 *   BPF_TOKEN_CREATE from the mount    <-  mount fd
 *   map/BTF/program with the token
 *
 * On 6.1 the first wall is the parent's FSCONFIG_CMD_CREATE: BPF FS is not
 * FS_USERNS_MOUNT, so a context that captured a child user namespace is
 * refused even for init-namespace root.  Each later case probes the next
 * piece directly, from the init namespace, to show it is missing too.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "demo.h"

/* What the container asks for: every command, map, program, attach type. */
static const struct demo_fsopt delegate_all[] = {
	{ "delegate_cmds", "any" },
	{ "delegate_maps", "any" },
	{ "delegate_progs", "any" },
	{ "delegate_attachs", "any" },
	{ NULL, NULL },
};

/* fsopen() only needs CAP_SYS_ADMIN over our own mount namespace. */
static int bpffs_context_in_container(void)
{
	int err = demo_enter_container();

	return err ? err : demo_fsopen("bpf");
}

static int fsopen_in_userns(void)
{
	return demo_close_result(bpffs_context_in_container());
}

/*
 * 6.1's bpf_parse_param() ignores options it does not know, for
 * compatibility with mount(8) users of old.  So a delegation option is
 * "accepted" here - and has no effect at all.
 */
static int unknown_option_in_userns(void)
{
	int fs_fd, err;

	fs_fd = bpffs_context_in_container();
	if (fs_fd < 0)
		return fs_fd;
	err = demo_fsconfig_string(fs_fd, "delegate_cmds", "not-a-number");
	demo_print_fs_log(fs_fd, "container");
	close(fs_fd);
	return err;
}

static int container_got_mount(int mnt_fd, void *arg)
{
	(void)mnt_fd;
	(void)arg;
	demo_note("container: got a BPF FS mount fd from the parent");
	return 0;
}

/* The whole hand-over: stops at the parent's FSCONFIG_CMD_CREATE on 6.1. */
static int container_bpffs_mount(void)
{
	return demo_run_in_container(delegate_all, container_got_mount, NULL);
}

/* Control: BPF FS itself works when the init namespace makes it. */
static int init_ns_bpffs_mount(void)
{
	int fs_fd, mnt_fd, err;

	fs_fd = demo_fsopen("bpf");
	if (fs_fd < 0)
		return fs_fd;
	err = demo_fs_create(fs_fd);
	if (err) {
		demo_print_fs_log(fs_fd, "init");
		close(fs_fd);
		return err;
	}
	mnt_fd = demo_fsmount(fs_fd);
	close(fs_fd);
	if (mnt_fd < 0)
		return mnt_fd;
	close(mnt_fd);
	return 0;
}

/*
 * An unknown command: __sys_bpf()'s switch falls through to -EINVAL.
 * From step 03 on, the root of /sys/fs/bpf (mounted by the VM's /init,
 * without delegation options) yields a token that allows nothing.
 */
static int token_create_cmd(void)
{
	int root_fd, ret;

	root_fd = open("/sys/fs/bpf", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root_fd < 0)
		return -DEMO_SETUP_FAILED;
	ret = demo_close_result(demo_token_create(root_fd, "", 0));
	close(root_fd);
	return ret;
}

/*
 * The series puts map_token_fd right after map_extra, the last field 6.1
 * knows for BPF_MAP_CREATE.  CHECK_ATTR() wants every byte past the last
 * known field to be zero, so a token fd there is EINVAL - even for root.
 * From step 17 on those bytes are value_type_btf_obj_fd, where Linux 6.9
 * put map_token_fd's neighbour: read only with a flag, so ignored.
 */
static int map_create_with_token_field(void)
{
	return demo_map_create_token_field(1);
}

/*
 * Full capabilities inside the user namespace are not enough: with
 * unprivileged BPF disabled (the distro default), 6.1's __sys_bpf() turns
 * BPF_MAP_CREATE away up front unless the caller has CAP_BPF in the *init*
 * namespace.  No token could help here: the check runs before map_create()
 * ever sees the attr.
 */
static int map_create_in_userns(void)
{
	int err, map_fd;

	err = demo_enter_userns();
	if (err)
		return err;
	map_fd = demo_map_create_simple(BPF_MAP_TYPE_ARRAY, 4, 8, 1);
	if (map_fd < 0)
		return map_fd;
	close(map_fd);
	return 0;
}

static const struct demo_case cases[] = {
	{ "flow.fsopen_in_userns", fsopen_in_userns, EXPECT({ "00", 0 }) },
	{ "flow.unknown_option_in_userns", unknown_option_in_userns,
	  EXPECT({ "00", 0 }, { "02", -EINVAL }) },
	{ "flow.container_bpffs_mount", container_bpffs_mount,
	  EXPECT({ "00", -EPERM }, { "02", 0 }) },
	{ "flow.init_ns_bpffs_mount", init_ns_bpffs_mount, EXPECT({ "00", 0 }) },
	{ "token.create_cmd", token_create_cmd, EXPECT({ "00", -EINVAL }, { "03", 0 }, { "15", -EOPNOTSUPP }) },
	{ "map.token_fd_field", map_create_with_token_field,
	  EXPECT({ "00", -EINVAL }, { "17", 0 }) },
	{ "map.create_in_userns", map_create_in_userns, EXPECT({ "00", -EPERM }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
