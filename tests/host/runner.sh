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

# QEMU processes of this step's kernel under OUTDIR (default build/out):
# this checkout's only, so a run in another clone is never counted or
# killed; anchored, so that the setpriv wrapper before its exec is not
qemu_pids() {
	pgrep -f "^qemu-system-x86_64 .* -kernel ${1:-$OUT}/step-$id/bzImage" || true
}
qemus() {
	qemu_pids "$@" | wc -l
}

expect_fail "a 1 s timeout is reported as a timeout" "timeout: the VM did not finish" \
	env VM_TIMEOUT=1 sh "$TOP/vm/run" "$id"
check "no QEMU left after the timeout" [ "$(qemus)" = 0 ]
check "no result file after the timeout" [ ! -f "$results" ]

# An initramfs without /init: the kernel panics, the runner must say so.
echo "dir /dev 0755 0 0" >"$scratch/list"
"$BUILD/tools/gen_init_cpio-linux" "$scratch/list" | gzip >"$scratch/empty.cpio.gz"
expect_fail "a kernel panic is reported" "kernel report 'Kernel panic'" \
	env INITRAMFS="$scratch/empty.cpio.gz" sh "$TOP/vm/run" "$id"
check "no QEMU left after the panic" [ "$(qemus)" = 0 ]
check "no result file after the panic" [ ! -f "$results" ]

expect_fail "a demo that is not in the initramfs" "does not hold: no-such-demo\|not in the initramfs" \
	sh "$TOP/vm/run" "$id" no-such-demo
expect_fail "a pattern that matches no case" "no end marker\|for a plan of nothing" \
	sh "$TOP/vm/run" "$id" "$step:no.such.case"

# wait_for_qemu: until this step's QEMU runs (at most 10 s); prints its pid
wait_for_qemu() {
	for _ in $(seq 100); do
		pid=$(qemu_pids | head -1)
		[ -n "$pid" ] && { echo "$pid"; return 0; }
		sleep 0.1
	done
	return 1
}
# "no QEMU left" after a signal means something only if QEMU ran
qemu_started() {
	wait_for_qemu >/dev/null
}

# Ctrl-C while QEMU runs: the trap must take QEMU down with the runner.
# A background job of a script starts with SIGINT ignored (and then no
# trap can catch it); env --default-signal gives the runner what a
# terminal's Ctrl-C would reach.
env --default-signal=INT sh "$TOP/vm/run" "$id" >/dev/null 2>&1 &
runner=$!
check "QEMU started before the SIGINT" qemu_started
kill -INT "$runner" 2>/dev/null || true
check "the runner stops within 5 s of SIGINT" gone_within 5 "$runner"
wait "$runner" 2>/dev/null || true
sleep 0.5
check "no QEMU left after SIGINT to the runner" [ "$(qemus)" = 0 ]

# SIGKILL cannot be trapped: QEMU runs with a parent-death signal.
sh "$TOP/vm/run" "$id" >/dev/null 2>&1 &
runner=$!
check "QEMU started before the SIGKILL" qemu_started
kill -KILL "$runner" 2>/dev/null || true
wait "$runner" 2>/dev/null || true
sleep 0.5
check "no QEMU left after SIGKILL to the runner" [ "$(qemus)" = 0 ]
check "no result file after SIGKILL to the runner" [ ! -f "$results" ]

# QEMU itself killed half-way: a failure that says so, and no result.
(qemu=$(wait_for_qemu) && kill -KILL "$qemu") &
expect_fail "a killed QEMU is reported" "QEMU exited with status 137" sh "$TOP/vm/run" "$id"
wait
check "no result file after QEMU was killed" [ ! -f "$results" ]

# A full disk.  First the check before the run, then a real one: an 8 KiB
# tmpfs as build/ (kernel and initramfs linked in), too small for the
# console log, with the check switched off.
expect_fail "too little free space stops a run before it starts" "MB free on the filesystem" \
	env BPFTOK_MIN_FREE_MB=999999999 sh "$TOP/vm/run" "$id"
tiny=$scratch/tiny
if [ "$(id -u)" != 0 ]; then
	echo "  skipped: the full-disk run mounts a tmpfs and needs root"
else
	mkdir -p "$tiny"
	mount -t tmpfs -o size=8k tmpfs "$tiny"
	trap 'umount "$tiny" 2>/dev/null; [ -f "$saved" ] && cp "$saved" "$results"; rm -rf "$scratch"' EXIT
	ln -s "$OUT" "$tiny/out"
	ln -s "$BUILD/initramfs.cpio.gz" "$tiny/initramfs.cpio.gz"
	cp "$BUILD/accel" "$tiny/accel" 2>/dev/null || true
	expect_fail "a disk that fills up during the run is named as the cause" "disk holding .* is full" \
		env BUILD="$tiny" BPFTOK_MIN_FREE_MB=0 VM_TIMEOUT=30 sh "$TOP/vm/run" "$id"
	check "no result file on the full disk" [ ! -f "$tiny/results/step-$id.tsv" ]
	check "no QEMU left after the full disk" [ "$(qemus "$tiny/out")" = 0 ]
fi
done_testing
