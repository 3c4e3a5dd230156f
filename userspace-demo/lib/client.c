// SPDX-License-Identifier: GPL-2.0
/*
 * A real BPF client run from a case: a program the VM image carries
 * (6.12's bpftool, see userspace-demo/client/), started as a child
 * process.  Its output becomes the case's notes, so the console log
 * shows what a user of that tool would see; the errno it reports is the
 * case's result.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "demo.h"

/*
 * The errno one line of a client's output reports, or 0.  libbpf 1.5
 * writes some as numbers ("failed (-22) to create BPF token", "failed to
 * load: -1") and some as strerror() text ("BPF program load failed:
 * Operation not permitted"), bpftool as text ("map create failed: ...").
 */
static int errno_in_line(const char *line)
{
	const char *p = strstr(line, "(-");
	size_t best_len = 0;
	int e, best = 0;

	if (p && isdigit((unsigned char)p[2]))
		return atoi(p + 2);
	for (e = 1; e < 134; e++) {
		const char *text = strerror(e);

		if (strlen(text) > best_len && strstr(line, text)) {
			best = e;
			best_len = strlen(text);
		}
	}
	if (best)
		return best;
	p = strrchr(line, ':');
	if (p && p[1] == ' ' && p[2] == '-' && isdigit((unsigned char)p[3]))
		return atoi(p + 3);
	return 0;
}

/* the child: output to the pipe, the token path in its environment */
static void exec_client(char *const argv[], const char *token_path, int out_fd)
{
	dup2(out_fd, STDOUT_FILENO);
	dup2(out_fd, STDERR_FILENO);
	if (token_path)
		setenv("LIBBPF_BPF_TOKEN_PATH", token_path, 1);
	else
		unsetenv("LIBBPF_BPF_TOKEN_PATH");
	execv(argv[0], argv);
	printf("cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

int demo_run_client(char *const argv[], const char *token_path)
{
	int pipe_fds[2], status, first_errno = 0;
	char *line = NULL;
	size_t cap = 0;
	FILE *out;
	pid_t pid;

	if (pipe(pipe_fds))
		return -DEMO_SETUP_FAILED;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -DEMO_SETUP_FAILED;
	if (pid == 0) {
		close(pipe_fds[0]);
		exec_client(argv, token_path, pipe_fds[1]);
	}
	close(pipe_fds[1]);
	out = fdopen(pipe_fds[0], "r");
	if (!out)
		return -DEMO_SETUP_FAILED;
	while (getline(&line, &cap, out) > 0) {
		line[strcspn(line, "\n")] = '\0';
		demo_note("%s: %s", argv[0], line);
		if (!first_errno)
			first_errno = errno_in_line(line);
	}
	free(line);
	fclose(out);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -DEMO_SETUP_FAILED;
	if (WEXITSTATUS(status) == 0)
		return 0;
	if (WEXITSTATUS(status) == 127)
		return -DEMO_SETUP_FAILED;	/* not there, or not runnable */
	/* it failed without naming an errno we know */
	return first_errno ? -first_errno : -DEMO_CHECK_FAILED;
}
