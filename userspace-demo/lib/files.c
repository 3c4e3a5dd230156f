// SPDX-License-Identifier: GPL-2.0
/* Small file helpers, and the one sysctl the demos touch. */
#include <fcntl.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "demo.h"

int demo_write_file(const char *path, const char *text)
{
	size_t len = strlen(text);
	int fd, err = 0;
	ssize_t n;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, text, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;	/* short write: errno says nothing */
	close(fd);
	return err;
}

int demo_read_int(const char *path, int *value)
{
	char buf[32];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	*value = atoi(buf);
	return 0;
}

int demo_set_unpriv_bpf_disabled(int value)
{
	char text[16];
	int old, err;

	err = demo_read_int(UNPRIV_BPF_SYSCTL, &old);
	if (err)
		return err;
	snprintf(text, sizeof(text), "%d", value);
	err = demo_write_file(UNPRIV_BPF_SYSCTL, text);
	return err ? err : old;
}

/*
 * /proc/self/mountinfo: "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [TAGS] -
 * FSTYPE SOURCE SUPER_OPTS".  The filesystem's own options, those that
 * its show_options() prints, are the last column.
 */
int demo_mount_options(const char *mountpoint, char *buf, size_t len)
{
	char line[1024], point[512];
	FILE *f = fopen("/proc/self/mountinfo", "re");
	int err = -DEMO_CHECK_FAILED;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *last;

		if (sscanf(line, "%*s %*s %*s %*s %511s", point) != 1 ||
		    strcmp(point, mountpoint) != 0)
			continue;
		line[strcspn(line, "\n")] = '\0';
		last = strrchr(line, ' ');
		snprintf(buf, len, "%s", last ? last + 1 : "");
		err = 0;
	}
	fclose(f);
	return err;
}
