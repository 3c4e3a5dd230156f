// SPDX-License-Identifier: GPL-2.0
/*
 * Step 02: BPF FS delegation mount options, and BPF FS owned by a user
 * namespace.  Read it next to steps/02-delegate-mount-opts/NOTES.md.
 *
 * From this step on the container flow gets its mount: the child's
 * fsopen() context records the child's user namespace, the privileged
 * parent creates the superblock (only it may), and the child can see
 * its delegate_* options in /proc/self/mountinfo.  Before it, the
 * options are silently ignored and the parent's create fails.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/mount.h>

#include "demo.h"

#define MOUNTPOINT "/tmp/bpffs"

/*
 * The options MOUNTPOINT shows in /proc/self/mountinfo include want: v6's
 * text through step 17, the names from step 18 on and on upstream's
 * kernel.  v6 shows masks in hex.  Step 18 and mainline, with vmlinux
 * BTF, show each set bit by its UAPI enum name, lower case, without the
 * prefix (kernel/bpf/inode.c: bpf_show_delegate() on step-18,
 * seq_print_delegate_opts() in 6.12), whether it was given as a name or
 * a number.
 */
static int options_shown(const char *v6, const char *mainline)
{
	const char *want = DEMO_KERNEL_PARSES_NAMES() ? mainline : v6;
	char opts[512];
	int err;

	err = demo_mount_options(MOUNTPOINT, opts, sizeof(opts));
	if (err)
		return err;
	demo_note("mountinfo options: %s", opts);
	if (!strstr(opts, want)) {
		demo_note("no '%s' among them", want);
		return -DEMO_CHECK_FAILED;
	}
	return 0;
}

static const struct demo_fsopt container_opts[] = {
	{ "delegate_cmds", "any" },
	{ "delegate_maps", "0x1" },
	{ "delegate_maps", "0x2" },	/* repeated: OR-ed into 0x3 */
	{ "delegate_progs", "16" },	/* decimal in, hex out */
	{ NULL, NULL },
};

/* Attach the mount in the container's own mount namespace, then look. */
static int container_sees_options(int mnt_fd, void *arg)
{
	int err;

	(void)arg;
	mkdir(MOUNTPOINT, 0700);
	err = demo_mount_at(mnt_fd, MOUNTPOINT);
	if (err)
		return err;
	return options_shown("delegate_cmds=any,delegate_maps=0x3,delegate_progs=0x10",
			     "delegate_cmds=any,delegate_maps=unspec:hash,delegate_progs=sched_act");
}

static int mount_container_options(void)
{
	return demo_run_in_container(container_opts, container_sees_options, NULL);
}

/* A BPF FS context opened by the container alone: fs fd or -errno. */
static int container_fs_context(void)
{
	if (demo_enter_container())
		return -DEMO_SETUP_FAILED;
	return demo_fsopen("bpf");
}

/*
 * Who may set the options.  In v6 whoever holds the fs_context may, so
 * the container sets them itself before handing the context to the
 * parent (before step 02 BPF FS ignores options it does not know).
 * Review changed that: from step 14 on, as in upstream's final design,
 * only CAP_SYS_ADMIN in the init namespace may set a non-zero mask
 * (kernel/bpf/inode.c, bpf_parse_param()).  The container gets EPERM
 * and the parent has to set them, which is what the demo library does
 * on those kernels.
 */
static int options_set_in_container(void)
{
	int fs_fd = container_fs_context(), err;

	if (fs_fd < 0)
		return fs_fd;
	err = demo_fsconfig_string(fs_fd, "delegate_cmds", "any");
	close(fs_fd);
	return err;
}

/*
 * The rest run as init-namespace root, in a private mount namespace of
 * the case's own, with one BPF FS option under test.
 */
static int mount_init_ns_options(void)
{
	static const struct demo_fsopt opts[] = {
		{ "delegate_attachs", "0x5" },
		{ NULL, NULL },
	};
	int root_fd = demo_bpffs_mount(MOUNTPOINT, opts);

	if (root_fd < 0)
		return root_fd;
	close(root_fd);
	return options_shown("delegate_attachs=0x5",
			     "delegate_attachs=cgroup_inet_ingress:cgroup_inet_sock_create");
}

/*
 * Names instead of numbers, as upstream's final BPF FS takes them.  v6
 * parses numbers only; on the steps the demo library turns the names
 * into the masks (lib/names.c, "# ... is sent as 0x..." in the output),
 * so the kernel shows hex.  From step 18 on, and on mainline, the library
 * passes the names as they are and the kernel's own parser maps them
 * through vmlinux BTF.  Case does not matter, on either.
 */
static int mount_symbolic_names(void)
{
	static const struct demo_fsopt opts[] = {
		{ "delegate_cmds", "map_create:PROG_LOAD" },
		{ "delegate_maps", "array" },
		{ NULL, NULL },
	};
	char want[128];
	int root_fd = demo_bpffs_mount(MOUNTPOINT, opts);

	if (root_fd < 0)
		return root_fd;
	close(root_fd);
	snprintf(want, sizeof(want), "delegate_cmds=0x%llx,delegate_maps=0x%llx",
		 (1ULL << BPF_MAP_CREATE) | (1ULL << BPF_PROG_LOAD),
		 1ULL << BPF_MAP_TYPE_ARRAY);
	return options_shown(want, "delegate_cmds=map_create:prog_load,delegate_maps=array");
}

/*
 * The same names given to the kernel directly, past the demo library:
 * only the parser of step 18 and mainline knows them (kernel/bpf/inode.c,
 * bpf_parse_delegate() on step-18, find_btf_enum_const() in 6.12, with
 * vmlinux BTF).  v6's parser takes "any" or a number and says EINVAL;
 * before step 02 BPF FS ignores options it does not know, so the mount
 * shows none.
 */
static int mount_names_parsed_by_kernel(void)
{
	int root_fd = demo_bpffs_mount_as_is(MOUNTPOINT, "delegate_cmds", "MAP_CREATE:btf_load");

	if (root_fd < 0)
		return root_fd;
	close(root_fd);
	return options_shown("delegate_cmds=0x", "delegate_cmds=map_create:btf_load");
}

/*
 * The masks are fixed when the superblock is created.  A remount parses
 * its options into a fresh fs_context, but BPF FS has no ->reconfigure
 * to apply them to the superblock, so the remount succeeds and the
 * context, with the "any" it parsed, is freed unused.
 */
static int mount_remount_keeps_masks(void)
{
	static const struct demo_fsopt opts[] = {
		{ "delegate_cmds", "0x1" },
		{ NULL, NULL },
	};
	int root_fd = demo_bpffs_mount(MOUNTPOINT, opts);

	if (root_fd < 0)
		return root_fd;
	close(root_fd);
	if (syscall(SYS_mount, NULL, MOUNTPOINT, NULL, MS_REMOUNT, "delegate_cmds=any"))
		return -errno;
	return options_shown("delegate_cmds=0x1", "delegate_cmds=map_create");
}

static int option_value(const char *key, const char *value)
{
	const struct demo_fsopt opts[] = { { key, value }, { NULL, NULL } };
	int fs_fd;

	return demo_bpffs_context(opts, &fs_fd);
}

static int value_0x(void)
{
	return option_value("delegate_cmds", "0x");
}

static int value_anyx(void)
{
	return option_value("delegate_maps", "anyx");
}

static int value_negative(void)
{
	return option_value("delegate_progs", "-1");
}

static int value_over_64_bits(void)
{
	return option_value("delegate_attachs", "18446744073709551616");
}

static int value_missing(void)
{
	return option_value("delegate_cmds", NULL);
}

/*
 * The namespace's root tries to create its own BPF FS: EPERM before and
 * after, for different reasons.  Before, fsconfig()'s mount_capable()
 * wants CAP_SYS_ADMIN in the init namespace (BPF FS was not
 * FS_USERNS_MOUNT).  After, mount_capable() is satisfied by the owning
 * namespace's root and bpf_fill_super() says no.  Neither logs a line.
 */
static int mount_userns_root_alone(void)
{
	int fs_fd = container_fs_context(), err;

	if (fs_fd < 0)
		return fs_fd;
	err = demo_fs_create(fs_fd);
	demo_print_fs_log(fs_fd, "container");
	close(fs_fd);
	return err;
}

static const struct demo_case cases[] = {
	{ "mount.container_options", mount_container_options,
	  EXPECT({ "00", -EPERM }, { "02", 0 }) },
	{ "mount.options_set_in_container", options_set_in_container,
	  EXPECT({ "00", 0 }, { "14", -EPERM }) },
	{ "mount.init_ns_options", mount_init_ns_options,
	  EXPECT({ "00", -DEMO_CHECK_FAILED }, { "02", 0 }) },
	{ "mount.symbolic_names", mount_symbolic_names,
	  EXPECT({ "00", -DEMO_CHECK_FAILED }, { "02", 0 }) },
	{ "mount.names_parsed_by_kernel", mount_names_parsed_by_kernel,
	  EXPECT({ "00", -DEMO_CHECK_FAILED }, { "02", -EINVAL }, { "18", 0 }) },
	{ "mount.remount_keeps_masks", mount_remount_keeps_masks,
	  EXPECT({ "00", -DEMO_CHECK_FAILED }, { "02", 0 }) },
	{ "mount.value_0x", value_0x, EXPECT({ "00", 0 }, { "02", -EINVAL }) },
	{ "mount.value_anyx", value_anyx, EXPECT({ "00", 0 }, { "02", -EINVAL }) },
	{ "mount.value_negative", value_negative, EXPECT({ "00", 0 }, { "02", -EINVAL }) },
	{ "mount.value_over_64_bits", value_over_64_bits,
	  EXPECT({ "00", 0 }, { "02", -EINVAL }, { "mainline", -ERANGE }) },
	{ "mount.value_missing", value_missing, EXPECT({ "00", 0 }, { "02", -EINVAL }) },
	{ "mount.userns_root_alone", mount_userns_root_alone, EXPECT({ "00", -EPERM }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
