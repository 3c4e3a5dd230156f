#!/bin/sh
# Upstream's token selftest in the mainline column and on the newest
# step: its files are the 6.12 tree's, byte for byte (kernel/upstream-token.sh check), and our
# stand-in for test_progs reports each subtest in KTAP, a failed
# assertion in a forked child included.
. "$(dirname "$0")/lib.sh"

[ -d "$MAINLINE_LINUX/.git" ] || { echo "build/linux-mainline missing: run make build-mainline first"; exit 1; }
[ -f "$OUT/mainline/include/bpf/libbpf.h" ] || { echo "build/out/mainline is not built: run make build-mainline first"; exit 1; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

check "the mainline build made upstream_token" [ -x "$OUT/mainline/selftests/upstream_token" ]
# ... and the newest step's, the same test against its own BTF
last=$(step_id "$(series_steps | tail -1)")
check "step-$last has upstream_token too, in the image it boots" \
	sh -c "[ -x '$OUT/step-$last/selftests/upstream_token' ] &&
		grep -q '^file /selftests/upstream_token $OUT/step-$last/' '$BUILD/initramfs-shipped.cpio.gz.list'"
expect_fail "a step without vmlinux BTF is refused, named" "step-00 has no vmlinux BTF" \
	sh "$TOP/kernel/upstream-token.sh" build-step 00
check "build/linux-mainline's upstream files are the 6.12 tree's" \
	sh "$TOP/kernel/upstream-token.sh" check "$MAINLINE_LINUX"

# A small tree holding only those files, at a commit tagged pristine as
# kernel/tree.sh makes it: an edit, and an edit committed on top, fail.
files=$(sed -n '/^UPSTREAM_FILES="/,/^"/{ /^\$SELFTESTS/p }' "$TOP/kernel/upstream-token.sh" |
	sed 's|^\$SELFTESTS|tools/testing/selftests/bpf|')
check "kernel/upstream-token.sh names 7 upstream files" [ "$(echo $files | wc -w)" = 7 ]
tree=$scratch/tree
mkdir "$tree"
# shellcheck disable=SC2086
git -C "$MAINLINE_LINUX" archive pristine -- $files | tar -x -C "$tree"
git -C "$tree" init -q
git -C "$tree" add -A
git -C "$tree" -c user.name=t -c user.email=t@t commit -q -m pristine
git -C "$tree" tag pristine
check "a copy of the pristine files passes" sh "$TOP/kernel/upstream-token.sh" check "$tree"
token_c=$tree/tools/testing/selftests/bpf/prog_tests/token.c
sed -i 's/ASSERT_EQ(err, -EPERM, "delegate_cmd_eperm");/ASSERT_EQ(err, err, "delegate_cmd_eperm");/' "$token_c"
check "(the deliberate edit changed token.c)" sh -c "! git -C '$tree' diff --quiet"
expect_fail "an edited token.c stops the build, named" "prog_tests/token.c" \
	sh "$TOP/kernel/upstream-token.sh" check "$tree"
git -C "$tree" -c user.name=t -c user.email=t@t commit -q -a -m "fix the test"
expect_fail "... also when the edit is committed on top" "git -C .* checkout pristine" \
	sh "$TOP/kernel/upstream-token.sh" check "$tree"
rm "$tree/tools/testing/selftests/bpf/progs/token_lsm.c"
expect_fail "a missing BPF program is named" "progs/token_lsm.c" \
	sh "$TOP/kernel/upstream-token.sh" check "$tree"

# The harness: a test_token() of three subtests, one passing (and seeing
# unprivileged BPF enabled), one failing in this process, one failing
# only in a child it forks.
cat >"$scratch/fake.c" <<'C'
#include <test_progs.h>

void test_token(void)
{
	if (test__start_subtest("passes")) {
		FILE *f = fopen("/proc/sys/kernel/unprivileged_bpf_disabled", "r");

		ASSERT_EQ(1, 1, "one");
		ASSERT_EQ(f ? fgetc(f) : -1, '0', "unprivileged_bpf_disabled");
	}
	if (test__start_subtest("fails_here"))
		ASSERT_OK(-1, "minus_one");
	if (test__start_subtest("fails_in_child")) {
		pid_t pid = fork();

		if (pid == 0) {
			ASSERT_GT(0, 1, "zero_gt_one");
			exit(0);	/* the exit status says nothing */
		}
		waitpid(pid, NULL, 0);
	}
}
C
check "the harness builds with a test file" \
	gcc -O2 -Wall -Werror -I"$TOP/userspace-demo/upstream" -I"$OUT/mainline/include" \
		-o "$scratch/fake" "$TOP/userspace-demo/upstream/test_progs.c" "$scratch/fake.c"
# The host's sysctl is not touched: the run gets a file of its own,
# bind-mounted over it in a mount namespace of its own.
sysctl=/proc/sys/kernel/unprivileged_bpf_disabled
printf '2\n' >"$scratch/sysctl"
rc=0
unshare --mount sh -c "mount --bind '$scratch/sysctl' $sysctl && exec '$scratch/fake'" \
	>"$scratch/ktap" 2>&1 || rc=$?
check "while it runs, unprivileged BPF is enabled (the selftests' config)" \
	sh -c "! grep -q 'unprivileged_bpf_disabled' '$scratch/ktap'"
check "... and the sysctl is put back afterwards" [ "$(cat "$scratch/sysctl")" = 2 ]
check "a failing subtest makes it exit 1" [ "$rc" = 1 ]
check "its plan counts the subtests" grep -qx '1\.\.3' "$scratch/ktap"
check "a passing subtest reads ok" grep -qx 'ok 1 passes' "$scratch/ktap"
check "a failed assertion fails its subtest, named" \
	sh -c "grep -q '^not ok 2 fails_here' '$scratch/ktap' && grep -q 'minus_one' '$scratch/ktap'"
check "a failed assertion in a forked child fails its subtest" \
	grep -q '^not ok 3 fails_in_child' "$scratch/ktap"
check "exactly three result lines" [ "$(grep -c '^\(not \)\{0,1\}ok ' "$scratch/ktap")" = 3 ]

done_testing
