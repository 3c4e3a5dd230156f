// SPDX-License-Identifier: GPL-2.0
/*
 * Step 03: the BPF token object and BPF_TOKEN_CREATE.  Read it next to
 * steps/03-token-object/NOTES.md.
 *
 * A token comes from the root of a BPF FS mount and nothing else.  The
 * container case is the real flow; the others use a BPF FS that the
 * case mounts in the init namespace, in a mount namespace of its own,
 * to poke at what BPF_TOKEN_CREATE accepts.  Before step 03 the command
 * does not exist: EINVAL for everything.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "demo.h"

#define BPFFS "/tmp/bpffs"

/* ---- the container flow ---- */

static const struct demo_fsopt container_opts[] = {
	{ "delegate_cmds", "any" },
	{ NULL, NULL },
};

static int container_token(int mnt_fd, void *arg)
{
	int token_fd, err;

	(void)arg;
	token_fd = demo_token_create(mnt_fd, "", 0);
	if (token_fd < 0)
		return token_fd;
	err = demo_fdinfo_has_line(token_fd, "allowed_cmds:\tany");
	close(token_fd);
	return err;
}

static int token_in_container(void)
{
	return demo_run_in_container(container_opts, container_token, NULL);
}

/*
 * A BPF FS that delegates nothing.  v6 hands out a token that allows
 * nothing; upstream refuses to make one (ENOENT, step 16), so a
 * container manager's mistake shows up at token creation, not at first
 * use.
 */
static int create_token_only(int mnt_fd, void *arg)
{
	(void)arg;
	return demo_close_result(demo_token_create(mnt_fd, "", 0));
}

static int token_no_delegation(void)
{
	return demo_run_in_container(NULL, create_token_only, NULL);
}

/* ---- init-namespace probes ---- */

/*
 * A private mount namespace with a BPF FS at BPFFS (delegate_cmds as
 * given, if any) and, in it, a directory "dir" and a pinned map "map".
 * Returns a directory fd of the mount root.
 */
static int private_bpffs(const char *delegate_cmds)
{
	const struct demo_fsopt opts[] = {
		{ "delegate_cmds", delegate_cmds },
		{ NULL, NULL },
	};
	union bpf_attr attr;
	int root_fd, map_fd;

	root_fd = demo_bpffs_mount(BPFFS, delegate_cmds ? opts : NULL);
	if (root_fd < 0)
		return -DEMO_SETUP_FAILED;

	mkdir(BPFFS "/dir", 0700);
	map_fd = demo_map_create_simple(BPF_MAP_TYPE_ARRAY, 4, 4, 1);
	if (map_fd < 0)
		return -DEMO_SETUP_FAILED;
	memset(&attr, 0, sizeof(attr));
	attr.bpf_fd = map_fd;
	attr.pathname = (uintptr_t)BPFFS "/map";
	demo_bpf(BPF_OBJ_PIN, &attr, sizeof(attr));
	close(map_fd);
	return root_fd;
}

/*
 * What the token carries, as `cat /proc/self/fdinfo/FD` shows it: the
 * allowed_* lines, copied from the mount's options at creation.
 */
static void show_token_fdinfo(int token_fd)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", token_fd);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "allowed_", strlen("allowed_")) == 0)
			demo_note("token fdinfo: %.*s", (int)strcspn(line, "\n"), line);
	fclose(f);
}

/* Token from <root fd> + pathname on a private BPF FS; fd closed again. */
static int token_at(const char *delegate_cmds, const char *pathname, uint32_t flags)
{
	int root_fd = private_bpffs(delegate_cmds), token_fd;

	if (root_fd < 0)
		return root_fd;
	token_fd = demo_token_create(root_fd, pathname, flags);
	if (token_fd >= 0)
		show_token_fdinfo(token_fd);
	return demo_close_result(token_fd);
}

static int token_init_ns_root(void)
{
	return token_at(NULL, "", 0);
}

static int token_nonzero_flags(void)
{
	return token_at("any", "", 1);
}

static int token_subdirectory(void)
{
	return token_at("any", "dir", 0);
}

/*
 * A pinned map is not a BPF FS root: EINVAL.  From step 17 on the token
 * wants the root opened for real, and the library's open(2) of a map
 * pinned without BTF fails first (EIO): the kernel's check never runs.
 */
static int token_pinned_map(void)
{
	return token_at("any", "map", 0);
}

static int token_missing_path(void)
{
	return token_at("any", "no-such-entry", 0);
}

/* Absolute paths ignore the fd: the root of other filesystems. */
static int token_tmpfs_root(void)
{
	return token_at("any", "/tmp", 0);
}

static int token_procfs_root(void)
{
	return token_at("any", "/proc", 0);
}

static int token_regular_file(void)
{
	int fd = open("/tmp/regular", O_CREAT | O_WRONLY | O_CLOEXEC, 0600);

	if (fd < 0)
		return -DEMO_SETUP_FAILED;
	close(fd);
	return token_at("any", "/tmp/regular", 0);
}

static int token_closed_fd(void)
{
	int root_fd = private_bpffs("any");

	if (root_fd < 0)
		return root_fd;
	close(root_fd);
	return demo_close_result(demo_token_create(root_fd, "", 0));
}

/* The token's own fd: close-on-exec, and fdinfo shows a partial mask. */
static int token_fd_properties(void)
{
	int root_fd, token_fd, err;

	root_fd = private_bpffs("0x5");
	if (root_fd < 0)
		return root_fd;
	token_fd = demo_token_create(root_fd, "", 0);
	if (token_fd < 0)
		return token_fd;
	err = demo_fdinfo_has_line(token_fd, "allowed_cmds:\t0x5");
	if (!err && !(fcntl(token_fd, F_GETFD) & FD_CLOEXEC)) {
		demo_note("the token fd is not close-on-exec");
		err = -DEMO_CHECK_FAILED;
	}
	close(token_fd);
	return err;
}

/* A token is no map, program or link: BPF_OBJ_PIN does not know it. */
static int token_pin(void)
{
	union bpf_attr attr;
	int root_fd, token_fd, err;

	root_fd = private_bpffs("any");
	if (root_fd < 0)
		return root_fd;
	token_fd = demo_token_create(root_fd, "", 0);
	if (token_fd < 0)
		return token_fd;
	memset(&attr, 0, sizeof(attr));
	attr.bpf_fd = token_fd;
	attr.pathname = (uintptr_t)BPFFS "/token";
	err = demo_bpf(BPF_OBJ_PIN, &attr, sizeof(attr));
	close(token_fd);
	return err;
}

#define UNKNOWN_BEFORE_03 { "00", -EINVAL }

static const struct demo_case cases[] = {
	{ "token.in_container", token_in_container,
	  EXPECT({ "00", -EPERM }, { "02", -EINVAL }, { "03", 0 }) },
	{ "token.no_delegation", token_no_delegation,
	  EXPECT({ "00", -EPERM }, { "02", -EINVAL }, { "03", 0 }, { "16", -ENOENT }) },
	{ "token.init_ns_root", token_init_ns_root,
	  EXPECT(UNKNOWN_BEFORE_03, { "03", 0 }, { "15", -EOPNOTSUPP }) },
	{ "token.fd_properties", token_fd_properties,
	  EXPECT(UNKNOWN_BEFORE_03, { "03", 0 }, { "15", -EOPNOTSUPP }) },
	{ "token.nonzero_flags", token_nonzero_flags, EXPECT(UNKNOWN_BEFORE_03, { "03", -EINVAL }) },
	{ "token.subdirectory", token_subdirectory, EXPECT(UNKNOWN_BEFORE_03, { "03", -EINVAL }) },
	{ "token.pinned_map", token_pinned_map,
	  EXPECT(UNKNOWN_BEFORE_03, { "03", -EINVAL }, { "17", -EIO }) },
	{ "token.missing_path", token_missing_path, EXPECT(UNKNOWN_BEFORE_03, { "03", -ENOENT }) },
	{ "token.tmpfs_root", token_tmpfs_root, EXPECT(UNKNOWN_BEFORE_03, { "03", -EINVAL }) },
	{ "token.procfs_root", token_procfs_root, EXPECT(UNKNOWN_BEFORE_03, { "03", -EINVAL }) },
	{ "token.regular_file", token_regular_file, EXPECT(UNKNOWN_BEFORE_03, { "03", -EINVAL }) },
	{ "token.closed_fd", token_closed_fd, EXPECT(UNKNOWN_BEFORE_03, { "03", -EBADF }) },
	{ "token.pin", token_pin, EXPECT(UNKNOWN_BEFORE_03, { "03", -EINVAL }, { "15", -EOPNOTSUPP }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
