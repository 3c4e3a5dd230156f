#!/bin/sh
# The test run behind `make check`.
#
#   tests/run.sh all    host tests, checkpatch, build every step, the VM matrix
#   tests/run.sh host   host tests only (needs build/ from an earlier build)
#
# Every test prints one "PASS name" or "FAIL name" line; the run ends with
# "N passed, N failed" alone on a line and exits non-zero on any failure.
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

# t NAME COMMAND...: run a test script or command, output indented.
t() {
	name=$1
	shift
	if "$@" >"$BUILD/test.out" 2>&1; then
		pass "$name"
	else
		sed 's/^/    | /' "$BUILD/test.out"
		fail "$name"
	fi
}

finish() {
	echo
	[ $FAILED -eq 0 ] || echo "failed:$FAILURES"
	echo "$PASSED passed, $FAILED failed"
	[ $FAILED -eq 0 ]
}

host_tests() {
	for test in "$TOP"/tests/host/*.sh; do
		[ "$(basename "$test")" = lib.sh ] && continue	# helpers, not a test
		t "host/$(basename "$test" .sh)" sh "$test"
	done
}

# Objects the minimal kernel does not build, under a wide config.
wide_check() {
	for s in $(series_steps); do
		[ -f "$TOP/steps/$s/patch" ] || continue
		t "wide-compile/$s" sh "$TOP/kernel/wide-check.sh" "$s"
	done
}

checkpatch() {
	for s in $(series_steps); do
		[ -f "$TOP/steps/$s/patch" ] || continue
		t "checkpatch/$s" sh "$TOP/tests/checkpatch.sh" "$s"
	done
}

# vm_cases LABEL VM-RUN-ARGS...: one VM run is a test (it fails on any
# kernel report too), and each case it reported is one more, read from
# build/results/LABEL.tsv.  vm/run keeps the results of a run the VM got
# through, wrong answers included, so those are listed case by case.
vm_cases() {
	label=$1
	shift
	rm -f "$BUILD/results/$label.tsv"	# no stale file if vm/run stops early
	if sh "$TOP/vm/run" "$@" >"$BUILD/test.out" 2>&1; then
		pass "vm/$label run"
	else
		sed 's/^/    | /' "$BUILD/test.out"
		fail "vm/$label run"
	fi
	[ -f "$BUILD/results/$label.tsv" ] || return 0
	while IFS="$(printf '\t')" read -r demo case result expected verdict; do
		if [ "$verdict" = pass ]; then
			pass "$label $demo:$case = $result"
		else
			fail "$label $demo:$case = $result (expected $expected)"
		fi
	done <"$BUILD/results/$label.tsv"
}

# Each case x step is one test: its verdict comes from build/results.
vm_matrix() {
	for s in $(series_steps) mainline; do
		case $s in
		mainline) vm_cases mainline mainline ;;
		*) vm_cases "step-$(step_id "$s")" "$s" ;;
		esac
	done
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
	for test in reproducible qemu-only interrupt; do
		t "bundle/$test" sh "$TOP/tests/bundle/$test.sh"
	done
}

# The debug kernel: every demo, suite and selftest plus the fuzzer, under
# KASAN, kmemleak, lockdep and UBSAN.  Any kernel report fails the boot.
vm_debug() {
	if ! sh "$TOP/kernel/build.sh" --debug >"$BUILD/test.out" 2>&1; then
		sed 's/^/    | /' "$BUILD/test.out"
		fail "build/debug"
		return
	fi
	pass "build/debug"
	vm_cases debug --debug
	grep '^# fuzz' "$BUILD/test.out" | sed 's/^/    /' || true
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
case ${1:-all} in
host)
	host_tests
	;;
all)
	phase "building every step, its demos and the initramfs"
	if make -s -C "$TOP" initramfs; then
		pass "build/all-steps"
		build_warnings
		phase "the mainline column: Debian's 6.12 and every demo against its headers"
		t "build/mainline" make -s -C "$TOP" initramfs-mainline
		phase "checkpatch on every step patch"
		checkpatch
		phase "compiling each step's callers under a wide config"
		wide_check
		phase "exporting the series and applying it to the pristine tree"
		t "series/applies-on-pristine" sh "$TOP/kernel/series.sh"
		phase "host tests"
		host_tests
		phase "the demo matrix in QEMU"
		vm_matrix
		phase "the workshop bundle: reproducible, run with only QEMU installed"
		bundle_tests
		phase "the debug kernel: KASAN, kmemleak, lockdep, UBSAN; suites and fuzzer"
		vm_debug
		phase "suites run"
		suite_counts
		phase "a minimal Debian 12 root: make deps, step 00 and its demo, docs, slides"
		t "fresh/smoke (make deps in a clean root names every package)" sh "$TOP/tests/fresh.sh" smoke
		phase ""
	else
		fail "build/all-steps"
	fi
	;;
*)
	die "usage: tests/run.sh all|host"
	;;
esac
finish
