// SPDX-License-Identifier: GPL-2.0
/*
 * A small, bounded, reproducible fuzzer for the two interfaces the series
 * adds, meant for the debug kernel (KASAN, kmemleak, lockdep watch it).
 *
 *   fuzz.delegate_options  random delegate_* strings (numbers, names,
 *                          ':'-lists) on a container's BPF FS; every
 *                          accepted mount's token must show, in fdinfo,
 *                          exactly the OR of the values a model of the
 *                          step's parser accepted.
 *   fuzz.token_attrs       bpf() with random token fds and random bytes
 *                          in an otherwise valid attr; every answer must
 *                          be one of the errors such input may earn, or
 *                          an fd where one is possible at all: never
 *                          without capabilities while unprivileged BPF
 *                          is disabled, and never a BTF without them.
 *
 * Bounds and seed come from $BPFTOK_FUZZ = "SEED:COUNT:SECONDS" (the VM's
 * bpftok.fuzz= parameter; `make fuzz` sets it).  Iteration i draws from
 * its own generator seeded with (SEED, i), so a failure report names
 * the seed and iteration that reproduce it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/mount.h>

#include "demo.h"

#define BPFFS "/tmp/bpffs"

struct bounds {
	unsigned long long seed;
	long count;
	long seconds;
};

static struct bounds fuzz_bounds(void)
{
	struct bounds b = { .seed = 1, .count = 2000, .seconds = 30 };
	const char *env = getenv("BPFTOK_FUZZ");

	if (env)
		sscanf(env, "%llu:%ld:%ld", &b.seed, &b.count, &b.seconds);
	return b;
}

/* splitmix64: tiny, good enough, and the same on every machine */
static unsigned long long next_random(unsigned long long *state)
{
	unsigned long long z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int below(unsigned long long *state, unsigned int n)
{
	return next_random(state) % n;
}

/* Run iterations until either bound is hit; stop at the first failure. */
static int fuzz_loop(int (*iteration)(unsigned long long *rng, long i), const char *what)
{
	struct bounds b = fuzz_bounds();
	time_t deadline = time(NULL) + b.seconds;
	long i;
	int err = 0;

	for (i = 0; i < b.count && time(NULL) < deadline && !err; i++) {
		unsigned long long rng = b.seed * 1000003ULL + i;

		err = iteration(&rng, i);
		if (err)
			demo_note("%s: iteration %ld failed; reproduce with: make fuzz FUZZ_SEED=%llu FUZZ_COUNT=%ld",
				  what, i, b.seed, i + 1);
	}
	demo_note("%s: %ld iteration(s), seed %llu", what, i, b.seed);
	return err;
}

/* ---- fuzz.delegate_options ---- */

static const char *const option_keys[] = {
	"delegate_cmds", "delegate_maps", "delegate_progs", "delegate_attachs",
};

/*
 * A name from the delegation tables of this step's UAPI header: half the
 * time one of key's own enum, else one of any option's (mostly names key
 * does not take: "xdp" for delegate_cmds), sometimes in capitals, which
 * the kernel accepts too.
 */
static const char *random_name(unsigned long long *rng, const char *key, char *buf, size_t len)
{
	const char *table = below(rng, 2) ? key : option_keys[below(rng, 4)];
	unsigned int count = 0, i;
	const char *name;

	while (demo_delegate_name(table, count))
		count++;
	if (!count)	/* bpf-names.sh fails the build on an empty enum */
		return "";
	name = demo_delegate_name(table, below(rng, count));
	if (below(rng, 4))
		return name;
	for (i = 0; name[i] && i + 1 < len; i++)
		buf[i] = name[i] >= 'a' && name[i] <= 'z' ? name[i] - 'a' + 'A' : name[i];
	buf[i] = '\0';
	return buf;
}

/* pieces the parsers have opinions about; "<name>" draws a name */
static const char *const pieces[] = {
	"any", "ANY", "0x", "0X", "0", "1", "7", "8", "9", "f", "F", "x",
	"+", "-", " ", "\n", "18446744073709551615", "18446744073709551616",
	"0xffffffffffffffff", "0x10000000000000000", "010", "a", "\t",
	":", ":", ":", "<name>", "<name>", "<name>", "<name>",
};

static void append(char *buf, size_t len, const char *piece)
{
	if (strlen(buf) + strlen(piece) < len)
		strcat(buf, piece);
}

/* one of the pieces, "<name>" drawn as a name (into buf if need be) */
static const char *random_piece(unsigned long long *rng, const char *key, char *buf, size_t len)
{
	const char *piece = pieces[below(rng, DEMO_ARRAY_SIZE(pieces))];

	return strcmp(piece, "<name>") ? piece : random_name(rng, key, buf, len);
}

/* 0-5 pieces glued together: mostly what no parser takes */
static void random_soup(unsigned long long *rng, const char *key, char *buf, size_t len)
{
	unsigned int n = below(rng, 6);
	char name[40];

	for (unsigned int i = 0; i < n; i++)
		append(buf, len, random_piece(rng, key, name, sizeof(name)));
}

/* 1-3 items joined by ':', each a name, a one-bit number or one piece */
static void random_list(unsigned long long *rng, const char *key, char *buf, size_t len)
{
	unsigned int n = 1 + below(rng, 3);
	char item[40];

	for (unsigned int i = 0; i < n; i++) {
		if (i)
			append(buf, len, ":");
		switch (below(rng, 4)) {
		case 0:
		case 1:
			append(buf, len, random_name(rng, key, item, sizeof(item)));
			break;
		case 2:
			snprintf(item, sizeof(item), "0x%llx", 1ULL << below(rng, 64));
			append(buf, len, item);
			break;
		default:
			append(buf, len, random_piece(rng, key, item, sizeof(item)));
			break;
		}
	}
}

/*
 * A value for key: numbers and their spellings for v6's parser, names
 * and the ':' between list items for the name parser of step 18 on (v6
 * must refuse both); half of them well-formed lists, so that the names
 * parser accepts enough of them for fdinfo to be checked.
 */
static void random_value(unsigned long long *rng, const char *key, char *buf, size_t len)
{
	buf[0] = '\0';
	if (below(rng, 2))
		random_list(rng, key, buf, len);
	else
		random_soup(rng, key, buf, len);
}

/*
 * The model.  Its base is kstrtou64(s, 0), which every parser uses for
 * numbers: an optional '+', then 0x/0X + hex digits, 0 + octal digits or
 * decimal digits, at most one trailing newline; -ERANGE on overflow,
 * -EINVAL for anything else it does not take.
 */
static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

static int model_kstrtou64(const char *s, unsigned long long *value)
{
	unsigned int base = 10;
	unsigned long long v = 0;
	int digits = 0;

	if (*s == '+')
		s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && digit_value(s[2]) < 16) {
		base = 16;
		s += 2;
	} else if (s[0] == '0') {
		base = 8;
	}
	for (; digit_value(*s) < (int)base; s++, digits++) {
		unsigned int d = digit_value(*s);

		if (v > (~0ULL - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	if (*s == '\n')
		s++;
	if (*s || !digits)
		return -EINVAL;
	*value = v;
	return 0;
}

/*
 * v6's parser, up to step 17: the whole value is "any" or one number.
 * The steps' parser (step 02's) answers EINVAL for every bad value,
 * overflow included.
 */
static int model_v6(const char *value, unsigned long long *mask)
{
	if (strcmp(value, "any") == 0) {
		*mask = ~0ULL;
		return 0;
	}
	return model_kstrtou64(value, mask) ? -EINVAL : 0;
}

/*
 * From step 18 on (bpf_parse_delegate() in kernel/bpf/inode.c) and on
 * mainline: a list of items split at every ':', each one "any" (lower
 * case only), a name of key's enum in any case (the tables come from the
 * same header as the kernel's BTF) or a number.  The steps OR the items'
 * bits and answer EINVAL for any bad item.  6.12's parser (its
 * kernel/bpf/inode.c:923-934) stores a number over the bits before it
 * and returns kstrtou64()'s own error, ERANGE for an overflow: the
 * differences docs/mainline.md describes.
 */
static int model_names(const char *key, const char *value, unsigned long long *mask,
		       bool *named)
{
	bool mainline = demo_step_since("mainline");
	char copy[64], *rest = copy, *item;
	unsigned long long bits;
	int err;

	if ((size_t)snprintf(copy, sizeof(copy), "%s", value) >= sizeof(copy))
		return -DEMO_SETUP_FAILED;	/* random_value() keeps below this */
	*mask = 0;
	*named = false;
	while ((item = strsep(&rest, ":"))) {
		if (strcmp(item, "any") == 0) {
			*mask |= ~0ULL;
		} else if (!demo_delegate_mask(key, item, &bits)) {
			*mask |= bits;
			*named = true;
		} else {
			err = model_kstrtou64(item, &bits);
			if (err)
				return mainline ? err : -EINVAL;
			*mask = mainline ? bits : *mask | bits;
		}
	}
	return 0;
}

/* how many values the kernel was given, took, and took with a name in */
static long values_given, values_taken, values_named;

/* What the running kernel answers to key=value: 0 and its mask, or -errno */
static int model_answer(const char *key, const char *value, unsigned long long *mask)
{
	bool named = false;
	int answer;

	if (DEMO_KERNEL_PARSES_NAMES())
		answer = model_names(key, value, mask, &named);
	else
		answer = model_v6(value, mask);
	values_given++;
	values_taken += !answer;
	values_named += !answer && named;
	return answer;
}

/* fdinfo prints "any" once every existing bit is set, else the mask. */
static void model_fdinfo(char *buf, size_t len, const char *name,
			 unsigned long long mask, unsigned int max)
{
	unsigned long long all = (1ULL << max) - 1;

	if ((mask & all) == all)
		snprintf(buf, len, "%s:\tany", name);
	else
		snprintf(buf, len, "%s:\t0x%llx", name, mask);
}

static int check_token(int token_fd, const unsigned long long masks[4])
{
	static const char *const names[] = {
		"allowed_cmds", "allowed_maps", "allowed_progs", "allowed_attachs",
	};
	const unsigned int max[] = {
		__MAX_BPF_CMD, __MAX_BPF_MAP_TYPE, __MAX_BPF_PROG_TYPE, __MAX_BPF_ATTACH_TYPE,
	};
	char want[128];

	for (int k = 0; k < 4; k++) {
		model_fdinfo(want, sizeof(want), names[k], masks[k], max[k]);
		if (demo_fdinfo_has_line(token_fd, want)) {
			demo_note("token fdinfo lacks '%s'", want);
			return -DEMO_CHECK_FAILED;
		}
	}
	return 0;
}

/* value with newlines and tabs spelled out, for a one-line note */
static const char *printable(const char *value)
{
	static char buf[160];
	size_t n = 0;

	for (; *value && n + 3 < sizeof(buf); value++) {
		if (*value == '\n' || *value == '\t') {
			buf[n++] = '\\';
			buf[n++] = *value == '\n' ? 'n' : 't';
		} else {
			buf[n++] = *value;
		}
	}
	buf[n] = '\0';
	return buf;
}

/*
 * fsconfig() without the demo library's translation of names into masks:
 * the oracle is a model of the running kernel's own parser, so the
 * kernel must see every value exactly as generated.
 */
static int raw_fsconfig_string(int fs_fd, const char *key, const char *value)
{
	return syscall(SYS_fsconfig, fs_fd, FSCONFIG_SET_STRING, key, value, 0) ? -errno : 0;
}

/*
 * The container's half of an iteration.  From step 15 on only a task in
 * the BPF FS's own user namespace makes a token of it, so on every step
 * the BPF FS comes from a context opened in a new user namespace, and the
 * token is made there: open the context and hand it over, take the mount
 * back, hand back a token (or the errno).
 */
static int token_maker(int sock, void *arg)
{
	int fs_fd, mnt_fd, token_fd, err;

	(void)arg;
	if (demo_enter_container())
		return demo_send_fd(sock, -1, -DEMO_SETUP_FAILED);
	fs_fd = demo_fsopen("bpf");
	err = demo_send_fd(sock, fs_fd, fs_fd < 0 ? fs_fd : 0);
	if (fs_fd < 0)
		return fs_fd;
	close(fs_fd);
	if (err || demo_recv_fd(sock, &mnt_fd) || mnt_fd < 0)
		return 0;	/* our parent stopped first and reports why */
	token_fd = demo_token_create(mnt_fd, "", 0);
	close(mnt_fd);
	err = demo_send_fd(sock, token_fd, token_fd < 0 ? token_fd : 0);
	if (token_fd >= 0)
		close(token_fd);
	return err;
}

/*
 * Our half: 1-4 random options on the container's context, each answer
 * checked against the model; then create and mount it, and check the
 * token that comes back.  A BPF FS whose masks all came out zero gives
 * no token from step 16 on (ENOENT).
 */
static int configure_and_check(int sock, unsigned long long *rng)
{
	unsigned long long masks[4] = { 0 }, mask;
	unsigned int n = 1 + below(rng, 4);
	int fs_fd, mnt_fd, token_fd, want, err;
	char value[64];

	err = demo_recv_fd(sock, &fs_fd);
	if (err)
		return err;
	for (unsigned int o = 0; o < n; o++) {
		unsigned int k = below(rng, 4);
		int answer;

		random_value(rng, option_keys[k], value, sizeof(value));
		answer = model_answer(option_keys[k], value, &mask);
		err = raw_fsconfig_string(fs_fd, option_keys[k], value);
		if (err != answer) {
			demo_note("%s='%s': got %s, the model says %s", option_keys[k], printable(value),
				  demo_result_name(err), demo_result_name(answer));
			close(fs_fd);
			return -DEMO_CHECK_FAILED;
		}
		if (!answer)
			masks[k] |= mask;
	}
	err = demo_fs_create(fs_fd);
	mnt_fd = err ? err : demo_fsmount(fs_fd);
	close(fs_fd);
	if (mnt_fd < 0)
		return mnt_fd;
	err = demo_send_fd(sock, mnt_fd, 0);
	close(mnt_fd);
	if (err)
		return err;
	err = demo_recv_fd(sock, &token_fd);
	want = !(masks[0] | masks[1] | masks[2] | masks[3]) && demo_step_since("16") ? -ENOENT : 0;
	if (err != want) {
		demo_note("token: got %s, want %s", demo_result_name(err), demo_result_name(want));
		err = -DEMO_CHECK_FAILED;
	} else {
		err = token_fd >= 0 ? check_token(token_fd, masks) : 0;
	}
	if (token_fd >= 0)
		close(token_fd);
	return err;
}

static int options_iteration(unsigned long long *rng, long i)
{
	int sock, pid, err, child_err;

	(void)i;
	err = demo_fork_connected(token_maker, NULL, &sock, &pid);
	if (err)
		return err;
	err = configure_and_check(sock, rng);
	close(sock);	/* a child still waiting for us gives up */
	child_err = demo_wait_result(pid);
	return err ? err : child_err;
}

static int delegate_options(void)
{
	int err = fuzz_loop(options_iteration, "fuzz.delegate_options");

	demo_note("fuzz.delegate_options: %ld value(s) given, %ld taken, %ld of those with a name",
		  values_given, values_taken, values_named);
	return err;
}

/* ---- fuzz.token_attrs ---- */

/* fds a token field may be given, made once per run */
struct fd_pool {
	int token, mount, map, prog, devnull, closed;
};

static int pick_token_fd(unsigned long long *rng, const struct fd_pool *pool)
{
	switch (below(rng, 9)) {
	case 0: return 0;
	case 1: return pool->map;
	case 2: return pool->prog;
	case 3: return pool->devnull;
	case 4: return pool->closed;
	case 5: return (int)next_random(rng);
	case 6: return pool->mount;	/* what BPF_TOKEN_CREATE wants */
	default: return pool->token;
	}
}

/* A valid attr for cmd, carrying token_fd where that command takes one. */
static void template_attr(union bpf_attr *attr, int cmd, int token_fd)
{
	struct demo_token_create_attr *token_create = (void *)attr;

	memset(attr, 0, sizeof(*attr));
	switch (cmd) {
	case BPF_MAP_CREATE:
		attr->map_type = BPF_MAP_TYPE_STACK;
		attr->value_size = 8;
		attr->max_entries = 1;
		DEMO_SET_TOKEN(attr->map_token_fd, attr->map_flags, token_fd);
		break;
	case BPF_PROG_LOAD:
		attr->prog_type = BPF_PROG_TYPE_XDP;
		attr->expected_attach_type = BPF_XDP;
		attr->insns = (uintptr_t)demo_return_one;
		attr->insn_cnt = DEMO_RETURN_ONE_LEN;
		attr->license = (uintptr_t)"GPL";
		DEMO_SET_TOKEN(attr->prog_token_fd, attr->prog_flags, token_fd);
		break;
	case BPF_BTF_LOAD:
		DEMO_SET_TOKEN(attr->btf_token_fd, attr->btf_flags, token_fd);
		break;
	default:	/* BPF_TOKEN_CREATE: the mount root */
		token_create->bpffs_path_fd = token_fd;
		/* v6 resolves "" below the fd; the shipped ABI has no pathname */
		token_create->bpffs_pathname = DEMO_SHIPPED_ABI ? 0 : (uintptr_t)"";
		break;
	}
}

/* What garbage in an attr may earn; anything else is a finding. */
static bool acceptable_error(int result)
{
	switch (-result) {
	case EINVAL: case EPERM: case E2BIG: case EBADF: case EFAULT: case EACCES:
	case ENOENT: case ENOTDIR: case EOPNOTSUPP: case 524 /* ENOTSUPP */:
	case ENOSPC: case ERANGE: case ENOMEM:
		return true;
	default:
		return false;
	}
}

static struct fd_pool pool;
/* kernel.unprivileged_bpf_disabled as the run found it (the VM's: 2) */
static int unpriv_bpf_disabled = -1;

/*
 * Can cmd succeed at all for this caller, whatever the attr holds?  With
 * the effective capabilities dropped, no token helps: a token stands in
 * for capabilities its holder has in the token's namespace, and this
 * holder has none.  What is left is unprivileged BPF, which loads no BTF
 * (bpf_btf_load() wants CAP_BPF) and nothing at all while the sysctl
 * disables it.  BPF_TOKEN_CREATE asks for no capability in v6.
 */
static bool success_possible(int cmd, bool caps)
{
	if (caps || cmd == DEMO_BPF_TOKEN_CREATE)
		return true;
	if (cmd == BPF_BTF_LOAD)
		return false;
	return unpriv_bpf_disabled == 0;
}

static int attrs_iteration(unsigned long long *rng, long i)
{
	static const int cmds[] = {
		BPF_MAP_CREATE, BPF_PROG_LOAD, BPF_BTF_LOAD, DEMO_BPF_TOKEN_CREATE,
	};
	struct {
		union bpf_attr attr;
		unsigned char tail[16];
	} buf;
	int cmd = cmds[below(rng, DEMO_ARRAY_SIZE(cmds))];
	unsigned int flips = below(rng, 4), size;
	bool caps = below(rng, 2);
	int result;

	(void)i;
	template_attr(&buf.attr, cmd, pick_token_fd(rng, &pool));
	memset(buf.tail, 0, sizeof(buf.tail));
	for (unsigned int f = 0; f < flips; f++)
		((unsigned char *)&buf)[below(rng, sizeof(buf))] = next_random(rng);
	size = below(rng, 4) ? sizeof(buf.attr) : below(rng, sizeof(buf) + 1);
	/* half the time without the namespace's capabilities */
	if (caps)
		demo_caps_raise(DEMO_CAPS(CAP_BPF, CAP_PERFMON, CAP_NET_ADMIN, CAP_SYS_ADMIN));
	else
		demo_caps_drop(DEMO_CAPS(CAP_BPF, CAP_PERFMON, CAP_NET_ADMIN, CAP_SYS_ADMIN));
	result = demo_bpf(cmd, &buf.attr, size);
	if (result >= 0)
		close(result);
	if (result >= 0 && !success_possible(cmd, caps)) {
		demo_note("bpf(%d, size %u) returned fd %d %s capabilities (unprivileged_bpf_disabled=%d)",
			  cmd, size, result, caps ? "with" : "without", unpriv_bpf_disabled);
		return -DEMO_CHECK_FAILED;
	}
	if (result < 0 && !acceptable_error(result)) {
		demo_note("bpf(%d, size %u) returned %s", cmd, size, demo_result_name(result));
		return -DEMO_CHECK_FAILED;
	}
	return 0;
}

/* The pool's map and program are made with the token, as a container would. */
static int attrs_in_container(int mnt_fd, void *arg)
{
	union bpf_attr attr;

	(void)arg;
	/* the shipped ABI wants the root opened for real, not fsmount()'s O_PATH fd */
	pool.mount = DEMO_SHIPPED_ABI ? demo_bpffs_fd_for_token(mnt_fd, "") : mnt_fd;
	pool.token = demo_token_create(mnt_fd, "", 0);
	if (pool.token < 0)
		return pool.token;
	template_attr(&attr, BPF_MAP_CREATE, pool.token);
	pool.map = demo_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
	template_attr(&attr, BPF_PROG_LOAD, pool.token);
	pool.prog = demo_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
	pool.devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	pool.closed = open("/dev/null", O_RDONLY | O_CLOEXEC);
	close(pool.closed);
	if (pool.mount < 0 || pool.map < 0 || pool.prog < 0 || pool.devnull < 0 ||
	    demo_read_int(UNPRIV_BPF_SYSCTL, &unpriv_bpf_disabled))
		return -DEMO_SETUP_FAILED;
	return fuzz_loop(attrs_iteration, "fuzz.token_attrs");
}

static int token_attrs(void)
{
	static const struct demo_fsopt any[] = {
		{ "delegate_cmds", "any" }, { "delegate_maps", "any" },
		{ "delegate_progs", "any" }, { "delegate_attachs", "any" },
		{ NULL, NULL },
	};

	return demo_run_in_container(any, attrs_in_container, NULL);
}

/*
 * The model is v6's parser from step 04 (where fdinfo shows the masks),
 * the name parser's from step 18, and 6.12's on mainline; the fuzzer
 * targets the last step, on the debug kernel.
 */
static const struct demo_case cases[] = {
	{ "fuzz.delegate_options", delegate_options, EXPECT({ "04", 0 }) },
	{ "fuzz.token_attrs", token_attrs, EXPECT({ "04", 0 }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
