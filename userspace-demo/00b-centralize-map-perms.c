// SPDX-License-Identifier: GPL-2.0
/*
 * Step 00b (prerequisite from Linux 6.5): every map type's privilege
 * check moves out of its allocation callback into one switch in
 * map_create().  Read it next to steps/00b-centralize-map-perms/NOTES.md.
 *
 * To see past the "unprivileged BPF disabled" gate, these cases set
 * kernel.unprivileged_bpf_disabled to 0 for their duration (root may go
 * from 2 to 0 and back), then drop CAP_BPF and CAP_SYS_ADMIN.
 */
#define _GNU_SOURCE
#include <unistd.h>

#include "demo.h"

/* STACK maps need key_size 0: a malformed *and* unprivileged request. */
static int stack_bad_key(void)
{
	return demo_close_result(demo_map_create_simple(BPF_MAP_TYPE_STACK, 4, 8, 1));
}

static int lru_hash(void)
{
	return demo_close_result(demo_map_create_simple(BPF_MAP_TYPE_LRU_HASH, 4, 8, 1));
}

static int plain_hash(void)
{
	return demo_close_result(demo_map_create_simple(BPF_MAP_TYPE_HASH, 4, 8, 1));
}

/*
 * Step 00's queue/stack callback checked CAP_BPF before the attributes;
 * the central switch runs after map_alloc_check(), so the malformed
 * request is now reported as such.
 */
static int map_unpriv_stack_bad_key(void)
{
	return demo_as_unprivileged(stack_bad_key);
}

/* The rules are the same: LRU still needs CAP_BPF, HASH does not. */
static int map_unpriv_lru_hash(void)
{
	return demo_as_unprivileged(lru_hash);
}

static int map_unpriv_hash(void)
{
	return demo_as_unprivileged(plain_hash);
}

/*
 * Init-namespace root, every capability: a ring buffer (no key, no
 * value, a power-of-two number of pages).  RINGBUF sits in the switch's
 * unprivileged class, so root gets it on every step - the control for
 * the exercise in steps/00b-centralize-map-perms/NOTES.md, which takes
 * the type out of the switch and watches the default arm fire.
 */
static int map_root_ringbuf(void)
{
	return demo_close_result(demo_map_create_simple(BPF_MAP_TYPE_RINGBUF, 0, 0, 4096));
}

static const struct demo_case cases[] = {
	{ "map.unpriv_stack_bad_key", map_unpriv_stack_bad_key,
	  EXPECT({ "00", -EPERM }, { "00b", -EINVAL }) },
	{ "map.unpriv_lru_hash", map_unpriv_lru_hash, EXPECT({ "00", -EPERM }) },
	{ "map.unpriv_hash", map_unpriv_hash, EXPECT({ "00", 0 }) },
	{ "map.root_ringbuf", map_root_ringbuf, EXPECT({ "00", 0 }) },
};

int main(int argc, char **argv)
{
	return demo_main(argc, argv, cases, DEMO_ARRAY_SIZE(cases));
}
