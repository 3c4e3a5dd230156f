// SPDX-License-Identifier: GPL-2.0
/*
 * Step 16: BPF_TOKEN_CREATE refuses a BPF FS that delegates nothing
 * (ENOENT).  Read it next to steps/16-token-needs-delegation/NOTES.md.
 *
 * "Nothing" means all four masks zero, however they got that way; one
 * non-zero mask is enough for a token, even one that allows no command.
 * Step 03's token.no_delegation (no options at all) flips here too.
 * Before step 03 the command does not exist, before step 02 the
 * container gets no BPF FS: the first two entries of each EXPECT.
 */
#define _GNU_SOURCE
#include <unistd.h>

#include "demo.h"

#define NO_TOKEN_BEFORE_03 { "00", -EPERM }, { "02", -EINVAL }

static int create_token_only(int mnt_fd, void *arg)
{
	(void)arg;
	return demo_close_result(demo_token_create(mnt_fd, "", 0));
}

/* The parent writes all four options, each "0x0". */
static int token_explicit_zero_masks(void)
{
	static const struct demo_delegation zeros = { 0 };

	return demo_run_delegated(&zeros, create_token_only, NULL);
}

/*
 * Map types but no command: a token comes back, and it allows nothing
 * that BPF_MAP_CREATE could use without delegate_cmds.
 */
static int token_maps_without_cmds(void)
{
	static const struct demo_delegation maps_only = { .maps = ~0ULL };

	return demo_run_delegated(&maps_only, create_token_only, NULL);
}

static const struct demo_case cases[] = {
	{ "token.explicit_zero_masks", token_explicit_zero_masks,
	  EXPECT(NO_TOKEN_BEFORE_03, { "03", 0 }, { "16", -ENOENT }) },
	{ "token.maps_without_cmds", token_maps_without_cmds,
	  EXPECT(NO_TOKEN_BEFORE_03, { "03", 0 }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
