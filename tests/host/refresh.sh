#!/bin/sh
# make refresh STEP=NN: a commit on step-NN becomes part of steps/NN-*/patch
# and the later steps are re-applied on top of it.  The test puts
# everything back: the patch from git, the branches by re-applying.
. "$(dirname "$0")/lib.sh"
need_tree

git_linux() { git -C "$LINUX" "$@"; }
steps=$(series_steps)
target=$(printf '%s\n' "$steps" | sed -n '$!p' | tail -1)   # the step before the last
last=$(printf '%s\n' "$steps" | tail -1)
[ -f "$TOP/steps/$target/patch" ] || { echo "need two patched steps"; exit 1; }
here=$(git_linux symbolic-ref --short HEAD)
patch=$TOP/steps/$target/patch
saved=$(mktemp)
# with its mtime too: a patch newer than its step's stamp has make ask
# kernel/build.sh again about that step and every later one
cp -p "$patch" "$saved"
restore() {
	cp -p "$saved" "$patch"
	rm -f "$saved"
	git_linux checkout -q -- . 2>/dev/null || true
	sh "$TOP/kernel/tree.sh" apply >/dev/null
	git_linux checkout -q "$here"
}
trap restore EXIT

check "refresh of an unchanged step rewrites the same patch" \
	sh -c "make -s -C '$TOP' refresh STEP=$(step_id "$target") >/dev/null && cmp -s '$patch' '$saved'"

git_linux checkout -q "$(branch_of "$target")"
echo "/* refresh test marker */" >>"$LINUX/kernel/bpf/inode.c"
git_linux commit -q -a -m "marker"
check "make refresh STEP=$(step_id "$target") succeeds" make -s -C "$TOP" refresh STEP=$(step_id "$target")
check "the marker is in steps/$target/patch" grep -q "refresh test marker" "$patch"
check "the patch is still one commit" [ "$(grep -c '^From 0000' "$patch")" = 1 ]
check "the step keeps its subject" [ "$(grep '^Subject' "$patch")" = "$(grep '^Subject' "$saved")" ]
check "$(branch_of "$last") was re-applied on top" \
	git_linux merge-base --is-ancestor "$(branch_of "$target")" "$(branch_of "$last")"
check "the marker reached $(branch_of "$last")" \
	sh -c "git -C '$LINUX' show $(branch_of "$last"):kernel/bpf/inode.c | grep -q 'refresh test marker'"
restore
trap - EXIT
check "after restoring, $(branch_of "$last") has no marker" \
	sh -c "! git -C '$LINUX' show $(branch_of "$last"):kernel/bpf/inode.c | grep -q 'refresh test marker'"
done_testing
