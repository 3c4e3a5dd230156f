#!/bin/sh
# make sees the pipeline: each kernel, demo and image is a file target of
# what it is made from, so `make -n` says what an edit would redo.  Run
# after the builds (make check builds everything first): nothing is due,
# a NOTES.md edit redoes the site and the deck only, a demo's source its
# binary and the images only, a step's patch the kernels.  Each file is
# touched, asked about with make -n, and given its mtime back.
. "$(dirname "$0")/lib.sh"
cd "$TOP"
unset MAKEFLAGS MAKELEVEL MFLAGS

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

ARTIFACTS="build-all initramfs initramfs-shipped initramfs-mainline build-debug docs slides"

# would FILE...: what make -n lists for the artifacts when FILE is newer
# than everything, its own mtime restored afterwards
would() {
	for f in "$@"; do
		touch -r "$f" "$scratch/mtime.$(basename "$f")"
		touch "$f"
	done
	make -n $ARTIFACTS >"$scratch/plan" 2>&1 || true
	for f in "$@"; do
		touch -r "$scratch/mtime.$(basename "$f")" "$f"
	done
	cat "$scratch/plan"
}

lists() {
	grep -q -- "$2" "$1"
}

make -n $ARTIFACTS >"$scratch/plan" 2>&1
check "after the builds, make -n has nothing to build or pack" \
	sh -c '! grep -qE "kernel/build.sh|mkinitramfs|userspace-demo|docs/gen.sh|slides/" "$1"' - "$scratch/plan"
sed 's/^/    /' "$scratch/plan" | grep -v 'Nothing to be done' | head -5

notes=$(ls steps/*/NOTES.md | head -1)
would "$notes" >"$scratch/notes"
check "a NOTES.md edit redoes the site" lists "$scratch/notes" docs/gen.sh
check "... and the deck" lists "$scratch/notes" slides/slides.sh
check "... and no kernel, demo or image" \
	sh -c '! grep -qE "kernel/build.sh|mkinitramfs|userspace-demo" "$1"' - "$scratch/notes"

demo=$(ls userspace-demo/[0-9]*.c | head -1)
would "$demo" >"$scratch/demo"
check "a demo's source relinks it" lists "$scratch/demo" "DEMOS=\"$(basename "$demo" .c)\""
check "... and makes the three images again (v6, shipped ABI, mainline)" \
	sh -c '[ "$(grep -c "vm/mkinitramfs.sh" "$1")" = 3 ]' - "$scratch/demo"
check "... and builds no kernel" sh -c '! grep -q kernel/build.sh "$1"' - "$scratch/demo"

patch=$(ls steps/*/patch | tail -2 | head -1)
step=$(basename "$(dirname "$patch")")
would "$patch" >"$scratch/patch"
check "a step's patch has its kernel built (or found current) again" \
	lists "$scratch/patch" "kernel/build.sh $step\$"
check "... and the next step's, built on it" \
	lists "$scratch/patch" "kernel/build.sh $(series_steps | tail -1)\$"
check "... and no earlier step's" \
	sh -c '! grep -q "kernel/build.sh $2\$" "$1"' - "$scratch/patch" "$(series_steps | head -1)"
check "... then the debug kernel" lists "$scratch/patch" "kernel/build.sh --debug"
check "... and not the mainline kernel, which is 6.12's" \
	sh -c '! grep -q "kernel/build.sh --mainline" "$1"' - "$scratch/patch"

done_testing
