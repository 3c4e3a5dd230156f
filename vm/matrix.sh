#!/bin/sh
# The demo matrix: every demo case on every step's kernel.
#
#   vm/matrix.sh run     boot every step and mainline, run every demo (vm/run,
#                        VM_JOBS at a time, default one per core), then report;
#                        a run whose recorded inputs are unchanged is not
#                        booted again (vm/run --reuse; VM_REUSE=0 boots all)
#   vm/matrix.sh report  build/report/matrix.tsv from build/results/*.tsv
#   vm/matrix.sh versus A B   from matrix.tsv, every demo:case both columns
#                        ran, as "demo:case<TAB>result on A<TAB>result on B"
#                        (A, B: a step id or mainline)
#
# Two files, both tab-separated with one header line:
#   matrix.tsv       one row per case and step: demo case step expected
#                    measured verdict (pass or fail)
#   matrix-wide.tsv  one row per case, one column per step, for reading:
#                    a cell is the result ("ok" or an errno name) when it
#                    matched the expectation, "fail:GOT/EXPECTED" when it
#                    did not, and "-" when that step was not run
set -eu
. "$(dirname "$0")/../kernel/lib.sh"
VM_LIB=$TOP/vm
. "$VM_LIB/qemu.sh"

# a column's results file: build/results/step-NN.tsv or mainline.tsv
label_of() {
	case $1 in
	mainline) echo mainline ;;
	*) echo "step-$1" ;;
	esac
}

report() {
	mkdir -p "$BUILD/report"
	# the steps in series order, then upstream's final design
	ids="$(series_ids) mainline"
	tsv=$BUILD/report/matrix.tsv
	wide=$BUILD/report/matrix-wide.tsv
	for id in $ids; do
		f=$BUILD/results/$(label_of "$id").tsv
		[ -f "$f" ] && sed "s/^/$id\t/" "$f"
	done >"$tsv.rows"
	# the long and the wide format, and how many cells failed or are
	# missing: vm/matrix.awk, which the workshop bundle's runner shares
	awk -F'\t' -v ids="$ids" -v long="$tsv.new" -v summary="$tsv.summary" \
		-f "$TOP/vm/matrix.awk" "$tsv.rows" >"$wide.new"
	rm -f "$tsv.rows"
	# replaced only when they changed: the docs and the slides are made
	# again when a file they read is newer (the Makefile)
	for f in "$tsv" "$wide"; do
		if cmp -s "$f.new" "$f"; then rm -f "$f.new"; else mv "$f.new" "$f"; fi
	done
	column -t -s "$(printf '\t')" "$wide"
	read -r fails missing <"$tsv.summary"
	rm -f "$tsv.summary"
	info "matrix: build/report/matrix.tsv, $fails failing cell(s), $missing not run"
	[ "$fails" -eq 0 ] && [ "$missing" -eq 0 ]
}

# Every column's run, side by side (vm/qemu.sh's scheduler, one VM per
# core), each vm/run's output shown as it ends.  A run whose inputs are
# those of its last pass is reported again without a boot.
vm_job() {
	if [ "${VM_REUSE:-1}" = 1 ]; then
		sh "$TOP/vm/run" --reuse "$1" &
	else
		sh "$TOP/vm/run" "$1" &
	fi
	vm_child=$!
	wait "$vm_child"
}
vm_report() {
	cat "$BUILD/tmp/matrix-jobs/$1.out"
	[ "$2" = 0 ] || status=1
}

run_all() {
	status=0
	# the accelerator is chosen (KVM probed) once, before the boots
	BPFTOK_ACCEL=$(sh "$TOP/vm/run" --accel "$(series_steps | head -1)")
	export BPFTOK_ACCEL
	mkdir -p "$BUILD/tmp/matrix-jobs"
	vm_schedule "$BUILD/tmp/matrix-jobs" $(series_steps) mainline
	rm -rf "$BUILD/tmp/matrix-jobs"
	report || status=1
	return $status
}

versus() {
	[ -f "$BUILD/report/matrix.tsv" ] || die "no build/report/matrix.tsv; run make matrix first"
	awk -F'\t' -v a="$1" -v b="$2" '
		NR == 1 { next }
		{ row = $1 ":" $2 }
		$3 == a { ra[row] = $5; if (!(row in seen)) { seen[row] = 1; order[++n] = row } }
		$3 == b { rb[row] = $5 }
		END { for (i = 1; i <= n; i++) if (order[i] in rb) print order[i] "\t" ra[order[i]] "\t" rb[order[i]] }' \
		"$BUILD/report/matrix.tsv"
}

case ${1:-} in
run) run_all ;;
report) report ;;
versus) versus "${2:?}" "${3:?}" ;;
*) die "usage: vm/matrix.sh run | report | versus A B" ;;
esac
