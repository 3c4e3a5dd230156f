#!/bin/sh
# vm/run against a real QEMU, for what only a real QEMU shows: a timeout,
# Ctrl-C, SIGKILL to the runner and QEMU killed under it each leave no
# QEMU process behind and no result file that a later report could pick
# up; a run of chosen cases keeps the full run's record.  What a console
# log means (panics, missing markers, counts, a full disk) is tested on
# saved logs without QEMU: tests/host/parser.sh.
. "$(dirname "$0")/lib.sh"

step=$(series_steps | head -1)
id=$(step_id "$step")
[ -f "$OUT/step-$id/bzImage" ] && [ -f "$BUILD/initramfs.cpio.gz" ] ||
	{ echo "run make initramfs first"; exit 1; }
# the full run's record, which these runs replace: put back at the end,
# with its times (cp -p), so that make does not remake the docs from it
results=$BUILD/results/step-$id.tsv
console=$BUILD/logs/step-$id.console
scratch=$(mktemp -d)
saved=$scratch/saved.tsv
[ -f "$results" ] && cp -p "$results" "$saved"
[ -f "$console" ] && cp -p "$console" "$scratch/saved.console"
# the inputs that run passed on (vm/run --reuse reads them): back with it
record=$BUILD/results/step-$id.inputs
[ -f "$record" ] && cp -p "$record" "$scratch/saved.inputs"
restore() {
	if [ -f "$saved" ]; then cp -p "$saved" "$results"; else rm -f "$results"; fi
	if [ -f "$scratch/saved.inputs" ]; then cp -p "$scratch/saved.inputs" "$record"; else rm -f "$record"; fi
	if [ -f "$scratch/saved.console" ]; then
		cp -p "$scratch/saved.console" "$console"
	else
		rm -f "$console"
	fi
	rm -rf "$scratch"
}
trap restore EXIT

# QEMU processes of this step's kernel under OUTDIR (default build/out):
# this checkout's only, so a run in another clone is never counted or
# killed; anchored, so that the setpriv wrapper before its exec is not
qemu_pids() {
	pgrep -f "^qemu-system-x86_64 .* -kernel ${1:-$OUT}/step-$id/bzImage" || true
}
qemus() {
	qemu_pids "$@" | wc -l
}

# wait_for_qemu: until this step's QEMU runs; prints its pid.  vm/run
# takes about 1 s to get there, longer beside a busy make check: give up
# after 300 polls (30 s and more), which only a broken runner reaches.
wait_for_qemu() {
	for _ in $(seq 300); do
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

# The timeout: the runner must stop a QEMU that runs too long.  What the
# console of a timed-out run means is tests/host/parser.sh's (fixtures);
# here only what needs a real QEMU: it ran, it was stopped, nothing left.
VM_TIMEOUT=1 sh "$TOP/vm/run" "$id" >"$scratch/timeout.out" 2>&1 &
runner=$!
check "QEMU started before the timeout" qemu_started
wait "$runner" 2>/dev/null || true
check "a 1 s timeout is reported as a timeout" grep -q "timeout: the VM did not finish" "$scratch/timeout.out"
check "no QEMU left after the timeout" [ "$(qemus)" = 0 ]
check "no result file after the timeout" [ ! -f "$results" ]

# A demo that is not in the initramfs is refused before any boot.
expect_fail "a demo that is not in the initramfs" "does not hold: no-such-demo" \
	sh "$TOP/vm/run" "$id" no-such-demo

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

# A full disk before the run is refused up front; one that fills up during
# the run is read from the console (tests/fixtures/console/full-disk.*).
expect_fail "too little free space stops a run before it starts" "MB free on the filesystem" \
	env BPFTOK_MIN_FREE_MB=999999999 sh "$TOP/vm/run" "$id"

# A run of chosen cases keeps the last full run's record: the matrix and
# the docs read build/results/LABEL.tsv and build/logs/LABEL.console.
# Stand-ins for that record (restore() puts back the real one, if any),
# so the check needs no full run before it.
mkdir -p "$(dirname "$results")" "$(dirname "$console")"
echo "the full run's results" >"$results"
echo "the full run's console" >"$console"
partial_case=$("$BUILD/demos/$step" --list | head -1)
check "a partial run passes" sh "$TOP/vm/run" "$id" "$step:$partial_case"
check "the partial run left the full results alone" \
	grep -qx "the full run's results" "$results"
check "the partial run left the full console log alone" \
	grep -qx "the full run's console" "$console"
check "the partial run wrote its own results" \
	grep -q "^$step	$partial_case	[^	]*	[^	]*	pass$" "$BUILD/results/partial/step-$id.tsv"
check "the partial run wrote its own console log" \
	grep -q "^ok 1 $partial_case # got=" "$BUILD/logs/partial/step-$id.console"
done_testing
