// SPDX-License-Identifier: GPL-2.0
/*
 * Raw bpf() as the kernel sees it: the attr union from the step's own
 * <linux/bpf.h> and the size we pass.  The kernel refuses any non-zero
 * byte past the last field it knows (bpf_check_uarg_tail_zero and
 * CHECK_ATTR), which is why a field that a later step adds reads as
 * EINVAL on an earlier kernel.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "demo.h"

int demo_bpf(int cmd, union bpf_attr *attr, unsigned int size)
{
	long ret = syscall(SYS_bpf, cmd, attr, size);

	return ret < 0 ? -errno : (int)ret;
}

int demo_map_create_simple(enum bpf_map_type type, uint32_t key_size,
			   uint32_t value_size, uint32_t max_entries)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = type;
	attr.key_size = key_size;
	attr.value_size = value_size;
	attr.max_entries = max_entries;
	return demo_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
}

const struct bpf_insn demo_return_one[DEMO_RETURN_ONE_LEN] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 1 },
	{ .code = BPF_JMP | BPF_EXIT },
};

int demo_prog_info(int prog_fd, struct bpf_prog_info *info)
{
	union bpf_attr attr;

	memset(info, 0, sizeof(*info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = prog_fd;
	attr.info.info_len = sizeof(*info);
	attr.info.info = (uintptr_t)info;
	return demo_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr));
}

/* a token's fdinfo says what it allows, one "allowed_...:\t..." line each */
int demo_fdinfo_has_line(int fd, const char *line)
{
	char path[64], got[256];
	size_t len = strlen(line);
	int err = -DEMO_CHECK_FAILED;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (err && fgets(got, sizeof(got), f))
		if (strncmp(got, line, len) == 0 && (got[len] == '\n' || !got[len]))
			err = 0;
	fclose(f);
	return err;
}

static void prog_load_attr(union bpf_attr *attr, enum bpf_prog_type type,
			   enum bpf_attach_type expected,
			   const struct bpf_insn *insns, uint32_t insn_cnt)
{
	memset(attr, 0, sizeof(*attr));
	attr->prog_type = type;
	attr->expected_attach_type = expected;
	attr->insns = (uintptr_t)insns;
	attr->insn_cnt = insn_cnt;
	attr->license = (uintptr_t)"GPL";
}

int demo_prog_load_simple(enum bpf_prog_type type, enum bpf_attach_type expected,
			  const struct bpf_insn *insns, uint32_t insn_cnt)
{
	union bpf_attr attr;

	prog_load_attr(&attr, type, expected, insns, insn_cnt);
	return demo_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
}

#if DEMO_HAS_PROG_TOKEN
int demo_prog_load_token(enum bpf_prog_type type, enum bpf_attach_type expected,
			 const struct bpf_insn *insns, uint32_t insn_cnt, int token_fd)
{
	union bpf_attr attr;

	prog_load_attr(&attr, type, expected, insns, insn_cnt);
	DEMO_SET_TOKEN(attr.prog_token_fd, attr.prog_flags, token_fd);
	return demo_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
}

int demo_stack_map_with_token(int mnt_fd, void *arg)
{
	int token_fd = demo_token_create(mnt_fd, "", 0), err;
	union bpf_attr attr;

	(void)arg;
	if (token_fd < 0)
		return token_fd;
	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_STACK;
	attr.value_size = 8;
	attr.max_entries = 1;
	DEMO_SET_TOKEN(attr.map_token_fd, attr.map_flags, token_fd);
	err = demo_close_result(demo_bpf(BPF_MAP_CREATE, &attr, sizeof(attr)));
	close(token_fd);
	return err;
}
#endif

int demo_cgroup_attach_root(int prog_fd, enum bpf_attach_type type)
{
	union bpf_attr attr;
	int cg_fd, err;

	cg_fd = open(DEMO_CGROUP_ROOT, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg_fd < 0)
		return -DEMO_SETUP_FAILED;
	memset(&attr, 0, sizeof(attr));
	attr.target_fd = cg_fd;
	attr.attach_bpf_fd = prog_fd;
	attr.attach_type = type;
	err = demo_bpf(BPF_PROG_ATTACH, &attr, sizeof(attr));
	if (!err)
		demo_bpf(BPF_PROG_DETACH, &attr, sizeof(attr));
	close(cg_fd);
	return err;
}

/*
 * An ARRAY map with `value` in the 4 bytes after map_extra: where the
 * series places map_token_fd.  A kernel that does not know that field
 * must refuse the non-zero byte with EINVAL.
 */
int demo_map_create_token_field(uint32_t value)
{
	union bpf_attr attr;
	size_t off = offsetof(union bpf_attr, map_extra) + sizeof(attr.map_extra);
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = 4;
	attr.value_size = 8;
	attr.max_entries = 1;
	memcpy((char *)&attr + off, &value, sizeof(value));
	fd = demo_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
	return demo_close_result(fd);
}

int demo_close_result(int fd)
{
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/*
 * The shipped token_create takes an open fd of the BPF FS root, not a path,
 * and refuses O_PATH fds (fdget() skips them) such as fsmount()'s: turn
 * v6's (fd, pathname) into such an fd, the way a caller of 6.9 would.
 * A path that cannot be opened (missing, a closed dir fd, a pinned map
 * without BTF) then fails here, in open(2), and its errno is what the
 * case sees: the kernel's token code never runs for it.
 */
int demo_bpffs_fd_for_token(int dir_fd, const char *pathname)
{
	char proc_path[64];
	int flags, fd;

	if (pathname && *pathname) {
		fd = openat(dir_fd, pathname, O_RDONLY | O_CLOEXEC);
	} else {
		flags = fcntl(dir_fd, F_GETFL);
		if (flags < 0)
			return -errno;
		if (!(flags & O_PATH)) {
			fd = fcntl(dir_fd, F_DUPFD_CLOEXEC, 0);
		} else {
			snprintf(proc_path, sizeof(proc_path), "/proc/self/fd/%d", dir_fd);
			fd = open(proc_path, O_RDONLY | O_CLOEXEC);
		}
	}
	return fd < 0 ? -errno : fd;
}

int demo_token_create(int bpffs_path_fd, const char *pathname, uint32_t flags)
{
	struct demo_token_create_attr tc = {
		.flags = flags,
		.bpffs_path_fd = bpffs_path_fd,
		.bpffs_pathname = (uintptr_t)pathname,
	};
	union bpf_attr attr;
	int fd = -1, token_fd;

	if (DEMO_SHIPPED_ABI) {
		fd = demo_bpffs_fd_for_token(bpffs_path_fd, pathname);
		if (fd < 0)
			return fd;
		tc.bpffs_path_fd = fd;
		tc.bpffs_pathname = 0;
	}
	memset(&attr, 0, sizeof(attr));
	memcpy(&attr, &tc, sizeof(tc));
	token_fd = demo_bpf(DEMO_BPF_TOKEN_CREATE, &attr, sizeof(attr));
	if (DEMO_SHIPPED_ABI)
		close(fd);
	return token_fd;
}

int demo_token_create_fd(int bpffs_fd)
{
	struct demo_token_create_attr tc = {
		.bpffs_path_fd = bpffs_fd,
		.bpffs_pathname = DEMO_SHIPPED_ABI ? 0 : (uintptr_t)"",
	};
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	memcpy(&attr, &tc, sizeof(tc));
	return demo_bpf(DEMO_BPF_TOKEN_CREATE, &attr, sizeof(attr));
}
