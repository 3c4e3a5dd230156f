// SPDX-License-Identifier: GPL-2.0
/*
 * Step 18: the kernel takes delegate_* values by name, from vmlinux BTF,
 * and shows them by name.  Read it next to steps/18-delegate-names/NOTES.md.
 *
 * Each case mounts a BPF FS in a mount namespace of its own, as root in
 * the init namespace, with one option sent to fsconfig() as written
 * (demo_bpffs_mount_as_is()): not through the demo library's name translation
 * (lib/names.c), which would turn names into numbers for a kernel that
 * cannot parse them.  It then
 * reads the options /proc/self/mountinfo shows.  Before step 02 BPF FS
 * ignores options it does not know, so a value is accepted and nothing
 * is shown: the first entry of each EXPECT.
 */
#define _GNU_SOURCE
#include <string.h>
#include <unistd.h>

#include "demo.h"

#define MOUNTPOINT "/tmp/bpffs-names"

/*
 * Mount a BPF FS with key=value, sent as it is, and check that its
 * mountinfo options include shown.  0, -errno from the mount, or
 * CHECK_FAILED when the options read otherwise.
 */
static int mount_shows(const char *key, const char *value, const char *shown)
{
	int root_fd = demo_bpffs_mount_as_is(MOUNTPOINT, key, value), err;
	char opts[512];

	if (root_fd < 0)
		return root_fd;
	close(root_fd);
	err = demo_mount_options(MOUNTPOINT, opts, sizeof(opts));
	if (err)
		return err;
	demo_note("%s=%s shows as: %s", key, value, opts);
	return strstr(opts, shown) ? 0 : -DEMO_CHECK_FAILED;
}

/* Two commands by name, ':' between them, shown as they were given. */
static int list_of_names(void)
{
	return mount_shows("delegate_cmds", "map_create:prog_load",
			   "delegate_cmds=map_create:prog_load");
}

/*
 * Case does not matter and the prefix is dropped: "XDP" is
 * BPF_PROG_TYPE_XDP.  Shown lower case, in the enum's order.
 */
static int any_case(void)
{
	return mount_shows("delegate_progs", "XDP:socket_FILTER",
			   "delegate_progs=socket_filter:xdp");
}

/* With the prefix, it is no name of the enum: EINVAL. */
static int prefix_refused(void)
{
	return mount_shows("delegate_cmds", "BPF_MAP_CREATE", "delegate_cmds=map_create");
}

/*
 * Numbers still work, and a mask given as a number is shown by name:
 * 0x6 is BPF_MAP_TYPE_HASH (1) and BPF_MAP_TYPE_ARRAY (2).
 */
static int number_shown_by_name(void)
{
	return mount_shows("delegate_maps", "0x6", "delegate_maps=hash:array");
}

/*
 * A name and a number in one value: their bits are OR-ed, "hash" (bit 1)
 * and 0x4 (bit 2, array).  6.12's parser stores the number over what
 * came before it (kernel/bpf/inode.c:930 in Debian's 6.12,
 * kstrtou64(p, 0, &msk)), so it shows only "array".
 */
static int name_then_number(void)
{
	return mount_shows("delegate_maps", "hash:0x4", "delegate_maps=hash:array");
}

static const struct demo_case cases[] = {
	{ "names.list_of_names", list_of_names,
	  EXPECT({ "00", -DEMO_CHECK_FAILED }, { "02", -EINVAL }, { "18", 0 }) },
	{ "names.any_case", any_case,
	  EXPECT({ "00", -DEMO_CHECK_FAILED }, { "02", -EINVAL }, { "18", 0 }) },
	{ "names.prefix_refused", prefix_refused,
	  EXPECT({ "00", -DEMO_CHECK_FAILED }, { "02", -EINVAL }) },
	{ "names.number_shown_by_name", number_shown_by_name,
	  EXPECT({ "00", -DEMO_CHECK_FAILED }, { "18", 0 }) },
	{ "names.name_then_number", name_then_number,
	  EXPECT({ "00", -DEMO_CHECK_FAILED }, { "02", -EINVAL }, { "18", 0 },
		 { "mainline", -DEMO_CHECK_FAILED }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
