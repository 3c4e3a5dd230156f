#!/bin/sh
# Every hunk is annotated, every annotation names a hunk - and the check
# notices when one goes missing.
. "$(dirname "$0")/lib.sh"

check "all step patches fully annotated" sh "$TOP/tests/annotations.sh"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -r "$TOP/steps" "$TOP/kernel" "$TOP/tests" "$scratch/"
notes=$scratch/steps/01-bpf-net-capable/NOTES.md
sed -i '/^### kernel\/bpf\/syscall.c: bpf_prog_load()$/d' "$notes"
expect_fail "a removed annotation is named" "no annotation for hunk '### kernel/bpf/syscall.c: bpf_prog_load()'" \
	env TOP="$scratch" BUILD="$scratch" sh "$scratch/tests/annotations.sh"
echo "### kernel/bpf/nowhere.c: ghost()" >>"$notes"
expect_fail "an annotation without a hunk is named" "'### kernel/bpf/nowhere.c: ghost()' names no hunk" \
	env TOP="$scratch" BUILD="$scratch" sh "$scratch/tests/annotations.sh"
done_testing
