// SPDX-License-Identifier: GPL-2.0
/*
 * The object the client suite hands to bpftool (suites/client.c): one
 * XDP program, with BTF (clang -g), as a user's own program would come.
 * Loading it takes BPF_BTF_LOAD (its BTF) and BPF_PROG_LOAD of an XDP
 * program: what the suite's BPF FS delegates.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int xdp_pass(struct xdp_md *ctx)
{
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
