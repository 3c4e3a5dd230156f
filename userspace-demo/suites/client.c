// SPDX-License-Identifier: GPL-2.0
/*
 * A real client in the container: 6.12's bpftool, as a distribution
 * ships it, with libbpf 1.5 linked in (built by kernel/client.sh).
 * bpftool has no token code of its own; libbpf makes the token by
 * itself for every object it opens when LIBBPF_BPF_TOKEN_PATH names a
 * BPF FS (6.12: tools/lib/bpf/libbpf.c, bpf_object_open() reads the
 * variable, bpf_object_prepare_token() calls BPF_TOKEN_CREATE on that
 * mount), then loads the object's BTF and programs with the token.
 *
 * What the cases show: "bpftool prog load" works in a container
 * through that implicit token once the kernel speaks the ABI libbpf 1.5
 * speaks (step 17 on, and mainline), and not on v6's; without delegation
 * it is refused on every kernel.  An object with a map gets its map
 * through the same token.  "bpftool map create" is refused even
 * with delegation, on mainline too: it calls bpf_map_create() with no
 * token (6.12: tools/bpf/bpftool/map.c, do_create()), and the implicit
 * token is a bpf_object feature, not one of the low-level calls.
 */
#define _GNU_SOURCE
#include <sys/stat.h>
#include <unistd.h>

#include "demo.h"

#define BPFTOOL "/bin/bpftool"
#define XDP_OBJECT "/lib/bpftok/xdp_pass.bpf.o"
#define XDP_COUNT_OBJECT "/lib/bpftok/xdp_count.bpf.o"
#define BPFFS "/tmp/bpffs-client"

/*
 * The object's BTF and its XDP program, with every attach type, as
 * upstream's selftest delegates for its objects (6.12:
 * prog_tests/token.c).  libbpf sends the "xdp" section's expected attach
 * type only if its FEAT_EXP_ATTACH_TYPE probe, a CGROUP_SOCK program
 * loaded with the token, passes (6.12: tools/lib/bpf/libbpf.c:7403-7404,
 * features.c:226-246); that type is not delegated here, so the XDP
 * program goes out with attach type 0, BPF_CGROUP_INET_INGRESS.
 */
static const struct demo_delegation xdp_object = {
	.cmds = 1ULL << BPF_PROG_LOAD | 1ULL << BPF_BTF_LOAD,
	.progs = 1ULL << BPF_PROG_TYPE_XDP,
	.attachs = ~0ULL,
};

/*
 * The same with BPF_XDP as the only attach type: what a reader of the
 * section name would delegate, and not what libbpf sends.
 */
static const struct demo_delegation xdp_attach_only = {
	.cmds = 1ULL << BPF_PROG_LOAD | 1ULL << BPF_BTF_LOAD,
	.progs = 1ULL << BPF_PROG_TYPE_XDP,
	.attachs = 1ULL << BPF_XDP,
};

/* the same, and the array map of the counting object */
static const struct demo_delegation xdp_object_with_map = {
	.cmds = 1ULL << BPF_MAP_CREATE | 1ULL << BPF_PROG_LOAD | 1ULL << BPF_BTF_LOAD,
	.maps = 1ULL << BPF_MAP_TYPE_ARRAY,
	.progs = 1ULL << BPF_PROG_TYPE_XDP,
	.attachs = ~0ULL,
};

static const struct demo_delegation stack_maps = {
	.cmds = 1ULL << BPF_MAP_CREATE,
	.maps = 1ULL << BPF_MAP_TYPE_STACK,
};

/* The container's BPF FS, where bpftool can find it: mounted at BPFFS. */
static int mount_bpffs(int mnt_fd)
{
	mkdir(BPFFS, 0700);
	return demo_mount_at(mnt_fd, BPFFS);
}

/*
 * Mount the container's BPF FS, run bpftool there, and look for what it
 * should have pinned: its exit status alone would not show the objects
 * are in the BPF FS the token came from.
 */
static int run_and_find_pins(int mnt_fd, char *const argv[], const char *const pins[])
{
	struct stat pin;
	int err = mount_bpffs(mnt_fd);

	if (!err)
		err = demo_run_client(argv, BPFFS);
	for (; !err && *pins; pins++) {
		if (stat(*pins, &pin)) {
			demo_note("bpftool succeeded, but %s is not there", *pins);
			err = -DEMO_CHECK_FAILED;
		}
	}
	return err;
}

/* bpftool prog load, pinned in the container's BPF FS */
static int prog_load(int mnt_fd, void *arg)
{
	static char *const argv[] = { BPFTOOL, "prog", "load", XDP_OBJECT, BPFFS "/xdp_pass", NULL };
	static const char *const pins[] = { BPFFS "/xdp_pass", NULL };

	(void)arg;
	return run_and_find_pins(mnt_fd, argv, pins);
}

/*
 * The counting object, its map pinned beside the program ("pinmaps"):
 * libbpf creates the map with the token, then loads the program that
 * uses it.
 */
static int prog_load_with_map(int mnt_fd, void *arg)
{
	static char *const argv[] = { BPFTOOL, "prog", "load", XDP_COUNT_OBJECT, BPFFS "/xdp_count",
				       "pinmaps", BPFFS "/maps", NULL };
	static const char *const pins[] = { BPFFS "/xdp_count", BPFFS "/maps/xdp_packets", NULL };

	(void)arg;
	return run_and_find_pins(mnt_fd, argv, pins);
}

static int map_create(int mnt_fd, void *arg)
{
	static char *const argv[] = { BPFTOOL, "map", "create", BPFFS "/stack", "type", "stack",
				       "key", "0", "value", "8", "entries", "1", "name", "stack", NULL };
	static const char *const pins[] = { BPFFS "/stack", NULL };

	(void)arg;
	return run_and_find_pins(mnt_fd, argv, pins);
}

static int bpftool_prog_load(void)
{
	return demo_run_delegated(&xdp_object, prog_load, NULL);
}

static int bpftool_prog_load_xdp_attach_only(void)
{
	return demo_run_delegated(&xdp_attach_only, prog_load, NULL);
}

/* a BPF FS with no delegate_* option at all */
static int bpftool_prog_load_undelegated(void)
{
	static const struct demo_fsopt no_options[] = { { NULL, NULL } };

	return demo_run_in_container(no_options, prog_load, NULL);
}

static int bpftool_prog_load_with_map(void)
{
	return demo_run_delegated(&xdp_object_with_map, prog_load_with_map, NULL);
}

static int bpftool_map_create(void)
{
	return demo_run_delegated(&stack_maps, map_create, NULL);
}

/*
 * Before a token exists the container's flow stops first: no BPF FS for
 * it before step 02, no BPF_TOKEN_CREATE in 02 (libbpf's "failed (-22)
 * to create BPF token").  On v6's token (03-16) libbpf 1.5's
 * BPF_TOKEN_CREATE fills the 6.9 attr {flags, bpffs_fd}, and v6 reads a
 * path pointer after the fd, here NULL: user_path_at() answers EFAULT
 * (kernel/bpf/token.c:156-158 on step 16).  Step 17 takes the fd.
 */
#define NO_TOKEN_FOR_LIBBPF_1_5 { "00", -EPERM }, { "02", -EINVAL }, { "03", -EFAULT }

static const struct demo_case cases[] = {
	{ "client.bpftool_prog_load", bpftool_prog_load,
	  EXPECT(NO_TOKEN_FOR_LIBBPF_1_5, { "17", 0 }) },
	/* libbpf's probe fails, the load goes out with attach type 0 */
	{ "client.bpftool_prog_load_xdp_attach_only", bpftool_prog_load_xdp_attach_only,
	  EXPECT(NO_TOKEN_FOR_LIBBPF_1_5, { "17", -EPERM }) },
	/* the mount delegates nothing: no token to make (step 16 on) */
	{ "client.bpftool_prog_load_undelegated", bpftool_prog_load_undelegated,
	  EXPECT(NO_TOKEN_FOR_LIBBPF_1_5, { "17", -ENOENT }) },
	/* libbpf creates the object's map with the token it made */
	{ "client.bpftool_prog_load_with_map", bpftool_prog_load_with_map,
	  EXPECT(NO_TOKEN_FOR_LIBBPF_1_5, { "17", 0 }) },
	/* bpftool sends no token with BPF_MAP_CREATE on any kernel */
	{ "client.bpftool_map_create", bpftool_map_create, EXPECT({ "00", -EPERM }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
