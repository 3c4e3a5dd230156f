// SPDX-License-Identifier: GPL-2.0
/*
 * What the demos look up in the running kernel's own BTF
 * (/sys/kernel/btf/vmlinux), and the BPF LSM programs of the LSM steps
 * (19-21) and 04's map.lsm_denies_token_cmd: a few instructions
 * attached, by init-namespace root, to one of the kernel's bpf_lsm_*
 * hooks while a case runs.
 *
 * A kernel without BTF (before step 18) answers ENOENT, and so does one
 * without the hook, type or member asked for.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>

#include "demo.h"

#define VMLINUX_BTF "/sys/kernel/btf/vmlinux"

/* The kernel's BTF, or NULL with errno set (ENOENT when it has none). */
static struct btf *kernel_btf(void)
{
	if (access(VMLINUX_BTF, R_OK))
		return NULL;
	return btf__parse(VMLINUX_BTF, NULL);
}

int demo_kernel_btf_id(const char *name, int kind)
{
	struct btf *btf = kernel_btf();
	int id;

	if (!btf)
		return errno == ENOENT ? -ENOENT : -DEMO_SETUP_FAILED;
	id = btf__find_by_name_kind(btf, name, kind);
	btf__free(btf);
	return id;
}

int demo_lsm_attach(const char *hook, const struct bpf_insn *insns, uint32_t insn_cnt)
{
	char func[128];
	union bpf_attr attr;
	int id, prog_fd, link_fd;

	/* every LSM hook has a bpf_lsm_<hook> stub; programs attach there */
	snprintf(func, sizeof(func), "bpf_lsm_%s", hook);
	id = demo_kernel_btf_id(func, BTF_KIND_FUNC);
	if (id < 0)
		return id;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_LSM;
	attr.expected_attach_type = BPF_LSM_MAC;
	attr.attach_btf_id = id;
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = insn_cnt;
	attr.license = (uintptr_t)"GPL";
	prog_fd = demo_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
	if (prog_fd < 0)
		return prog_fd;

	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = prog_fd;
	attr.link_create.attach_type = BPF_LSM_MAC;
	link_fd = demo_bpf(BPF_LINK_CREATE, &attr, sizeof(attr));
	close(prog_fd);	/* the link holds the program */
	return link_fd;
}

int demo_kernel_member_offset(const char *type, const char *member)
{
	const struct btf_member *m;
	const struct btf_type *t;
	struct btf *btf;
	int id, i, offset = -ENOENT;

	btf = kernel_btf();
	if (!btf)
		return errno == ENOENT ? -ENOENT : -DEMO_SETUP_FAILED;
	id = btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT);
	if (id < 0) {
		btf__free(btf);
		return id;
	}
	t = btf__type_by_id(btf, id);
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		if (strcmp(btf__name_by_offset(btf, m->name_off), member))
			continue;
		offset = btf_member_bit_offset(t, i) / 8;
		break;
	}
	btf__free(btf);
	return offset;
}
