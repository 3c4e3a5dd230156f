// SPDX-License-Identifier: GPL-2.0
/*
 * Capabilities through libcap.  The demos toggle the *effective* set only:
 * a capability that stays permitted can be raised again later, which is
 * how a case compares "with CAP_BPF" and "without" in one process.
 *
 * Inside a user namespace these are the namespace's capabilities: the
 * kernel answers ns_capable(userns, CAP_BPF) with yes, capable(CAP_BPF)
 * (which asks about the init namespace) with no.  That gap is what a BPF
 * token bridges.
 */
#include <sys/capability.h>

#include "demo.h"

static int set_effective(const int *caps, int n, cap_flag_value_t value)
{
	cap_t state = cap_get_proc();
	int err = 0;

	if (!state)
		return -errno;
	if (cap_set_flag(state, CAP_EFFECTIVE, n, (const cap_value_t *)caps, value) ||
	    cap_set_proc(state))
		err = -errno;
	cap_free(state);
	return err;
}

int demo_caps_drop(const int *caps, int n)
{
	return set_effective(caps, n, CAP_CLEAR);
}

int demo_caps_raise(const int *caps, int n)
{
	return set_effective(caps, n, CAP_SET);
}

/*
 * Run fn as a caller without bpf_capable() (CAP_BPF and CAP_SYS_ADMIN
 * dropped) while unprivileged BPF is allowed, so that the checks behind
 * the kernel.unprivileged_bpf_disabled gate become visible.  Both are
 * restored afterwards.
 */
int demo_as_unprivileged(int (*fn)(void))
{
	int old, err;

	old = demo_set_unpriv_bpf_disabled(0);
	if (old < 0)
		return old;
	err = demo_caps_drop(DEMO_CAPS(CAP_BPF, CAP_SYS_ADMIN));
	if (!err)
		err = fn();
	demo_caps_raise(DEMO_CAPS(CAP_BPF, CAP_SYS_ADMIN));
	demo_set_unpriv_bpf_disabled(old);
	return err;
}
