// SPDX-License-Identifier: GPL-2.0
/*
 * Step 09: libbpf's bpf_token_create().  Read it next to
 * steps/09-libbpf-token-create/NOTES.md.
 *
 * From this step on the demos call libbpf, built from the step's own
 * tools/lib/bpf, instead of raw bpf().  What the library adds: the attr
 * is sized and zeroed for you, errors come back as -errno, and the opts
 * struct is checked before the kernel sees anything.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "demo.h"

static const struct demo_fsopt delegate_all_cmds[] = {
	{ "delegate_cmds", "any" },
	{ NULL, NULL },
};

/*
 * The series' selftest creates its tokens exactly like this, with libbpf's
 * bpf_token_create(mnt_fd, "", NULL); demo_libbpf_token_create() is that
 * call on v6 and its mainline equivalent on 6.12 (lib/demo.h).
 */
static int create_token(int mnt_fd, void *arg)
{
	int token_fd;

	(void)arg;
	token_fd = demo_libbpf_token_create(mnt_fd, "", NULL);
	return demo_close_result(token_fd);
}

static int token_in_container(void)
{
	return demo_run_in_container(delegate_all_cmds, create_token, NULL);
}

static int with_root_of(const char *path, struct bpf_token_create_opts *opts)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int err;

	if (fd < 0)
		return -DEMO_SETUP_FAILED;
	err = demo_close_result(demo_libbpf_token_create(fd, "", opts));
	close(fd);
	return err;
}

/* the VM's /sys/fs/bpf, created by /init in the init namespace */
static int token_init_ns(void)
{
	return with_root_of("/sys/fs/bpf", NULL);
}

/* opts.flags reaches the kernel, which refuses any bit today */
static int token_flags(void)
{
	LIBBPF_OPTS(bpf_token_create_opts, opts, .flags = 1);

	return with_root_of("/sys/fs/bpf", &opts);
}

/*
 * A caller built against a newer libbpf may pass a larger opts struct.
 * libbpf accepts it only if every byte it does not know is zero, and
 * refuses it itself otherwise - on any kernel.
 */
static int token_opts_from_the_future(void)
{
	struct {
		struct bpf_token_create_opts known;
		__u64 unknown;
	} bigger = {
		.known = { .sz = sizeof(bigger) },
		.unknown = 1,
	};

	return with_root_of("/sys/fs/bpf", &bigger.known);
}

static const struct demo_case cases[] = {
	{ "libbpf.token_in_container", token_in_container,
	  EXPECT({ "00", -EPERM }, { "02", -EINVAL }, { "03", 0 }) },
	{ "libbpf.token_init_ns", token_init_ns,
	  EXPECT({ "00", -EINVAL }, { "03", 0 }, { "15", -EOPNOTSUPP }) },
	{ "libbpf.token_flags", token_flags, EXPECT({ "00", -EINVAL }) },
	{ "libbpf.token_opts_from_the_future", token_opts_from_the_future,
	  EXPECT({ "00", -EINVAL }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
