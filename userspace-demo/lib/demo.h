/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The demo library: everything the per-step demos share.
 *
 *   cases      run named cases, compare each result with what the running
 *              step's kernel is expected to return, print KTAP
 *   userns     enter a user namespace (root mapping) and a mount namespace
 *   mount API  fsopen/fsconfig/fsmount wrappers that print the fs_context log
 *   fd passing SCM_RIGHTS over a unix socket
 *   flow       the "container child + privileged parent" protocol of the
 *              BPF token series' selftest
 *   caps       drop and restore effective capabilities (libcap)
 *   bpf        raw bpf() wrappers built against the step's UAPI header
 *
 * Functions return 0 (or an fd) on success and -errno on failure, so a
 * case can hand the kernel's answer straight back to the harness.
 */
#ifndef DEMO_H
#define DEMO_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/bpf.h>
#include <linux/capability.h>

/*
 * ---- v6 and the shipped ABI ----
 *
 * The demos are written against the v6 series' UAPI.  Built against the
 * UAPI that Linux 6.9 shipped (step 17 on, and Debian's 6.12: the
 * matrix's mainline column) they go through this thin layer instead of
 * copies of themselves:
 *
 *   - demo_token_create() turns v6's (fd, pathname) into the one open
 *     BPF FS fd the shipped ABI takes (token_create.bpffs_fd)
 *   - DEMO_SET_TOKEN() also sets BPF_F_TOKEN_FD, without which the
 *     shipped ABI ignores a token fd (kernel/bpf/syscall.c)
 *
 * userspace-demo/Makefile reads which ABI the headers speak and defines
 * DEMO_SHIPPED_ABI=1 for the shipped one: the UAPI has no macro to test,
 * BPF_F_TOKEN_FD is an enum constant.
 *
 * What changed in the kernel but not in the UAPI is decided at run time
 * instead, from the running step (demo_step_since()): who sets the
 * delegate_* options in the container flow (lib/container.c), whether
 * the kernel parses delegation names (DEMO_KERNEL_PARSES_NAMES()).
 */
#ifndef DEMO_SHIPPED_ABI
#define DEMO_SHIPPED_ABI 0
#endif
#ifndef DEMO_HAS_PROG_TOKEN
#define DEMO_HAS_PROG_TOKEN 0
#endif

/*
 * The flag that makes a command read its token fd: BPF_F_TOKEN_FD in the
 * shipped ABI, nothing in v6, which reads any non-zero fd.
 */
#if DEMO_SHIPPED_ABI
#define DEMO_TOKEN_FLAG BPF_F_TOKEN_FD
#else
#define DEMO_TOKEN_FLAG 0
#endif

/*
 * attr.<cmd>_token_fd = fd, and with the shipped ABI BPF_F_TOKEN_FD in
 * the command's flags (map_flags, prog_flags, btf_flags) unless fd is 0,
 * which is v6's "no token"; on v6 the flags field is not touched (and
 * btf_flags does not even exist).
 */
#if DEMO_SHIPPED_ABI
#define DEMO_SET_TOKEN(fd_field, flags_field, fd)			\
	do {								\
		int demo_token_fd_ = (fd);				\
									\
		(fd_field) = demo_token_fd_;				\
		if (demo_token_fd_)					\
			(flags_field) |= BPF_F_TOKEN_FD;		\
	} while (0)
#else
#define DEMO_SET_TOKEN(fd_field, flags_field, fd)			\
	do {								\
		(fd_field) = (fd);					\
	} while (0)
#endif

/* ---- cases and expectations ---- */

/*
 * What a case returns on the kernel of each step: a list of
 * { first step, result } pairs in series order.  The entry that applies is
 * the last one whose step is not after the running step, so
 *   EXPECT({ "00", -EINVAL }, { "04", 0 })
 * reads "EINVAL on steps 00-03, success from step 04 on".  "mainline"
 * sorts after every step id, so a { "mainline", ... } entry, always the
 * last, applies to upstream's final design only; without one, mainline
 * is expected to answer like the last step.
 */
struct demo_expect {
	const char *since;
	int result;
};
#define EXPECT(...) ((const struct demo_expect[]){ __VA_ARGS__, { NULL, 0 } })

struct demo_case {
	const char *name;		/* "area.what", e.g. "map.token_and_cap" */
	int (*run)(void);		/* 0 or -errno; runs in its own process */
	const struct demo_expect *expect;
};

/* A case could not even set up (fork, socketpair, ...): never expected. */
#define DEMO_SETUP_FAILED 255
/*
 * A case's own check of what the kernel did failed (fdinfo or mountinfo
 * does not show what it should, a flag is missing).  No kernel returns
 * it, so it never passes for an errno: "-ENOENT" in a result is always
 * the kernel's.  Shown as CHECK_FAILED.
 */
#define DEMO_CHECK_FAILED 254

int demo_main(int argc, char **argv, const struct demo_case *cases, int n_cases);

/* Carry a 0/-errno result out of a forked process, and back in. */
void demo_exit_result(int result) __attribute__((noreturn));
int demo_wait_result(int pid);

/*
 * Whether the running kernel ($BPFTOK_STEP) is step `since` or a later
 * one, by the same order as EXPECT(): for the library's few choices
 * that follow the kernel rather than the headers a demo was built with.
 */
bool demo_step_since(const char *since);
/*
 * The kernel parses symbolic delegate_* values and shows them by name
 * in mountinfo, through vmlinux BTF: from step 18 on, and upstream's
 * (6c1752e0b6ca).
 */
#define DEMO_KERNEL_PARSES_NAMES() demo_step_since("18")

/* "ok" for 0, "EPERM" for -EPERM, ... */
const char *demo_result_name(int result);

/* '# ' diagnostic line, as kselftest prints them */
void demo_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- namespaces ---- */

int demo_enter_userns(void);	/* new user ns, uid/gid 0 mapped to ours */
int demo_enter_mountns(void);	/* new mount ns, / made private */
int demo_enter_container(void);	/* both: what the demos' container is */

/* ---- mount API ---- */

/* One BPF FS delegation option as a string, e.g. { "delegate_cmds", "any" } */
struct demo_fsopt {
	const char *key;
	const char *value;
};

int demo_fsopen(const char *fstype);
int demo_fsconfig_string(int fs_fd, const char *key, const char *value);
int demo_fsconfig_flag(int fs_fd, const char *key);	/* key without a value */
int demo_fs_create(int fs_fd);			/* FSCONFIG_CMD_CREATE */
int demo_fsmount(int fs_fd);			/* detached mount, returns mnt fd */
void demo_print_fs_log(int fs_fd, const char *who);
/*
 * Every option of opts (up to a NULL key) on fs_fd, a NULL value in flag
 * form; stops at the first error, which it notes with the fs_context log
 * (who: "init", "container", "parent").  0 or that error.
 */
int demo_fsconfig_options(int fs_fd, const struct demo_fsopt *opts, const char *who);
/* Attach a detached mount (from fsmount) at path, in our mount namespace. */
int demo_mount_at(int mnt_fd, const char *path);
/*
 * The superblock options column of /proc/self/mountinfo for mountpoint;
 * -DEMO_CHECK_FAILED if nothing is mounted there.
 */
int demo_mount_options(const char *mountpoint, char *buf, size_t len);

/*
 * A BPF FS of init-namespace root, in a private mount namespace that the
 * calling process enters first.  opts may be NULL; an option whose value
 * is NULL is set in flag form.  The first returns the fs_context of
 * fsopen("bpf") with opts applied (0 or the first fsconfig() error); the
 * second also creates and mounts it at mountpoint and returns a directory
 * fd of the mount root.
 */
int demo_bpffs_context(const struct demo_fsopt *opts, int *fs_fd);
int demo_bpffs_mount(const char *mountpoint, const struct demo_fsopt *opts);
/*
 * demo_bpffs_mount() with one option sent as written, past the library's
 * translation of delegation names into masks (lib/names.c): what a
 * kernel's own parser makes of it.
 */
int demo_bpffs_mount_as_is(const char *mountpoint, const char *key, const char *value);

/*
 * Symbolic delegation values (lib/names.c): demo_delegate_mask() turns
 * "map_create:prog_load" for key "delegate_cmds" (or names of map types,
 * program types, attach types for the other three keys) into a mask, and
 * fails with -EINVAL on anything else, numbers and "any" included.
 * demo_delegate_value() returns the value to give fsconfig(): the mask as
 * "0x..." in buf when value is a list of names, else value unchanged; on
 * mainline always value unchanged, since its kernel parses the names.
 * demo_fsconfig_string() applies it to every delegate_* option.
 */
int demo_delegate_mask(const char *key, const char *value, unsigned long long *mask);
/* The i-th name key's table holds ("map_create", ...), NULL past its end. */
const char *demo_delegate_name(const char *key, unsigned int i);
const char *demo_delegate_value(const char *key, const char *value, char *buf, size_t len);

/* ---- SCM_RIGHTS ---- */

int demo_send_fd(int sock, int fd, int err);	/* fd < 0: send err only */
int demo_recv_fd(int sock, int *fd);		/* returns the sender's err */

/*
 * Fork a child connected to us by a SOCK_SEQPACKET socket pair.  The
 * child runs fn(its end, arg) and exits with the result (collect it with
 * demo_wait_result(*pid)); we get our end in *sock.  0, or
 * -DEMO_SETUP_FAILED when the pair or the fork fails.
 */
int demo_fork_connected(int (*fn)(int sock, void *arg), void *arg, int *sock, int *pid);

/* ---- the container flow ---- */

/*
 * Fork a "container" child.  The child enters a new user and mount
 * namespace, fsopen()s BPF FS, applies the options and sends the context
 * fd to us, the privileged parent.  We create and fsmount() it and send the
 * mount fd back.  The child then runs fn(mnt_fd, arg) and its result is
 * returned here; the first failing step of the flow is returned instead if
 * the flow stops early.
 */
typedef int (*demo_userns_fn)(int mnt_fd, void *arg);
int demo_run_in_container(const struct demo_fsopt *opts, demo_userns_fn fn, void *arg);

/* ---- files ---- */

int demo_write_file(const char *path, const char *text);
int demo_read_int(const char *path, int *value);

/*
 * Run a client program (argv[0] an absolute path) with
 * LIBBPF_BPF_TOKEN_PATH=token_path in its environment (none if NULL),
 * its output shown as notes: 0 if it exits 0, else -errno of the first
 * error it reports (-DEMO_CHECK_FAILED if it names none; lib/client.c).
 */
int demo_run_client(char *const argv[], const char *token_path);

/*
 * The same flow with the four delegation masks given as numbers: each
 * becomes its delegate_* option ("0x..." - zero means "delegate none").
 */
struct demo_delegation {
	unsigned long long cmds, maps, progs, attachs;
};
int demo_run_delegated(const struct demo_delegation *d, demo_userns_fn fn, void *arg);

/*
 * Run the flow with delegation d and bring an fd out of the container
 * over SCM_RIGHTS: its BPF FS mount, or a token made from that mount.
 * The fd outlives the container (and pins its user namespace), which is
 * how the escape cases hand it to a process somewhere else.
 */
enum demo_fd_out { DEMO_OUT_MOUNT, DEMO_OUT_TOKEN };
int demo_fd_from_container(const struct demo_delegation *d, enum demo_fd_out what, int *fd);

/* What the series' selftest delegates for its program: XDP, BPF_XDP. */
#define DEMO_XDP_DELEGATION ((const struct demo_delegation){		\
	.cmds = 1ULL << BPF_PROG_LOAD,					\
	.progs = 1ULL << BPF_PROG_TYPE_XDP,				\
	.attachs = 1ULL << BPF_XDP,					\
})

/* What the LSM demos delegate: BPF_MAP_CREATE of STACK maps (CAP_BPF). */
#define DEMO_STACK_MAP_DELEGATION ((const struct demo_delegation){	\
	.cmds = 1ULL << BPF_MAP_CREATE,					\
	.maps = 1ULL << BPF_MAP_TYPE_STACK,				\
})

/*
 * A demo_userns_fn: a token from the container's BPF FS, then a STACK
 * map made with it (and closed): 0 or -errno of the first that failed.
 * Like demo_prog_load_token(), for UAPIs with the token fields.
 */
#if DEMO_HAS_PROG_TOKEN
int demo_stack_map_with_token(int mnt_fd, void *arg);
#endif

/* ---- reference leaks (leak.c) ---- */

/*
 * Run round(arg) that many times with user.max_user_namespaces lowered to
 * DEMO_USERNS_LIMIT.  A token pins its BPF FS's user namespace, so a
 * reference some path forgets to put keeps a namespace alive, and within
 * a few rounds unshare(CLONE_NEWUSER) fails with ENOSPC.  A round that
 * meets ENOSPC is retried for up to a second (namespaces are freed from a
 * workqueue).  Every round should return the same; the first that does
 * not stops the loop and its result is returned (ENOSPC for a leak),
 * otherwise the common result.  The harness restores the limit after the
 * case, even one that dies half-way.
 */
#define USERNS_LIMIT_SYSCTL "/proc/sys/user/max_user_namespaces"
#define DEMO_USERNS_LIMIT 8
int demo_leak_rounds(int rounds, int (*round)(const void *arg), const void *arg);

/* ---- capabilities ---- */

/* Clear these from the effective set (they stay permitted). */
int demo_caps_drop(const int *caps, int n);
/* Raise these back into the effective set. */
int demo_caps_raise(const int *caps, int n);
/* fn() without CAP_BPF/CAP_SYS_ADMIN, with unprivileged BPF allowed */
int demo_as_unprivileged(int (*fn)(void));
#define DEMO_CAPS(...) ((const int[]){ __VA_ARGS__ }), \
	(int)(sizeof((const int[]){ __VA_ARGS__ }) / sizeof(int))

/*
 * kernel.unprivileged_bpf_disabled: 2 (the distro default) refuses
 * map and program creation without CAP_BPF; root may set it to 0 to
 * reach the checks behind it, and back to 2.  Returns the old value.
 */
int demo_set_unpriv_bpf_disabled(int value);
#define UNPRIV_BPF_SYSCTL "/proc/sys/kernel/unprivileged_bpf_disabled"

/* ---- raw bpf() ---- */

/* bpf(cmd, attr, size) returning the fd/0 or -errno */
int demo_bpf(int cmd, union bpf_attr *attr, unsigned int size);
int demo_map_create_simple(enum bpf_map_type type, uint32_t key_size,
			   uint32_t value_size, uint32_t max_entries);
int demo_prog_load_simple(enum bpf_prog_type type, enum bpf_attach_type expected,
			  const struct bpf_insn *insns, uint32_t insn_cnt);

/*
 * The same load with a token (0: none), on the kernels whose UAPI has
 * prog_token_fd (step 06 on, and mainline).  The Makefile defines
 * DEMO_HAS_PROG_TOKEN from the step's own <linux/bpf.h>.
 */
#if DEMO_HAS_PROG_TOKEN
int demo_prog_load_token(enum bpf_prog_type type, enum bpf_attach_type expected,
			 const struct bpf_insn *insns, uint32_t insn_cnt, int token_fd);
#endif

/*
 * BPF_PROG_ATTACH of prog_fd to the root cgroup (cgroup2 at
 * /sys/fs/cgroup) as type, detached again at once: 0 or the attach's
 * -errno.  CGROUP_SKB and friends meet their privilege check here, not
 * at load time.
 */
#define DEMO_CGROUP_ROOT "/sys/fs/cgroup"
int demo_cgroup_attach_root(int prog_fd, enum bpf_attach_type type);

/* "r0 = 1; exit": the smallest program every type's verifier accepts */
#define DEMO_RETURN_ONE_LEN 2
extern const struct bpf_insn demo_return_one[DEMO_RETURN_ONE_LEN];

/*
 * 0 if /proc/self/fdinfo/FD has the line `line` (no newline), else
 * -DEMO_CHECK_FAILED (or -errno if fdinfo cannot be read)
 */
int demo_fdinfo_has_line(int fd, const char *line);

/* BPF_OBJ_GET_INFO_BY_FD on a program fd into *info: 0 or -errno */
struct bpf_prog_info;
int demo_prog_info(int prog_fd, struct bpf_prog_info *info);

/*
 * BPF_TOKEN_CREATE as the series defines it (command 36, attr
 * token_create = { u32 flags; u32 bpffs_path_fd; u64 bpffs_pathname; }),
 * spelled out here so that demos built against a step before 03 can
 * still send it and see the older kernel refuse it.  tests/host/uapi.sh
 * checks that this matches the real header from step 03 to 16.  The
 * shipped ABI keeps the command number and the first two fields (the
 * second renamed bpffs_fd) and drops the pathname: built for it,
 * demo_token_create() opens bpffs_path_fd + pathname itself and sends
 * the open fd.
 */
#define DEMO_BPF_TOKEN_CREATE 36
struct demo_token_create_attr {
	uint32_t flags;
	uint32_t bpffs_path_fd;
	uint64_t bpffs_pathname;
};
/* token fd, or -errno */
int demo_token_create(int bpffs_path_fd, const char *pathname, uint32_t flags);
/* shipped ABI: v6's (fd, pathname) as the open fd the shipped ABI wants */
int demo_bpffs_fd_for_token(int dir_fd, const char *pathname);
/*
 * BPF_TOKEN_CREATE naming the BPF FS by fd alone, the fd sent as it is
 * (v6: with an empty pathname): a token fd, or -errno.
 */
int demo_token_create_fd(int bpffs_fd);

/*
 * libbpf's bpf_token_create() takes (fd, pathname, opts) in v6 and
 * (bpffs_fd, opts) in the shipped ABI; the libbpf demos call it as v6 does,
 * through this.  Only for demos that include <bpf/bpf.h> first.
 */
#ifdef __LIBBPF_BPF_H
#include <unistd.h>
static inline int demo_libbpf_token_create(int fd, const char *pathname,
					   struct bpf_token_create_opts *opts)
{
#if DEMO_SHIPPED_ABI
	int bpffs_fd = demo_bpffs_fd_for_token(fd, pathname), token_fd;

	if (bpffs_fd < 0)
		return bpffs_fd;
	token_fd = bpf_token_create(bpffs_fd, opts);
	close(bpffs_fd);
	return token_fd;
#else
	return bpf_token_create(fd, pathname, opts);
#endif
}
#endif

/* ---- the kernel's BTF and BPF LSM programs (lsm.c) ---- */

/*
 * Load insns as a BPF LSM program on the kernel's bpf_lsm_<hook> and
 * attach it: the link fd (closing it detaches the program), or -errno,
 * -ENOENT when the kernel has no vmlinux BTF or no such hook.  The
 * program's ctx is the hook's arguments, one u64 each: ctx[0] at r1 + 0,
 * ctx[1] at r1 + 8, and so on.  Only init-namespace root may do this.
 */
int demo_lsm_attach(const char *hook, const struct bpf_insn *insns, uint32_t insn_cnt);
/* offsetof(struct type, member) in the running kernel, from its BTF, or -errno */
int demo_kernel_member_offset(const char *type, const char *member);
/* the BTF id of type `name` of `kind` (BTF_KIND_*) in the running kernel, or -errno */
int demo_kernel_btf_id(const char *name, int kind);

/* ARRAY map create with `value` where the series puts map_token_fd */
int demo_map_create_token_field(uint32_t value);
/* For cases that only need to know whether an fd came back: close it. */
int demo_close_result(int fd_or_err);

#define DEMO_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif /* DEMO_H */
