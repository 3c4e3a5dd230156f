// SPDX-License-Identifier: GPL-2.0
/*
 * Symbolic delegation values: "delegate_cmds=map_create:prog_load".
 *
 * Upstream's final BPF FS takes the enum names of the BPF UAPI, without
 * their prefix and in any case, ':'-separated, besides numbers and "any"
 * (with vmlinux BTF), and so do the steps from 18 on.  v6 takes only
 * numbers and "any".  The demo library accepts the names on every kernel:
 * on a kernel without the parser it turns them into the mask v6 wants,
 * so slides and workshop commands can say what they delegate instead of
 * showing hex; from step 18 on and on mainline it passes them as they
 * are, and the kernel's own parser maps them.
 *
 * The tables come from the running step's own header (bpf-names.sh), so
 * a name exists exactly when that step's UAPI has the constant.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "demo.h"
#include "bpf-names.h"

struct bpf_name {
	const char *name;
	unsigned int value;
};

static const struct bpf_name cmd_names[] = { BPF_CMD_NAMES };
static const struct bpf_name map_names[] = { BPF_MAP_TYPE_NAMES };
static const struct bpf_name prog_names[] = { BPF_PROG_TYPE_NAMES };
static const struct bpf_name attach_names[] = { BPF_ATTACH_TYPE_NAMES };

static const struct bpf_name *names_for(const char *key)
{
	if (!strcmp(key, "delegate_cmds"))
		return cmd_names;
	if (!strcmp(key, "delegate_maps"))
		return map_names;
	if (!strcmp(key, "delegate_progs"))
		return prog_names;
	if (!strcmp(key, "delegate_attachs"))
		return attach_names;
	return NULL;
}

/* the value of one name, or -1; case-insensitive like upstream's parser */
static int name_value(const struct bpf_name *names, const char *name, size_t len)
{
	for (; names->name; names++)
		if (strlen(names->name) == len && !strncasecmp(names->name, name, len))
			return names->value;
	return -1;
}

const char *demo_delegate_name(const char *key, unsigned int i)
{
	const struct bpf_name *names = names_for(key);

	for (; names && names->name; names++, i--)
		if (!i)
			return names->name;
	return NULL;
}

int demo_delegate_mask(const char *key, const char *value, unsigned long long *mask)
{
	const struct bpf_name *names = names_for(key);
	const char *name = value, *end;
	int bit;

	if (!names || !value || !*value)
		return -EINVAL;
	*mask = 0;
	for (;;) {
		end = strchrnul(name, ':');
		bit = name_value(names, name, end - name);
		if (bit < 0 || bit >= 64)
			return -EINVAL;
		*mask |= 1ULL << bit;
		if (!*end)
			return 0;
		name = end + 1;
	}
}

const char *demo_delegate_value(const char *key, const char *value, char *buf, size_t len)
{
	unsigned long long mask;

	if (DEMO_KERNEL_PARSES_NAMES())
		return value;
	if (demo_delegate_mask(key, value, &mask))
		return value;
	snprintf(buf, len, "0x%llx", mask);
	return buf;
}
