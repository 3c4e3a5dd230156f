#!/bin/sh
# A bad STEP names the valid steps, fails, and changes nothing.
. "$(dirname "$0")/lib.sh"

before=$(ls -l --time-style=+%s "$OUT" 2>/dev/null | md5sum)
expect_fail "make build STEP=99" "valid steps: 00 " make -s -C "$TOP" build STEP=99
expect_fail "make run STEP=banana" "unknown STEP 'banana'" make -s -C "$TOP" run STEP=banana
expect_fail "make vm without STEP" "no STEP given" sh "$TOP/vm/run" --shell ""
check "build/out untouched" [ "$before" = "$(ls -l --time-style=+%s "$OUT" 2>/dev/null | md5sum)" ]
check "STEP=1 means step 01" [ "$(resolve_step 1)" = "$(series_steps | grep '^01-')" ]
check "STEP=00a resolves" [ "$(resolve_step 00a)" = "00a-move-unpriv-checks" ]
done_testing
