#!/bin/sh
# vm/run trusts nothing: a timeout, a kernel panic and a demo that is not
# there each fail with the reason named, leave no QEMU process behind and
# no result file that a later report could pick up.
. "$(dirname "$0")/lib.sh"

step=$(series_steps | head -1)
id=$(step_id "$step")
[ -f "$OUT/step-$id/bzImage" ] && [ -f "$BUILD/initramfs.cpio.gz" ] ||
	{ echo "run make initramfs first"; exit 1; }
results=$BUILD/results/step-$id.tsv
scratch=$(mktemp -d)
saved=$scratch/saved.tsv
[ -f "$results" ] && cp "$results" "$saved"
trap '[ -f "$saved" ] && cp "$saved" "$results"; rm -rf "$scratch"' EXIT

qemus() {
	pgrep -f "qemu-system-x86_64.*$OUT/step-$id/bzImage" | wc -l
}

expect_fail "a 1 s timeout is reported as a timeout" "timeout: the VM did not finish" \
	env VM_TIMEOUT=1 sh "$TOP/vm/run" "$id"
check "no QEMU left after the timeout" [ "$(qemus)" = 0 ]
check "no result file after the timeout" [ ! -f "$results" ]

# An initramfs without /init: the kernel panics, the runner must say so.
echo "dir /dev 0755 0 0" >"$scratch/list"
"$BUILD/tools/gen_init_cpio" "$scratch/list" | gzip >"$scratch/empty.cpio.gz"
expect_fail "a kernel panic is reported" "kernel report 'Kernel panic'" \
	env INITRAMFS="$scratch/empty.cpio.gz" sh "$TOP/vm/run" "$id"
check "no QEMU left after the panic" [ "$(qemus)" = 0 ]
check "no result file after the panic" [ ! -f "$results" ]

expect_fail "a demo that is not in the initramfs" "not in the initramfs" \
	sh "$TOP/vm/run" "$id" no-such-demo
expect_fail "a pattern that matches no case" "no end marker\|for a plan of nothing" \
	sh "$TOP/vm/run" "$id" "$step:no.such.case"

# Ctrl-C while QEMU runs: the trap must take QEMU down with the runner.
sh "$TOP/vm/run" "$id" >/dev/null 2>&1 &
runner=$!
sleep 1
kill -INT "$runner" 2>/dev/null || true
wait "$runner" 2>/dev/null || true
sleep 0.5
check "no QEMU left after SIGINT to the runner" [ "$(qemus)" = 0 ]
done_testing
