#!/bin/sh
# build/linux is never overwritten: uncommitted edits and commits on a
# step branch stop tree.sh with instructions, and the work is still there.
. "$(dirname "$0")/lib.sh"
need_tree

git_linux() { git -C "$LINUX" "$@"; }
branch=$(git_linux symbolic-ref --short HEAD)
file=kernel/bpf/syscall.c

restore() {
	git_linux checkout -q -- "$file" 2>/dev/null || true
	rm -f "$LINUX/bpftok-untracked-test.c"
}
trap restore EXIT

# 1. an edit to a tracked file
echo "/* a learner's edit */" >>"$LINUX/$file"
expect_fail "tree.sh apply refuses a dirty tree" "uncommitted changes" sh "$TOP/kernel/tree.sh" apply
expect_fail "... and names the file" "$file" sh "$TOP/kernel/tree.sh" apply
expect_fail "make build refuses too" "make refresh STEP=NN" make -s -C "$TOP" build STEP=00
check "the edit is still there" grep -q "a learner's edit" "$LINUX/$file"
check "still on $branch" [ "$(git_linux symbolic-ref --short HEAD)" = "$branch" ]
restore

# 2. a new untracked file
echo "int x;" >"$LINUX/bpftok-untracked-test.c"
expect_fail "an untracked file counts as an edit" "bpftok-untracked-test.c" sh "$TOP/kernel/tree.sh" apply
# make distclean's guard (run directly: a guard that let it through would
# delete build/ in the middle of the tests)
expect_fail "make distclean's guard sees a file Debian's .gitignore hides" "bpftok-untracked-test.c" \
	sh "$TOP/kernel/tree.sh" guard
check "the untracked file is still there" [ -f "$LINUX/bpftok-untracked-test.c" ]
restore

# 3. a commit on a step branch that steps/ does not know
step=$(series_steps | tail -1)
sbranch=$(branch_of "$step")
orig=$(git_linux rev-parse "$sbranch")
git_linux checkout -q "$sbranch"
echo "/* committed by a learner */" >>"$LINUX/$file"
git_linux commit -q -a -m "learner's commit"
mine=$(git_linux rev-parse HEAD)
expect_fail "a commit on $sbranch stops tree.sh" "make refresh STEP=$(step_id "$step")" sh "$TOP/kernel/tree.sh" apply
git_linux checkout -q --detach "$orig"
expect_fail "make distclean's guard sees the commit steps/ lacks" "make refresh STEP=$(step_id "$step")" \
	sh "$TOP/kernel/tree.sh" guard
check "the commit is still on $sbranch" [ "$(git_linux rev-parse "$sbranch")" = "$mine" ]
git_linux checkout -q --detach "$orig"
git_linux branch -f "$sbranch" "$orig"
git_linux checkout -q "$branch"
check "tree.sh is happy again" sh "$TOP/kernel/tree.sh" apply
check "... and so is make distclean's guard" sh "$TOP/kernel/tree.sh" guard

# 4. a git am stopped midway: the newest step's patch again on its own
# branch does not apply, and git am leaves .git/rebase-apply behind, as
# one that a Ctrl-C interrupted does.  Someone else's is left alone;
# one that tree.sh marked as its own (.git/bpftok-am) is undone.
git_linux checkout -q "$sbranch"
git_linux am -q "$TOP/steps/$step/patch" >/dev/null 2>&1 || true
check "(set-up) git am left .git/rebase-apply" [ -d "$LINUX/.git/rebase-apply" ]
expect_fail "tree.sh stops at a git am that is not its own" "not this project's" \
	sh "$TOP/kernel/tree.sh" apply
check "... and leaves it in progress" [ -d "$LINUX/.git/rebase-apply" ]
: >"$LINUX/.git/bpftok-am"
check "tree.sh aborts its own git am that a stop interrupted, and applies" \
	sh "$TOP/kernel/tree.sh" apply
check "... no git am is left in progress" \
	sh -c "[ ! -d '$LINUX/.git/rebase-apply' ] && [ ! -f '$LINUX/.git/bpftok-am' ]"
check "... and $sbranch is where it was" [ "$(git_linux rev-parse "$sbranch")" = "$orig" ]
git_linux checkout -q "$branch"
done_testing
