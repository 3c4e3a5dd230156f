#!/bin/sh
# The test run behind `make check`.
#
#   tests/run.sh all    host tests, checkpatch, build every step, the VM matrix
#   tests/run.sh host   host tests only (needs build/ from an earlier build)
#   tests/run.sh vm     every VM run (debug kernel and matrix) and the
#                       matrix report (needs every kernel and initramfs built)
#
# The output is KTAP, as the kernel's own selftests print it: one line per
# test, "ok N name", "not ok N name", or "ok N name # SKIP reason" for a
# test that cannot run here (a test script's skip_test: exit 4,
# kselftest's KSFT_SKIP, after "SKIP: reason"); a failing test's output above its
# line, indented as a "#" diagnostic.  The plan "1..N" comes last, as
# TAP allows when the count is not known up front, then the time each
# phase took, then "N passed, N failed" alone on the last line; the run
# exits non-zero on any failure.
# Every test runs every time.  What is reused is the work whose inputs
# are recorded byte for byte: a kernel build (its stamp: commit, config,
# toolchain) and a VM run (build/results/LABEL.inputs, vm/run --reuse).
# FAILED=1 (make check FAILED=1) runs only what failed in the last run,
# as build/check/failed lists it.
set -eu
. "$(dirname "$0")/../kernel/lib.sh"

# FAILED=1: only the tests build/check/failed names (the last run's
# failures) run; the builds they read are made as always.  (Read before
# FAILED becomes the count below.)
FAILED_ONLY=${FAILED:-0}
LAST_FAILED=$BUILD/check/failed

# a prefix for the commands of tests that run beside the VM boots
# (nice -n 19 there, see `all` below), empty elsewhere
BESIDE=

PASSED=0
FAILED=0
SKIPPED=0
TESTS=0
FAILURES=

pass() {
	PASSED=$((PASSED + 1))
	TESTS=$((TESTS + 1))
	echo "ok $TESTS $1"
}

# fail NAME [RERUN]: one more failure; RERUN is the test FAILED=1 runs
# again for it (a wrong case: its VM run), NAME itself by default
fail() {
	FAILED=$((FAILED + 1))
	TESTS=$((TESTS + 1))
	FAILURES="$FAILURES $1"
	printf '%s\n' "${2:-$1}" >>"$TMP/failed"
	echo "not ok $TESTS $1"
}

# skip NAME REASON: a test that cannot run here, and why
skip() {
	SKIPPED=$((SKIPPED + 1))
	TESTS=$((TESTS + 1))
	echo "ok $TESTS $1 # SKIP $2"
}

# wanted NAME: whether the test NAME runs in this check.  The builds and
# the matrix report always do: what runs again reads them.
wanted() {
	[ "$FAILED_ONLY" = 1 ] || return 0
	case $1 in
	build/* | matrix/*) return 0 ;;
	esac
	grep -qxF "$1" "$LAST_FAILED"
}

# t NAME COMMAND...: run a test script or command, output indented; one
# that takes 10 s or more says how long (where make check's time goes)
t() {
	name=$1
	shift
	wanted "$name" || return 0
	: >"$TMP/test.out"
	t_start=$(date +%s)
	t_status=0
	"$@" >"$TMP/test.out" 2>&1 || t_status=$?
	verdict "$name" "$t_status" $(($(date +%s) - t_start)) "$TMP/test.out"
}

# verdict NAME STATUS SECONDS OUTPUT: the KTAP line for a test that ended
verdict() {
	v_name=$1
	[ "$3" -lt 10 ] || v_name="$1 ($3 s)"
	case $2 in
	0) pass "$v_name" ;;
	# exit 4 and a last line "SKIP: reason" (skip_test in tests/host/lib.sh):
	# a command that happens to fail with status 4 is still a failure
	4) if tail -1 "$4" | grep -q '^SKIP: '; then
		skip "$v_name" "$(tail -1 "$4" | sed 's/^SKIP: //')"
	else
		diag <"$4"
		fail "$v_name" "$1"
	fi ;;
	*)
		diag <"$4"
		fail "$v_name" "$1"
		;;
	esac
}

# A test that waits on the network and the disk more than on the CPU
# runs beside the others: bg_start NAME COMMAND... starts it in a session
# of its own (so a stop ends all of it, bg_stop), bg_finish NAME waits
# for it and gives its line.  Its time is its own, from start to end.
BG_JOBS=
bg_start() {
	local name=$1 slug
	shift
	wanted "$name" || return 0
	slug=$(echo "$name" | tr -c 'A-Za-z0-9\n' _)
	# without fd 9 and BPFTOK_LOCKED, this run's hold on build/.lock: the
	# job works outside the checkout's builds and must not pass for a holder
	setsid env -u BPFTOK_LOCKED sh -c 'start=$(date +%s); rc=0; "$@" >"$0.out" 2>&1 || rc=$?
		echo "$rc $(($(date +%s) - start))" >"$0.rc"' "$TMP/bg.$slug" "$@" </dev/null 9>&- &
	BG_JOBS="$BG_JOBS $!"
	echo $! >"$TMP/bg.$slug.pid"
}
bg_finish() {
	local name=$1 slug pid rc took
	wanted "$name" || return 0
	slug=$(echo "$name" | tr -c 'A-Za-z0-9\n' _)
	pid=$(cat "$TMP/bg.$slug.pid")
	wait "$pid" || true
	BG_JOBS=$(echo " $BG_JOBS " | sed "s/ $pid / /")
	read -r rc took <"$TMP/bg.$slug.rc" || { rc=1 took=0; }
	verdict "$name" "$rc" "$took" "$TMP/bg.$slug.out"
}
bg_stop() {
	local pid
	for pid in $BG_JOBS; do
		kill -TERM "-$pid" 2>/dev/null || true
	done
}

# diag: lines of a test's output as KTAP diagnostics, indented
diag() {
	sed 's/^/#   | /'
}

# finish: the plan, the phase times, the summary, and the list FAILED=1
# reads next time
finish() {
	echo "1..$TESTS"
	if [ -s "$TMP/phases" ]; then
		echo "# phase times"
		awk -F'\t' '{ printf "#   %6d s  %s\n", $2, $1; total += $2 } END { printf "#   %6d s  in all\n", total }' "$TMP/phases"
	fi
	mkdir -p "$BUILD/check"
	sort -u "$TMP/failed" >"$LAST_FAILED"
	[ $FAILED -eq 0 ] || echo "# failed:$FAILURES (make check FAILED=1 runs these again)"
	[ $SKIPPED -eq 0 ] || echo "# $SKIPPED skipped (# SKIP above, with the reason)"
	echo "$PASSED passed, $FAILED failed"
	[ $FAILED -eq 0 ]
}

# The host tests read what the builds made: the site and the deck are
# built first (after the VM runs, so they show what was just measured),
# once, and no test makes them again.
host_tests() {
	t "build/docs" make -s -C "$TOP" docs
	t "build/slides" make -s -C "$TOP" slides
	for test in "$TOP"/tests/host/*.sh; do
		[ "$(basename "$test")" != lib.sh ] || continue	# helpers, not a test
		t "host/$(basename "$test" .sh)" sh "$test"
	done
}

# Objects the minimal kernel does not build, under a wide config (the
# series applied once: each step's check starts from its branch), then
# every step's under the configuration Debian ships.
wide_check() {
	$BESIDE sh "$TOP/kernel/tree.sh" apply >"$TMP/apply.out" 2>&1 ||
		{ diag <"$TMP/apply.out"; fail "wide-compile (applying the series)"; return; }
	for s in $(series_steps); do
		[ -f "$TOP/steps/$s/patch" ] || continue
		t "wide-compile/$s" $BESIDE env BPFTOK_SERIES_APPLIED=1 sh "$TOP/kernel/wide-check.sh" "$s"
	done
	t "wide-compile/debian-config" $BESIDE env BPFTOK_SERIES_APPLIED=1 sh "$TOP/kernel/wide-check.sh" --debian
}

checkpatch() {
	for s in $(series_steps); do
		[ -f "$TOP/steps/$s/patch" ] || continue
		t "checkpatch/$s" $BESIDE sh "$TOP/kernel/checkpatch.sh" "$s"
	done
}

# VM runs go side by side, one per core (each TCG VM keeps one busy),
# through vm/qemu.sh's scheduler, the one make demo and ./bpftoken matrix
# use: vm_job runs vm/run --reuse for a label, vm_report reports a run as
# it ends.  A run whose inputs are those of its last pass
# (build/results/LABEL.inputs) is not booted again: vm/run says so and
# its results are read again.  One VM run is a test (it fails on any
# kernel report too), and each case it reported is one more, read from
# build/results/LABEL.tsv.  vm/run keeps the results of a run the VM got
# through, wrong answers included, so those are listed case by case.
VM_LIB=$TOP/vm
. "$VM_LIB/qemu.sh"
# A stop (INT or TERM to this process alone, as a CI timeout or `kill PID`
# sends it, not only to its process group) stops the VM runs: vm_runs_stop
# sends the scheduler's job TERM, whose vm_stop sends each VM job TERM,
# which stops its vm/run, which stops its QEMU, and the lock goes when
# the last of them has exited.  The jobs beside the others (the Debian
# roots, the smoke) are stopped the same way.
trap 'vm_runs_stop; bg_stop' EXIT
trap 'vm_runs_stop; bg_stop; trap - EXIT; exit 130' INT
trap 'vm_runs_stop; bg_stop; trap - EXIT; exit 143' TERM
trap 'vm_runs_stop; bg_stop; trap - EXIT; exit 129' HUP

vm_job() {
	case $1 in
	debug) set -- --debug ;;
	mainline) ;;
	step-*) set -- "${1#step-}" ;;
	esac
	sh "$TOP/vm/run" --reuse "$@" &
	vm_child=$!
	wait "$vm_child"
}

vm_report() {
	local label=$1 out=$TMP/vm/$1.out demo case result expected verdict how=
	if [ "$2" = 0 ]; then
		! grep -q ': not booted: ' "$out" ||
			how=" (not booted: passed on these very inputs, build/results/$label.inputs)"
		pass "vm/$label run$how"
	else
		diag <"$out"
		fail "vm/$label run"
	fi
	[ "$label" != debug ] || grep '^# fuzz' "$out" | sed 's/^/#   /' || true
	[ -f "$BUILD/results/$label.tsv" ] || return 0
	while IFS="$(printf '\t')" read -r demo case result expected verdict; do
		if [ "$verdict" = pass ]; then
			pass "$label $demo:$case = $result"
		else
			fail "$label $demo:$case = $result (expected $expected)" "vm/$label run"
		fi
	done <"$BUILD/results/$label.tsv"
}

# Every VM run: the debug kernel (every demo, suite and selftest plus the
# fuzzer, under KASAN, kmemleak, lockdep and UBSAN; the longest run, so it
# starts first) beside the matrix (each case x step is one test, its
# verdict from build/results), then the matrix report.
#
# vm_runs_start builds the debug kernel and starts the boots in a job of
# their own (VM_RUNS_PID), so that work which needs no VM can run beside
# them: the debug run's 1000 lifetime rounds under KASAN keep one core
# busy for minutes after the matrix's short boots have ended on the
# other.  vm_runs_finish waits for the boots and gives each run's lines,
# in the order of the labels, then the matrix report.
VM_RUNS_PID=
VM_LABELS=
vm_runs_start() {
	local labels=
	if ! sh "$TOP/kernel/build.sh" --debug >"$TMP/build-debug.out" 2>&1; then
		diag <"$TMP/build-debug.out"
		fail "build/debug"
	else
		pass "build/debug"
		labels=debug
	fi
	for s in $(series_steps) mainline; do
		case $s in
		mainline) labels="$labels mainline" ;;
		*) labels="$labels step-$(step_id "$s")" ;;
		esac
	done
	# FAILED=1: only the runs that failed last time
	for label in $labels; do
		wanted "vm/$label run" || labels=$(echo " $labels " | sed "s/ $label / /")
	done
	# the accelerator is chosen (KVM probed) once, before the boots
	BPFTOK_ACCEL=$(sh "$TOP/vm/run" --accel "$(series_steps | head -1)")
	export BPFTOK_ACCEL
	mkdir -p "$TMP/vm"
	VM_LABELS=$labels
	# shellcheck disable=SC2086 # a list of labels
	vm_runs_job $labels >"$TMP/vm/schedule.out" 2>&1 </dev/null &
	VM_RUNS_PID=$!
}

# vm_runs_job LABEL...: the scheduler, in the background job vm_runs_start
# starts.  A job is a subshell, which starts with the default traps: its
# own stop ends its boots (vm/qemu.sh's vm_stop), and its vm_report only
# lets the next boot start; the lines are vm_runs_finish's.
vm_runs_job() {
	trap vm_stop EXIT
	trap 'vm_stop; trap - EXIT; exit 143' INT TERM HUP
	vm_report() { :; }
	vm_schedule "$TMP/vm" "$@"
}

# vm_runs_stop: a stop of this run ends the boots too
vm_runs_stop() {
	[ -n "$VM_RUNS_PID" ] || return 0
	kill -TERM "$VM_RUNS_PID" 2>/dev/null || true
	wait "$VM_RUNS_PID" 2>/dev/null || true
	VM_RUNS_PID=
}

vm_runs_finish() {
	local label
	[ -z "$VM_RUNS_PID" ] || wait "$VM_RUNS_PID" || true
	VM_RUNS_PID=
	# a run whose job left no status (it could not start) is a failure
	for label in $VM_LABELS; do
		[ -s "$TMP/vm/$label.status" ] ||
			echo "vm/$label: its job left no status (it did not start, or the scheduler stopped first)" >>"$TMP/vm/$label.out"
		vm_report "$label" "$(cat "$TMP/vm/$label.status" 2>/dev/null || echo 1)"
	done
	t "matrix/complete" sh "$TOP/vm/matrix.sh" report
	t "matrix/columns" matrix_columns "$BUILD/report/matrix.tsv"
	# the answer key's claims against what was just measured
	t "matrix/answers" env ANSWERS_NEED_MATRIX=1 sh "$TOP/tests/host/answers.sh"
	# the newest step against mainline: only the differences docs/mainline.md lists
	t "matrix/newest-vs-mainline" env NEWEST_NEED_MATRIX=1 sh "$TOP/tests/host/newest_vs_mainline.sh"
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
	t "build/bundle" make -s -C "$TOP" bundle
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
				printf "#   suite %-10s %3d case(s), %4d result(s)\n", s, k, n }'
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
	if [ -n "$phase_name" ]; then
		info "($phase_name: $((now - phase_start)) s)"
		printf '%s\t%s\n' "${phase_short:-$phase_name}" $((now - phase_start)) >>"$TMP/phases"
	fi
	phase_short=${2:-}
	phase_name=$1
	phase_start=$now
	[ -z "$1" ] || info "$1"
}

SMOKE="fresh/smoke (make deps in a clean root names every package)"
mkdir -p "$BUILD"
take_lock
# every scratch file of the run and of the tests it runs: one place,
# emptied at the start (make clean removes it)
TMP=$BUILD/tmp
rm -rf "$TMP"
mkdir -p "$TMP"
TMPDIR=$TMP
export TMPDIR
: >"$TMP/failed"
echo "KTAP version 1"
if [ "$FAILED_ONLY" = 1 ]; then
	[ -f "$LAST_FAILED" ] ||
		die "FAILED=1 runs again what the last make check failed, and its list (build/check/failed) is missing: run make check first"
	if [ ! -s "$LAST_FAILED" ]; then
		info "FAILED=1: the last make check had no failure; nothing to run"
		finish
		exit 0
	fi
	info "FAILED=1: only these run again (after the builds): $(tr '\n' ' ' <"$LAST_FAILED")"
fi
case ${1:-all} in
host)
	host_tests
	;;
vm)
	phase "QEMU, one VM per core: the debug kernel beside the demo matrix" "VM runs"
	vm_runs_start
	vm_runs_finish
	phase ""
	;;
all)
	# the Debian roots of the smoke and the bundle's qemu-only test,
	# made while the kernels compile
	[ "$(id -u)" != 0 ] || bg_start "build/debian-roots" sh -c '. "$1/kernel/lib.sh" && . "$1/tests/debroot.sh" && debroot_prepare' - "$TOP"
	phase "building every step, its demos and the v6 initramfs" "builds"
	if make -s -C "$TOP" initramfs; then
		pass "build/all-steps"
		phase "the mainline column: Debian's 6.12 and every demo against its headers" "mainline"
		t "build/mainline" make -s -C "$TOP" initramfs-mainline
		# the steps of the shipped ABI: every demo against the newest
		# step's headers, linked with 6.12's libbpf (built just above).
		# Their kernels are built here, not by "make initramfs", so
		# every step's warnings log exists only from this point on.
		t "build/shipped-abi-image" make -s -C "$TOP" initramfs-shipped
		build_warnings
		# The boots, and beside them what needs no VM: checkpatch, the
		# wide compile, the series on the pristine tree and the Debian
		# patch queue on a fresh extraction of the source, at the lowest
		# priority, so they take the core the matrix leaves idle while the
		# debug run goes on, and never slow a boot towards its deadline.
		# (The debug kernel is built first: the wide compile checks other
		# commits out in build/linux.)
		phase "QEMU, one VM per core: the debug kernel (KASAN, kmemleak, lockdep, UBSAN; suites and fuzzer) beside the demo matrix; checkpatch, the wide compile, the series and the Debian patch queue beside them" "VM runs + checkpatch, wide compile, series, patch queue"
		vm_runs_start
		BESIDE="nice -n 19"
		checkpatch
		wide_check
		t "series/applies-on-pristine" $BESIDE sh "$TOP/kernel/series.sh"
		t "debian-patches/quilt-push-on-fresh-source" $BESIDE sh "$TOP/kernel/debian-patches.sh"
		BESIDE=
		vm_runs_finish
		# The smoke in a minimal Debian 12 root (make deps, step 00 and
		# its demo, docs, slides) spends its first minutes in apt: it
		# runs beside the host and bundle tests
		[ "$(id -u)" != 0 ] || bg_finish "build/debian-roots"
		bg_start "$SMOKE" sh "$TOP/tests/fresh.sh" smoke
		# after the matrix: the docs, the slides and the answer key
		# show what was just measured
		phase "host tests (the fresh smoke beside them)" "host tests"
		host_tests
		phase "the workshop bundle: reproducible, run with only QEMU installed" "bundle"
		bundle_tests
		phase "suites run" "suites"
		suite_counts
		phase "the rest of the fresh smoke in a minimal Debian 12 root" "fresh smoke (rest)"
		bg_finish "$SMOKE"
		phase ""
	else
		fail "build/all-steps"
	fi
	;;
*)
	die "usage: tests/run.sh all|host|vm"
	;;
esac
bg_stop	# a job left running (the builds failed before the smoke began)
finish
