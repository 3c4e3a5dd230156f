#!/bin/sh
# A bad STEP names the valid steps, fails, and changes nothing.
. "$(dirname "$0")/lib.sh"

# every file and folder under build/out, with its size and mtime
out_state() {
	find -H "$OUT" -printf '%P %y %s %T@\n' 2>/dev/null | LC_ALL=C sort | md5sum
}
before=$(out_state)
expect_fail "make build STEP=99" "valid steps: 00 " make -s -C "$TOP" build STEP=99
expect_fail "make run STEP=banana" "unknown STEP 'banana'" make -s -C "$TOP" run STEP=banana
expect_fail "make vm without STEP" "no STEP given" sh "$TOP/vm/run" --shell ""
check "build/out untouched, every file in it" [ "$before" = "$(out_state)" ]
# An initramfs without the demos asked for: one error naming them and
# the fix, before any boot (not a FAILED per demo after it).
partial=$(mktemp -d)
: >"$partial/initramfs.cpio.gz"
echo "file /demos/00-baseline /x 0755 0 0" >"$partial/initramfs.cpio.gz.list"
expect_fail "vm/run names the demos the initramfs lacks" "does not hold: 00a-move-unpriv-checks 00b" \
	env INITRAMFS="$partial/initramfs.cpio.gz" sh "$TOP/vm/run" 00
expect_fail "... and says how to get them" "run 'make initramfs'" \
	env INITRAMFS="$partial/initramfs.cpio.gz" sh "$TOP/vm/run" 00
rm -rf "$partial"
check "STEP=1 means step 01" [ "$(resolve_step 1)" = "$(series_steps | grep '^01-')" ]
check "STEP=00a resolves" [ "$(resolve_step 00a)" = "00a-move-unpriv-checks" ]
done_testing
