// SPDX-License-Identifier: GPL-2.0
/*
 * The container side of the flow and the privileged parent that serves it:
 * namespaces, the new mount API, SCM_RIGHTS, and the protocol between them.
 *
 *   child (new userns + mountns)          parent (init userns, root)
 *   fs_fd = fsopen("bpf")
 *   [02-13: fsconfig(fs_fd, "delegate_*")]
 *   send fs_fd  ------------------------> [14 on: fsconfig("delegate_*")]
 *                                         fsconfig(FSCONFIG_CMD_CREATE)
 *                                         mnt_fd = fsmount(fs_fd)
 *   recv mnt_fd <------------------------ send mnt_fd (or the errno)
 *   fn(mnt_fd): token, map, prog, ...
 *
 * The superblock is created by the parent, but it belongs to the child's
 * user namespace: the fs_context captured that namespace at fsopen() time.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/mount.h>

#include "demo.h"

int demo_enter_userns(void)
{
	char map[64];
	uid_t uid = getuid();
	gid_t gid = getgid();
	int err;

	if (unshare(CLONE_NEWUSER))
		return -errno;
	/* an unprivileged writer of gid_map must give up setgroups() first */
	err = demo_write_file("/proc/self/setgroups", "deny");
	if (err)
		return err;
	snprintf(map, sizeof(map), "0 %u 1", uid);
	err = demo_write_file("/proc/self/uid_map", map);
	if (err)
		return err;
	snprintf(map, sizeof(map), "0 %u 1", gid);
	return demo_write_file("/proc/self/gid_map", map);
}

int demo_enter_mountns(void)
{
	if (unshare(CLONE_NEWNS))
		return -errno;
	/* keep our mounts from propagating back to the parent's namespace */
	if (syscall(SYS_mount, NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return -errno;
	return 0;
}

int demo_enter_container(void)
{
	int err = demo_enter_userns();

	return err ? err : demo_enter_mountns();
}

/* ---- mount API: raw syscalls, so the step's <linux/mount.h> is used ---- */

int demo_fsopen(const char *fstype)
{
	int fd = syscall(SYS_fsopen, fstype, FSOPEN_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* delegate_* values given as names reach the kernel as masks (names.c) */
int demo_fsconfig_string(int fs_fd, const char *key, const char *value)
{
	const char *sent = value;
	char mask[32];

	if (value && !strncmp(key, "delegate_", 9)) {
		sent = demo_delegate_value(key, value, mask, sizeof(mask));
		if (sent != value)
			demo_note("%s=%s is sent as %s", key, value, sent);
	}
	if (syscall(SYS_fsconfig, fs_fd, FSCONFIG_SET_STRING, key, sent, 0))
		return -errno;
	return 0;
}

int demo_fsconfig_flag(int fs_fd, const char *key)
{
	if (syscall(SYS_fsconfig, fs_fd, FSCONFIG_SET_FLAG, key, NULL, 0))
		return -errno;
	return 0;
}

int demo_fs_create(int fs_fd)
{
	if (syscall(SYS_fsconfig, fs_fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		return -errno;
	return 0;
}

int demo_fsmount(int fs_fd)
{
	int fd = syscall(SYS_fsmount, fs_fd, FSMOUNT_CLOEXEC, 0);

	return fd < 0 ? -errno : fd;
}

int demo_mount_at(int mnt_fd, const char *path)
{
	if (syscall(SYS_move_mount, mnt_fd, "", AT_FDCWD, path, MOVE_MOUNT_F_EMPTY_PATH))
		return -errno;
	return 0;
}

/*
 * A filesystem explains a refused option or mount in the fs_context log,
 * which is read from the context fd one message per read(): "e ..." for
 * errors, "w ..." for warnings, "i ..." for information.
 */
void demo_print_fs_log(int fs_fd, const char *who)
{
	char buf[512];
	ssize_t n;

	while ((n = read(fs_fd, buf, sizeof(buf) - 1)) > 0) {
		buf[n] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		demo_note("%s: fs_context log: %s", who, buf);
	}
}

/* ---- SCM_RIGHTS: one int of payload (an errno or 0), maybe one fd ---- */

int demo_send_fd(int sock, int fd, int err)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control;
	struct iovec iov = { .iov_base = &err, .iov_len = sizeof(err) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cmsg;
	ssize_t n;

	if (fd >= 0) {
		memset(&control, 0, sizeof(control));
		msg.msg_control = control.buf;
		msg.msg_controllen = sizeof(control.buf);
		cmsg = CMSG_FIRSTHDR(&msg);
		cmsg->cmsg_level = SOL_SOCKET;
		cmsg->cmsg_type = SCM_RIGHTS;
		cmsg->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
	}
	n = sendmsg(sock, &msg, MSG_NOSIGNAL);
	if (n < 0)
		return -errno;
	return n == sizeof(err) ? 0 : -EIO;
}

int demo_recv_fd(int sock, int *fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control;
	int err = 0;
	struct iovec iov = { .iov_base = &err, .iov_len = sizeof(err) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control.buf, .msg_controllen = sizeof(control.buf),
	};
	struct cmsghdr *cmsg;
	ssize_t n;

	*fd = -1;
	n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	if (n < 0)
		return -errno;
	if (n != sizeof(err))
		return -EPIPE;	/* the peer died before answering */
	if (msg.msg_flags & MSG_CTRUNC)
		return -EMSGSIZE;
	cmsg = CMSG_FIRSTHDR(&msg);
	if (cmsg && cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS &&
	    cmsg->cmsg_len == CMSG_LEN(sizeof(int)))
		memcpy(fd, CMSG_DATA(cmsg), sizeof(int));
	return err;
}

/* ---- the flow ---- */

int demo_fsconfig_options(int fs_fd, const struct demo_fsopt *opts, const char *who)
{
	int err;

	for (; opts && opts->key; opts++) {
		err = opts->value ? demo_fsconfig_string(fs_fd, opts->key, opts->value)
				  : demo_fsconfig_flag(fs_fd, opts->key);
		if (err) {
			demo_note("%s: fsconfig %s=%s: %s", who, opts->key,
				  opts->value ? opts->value : "(flag)", demo_result_name(err));
			demo_print_fs_log(fs_fd, who);
			return err;
		}
	}
	return 0;
}

/*
 * Who sets the delegation options: the container as in v6's selftest,
 * or, on the kernels where only the init namespace may (step 14 on,
 * mainline: kernel/bpf/inode.c, bpf_parse_param()), the parent.  Asked
 * of the running step, since a demo built for one step runs on all.
 */
static bool parent_sets_options(void)
{
	return demo_step_since("14");
}

static int container_child(int sock, const struct demo_fsopt *opts,
			   demo_userns_fn fn, void *arg)
{
	int fs_fd, mnt_fd, err;

	err = demo_enter_container();
	if (err) {
		demo_note("container: entering user+mount namespace: %s",
			  demo_result_name(err));
		return err;
	}
	fs_fd = demo_fsopen("bpf");
	if (fs_fd < 0) {
		demo_note("container: fsopen(\"bpf\"): %s", demo_result_name(fs_fd));
		demo_send_fd(sock, -1, fs_fd);
		return fs_fd;
	}
	if (!parent_sets_options()) {
		err = demo_fsconfig_options(fs_fd, opts, "container");
		if (err) {
			demo_send_fd(sock, -1, err);
			return err;
		}
	}
	err = demo_send_fd(sock, fs_fd, 0);
	close(fs_fd);
	if (err)
		return err;
	err = demo_recv_fd(sock, &mnt_fd);
	if (err)
		return err;	/* the parent already said why */
	if (mnt_fd < 0)
		return -EPIPE;	/* "ok" but no mount fd: a protocol error */
	err = fn(mnt_fd, arg);
	close(mnt_fd);
	return err;
}

/*
 * Create and mount the child's BPF FS context; answer with mnt fd or
 * errno.  From step 14 on, and on mainline, only init-namespace
 * CAP_SYS_ADMIN may set delegate_* options, so the parent sets them
 * here; v6 has the child set them before it sends the context.
 */
static void privileged_parent(int sock, const struct demo_fsopt *opts)
{
	int fs_fd, mnt_fd, err;

	err = demo_recv_fd(sock, &fs_fd);
	if (err || fs_fd < 0)
		return;		/* the child failed first and reports it */
	err = parent_sets_options() ? demo_fsconfig_options(fs_fd, opts, "parent") : 0;
	if (err) {
		demo_send_fd(sock, -1, err);
		close(fs_fd);
		return;
	}
	err = demo_fs_create(fs_fd);
	if (err) {
		demo_note("parent: FSCONFIG_CMD_CREATE: %s", demo_result_name(err));
		demo_print_fs_log(fs_fd, "parent");
		demo_send_fd(sock, -1, err);
		close(fs_fd);
		return;
	}
	mnt_fd = demo_fsmount(fs_fd);
	close(fs_fd);
	if (mnt_fd < 0) {
		demo_note("parent: fsmount: %s", demo_result_name(mnt_fd));
		demo_send_fd(sock, -1, mnt_fd);
		return;
	}
	demo_send_fd(sock, mnt_fd, 0);
	close(mnt_fd);
}

int demo_fork_connected(int (*fn)(int sock, void *arg), void *arg, int *sock, int *pid)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -DEMO_SETUP_FAILED;
	fflush(stdout);
	*pid = fork();
	if (*pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return -DEMO_SETUP_FAILED;
	}
	if (*pid == 0) {
		close(sv[0]);
		demo_exit_result(fn(sv[1], arg));
	}
	close(sv[1]);
	*sock = sv[0];
	return 0;
}

struct container_job {
	const struct demo_fsopt *opts;
	demo_userns_fn fn;
	void *arg;
};

static int run_container_job(int sock, void *arg)
{
	const struct container_job *job = arg;

	return container_child(sock, job->opts, job->fn, job->arg);
}

int demo_run_in_container(const struct demo_fsopt *opts, demo_userns_fn fn, void *arg)
{
	struct container_job job = { .opts = opts, .fn = fn, .arg = arg };
	int sock, pid, err;

	err = demo_fork_connected(run_container_job, &job, &sock, &pid);
	if (err)
		return err;
	privileged_parent(sock, opts);
	close(sock);
	return demo_wait_result(pid);
}

int demo_run_delegated(const struct demo_delegation *d, demo_userns_fn fn, void *arg)
{
	char cmds[24], maps[24], progs[24], attachs[24];
	const struct demo_fsopt opts[] = {
		{ "delegate_cmds", cmds },
		{ "delegate_maps", maps },
		{ "delegate_progs", progs },
		{ "delegate_attachs", attachs },
		{ NULL, NULL },
	};

	snprintf(cmds, sizeof(cmds), "0x%llx", d->cmds);
	snprintf(maps, sizeof(maps), "0x%llx", d->maps);
	snprintf(progs, sizeof(progs), "0x%llx", d->progs);
	snprintf(attachs, sizeof(attachs), "0x%llx", d->attachs);
	return demo_run_in_container(opts, fn, arg);
}

/* ---- bringing an fd out of the container ---- */

struct fd_out {
	int sock;
	enum demo_fd_out what;
};

static int send_fd_out(int mnt_fd, void *arg)
{
	const struct fd_out *out = arg;
	int fd, err;

	if (out->what == DEMO_OUT_MOUNT)
		return demo_send_fd(out->sock, mnt_fd, 0);
	fd = demo_token_create(mnt_fd, "", 0);
	err = demo_send_fd(out->sock, fd, fd < 0 ? fd : 0);
	if (fd >= 0)
		close(fd);
	return fd < 0 ? fd : err;
}

int demo_fd_from_container(const struct demo_delegation *d, enum demo_fd_out what, int *fd)
{
	struct fd_out out = { .what = what };
	int sv[2], err;

	*fd = -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -DEMO_SETUP_FAILED;
	out.sock = sv[1];
	/* the message waits in the socket after the container has exited */
	err = demo_run_delegated(d, send_fd_out, &out);
	if (!err)
		err = demo_recv_fd(sv[0], fd);
	close(sv[0]);
	close(sv[1]);
	return err;
}
