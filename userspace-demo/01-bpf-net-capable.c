// SPDX-License-Identifier: GPL-2.0
/*
 * Step 01: bpf_net_capable() - CAP_NET_ADMIN or CAP_SYS_ADMIN, the way
 * bpf_capable() is CAP_BPF or CAP_SYS_ADMIN.  Read it next to
 * steps/01-bpf-net-capable/NOTES.md.
 *
 * Every case runs as init-namespace root with CAP_NET_ADMIN dropped from
 * the effective set and CAP_SYS_ADMIN kept.  Before this step, four
 * places in the BPF syscall answered such a caller differently: XDP
 * program loading said yes, DEVMAP/XSKMAP creation, CGROUP_SKB attach
 * and BPF_PROG_QUERY said no.  After it, all four say yes.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "demo.h"


static int drop_net_admin(void)
{
	return demo_caps_drop(DEMO_CAPS(CAP_NET_ADMIN));
}

static int map_as_sys_admin(enum bpf_map_type type)
{
	int err = drop_net_admin();

	return err ? err : demo_close_result(demo_map_create_simple(type, 4, 4, 1));
}

static int map_devmap_sys_admin(void)
{
	return map_as_sys_admin(BPF_MAP_TYPE_DEVMAP);
}

static int map_xskmap_sys_admin(void)
{
	return map_as_sys_admin(BPF_MAP_TYPE_XSKMAP);
}

/* The control: neither CAP_NET_ADMIN nor CAP_SYS_ADMIN (CAP_BPF kept). */
static int map_devmap_no_admin(void)
{
	int err = demo_caps_drop(DEMO_CAPS(CAP_NET_ADMIN, CAP_SYS_ADMIN));

	return err ? err : demo_close_result(demo_map_create_simple(BPF_MAP_TYPE_DEVMAP, 4, 4, 1));
}

/* The one place 6.1 already accepted CAP_SYS_ADMIN: nothing changes. */
static int prog_xdp_load_sys_admin(void)
{
	int err = drop_net_admin();

	if (err)
		return err;
	return demo_close_result(demo_prog_load_simple(BPF_PROG_TYPE_XDP, 0, demo_return_one,
						       DEMO_RETURN_ONE_LEN));
}

static int prog_query_sys_admin(void)
{
	union bpf_attr attr;
	int cg_fd, err;

	cg_fd = open(DEMO_CGROUP_ROOT, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg_fd < 0)
		return -DEMO_SETUP_FAILED;
	err = drop_net_admin();
	if (!err) {
		memset(&attr, 0, sizeof(attr));
		attr.query.target_fd = cg_fd;
		attr.query.attach_type = BPF_CGROUP_INET_INGRESS;
		err = demo_bpf(BPF_PROG_QUERY, &attr, sizeof(attr));
	}
	close(cg_fd);
	return err;
}

/*
 * CGROUP_SKB programs may be loaded without privilege, so their
 * privilege check sits at attach time.  Load with full capabilities, then
 * attach without CAP_NET_ADMIN.  Note the errno before this step: the
 * check says EPERM, but bpf_prog_attach() reports any failure of
 * bpf_prog_attach_check_attach_type() as EINVAL.
 */
static int prog_cgroup_skb_attach_sys_admin(void)
{
	int prog_fd, err;

	prog_fd = demo_prog_load_simple(BPF_PROG_TYPE_CGROUP_SKB, BPF_CGROUP_INET_INGRESS,
					demo_return_one, DEMO_RETURN_ONE_LEN);
	if (prog_fd < 0)
		return -DEMO_SETUP_FAILED;
	err = drop_net_admin();
	if (!err)
		err = demo_cgroup_attach_root(prog_fd, BPF_CGROUP_INET_INGRESS);
	close(prog_fd);
	return err;
}

static const struct demo_case cases[] = {
	{ "map.devmap_sys_admin", map_devmap_sys_admin, EXPECT({ "00", -EPERM }, { "01", 0 }) },
	{ "map.xskmap_sys_admin", map_xskmap_sys_admin, EXPECT({ "00", -EPERM }, { "01", 0 }) },
	{ "map.devmap_no_admin", map_devmap_no_admin, EXPECT({ "00", -EPERM }) },
	{ "prog.xdp_load_sys_admin", prog_xdp_load_sys_admin, EXPECT({ "00", 0 }) },
	{ "prog.query_sys_admin", prog_query_sys_admin, EXPECT({ "00", -EPERM }, { "01", 0 }) },
	{ "prog.cgroup_skb_attach_sys_admin", prog_cgroup_skb_attach_sys_admin,
	  EXPECT({ "00", -EINVAL }, { "01", 0 }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
