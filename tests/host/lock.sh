#!/bin/sh
# A second make in the same checkout stops with a clear error.
# Uses a scratch build folder so it also works inside a locked 'make check'.
. "$(dirname "$0")/lib.sh"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# the holder is the sleep itself, so killing it really frees the lock
sh -c 'exec 9>"$1" && flock 9 && exec sleep 5' _ "$scratch/.lock" &
holder=$!
sleep 0.5
expect_fail "build while another make holds the lock" "another make is already running" \
	env -u BPFTOK_LOCKED BUILD="$scratch" sh "$TOP/kernel/build.sh" 00
check "the refused build created nothing" [ "$(ls -A "$scratch")" = ".lock" ]
kill "$holder" 2>/dev/null || true
wait "$holder" 2>/dev/null || true
check "lock free again once the holder exits" \
	env -u BPFTOK_LOCKED BUILD="$scratch" sh -c ". '$TOP/kernel/lib.sh' && take_lock"
done_testing
