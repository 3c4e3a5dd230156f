// SPDX-License-Identifier: GPL-2.0
/*
 * Reference leaks made visible: a token pins the user namespace that owns
 * its BPF FS (get_user_ns() when it is created), so a reference that is
 * never put keeps a whole user namespace alive.  With
 * user.max_user_namespaces lowered to a few, such a leak turns a later
 * round's unshare(CLONE_NEWUSER) into ENOSPC.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "demo.h"

/*
 * Namespaces are freed from a workqueue after their last reference goes,
 * so a round may briefly find the limit taken by its predecessors: give
 * it up to a second.  A leaked namespace never frees and the retries run
 * out.
 */
#define ENOSPC_RETRIES 50
#define ENOSPC_RETRY_US (20 * 1000)

static int round_with_retry(int (*round)(const void *arg), const void *arg)
{
	int result = 0;

	for (int attempt = 0; attempt < ENOSPC_RETRIES; attempt++) {
		result = round(arg);
		if (result != -ENOSPC)
			break;
		usleep(ENOSPC_RETRY_US);
	}
	return result;
}

int demo_leak_rounds(int rounds, int (*round)(const void *arg), const void *arg)
{
	char limit[16];
	int first = 0, result = 0;

	if (rounds <= 0)
		return -DEMO_SETUP_FAILED;
	/* the harness writes the old limit back after the case */
	snprintf(limit, sizeof(limit), "%d", DEMO_USERNS_LIMIT);
	if (demo_write_file(USERNS_LIMIT_SYSCTL, limit))
		return -DEMO_SETUP_FAILED;
	for (int n = 0; n < rounds; n++) {
		result = round_with_retry(round, arg);
		if (n == 0) {
			first = result;
		} else if (result != first) {
			demo_note("round %d of %d: %s, round 1: %s", n + 1, rounds,
				  demo_result_name(result), demo_result_name(first));
			break;
		}
	}
	return result;
}
