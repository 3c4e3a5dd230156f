// SPDX-License-Identifier: GPL-2.0
/*
 * Bad input for every interface the series adds: the delegate_* mount
 * options, BPF_TOKEN_CREATE, and the *_token_fd fields of the commands
 * that take a token.  Each case asserts the exact errno; none may crash
 * the kernel, leak a reference (the debug kernel's kmemleak and KASAN
 * watch the whole run) or change what the next case sees.
 *
 * The step demos already cover part of the list (demo 02: "0x", "anyx",
 * a negative value, a value over 64 bits, the flag form, a repeated
 * option; demo 03: flags, subdirectory, pinned object, regular file,
 * tmpfs and procfs roots, a closed fd, pinning a token; demos 04/06: a
 * closed fd and a non-token fd as token, a token for another type or
 * command).  This suite adds what they leave out; docs/reliability.md
 * maps the whole list to its cases.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "demo.h"
#include "suite.h"

#define BPFFS "/tmp/bpffs"

/* ---- delegate_* option values ---- */

static int option_value(const char *key, const char *value)
{
	const struct demo_fsopt opts[] = { { key, value }, { NULL, NULL } };
	int fs_fd;

	return demo_bpffs_context(opts, &fs_fd);
}

static int value_empty(void)
{
	return option_value("delegate_cmds", "");
}

static int value_leading_space(void)
{
	return option_value("delegate_maps", " 0x1");
}

static int value_trailing_space(void)
{
	return option_value("delegate_progs", "0x1 ");
}

/* kstrtoull() forgives exactly one trailing newline, as sysfs writes have */
static int value_trailing_newline(void)
{
	return option_value("delegate_attachs", "0x1\n");
}

/* v6 compares with strcmp(): "any" is case-sensitive */
static int value_any_upper_case(void)
{
	return option_value("delegate_cmds", "ANY");
}

/* Repeating an option ORs the values: "any" stays "any". */
static int repeated_any_then_mask(void)
{
	static const struct demo_fsopt opts[] = {
		{ "delegate_cmds", "any" },
		{ "delegate_cmds", "0x1" },
		{ NULL, NULL },
	};
	char shown[512];
	int root_fd, err;

	root_fd = demo_bpffs_mount(BPFFS, opts);
	if (root_fd < 0)
		return root_fd;
	close(root_fd);
	err = demo_mount_options(BPFFS, shown, sizeof(shown));
	if (err)
		return err;
	demo_note("mountinfo options: %s", shown);
	if (!strstr(shown, "delegate_cmds=any")) {
		demo_note("no 'delegate_cmds=any' among them");
		return -DEMO_CHECK_FAILED;
	}
	return 0;
}

/* ---- BPF_TOKEN_CREATE ---- */

/* a path fd that is not an open fd at all, with an empty path */
static int token_bad_path_fd(void)
{
	return demo_close_result(demo_token_create(-1, "", 0));
}

/* an open fd of something else, with an empty path: that thing itself */
static int token_non_directory_fd(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -DEMO_SETUP_FAILED;
	return demo_close_result(demo_token_create(fd, "", 0));
}

/* Bytes after the last token_create field must be zero. */
static int token_attr_garbage(void)
{
	static const struct demo_fsopt any[] = { { "delegate_cmds", "any" }, { NULL, NULL } };
	union bpf_attr attr;
	struct demo_token_create_attr *token_create = (void *)&attr;
	int root_fd;

	root_fd = demo_bpffs_mount(BPFFS, any);
	if (root_fd < 0)
		return -DEMO_SETUP_FAILED;
	memset(&attr, 0, sizeof(attr));
	token_create->bpffs_path_fd = root_fd;
	token_create->bpffs_pathname = (uintptr_t)"";
	((char *)&attr)[sizeof(*token_create)] = 1;
	return demo_close_result(demo_bpf(DEMO_BPF_TOKEN_CREATE, &attr, sizeof(attr)));
}

/* ---- token use ---- */

#define MAP_CREATE_CMD (1ULL << BPF_MAP_CREATE)
#define PROG_LOAD_CMD (1ULL << BPF_PROG_LOAD)

/*
 * A STACK map with map_token_fd = token_fd.  token_flag says whether
 * the shipped BPF_F_TOKEN_FD goes into map_flags too; v6 has no such flag
 * and takes any non-zero fd as the token.
 */
static int stack_map_create_flagged(int token_fd, bool token_flag)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_STACK;
	attr.value_size = 8;
	attr.max_entries = 1;
	attr.map_token_fd = token_fd;
	if (token_flag)
		attr.map_flags |= DEMO_TOKEN_FLAG;
	return demo_close_result(demo_bpf(BPF_MAP_CREATE, &attr, sizeof(attr)));
}

/* as the demos pass a token (DEMO_SET_TOKEN), closing what comes back */
static int stack_map_create(int token_fd)
{
	return demo_close_result(suite_stack_map_create(token_fd));
}

static int xdp_prog_load(int token_fd)
{
	return demo_close_result(suite_xdp_prog_load(token_fd));
}

/*
 * A token at fd 0.  In v6 a zero *_token_fd means "no token", so a token
 * that happens to sit at fd 0 cannot be named: the request goes ahead
 * without it and meets the init namespace's capability check.  Upstream
 * made the token fd count only with BPF_F_TOKEN_FD set, and then any fd,
 * 0 included, is a token (kernel/bpf/syscall.c, map_create): the case
 * sets the flag, so step 17 and mainline create the map.
 */
static int token_at_fd_zero(int mnt_fd, void *arg)
{
	int token_fd;

	(void)arg;
	token_fd = demo_token_create(mnt_fd, "", 0);
	if (token_fd < 0)
		return token_fd;
	if (token_fd != 0) {	/* else stdin was closed and it is there already */
		if (dup2(token_fd, 0) < 0)
			return -DEMO_SETUP_FAILED;
		close(token_fd);
	}
	return stack_map_create_flagged(0, true);
}

static int use_token_at_fd_zero(void)
{
	static const struct demo_delegation d = {
		.cmds = MAP_CREATE_CMD, .maps = 1ULL << BPF_MAP_TYPE_STACK,
	};

	return demo_run_delegated(&d, token_at_fd_zero, NULL);
}

/*
 * The token fd without BPF_F_TOKEN_FD, as a v6 caller writes it.  v6
 * uses it; step 17 and mainline ignore the field without the flag and
 * judge the request as if no token were there: EPERM in the container.
 */
static int token_without_flag(int mnt_fd, void *arg)
{
	int token_fd, err;

	(void)arg;
	token_fd = demo_token_create(mnt_fd, "", 0);
	if (token_fd < 0)
		return token_fd;
	err = stack_map_create_flagged(token_fd, false);
	close(token_fd);
	return err;
}

static int use_token_fd_without_flag(void)
{
	static const struct demo_delegation d = {
		.cmds = MAP_CREATE_CMD, .maps = 1ULL << BPF_MAP_TYPE_STACK,
	};

	return demo_run_delegated(&d, token_without_flag, NULL);
}

/* Objects of other kinds passed as the token: made in the init namespace. */
static int map_fd_as_token(int mnt_fd, void *arg)
{
	(void)mnt_fd;
	return stack_map_create(*(int *)arg);
}

static int use_map_fd_as_token(void)
{
	static const struct demo_delegation d = {
		.cmds = MAP_CREATE_CMD, .maps = 1ULL << BPF_MAP_TYPE_STACK,
	};
	int map_fd = demo_map_create_simple(BPF_MAP_TYPE_ARRAY, 4, 4, 1);

	if (map_fd < 0)
		return -DEMO_SETUP_FAILED;
	return demo_run_delegated(&d, map_fd_as_token, &map_fd);
}

static int prog_fd_as_token(int mnt_fd, void *arg)
{
	(void)mnt_fd;
	return xdp_prog_load(*(int *)arg);
}

static int use_prog_fd_as_token(void)
{
	int prog_fd = demo_prog_load_simple(BPF_PROG_TYPE_SOCKET_FILTER, 0, demo_return_one,
					    DEMO_RETURN_ONE_LEN);

	if (prog_fd < 0)
		return -DEMO_SETUP_FAILED;
	return demo_run_delegated(&DEMO_XDP_DELEGATION, prog_fd_as_token, &prog_fd);
}

/* A token for BPF_MAP_CREATE only, offered to BPF_PROG_LOAD: ignored. */
static int token_for_other_cmd(int mnt_fd, void *arg)
{
	int token_fd, err;

	(void)arg;
	token_fd = demo_token_create(mnt_fd, "", 0);
	if (token_fd < 0)
		return token_fd;
	err = xdp_prog_load(token_fd);
	close(token_fd);
	return err;
}

static int use_token_for_other_cmd(void)
{
	static const struct demo_delegation d = {
		.cmds = MAP_CREATE_CMD, .maps = ~0ULL, .progs = ~0ULL, .attachs = ~0ULL,
	};

	return demo_run_delegated(&d, token_for_other_cmd, NULL);
}

/* Init-namespace root; the map itself would be fine. */
static int use_garbage_after_map_token_fd(void)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = 4;
	attr.value_size = 4;
	attr.max_entries = 1;
	((char *)&attr.map_token_fd)[sizeof(attr.map_token_fd)] = 1;
	return demo_close_result(demo_bpf(BPF_MAP_CREATE, &attr, sizeof(attr)));
}

/* A larger attr than the kernel knows, non-zero past its end. */
static int use_garbage_beyond_attr(void)
{
	struct {
		union bpf_attr attr;
		uint64_t tail;
	} big;

	memset(&big, 0, sizeof(big));
	big.attr.map_type = BPF_MAP_TYPE_ARRAY;
	big.attr.key_size = 4;
	big.attr.value_size = 4;
	big.attr.max_entries = 1;
	big.tail = 1;
	return demo_close_result(demo_bpf(BPF_MAP_CREATE, &big.attr, sizeof(big)));
}

/*
 * Before the token steps: on 00-01 the container flow gets no BPF FS
 * (EPERM), 02 has no BPF_TOKEN_CREATE (EINVAL), 03 has no map_token_fd
 * (EINVAL) and no prog_token_fd (past the end of its union: E2BIG).
 */
#define OPTIONS_IGNORED_BEFORE_02 { "00", 0 }
#define UNKNOWN_CMD_BEFORE_03 { "00", -EINVAL }

static const struct demo_case cases[] = {
	{ "mount.value_empty", value_empty,
	  EXPECT(OPTIONS_IGNORED_BEFORE_02, { "02", -EINVAL }) },
	{ "mount.value_leading_space", value_leading_space,
	  EXPECT(OPTIONS_IGNORED_BEFORE_02, { "02", -EINVAL }) },
	{ "mount.value_trailing_space", value_trailing_space,
	  EXPECT(OPTIONS_IGNORED_BEFORE_02, { "02", -EINVAL }) },
	{ "mount.value_trailing_newline", value_trailing_newline, EXPECT({ "00", 0 }) },
	{ "mount.value_any_upper_case", value_any_upper_case,
	  EXPECT(OPTIONS_IGNORED_BEFORE_02, { "02", -EINVAL }) },
	{ "mount.repeated_any_then_mask", repeated_any_then_mask,
	  EXPECT({ "00", -DEMO_CHECK_FAILED }, { "02", 0 }) },
	{ "token.bad_path_fd", token_bad_path_fd, EXPECT(UNKNOWN_CMD_BEFORE_03, { "03", -EBADF }) },
	{ "token.non_directory_fd", token_non_directory_fd,
	  EXPECT(UNKNOWN_CMD_BEFORE_03, { "03", -EINVAL }) },
	{ "token.attr_garbage", token_attr_garbage, EXPECT(UNKNOWN_CMD_BEFORE_03) },
	{ "use.token_at_fd_zero", use_token_at_fd_zero,
	  EXPECT({ "00", -EPERM }, { "02", -EINVAL }, { "03", -EPERM }, { "17", 0 }) },
	{ "use.token_fd_without_flag", use_token_fd_without_flag,
	  EXPECT({ "00", -EPERM }, { "02", -EINVAL }, { "04", 0 }, { "17", -EPERM }) },
	{ "use.map_fd_as_token", use_map_fd_as_token, EXPECT({ "00", -EPERM }, { "02", -EINVAL }) },
	{ "use.prog_fd_as_token", use_prog_fd_as_token,
	  EXPECT({ "00", -EPERM }, { "02", -E2BIG }, { "06", -EINVAL }) },
	{ "use.token_for_other_cmd", use_token_for_other_cmd,
	  EXPECT({ "00", -EPERM }, { "02", -EINVAL }, { "03", -E2BIG }, { "06", -EPERM }) },
	{ "use.garbage_after_map_token_fd", use_garbage_after_map_token_fd,
	  EXPECT({ "00", -EINVAL }) },
	{ "use.garbage_beyond_attr", use_garbage_beyond_attr, EXPECT({ "00", -E2BIG }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
