#!/bin/sh
# make port, the way git rebase works: a step that conflicts stops with
# the files named and the merge left in the port's tree; run again before
# resolving, it refuses; after resolving, it goes on with the later steps
# and records the port apart from steps/.  The port's base here is a
# shared clone of build/linux with one conflicting commit on step-00, so
# nothing is downloaded or extracted.
. "$(dirname "$0")/lib.sh"
need_tree

pin=$(pinned_version linux-source-6.1)
scratch=$(mktemp -d "$BUILD/test-port.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
ln -s "$LINUX" "$scratch/linux"
tree=$scratch/port/$pin/build/linux
git clone -q --shared -b step-00 "$LINUX" "$tree"
git -C "$tree" config user.name "port test"
git -C "$tree" config user.email "port-test@localhost"
file=kernel/bpf/syscall.c
# a "stable update" that rewords the line step 00a's first hunk ends on
sed -i 's|/\* find map type and init map: hashtable vs rbtree vs bloom vs ... \*/|/* look up the map type and allocate the map */|' "$tree/$file"
git -C "$tree" commit -q -a -m "a stable update touching 00a's context"

port() {
	env BUILD="$scratch" BPFTOK_PORTS="$scratch/ports" sh "$TOP/kernel/port.sh" "$pin"
}
steps_before=$(cd "$TOP" && cat steps/*/patch kernel/versions | md5sum)

rc=0
out=$(port 2>&1) || rc=$?
check "the port stops at a conflict (exit $rc)" [ $rc -ne 0 ]
check "... at the step that conflicts" eval 'printf "%s" "$out" | grep -q "stopped at 00a-move-unpriv-checks"'
check "... naming the file in the port's tree" eval 'printf "%s" "$out" | grep -q "build/linux/$file"'
check "the merge is left in the port's tree, markers and all" grep -q '^<<<<<<<' "$tree/$file"
expect_fail "run again unresolved: refused, file named" "still has conflicts in $file" port
check "... and the markers are still there" grep -q '^<<<<<<<' "$tree/$file"

# the user's resolution: the step's version of the file
git -C "$tree" checkout -q --theirs -- "$file"
git -C "$tree" add -f "$file"	# Debian's .gitignore ignores every top-level entry
check "run again resolved: every step applies" port
check "the resolved step is recorded as a port" [ -f "$scratch/ports/$pin/00a-move-unpriv-checks.patch" ]
check "... and the steps that applied as they are are not" [ ! -f "$scratch/ports/$pin/01-bpf-net-capable.patch" ]
check "the last step is on top of the resolution" \
	git -C "$tree" merge-base --is-ancestor step-00a step-13
check "step 13's selftest is in the port's last step" \
	git -C "$tree" cat-file -e step-13:tools/testing/selftests/bpf/test_token.c
check "steps/ and kernel/versions are untouched" \
	[ "$steps_before" = "$(cd "$TOP" && cat steps/*/patch kernel/versions | md5sum)" ]

# ADOPT=1 in a clone of this checkout: the port's patches become the
# steps, kernel/versions pins the port's base, the recorded port goes.
repo=$scratch/repo
git clone -q "$TOP" "$repo"
sed -i "s/^linux-source-6.1\t.*/linux-source-6.1\t6.1.1-1/" "$repo/kernel/versions"
check "adopt: the port becomes the canonical steps" \
	env TOP="$repo" BUILD="$scratch" BPFTOK_PORTS="$scratch/ports" sh "$repo/kernel/port.sh" "$pin" --adopt
check "... steps/00a is the resolved patch" \
	cmp -s "$repo/steps/00a-move-unpriv-checks/patch" "$scratch/port/$pin/patches/00a-move-unpriv-checks.patch"
check "... kernel/versions pins $pin again" \
	grep -q "^linux-source-6.1	$pin\$" "$repo/kernel/versions"
check "... and Debian's configuration of the same version with it" \
	[ "$(BPFTOK_VERSIONS="$repo/kernel/versions" sh -c '. "$TOP/kernel/lib.sh"; pinned_version linux-config-6.1')" = "$pin" ]
check "... the recorded port is gone" [ ! -d "$scratch/ports/$pin" ]
done_testing
