#!/bin/sh
# The demo matrix: every demo case on every step's kernel.
#
#   vm/matrix.sh run     boot every step and mainline, run every demo (vm/run), then report
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
	mv "$tsv.new" "$tsv"
	mv "$wide.new" "$wide"
	column -t -s "$(printf '\t')" "$wide"
	read -r fails missing <"$tsv.summary"
	rm -f "$tsv.summary"
	info "matrix: build/report/matrix.tsv, $fails failing cell(s), $missing not run"
	[ "$fails" -eq 0 ] && [ "$missing" -eq 0 ]
}

run_all() {
	status=0
	for s in $(series_steps) mainline; do
		sh "$TOP/vm/run" "$s" || status=1
	done
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
