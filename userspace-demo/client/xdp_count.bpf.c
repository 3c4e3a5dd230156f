// SPDX-License-Identifier: GPL-2.0
/*
 * The client suite's second object (suites/client.c): an XDP program
 * that counts packets in an array map.  Loading it takes BPF_MAP_CREATE
 * as well, for the map libbpf creates from the ".maps" section before
 * it loads the program: a map made through the implicit token by a
 * real client, where "bpftool map create" passes no token at all.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} xdp_packets SEC(".maps");

SEC("xdp")
int xdp_count(struct xdp_md *ctx)
{
	__u32 key = 0;
	__u64 *count = bpf_map_lookup_elem(&xdp_packets, &key);

	if (count)
		__sync_fetch_and_add(count, 1);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
