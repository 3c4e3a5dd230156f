// SPDX-License-Identifier: GPL-2.0
/*
 * The shipped ABI, member by member: the offset and size of every
 * union bpf_attr member that BPF_MAP_CREATE, BPF_PROG_LOAD, BPF_BTF_LOAD
 * and BPF_TOKEN_CREATE read, BPF_F_TOKEN_FD and the command's number.
 * tests/host/uapi.sh compiles it against a step's headers and against
 * Debian's 6.12 and wants the two outputs to be the same, line for line.
 */
#include <stddef.h>
#include <stdio.h>
#include <linux/bpf.h>

#define MEMBER(m) printf("%-36s offset %3zu size %zu\n", #m, \
			 offsetof(union bpf_attr, m), sizeof(((union bpf_attr *)0)->m))

int main(void)
{
	/* BPF_MAP_CREATE */
	MEMBER(map_type);
	MEMBER(key_size);
	MEMBER(value_size);
	MEMBER(max_entries);
	MEMBER(map_flags);
	MEMBER(inner_map_fd);
	MEMBER(numa_node);
	MEMBER(map_name);
	MEMBER(map_ifindex);
	MEMBER(btf_fd);
	MEMBER(btf_key_type_id);
	MEMBER(btf_value_type_id);
	MEMBER(btf_vmlinux_value_type_id);
	MEMBER(map_extra);
	MEMBER(value_type_btf_obj_fd);
	MEMBER(map_token_fd);
	/* BPF_PROG_LOAD */
	MEMBER(prog_type);
	MEMBER(insn_cnt);
	MEMBER(insns);
	MEMBER(license);
	MEMBER(log_level);
	MEMBER(log_size);
	MEMBER(log_buf);
	MEMBER(kern_version);
	MEMBER(prog_flags);
	MEMBER(prog_name);
	MEMBER(prog_ifindex);
	MEMBER(expected_attach_type);
	MEMBER(prog_btf_fd);
	MEMBER(func_info_rec_size);
	MEMBER(func_info);
	MEMBER(func_info_cnt);
	MEMBER(line_info_rec_size);
	MEMBER(line_info);
	MEMBER(line_info_cnt);
	MEMBER(attach_btf_id);
	MEMBER(attach_prog_fd);
	MEMBER(attach_btf_obj_fd);
	MEMBER(core_relo_cnt);
	MEMBER(fd_array);
	MEMBER(core_relos);
	MEMBER(core_relo_rec_size);
	MEMBER(log_true_size);
	MEMBER(prog_token_fd);
	/* BPF_BTF_LOAD */
	MEMBER(btf);
	MEMBER(btf_log_buf);
	MEMBER(btf_size);
	MEMBER(btf_log_size);
	MEMBER(btf_log_level);
	MEMBER(btf_log_true_size);
	MEMBER(btf_flags);
	MEMBER(btf_token_fd);
	/* BPF_TOKEN_CREATE */
	MEMBER(token_create);
	MEMBER(token_create.flags);
	MEMBER(token_create.bpffs_fd);
	printf("BPF_TOKEN_CREATE %d\n", BPF_TOKEN_CREATE);
	printf("BPF_F_TOKEN_FD %#x\n", BPF_F_TOKEN_FD);
	return 0;
}
