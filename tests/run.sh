#!/bin/sh
# The test run behind `make check`.
#
#   tests/run.sh all    host tests, checkpatch, build every step, the VM matrix
#   tests/run.sh host   host tests only (needs build/ from an earlier build)
#   tests/run.sh vm     every VM run (debug kernel and matrix) and the
#                       matrix report (needs every kernel and initramfs built)
#
# Every test prints one "PASS name" or "FAIL name" line; the run ends with
# "N passed, N failed" alone on a line and exits non-zero on any failure.
# A test that passed before on exactly the same inputs (tests/inputs.sh)
# is not run again, and its PASS line says when it passed; RERUN=1 (make
# check RERUN=1) runs every test.
set -eu
. "$(dirname "$0")/../kernel/lib.sh"

PASSED=0
FAILED=0
FAILURES=

pass() {
	PASSED=$((PASSED + 1))
	echo "PASS $1"
}

fail() {
	FAILED=$((FAILED + 1))
	FAILURES="$FAILURES $1"
	echo "FAIL $1"
}

# Results kept across runs.  Once everything is built, INPUTS is the hash
# of what a result depends on (tests/inputs.sh: the committed tree, the
# installed packages, the kernels' stamps, the initramfs images, who runs
# it and the knobs in the environment, the day).  A test that passed on
# the same INPUTS is not run again: it passes with the time it passed at.
# No INPUTS (uncommitted changes): every test runs and nothing is kept.
# RERUN=1: every test runs, and what it finds is kept.  The records are
# build/check/NAME; a failure removes NAME's.
INPUTS=
REUSE=1
REUSED=0
CHECKED=$BUILD/check

fix_inputs() {
	[ "${RERUN:-0}" != 1 ] || REUSE=0
	if ! INPUTS=$(sh "$TOP/tests/inputs.sh" 2>"$TMP/inputs.err"); then
		INPUTS=
		info "$(cat "$TMP/inputs.err")"
	elif [ $REUSE = 0 ]; then
		info "RERUN=1: every test runs, none is taken from an earlier run"
	else
		info "inputs $(echo "$INPUTS" | cut -c1-12): a test that passed on them before is not run again (RERUN=1 runs it)"
	fi
}

# record_of NAME: the file that says NAME passed, and on which inputs
record_of() {
	echo "$CHECKED/$(printf '%s' "$1" | tr -c 'A-Za-z0-9._:=-' '_')"
}

# passed_before NAME [FILE]: when NAME passed on these INPUTS (and left
# FILE as it is now), print when
passed_before() {
	local record
	[ $REUSE = 1 ] && [ -n "$INPUTS" ] || return 1
	record=$(record_of "$1")
	[ -f "$record" ] && [ "$(sed -n 1p "$record")" = "$INPUTS" ] || return 1
	[ -z "${2:-}" ] || [ "$(sed -n 3p "$record")" = "$(file_hash "$2")" ] || return 1
	sed -n 2p "$record"
}

# record_pass NAME SECONDS [FILE]: NAME passed on these INPUTS, leaving
# FILE (a VM run's results, read again when the run is reused)
record_pass() {
	[ -n "$INPUTS" ] || return 0
	mkdir -p "$CHECKED"
	printf '%s\n%s\n%s\n' "$INPUTS" "at $(date -u +%H:%M) UTC, took $2 s" \
		"$([ -z "${3:-}" ] || file_hash "$3")" >"$(record_of "$1")"
}

# forget NAME: it failed; an earlier pass on these inputs no longer counts
forget() {
	rm -f "$(record_of "$1")"
}

# reuse NAME [FILE]: pass NAME without running it, if it passed on these
# INPUTS (and left FILE as it is)
reuse() {
	local when
	when=$(passed_before "$@") || return 1
	REUSED=$((REUSED + 1))
	pass "$1 (not run again: passed $when)"
}

# t NAME COMMAND...: run a test script or command, output indented; one
# that takes 10 s or more says how long (where make check's time goes)
t() {
	name=$1
	shift
	# the matrix report is made again every time: make run between two
	# checks may have replaced a step's results
	case $name in
	matrix/*) t_keep=0 ;;
	*) t_keep=1 ;;
	esac
	: >"$TMP/test.out"
	[ $t_keep = 0 ] || ! reuse "$name" || return 0
	t_start=$(date +%s)
	if "$@" >"$TMP/test.out" 2>&1; then
		t_ok=1
	else
		t_ok=0
		sed 's/^/    | /' "$TMP/test.out"
	fi
	t_took=$(($(date +%s) - t_start))
	if [ $t_ok = 0 ]; then
		forget "$name"
	elif [ $t_keep = 1 ]; then
		record_pass "$name" "$t_took"
	fi
	[ "$t_took" -lt 10 ] || name="$name ($t_took s)"
	if [ $t_ok = 1 ]; then pass "$name"; else fail "$name"; fi
}

finish() {
	echo
	[ $REUSED -eq 0 ] ||
		echo "$REUSED of these passed on these same inputs earlier and were not run again (RERUN=1 runs them)"
	[ $FAILED -eq 0 ] || echo "failed:$FAILURES"
	echo "$PASSED passed, $FAILED failed"
	[ $FAILED -eq 0 ]
}

# docs.sh and slides.sh make the site and the deck that others (the
# browser, the compat page, the workshop) read: they go first.
host_tests() {
	for test in "$TOP"/tests/host/docs.sh "$TOP"/tests/host/slides.sh "$TOP"/tests/host/*.sh; do
		case $(basename "$test") in
		lib.sh) continue ;;	# helpers, not a test
		docs.sh|slides.sh) [ -z "${made_docs:-}" ] || continue ;;
		esac
		t "host/$(basename "$test" .sh)" sh "$test"
		[ "$(basename "$test")" != slides.sh ] || made_docs=1
	done
}

# Objects the minimal kernel does not build, under a wide config (the
# series applied once: each step's check starts from its branch).
wide_check() {
	sh "$TOP/kernel/tree.sh" apply >"$TMP/apply.out" 2>&1 ||
		{ sed 's/^/    | /' "$TMP/apply.out"; fail "wide-compile (applying the series)"; return; }
	for s in $(series_steps); do
		[ -f "$TOP/steps/$s/patch" ] || continue
		t "wide-compile/$s" env BPFTOK_SERIES_APPLIED=1 sh "$TOP/kernel/wide-check.sh" "$s"
	done
}

checkpatch() {
	for s in $(series_steps); do
		[ -f "$TOP/steps/$s/patch" ] || continue
		t "checkpatch/$s" sh "$TOP/tests/checkpatch.sh" "$s"
	done
}

# VM runs go two at a time (each TCG VM keeps one core busy): vm_start
# starts vm/run in the background with its own output file; vm_report
# waits for the oldest and reports it, so the lines come in start order.
# One VM run is a test (it fails on any kernel report too), and each case
# it reported is one more, read from build/results/LABEL.tsv.  vm/run
# keeps the results of a run the VM got through, wrong answers included,
# so those are listed case by case.
VM_SLOTS=${VM_SLOTS:-2}
vm_jobs=	# "LABEL:PID ..." started, not yet reported, oldest first
vm_waiting=	# the one vm_report waits for

vm_start() {
	local new=$1
	shift
	# a run that passed on these inputs: its results file is reported
	# again, without a boot (it takes no slot)
	if [ -f "$BUILD/results/$new.tsv" ] &&
		passed_before "vm/$new run" "$BUILD/results/$new.tsv" >/dev/null; then
		vm_jobs="$vm_jobs $new:reused"
		return
	fi
	while [ "$(echo $vm_jobs | grep -o ':[0-9]' | wc -l)" -ge "$VM_SLOTS" ]; do
		vm_report
	done
	rm -f "$BUILD/results/$new.tsv"	# no stale file if vm/run stops early
	date +%s >"$TMP/vm-$new.start"
	sh "$TOP/vm/run" "$@" >"$TMP/vm-$new.out" 2>&1 </dev/null &
	vm_jobs="$vm_jobs $new:$!"
}

vm_report() {
	local job label demo case result expected verdict
	job=$(echo $vm_jobs | cut -d' ' -f1)
	vm_jobs=$(echo $vm_jobs | cut -s -d' ' -f2-)
	vm_waiting=$job	# off the list, still running: a stop must see it
	label=${job%:*}
	if [ "${job#*:}" = reused ]; then
		reuse "vm/$label run" "$BUILD/results/$label.tsv" ||
			fail "vm/$label run (its record went missing while the check ran)"
	elif wait "${job#*:}"; then
		vm_waiting=
		record_pass "vm/$label run" $(($(date +%s) - $(cat "$TMP/vm-$label.start"))) \
			"$BUILD/results/$label.tsv"
		pass "vm/$label run"
	else
		vm_waiting=
		forget "vm/$label run"
		sed 's/^/    | /' "$TMP/vm-$label.out"
		fail "vm/$label run"
	fi
	[ "$label" != debug ] || [ ! -f "$TMP/vm-$label.out" ] ||
		grep '^# fuzz' "$TMP/vm-$label.out" | sed 's/^/    /' || true
	[ -f "$BUILD/results/$label.tsv" ] || return 0
	while IFS="$(printf '\t')" read -r demo case result expected verdict; do
		if [ "$verdict" = pass ]; then
			pass "$label $demo:$case = $result"
		else
			fail "$label $demo:$case = $result (expected $expected)"
		fi
	done <"$BUILD/results/$label.tsv"
}

# A stop (INT or TERM to this process alone, as a CI timeout or `kill PID`
# sends it, not only to its process group) stops the VM runs started in
# the background: TERM makes each vm/run stop its QEMU (its own traps),
# and the lock goes when the last of them has exited.  A signal ends
# the shell's `wait` at once, so this runs during the VM phase too.
stop_vms() {
	local job pids=
	for job in $vm_waiting $vm_jobs; do
		case ${job#*:} in
		'' | *[!0-9]*) ;;
		*) pids="$pids ${job#*:}" ;;
		esac
	done
	[ -n "$pids" ] || return 0
	echo "stopping the VM runs:$pids" >&2
	# shellcheck disable=SC2086 # a list of PIDs
	kill -TERM $pids 2>/dev/null || true
	for job in $pids; do
		wait "$job" 2>/dev/null || true
	done
}
trap 'stop_vms; exit 130' INT
trap 'stop_vms; exit 143' TERM

vm_wait_all() {
	while [ -n "$vm_jobs" ]; do
		vm_report
	done
}

# Every VM run: the debug kernel (every demo, suite and selftest plus the
# fuzzer, under KASAN, kmemleak, lockdep and UBSAN; the longest run, so it
# starts first) beside the matrix (each case x step is one test, its
# verdict from build/results), then the matrix report.
vm_all() {
	if ! sh "$TOP/kernel/build.sh" --debug >"$TMP/build-debug.out" 2>&1; then
		sed 's/^/    | /' "$TMP/build-debug.out"
		fail "build/debug"
	else
		pass "build/debug"
		vm_start debug --debug
	fi
	for s in $(series_steps) mainline; do
		case $s in
		mainline) vm_start mainline mainline ;;
		*) vm_start "step-$(step_id "$s")" "$s" ;;
		esac
	done
	vm_wait_all
	t "matrix/complete" sh "$TOP/vm/matrix.sh" report
	t "matrix/columns" matrix_columns "$BUILD/report/matrix.tsv"
	# the answer key's claims against what was just measured
	t "matrix/answers" env ANSWERS_NEED_MATRIX=1 sh "$TOP/tests/host/answers.sh"
}

# matrix.tsv is the long format other tools read: the fixed header, six
# fields on every row, one row per case and step that ran, and a verdict
# that agrees with expected vs measured.
matrix_columns() {
	head -1 "$1" | grep -qx "$(printf 'demo\tcase\tstep\texpected\tmeasured\tverdict')" ||
		{ echo "matrix.tsv header: $(head -1 "$1")"; return 1; }
	awk -F'\t' 'NR > 1 && (NF != 6 || ($6 == "pass") != ($4 == $5)) { print "bad row " NR ": " $0; bad = 1 }
		END { exit bad }' "$1" || return 1
	rows=$(($(wc -l <"$1") - 1))
	results=$(cat "$BUILD"/results/step-*.tsv "$BUILD"/results/mainline.tsv | wc -l)
	[ "$rows" -eq "$results" ] || { echo "matrix.tsv has $rows rows, build/results/{step-*,mainline}.tsv $results"; return 1; }
}

# The workshop bundle, made from this build: twice, byte-identical; then
# run where only QEMU is installed (a minimal Debian root), its matrix
# against this build's cell by cell; Ctrl-C and a timeout leave no QEMU.
bundle_tests() {
	for test in reproducible no_answers qemu-only interrupt; do
		t "bundle/$test" sh "$TOP/tests/bundle/$test.sh"
	done
}

# How many cases each suite ran, over how many kernels.
suite_counts() {
	for suite in "$TOP"/userspace-demo/suites/*.c; do
		suite=$(basename "$suite" .c)
		cat "$BUILD"/results/*.tsv 2>/dev/null | awk -F'\t' -v s="$suite" '
			$1 == s { n++; c[$2] = 1 }
			END { k = 0; for (x in c) k++
				printf "    suite %-10s %3d case(s), %4d result(s)\n", s, k, n }'
	done
}

# Compiler output of a step's (incremental) kernel build: the files its
# patch touched must compile without warnings.  kernel/build.sh always
# writes the log, empty when clean: a missing one fails.
build_warnings() {
	for s in $(series_steps); do
		id=$(step_id "$s")
		log=$OUT/step-$id/build-warnings.log
		t "build/step-$id without compiler warnings" \
			sh -c "[ -f '$log' ] && ! grep -q . '$log'"
	done
}

# phase WHAT: start a phase of the run, saying how long the last one took
# (so a slow make check shows where its time goes)
phase_name=
phase_start=$(date +%s)
phase() {
	now=$(date +%s)
	[ -z "$phase_name" ] || info "($phase_name: $((now - phase_start)) s)"
	phase_name=$1
	phase_start=$now
	[ -z "$1" ] || info "$1"
}

mkdir -p "$BUILD"
take_lock
# every scratch file of the run and of the tests it runs: one place,
# emptied at the start (make clean removes it)
TMP=$BUILD/tmp
rm -rf "$TMP"
mkdir -p "$TMP"
TMPDIR=$TMP
export TMPDIR
case ${1:-all} in
host)
	fix_inputs
	host_tests
	;;
vm)
	fix_inputs
	phase "QEMU, two VMs at a time: the debug kernel beside the demo matrix"
	vm_all
	phase ""
	;;
all)
	phase "building every step, its demos and the initramfs"
	if make -s -C "$TOP" initramfs; then
		pass "build/all-steps"
		build_warnings
		phase "the mainline column: Debian's 6.12 and every demo against its headers"
		t "build/mainline" make -s -C "$TOP" initramfs-mainline
		fix_inputs	# everything is built: what the results depend on
		phase "checkpatch on every step patch"
		checkpatch
		phase "compiling each step's callers under a wide config"
		wide_check
		phase "exporting the series and applying it to the pristine tree"
		t "series/applies-on-pristine" sh "$TOP/kernel/series.sh"
		phase "QEMU, two VMs at a time: the debug kernel (KASAN, kmemleak, lockdep, UBSAN; suites and fuzzer) beside the demo matrix"
		vm_all
		# after the matrix: the docs, the slides and the answer key
		# show what was just measured
		phase "host tests"
		host_tests
		phase "the workshop bundle: reproducible, run with only QEMU installed"
		bundle_tests
		phase "suites run"
		suite_counts
		phase "a minimal Debian 12 root: make deps, step 00 and its demo, docs, slides"
		[ "${RERUN:-0}" != 1 ] || { FRESH_FORCE=1; export FRESH_FORCE; }
		t "fresh/smoke (make deps in a clean root names every package)" sh "$TOP/tests/fresh.sh" smoke
		# say so when it was not run again (passed on this tree today)
		grep 'already passed' "$TMP/test.out" | sed 's/^==> /    /' || true
		phase ""
	else
		fail "build/all-steps"
	fi
	;;
*)
	die "usage: tests/run.sh all|host|vm"
	;;
esac
finish
