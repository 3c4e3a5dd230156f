// SPDX-License-Identifier: GPL-2.0
/*
 * bpffs-mount: mount a BPF FS with delegation options, for trying things
 * by hand in `make vm`.
 *
 *   bpffs-mount MOUNTPOINT [delegate_cmds=map_create:prog_load ...]
 *
 * Values may be numbers, "any", or UAPI names as upstream's final BPF FS
 * takes them (case-insensitive, ':'-separated); on a v6 kernel the demo
 * library turns names into masks first and says so.  Runs in the
 * caller's mount namespace, as init-namespace root: the mount shows what
 * the kernel made of the options, in /proc/self/mountinfo.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "demo.h"

static int usage(void)
{
	fprintf(stderr,
		"usage: bpffs-mount MOUNTPOINT [delegate_OPTION=VALUE]...\n"
		"  OPTION: cmds, maps, progs or attachs\n"
		"  VALUE:  a number, \"any\", or names such as map_create:prog_load\n");
	return 2;
}

static int apply_option(int fs_fd, char *arg)
{
	char *value = strchr(arg, '=');
	int err;

	if (!value || strncmp(arg, "delegate_", 9)) {
		fprintf(stderr, "bpffs-mount: '%s' is not delegate_OPTION=VALUE\n", arg);
		return -EINVAL;
	}
	*value++ = '\0';
	err = demo_fsconfig_string(fs_fd, arg, value);
	if (err) {
		fprintf(stderr, "bpffs-mount: %s=%s: %s\n", arg, value, demo_result_name(err));
		demo_print_fs_log(fs_fd, "bpffs-mount");
	}
	return err;
}

int main(int argc, char **argv)
{
	const char *mountpoint;
	char shown[512];
	int fs_fd, mnt_fd, err = 0;

	if (argc < 2 || argv[1][0] == '-')
		return usage();
	mountpoint = argv[1];
	fs_fd = demo_fsopen("bpf");
	if (fs_fd < 0) {
		fprintf(stderr, "bpffs-mount: fsopen(\"bpf\"): %s\n", demo_result_name(fs_fd));
		return 1;
	}
	for (int i = 2; i < argc && !err; i++)
		err = apply_option(fs_fd, argv[i]);
	if (err)
		return 1;	/* apply_option() said why */
	err = demo_fs_create(fs_fd);
	if (err) {
		fprintf(stderr, "bpffs-mount: creating the BPF FS: %s\n", demo_result_name(err));
		demo_print_fs_log(fs_fd, "bpffs-mount");
		return 1;
	}
	mnt_fd = demo_fsmount(fs_fd);
	if (mnt_fd < 0) {
		fprintf(stderr, "bpffs-mount: fsmount: %s\n", demo_result_name(mnt_fd));
		return 1;
	}
	mkdir(mountpoint, 0755);
	err = demo_mount_at(mnt_fd, mountpoint);
	if (!err)
		err = demo_mount_options(mountpoint, shown, sizeof(shown));
	if (err) {
		fprintf(stderr, "bpffs-mount: mounting at %s: %s\n", mountpoint,
			err == -DEMO_CHECK_FAILED ? "not in /proc/self/mountinfo afterwards" :
			demo_result_name(err));
		return 1;
	}
	printf("%s: %s\n", mountpoint, shown);
	return 0;
}
