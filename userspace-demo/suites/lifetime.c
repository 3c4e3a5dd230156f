// SPDX-License-Identifier: GPL-2.0
/*
 * Token lifetime: who holds a reference, and that every one is dropped.
 *
 * A token pins the user namespace of its BPF FS; from step 06 on every
 * program loaded with a token holds a reference to it.  A reference
 * that is never put therefore keeps a whole user namespace alive, and
 * user.max_user_namespaces turns that into an error we can see: with
 * the limit at a few, unshare(CLONE_NEWUSER) fails with ENOSPC within a
 * few rounds of a leaky flow.  The debug kernel adds kmemleak and KASAN
 * on top; /proc/meminfo's Slab line is printed as a coarse cross-check.
 *
 * The number of rounds comes from $BPFTOK_ROUNDS (bpftok.rounds= on the
 * kernel command line): the debug run uses 1000.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "demo.h"
#include "suite.h"

#define DEFAULT_ROUNDS 50

static const struct demo_delegation maps_and_xdp = {
	.cmds = 1ULL << BPF_MAP_CREATE | 1ULL << BPF_PROG_LOAD,
	.maps = 1ULL << BPF_MAP_TYPE_STACK,
	.progs = 1ULL << BPF_PROG_TYPE_XDP,
	.attachs = 1ULL << BPF_XDP,
};

/* The program outlives the token fd: it holds its own reference. */
static int close_token_then_unload(int mnt_fd, void *arg)
{
	struct bpf_prog_info info;
	int token_fd, prog_fd, err;

	(void)arg;
	token_fd = demo_token_create(mnt_fd, "", 0);
	if (token_fd < 0)
		return token_fd;
	prog_fd = suite_xdp_prog_load(token_fd);
	close(token_fd);
	if (prog_fd < 0)
		return prog_fd;
	err = demo_prog_info(prog_fd, &info);
	close(prog_fd);
	return err;
}

/* Everything still open when the process exits: the kernel cleans up. */
static int exit_with_everything_open(int mnt_fd, void *arg)
{
	int token_fd, fd;

	(void)arg;
	token_fd = demo_token_create(mnt_fd, "", 0);
	if (token_fd < 0)
		return token_fd;
	fd = suite_stack_map_create(token_fd);
	if (fd < 0)
		return fd;
	fd = suite_xdp_prog_load(token_fd);
	return fd < 0 ? fd : 0;
}

static int one_round(int mnt_fd, void *arg)
{
	int err = close_token_then_unload(mnt_fd, arg);

	return err ? err : exit_with_everything_open(mnt_fd, arg);
}

static int slab_kb(void)
{
	char line[128];
	int kb = -1;
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Slab: %d kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* a round: one container runs both flows */
static int one_container_run(const void *arg)
{
	(void)arg;
	return demo_run_delegated(&maps_and_xdp, one_round, NULL);
}

/* round after round, under demo_leak_rounds()'s lowered limit */
static int rounds(void)
{
	const char *env = getenv("BPFTOK_ROUNDS");
	int n = env ? atoi(env) : DEFAULT_ROUNDS;
	int slab_before = slab_kb(), err;

	err = demo_leak_rounds(n, one_container_run, NULL);
	if (!err)
		demo_note("%d rounds; Slab %d kB before, %d kB after", n, slab_before, slab_kb());
	return err;
}

static int close_token_prog_loaded(void)
{
	return demo_run_delegated(&maps_and_xdp, close_token_then_unload, NULL);
}

static int exit_everything_open(void)
{
	return demo_run_delegated(&maps_and_xdp, exit_with_everything_open, NULL);
}

/*
 * 00-01: no BPF FS for the container (EPERM); 02: no BPF_TOKEN_CREATE
 * (EINVAL); 03: no map_token_fd (EINVAL); 03-05: prog_token_fd lies past
 * the end of their union (E2BIG).
 */
#define FLOW_BEFORE_03 { "00", -EPERM }, { "02", -EINVAL }

static const struct demo_case cases[] = {
	{ "life.close_token_prog_loaded", close_token_prog_loaded,
	  EXPECT(FLOW_BEFORE_03, { "03", -E2BIG }, { "06", 0 }) },
	{ "life.exit_everything_open", exit_everything_open,
	  EXPECT(FLOW_BEFORE_03, { "04", -E2BIG }, { "06", 0 }) },
	{ "life.rounds", rounds, EXPECT(FLOW_BEFORE_03, { "03", -E2BIG }, { "06", 0 }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
