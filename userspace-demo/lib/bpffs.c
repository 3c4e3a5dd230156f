// SPDX-License-Identifier: GPL-2.0
/*
 * BPF FS instances made by init-namespace root, for cases that probe an
 * interface directly instead of going through the container flow: the
 * delegate_* option parser, BPF_TOKEN_CREATE's path checks, a token that
 * belongs to the init user namespace.
 *
 * Each helper first moves the calling process into a private mount
 * namespace of its own, so nothing it mounts is seen by the next case.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/mount.h>

#include "demo.h"

int demo_bpffs_context(const struct demo_fsopt *opts, int *fs_fd)
{
	*fs_fd = -1;
	if (demo_enter_mountns())
		return -DEMO_SETUP_FAILED;
	*fs_fd = demo_fsopen("bpf");
	if (*fs_fd < 0)
		return -DEMO_SETUP_FAILED;
	return demo_fsconfig_options(*fs_fd, opts, "init");
}

/*
 * Create the context's superblock (unless err, its configuration's
 * error, says no), mount it at mountpoint and close the context: a
 * directory fd of the mount root, or -errno.
 */
static int mount_context(int fs_fd, int err, const char *mountpoint)
{
	int mnt_fd, root_fd;

	if (!err)
		err = demo_fs_create(fs_fd);
	mnt_fd = err ? err : demo_fsmount(fs_fd);
	if (fs_fd >= 0)
		close(fs_fd);
	if (mnt_fd < 0)
		return mnt_fd;
	if (mkdir(mountpoint, 0700) && errno != EEXIST)
		err = -DEMO_SETUP_FAILED;
	if (!err)
		err = demo_mount_at(mnt_fd, mountpoint);
	close(mnt_fd);
	if (err)
		return err;
	root_fd = open(mountpoint, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return root_fd < 0 ? -DEMO_SETUP_FAILED : root_fd;
}

int demo_bpffs_mount(const char *mountpoint, const struct demo_fsopt *opts)
{
	int fs_fd, err;

	err = demo_bpffs_context(opts, &fs_fd);
	return mount_context(fs_fd, err, mountpoint);
}

int demo_bpffs_mount_as_is(const char *mountpoint, const char *key, const char *value)
{
	int fs_fd, err = 0;

	if (demo_enter_mountns())
		return -DEMO_SETUP_FAILED;
	fs_fd = demo_fsopen("bpf");
	if (fs_fd < 0)
		return -DEMO_SETUP_FAILED;
	if (syscall(SYS_fsconfig, fs_fd, FSCONFIG_SET_STRING, key, value, 0)) {
		err = -errno;
		demo_print_fs_log(fs_fd, "init");
	}
	return mount_context(fs_fd, err, mountpoint);
}
