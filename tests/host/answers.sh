#!/bin/sh
# The answer key in steps/*/NOTES.md cannot drift from what the kernels do.
#
# Every step has one "## Exercise" followed directly by one "## Answer"
# that names at least one demo case.  Each claim is a line of one of
#
#   - check: DEMO:CASE @ STEP = RESULT    measured: must equal the matrix
#   - scratch: DEMO:CASE = RESULT         after a kernel edit: case must exist
#
# DEMO is a demo or suite (userspace-demo/DEMO.c, userspace-demo/suites/DEMO.c)
# or selftest:test_token (CASE global.NAME for TEST(NAME) in step 13's
# patch); STEP a step id or mainline; RESULT as matrix.tsv's measured
# column.  The comparison needs build/report/matrix.tsv newer than the
# demo sources and step patches (a host-test run before the VM phase
# skips it otherwise); tests/run.sh runs this again right after the
# matrix with ANSWERS_NEED_MATRIX=1, where it must compare.
#
# Also: teaching text names files and pages, never issue numbers.
. "$(dirname "$0")/lib.sh"

# The matrix's demo column for DEMO ("selftest" alone means the tree's one).
matrix_demo() {
	case $1 in
	selftest) echo selftest:test_token ;;
	*) echo "$1" ;;
	esac
}

# case_exists SRCDIR PATCH DEMO CASE: CASE is in DEMO's case table
case_exists() {
	case $3 in
	selftest | selftest:test_token)
		# kselftest_harness.h reports TEST(x) as "global.x"
		case $4 in
		global.*) grep -q "^+TEST(${4#global.})\$" "$2" ;;
		*) false ;;
		esac
		;;
	selftest:upstream_token)
		# 6.12's prog_tests/token.c names each subtest in test__start_subtest()
		grep -qF "test__start_subtest(\"$4\")" \
			"$MAINLINE_LINUX/tools/testing/selftests/bpf/prog_tests/token.c"
		;;
	*)
		src=$1/$3.c
		[ -f "$src" ] || src=$1/suites/$3.c
		[ -f "$src" ] || return 1
		awk -v name="$4" '
			/^static const struct demo_case cases\[\] = \{/ { on = 1; next }
			on && /^\};/ { exit }
			on && index($0, "{ \"" name "\",") { found = 1 }
			END { exit !found }' "$src"
		;;
	esac
}

# The claim lines of a NOTES file as "LINE<TAB>KIND<TAB>DEMO<TAB>CASE<TAB>STEP<TAB>RESULT",
# KIND check, scratch or bad (then DEMO holds the line).
claims() {
	awk -v OFS='\t' '
		!/^- (check|scratch):/ { next }
		/^- check: [^ @]+:[^ :@]+ @ ([0-9][0-9][a-z]?|mainline) = [A-Za-z0-9_]+$/ {
			n = split($3, dc, ":")
			demo = substr($3, 1, length($3) - length(dc[n]) - 1)
			print NR, "check", demo, dc[n], $5, $7
			next
		}
		/^- scratch: [^ @]+:[^ :@]+ = [A-Za-z0-9_]+$/ {
			n = split($3, dc, ":")
			demo = substr($3, 1, length($3) - length(dc[n]) - 1)
			print NR, "scratch", demo, dc[n], "-", $5
			next
		}
		{ print NR, "bad", $0, "-", "-", "-" }' "$1"
}

# check_notes NOTES SRCDIR PATCH MATRIX IDS: one step's exercise and answer.
# MATRIX may be empty: then measured results are not compared.
check_notes() {
	notes=$1 srcdir=$2 patch=$3 matrix=$4 ids=$5 bad=0
	shape=$(awk '
		/^## / { h[++n] = $0; if ($0 == "## Exercise") ex = n }
		/^- (check|scratch):/ && n && h[n] == "## Answer" { claims++ }
		END {
			for (i = 1; i <= n; i++) { e += (h[i] == "## Exercise"); a += (h[i] == "## Answer") }
			if (e != 1) { print e " \"## Exercise\" headings"; exit }
			if (a != 1) { print a " \"## Answer\" headings"; exit }
			if (h[ex + 1] != "## Answer") { print "the section after \"## Exercise\" is not \"## Answer\""; exit }
			if (!claims) print "its answer names no case (no check: or scratch: line)"
		}' "$notes")
	if [ -n "$shape" ]; then
		echo "$notes: $shape"
		return 1
	fi
	tab=$(printf '\t')
	claims "$notes" >"$scratch/claims"
	while IFS=$tab read -r line kind demo name step result; do
		where="$notes:$line"
		if [ "$kind" = bad ]; then
			echo "$where: not of the form '- check: DEMO:CASE @ STEP = RESULT' or '- scratch: DEMO:CASE = RESULT': $demo"
			bad=1
			continue
		fi
		if ! case_exists "$srcdir" "$patch" "$demo" "$name"; then
			echo "$where: $demo has no case $name"
			bad=1
			continue
		fi
		[ "$kind" = check ] || continue
		case " $ids mainline " in
		*" $step "*) ;;
		*)
			echo "$where: no step $step"
			bad=1
			continue
			;;
		esac
		[ -n "$matrix" ] || continue
		measured=$(awk -F'\t' -v d="$(matrix_demo "$demo")" -v c="$name" -v s="$step" \
			'$1 == d && $2 == c && $3 == s { print $5; exit }' "$matrix")
		if [ -z "$measured" ]; then
			echo "$where: $demo:$name @ $step was not measured (no row in $matrix)"
			bad=1
		elif [ "$measured" != "$result" ]; then
			echo "$where: $demo:$name @ $step claims $result, measured $measured"
			bad=1
		fi
	done <"$scratch/claims"
	[ "$bad" -eq 0 ]
}

# Teaching text: NOTES, docs and slide pages, and the demos' comments.
no_issue_numbers() {
	found=$(grep -n -i -E 'issues? #?[0-9]' "$@" /dev/null || true)
	[ -z "$found" ] || { printf 'names an issue number:\n%s\n' "$found"; return 1; }
}

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

matrix=${ANSWERS_MATRIX:-$BUILD/report/matrix.tsv}
matrix_to_compare "$matrix" "${ANSWERS_NEED_MATRIX:-0}"

ids=$(series_ids | tr '\n' ' ')
patch13=$TOP/steps/13-selftest-token/patch
for s in $(series_steps); do
	check "$s: exercise, answer, and every claim ${compare:+measured }as stated" \
		check_notes "$TOP/steps/$s/NOTES.md" "$TOP/userspace-demo" "$patch13" "$compare" "$ids"
done

# The checker itself, on a made-up step: each mistake must be caught.
fake=$scratch/NOTES.md
fake_matrix=$scratch/matrix.tsv
printf 'demo\tcase\tstep\texpected\tmeasured\tverdict\n' >"$fake_matrix"
printf '04-map-create-token\tmap.token_and_cap\t04\tok\tok\tpass\n' >>"$fake_matrix"
printf 'selftest:test_token\tglobal.map_token\t13\tok\tok\tpass\n' >>"$fake_matrix"
notes_with() {
	printf '# A step\n\n## Exercise\n\nWhy?\n\n## Answer\n\nBecause.\n\n%s\n' "$1" >"$fake"
}
fake_check() {
	check_notes "$fake" "$TOP/userspace-demo" "$patch13" "$fake_matrix" "$ids"
}
notes_with '- check: 04-map-create-token:map.token_and_cap @ 04 = ok
- check: selftest:test_token:global.map_token @ 13 = ok
- scratch: 04-map-create-token:map.token_and_cap = EPERM'
check "a correct answer passes the checker" fake_check
notes_with '- check: 04-map-create-token:map.token_and_cap @ 04 = EPERM'
expect_fail "a claim the matrix contradicts" "NOTES.md:11: .* claims EPERM, measured ok" fake_check
notes_with '- check: 04-map-create-token:map.no_such_case @ 04 = ok'
expect_fail "a case that does not exist" "has no case map.no_such_case" fake_check
notes_with '- scratch: selftest:test_token:global.no_such_test = ok'
expect_fail "a selftest test that does not exist" "has no case global.no_such_test" fake_check
notes_with '- check: 04-map-create-token:map.token_and_cap @ 05 = ok'
expect_fail "a claim that was never measured" "was not measured" fake_check
notes_with '- check: 04-map-create-token:map.token_and_cap @ 99 = ok'
expect_fail "a step that does not exist" "no step 99" fake_check
notes_with '- check: 04-map-create-token:map.token_and_cap = ok'
expect_fail "a claim line without its step" "not of the form" fake_check
notes_with 'No claim at all.'
expect_fail "an answer that names no case" "names no case" fake_check
printf '# A step\n\n## Exercise\n\nWhy?\n\n## Try it\n\n## Answer\n\n- scratch: 04-map-create-token:map.token_and_cap = EPERM\n' >"$fake"
expect_fail "an answer that does not follow its exercise" "is not \"## Answer\"" fake_check

# Teaching text names files and pages, never issue numbers.
sources=$(find "$TOP/userspace-demo" -name '*.c' -o -name '*.h' | sort)
slides=$(find "$TOP/slides" -name '*.md' 2>/dev/null | sort)
# shellcheck disable=SC2086 # lists of paths without spaces
check "teaching text names no issue numbers" \
	no_issue_numbers "$TOP"/steps/*/NOTES.md "$TOP"/docs/*.md $slides $sources
printf 'see issue 6 for why\n' >"$scratch/page.md"
expect_fail "an issue number in teaching text" "page.md:1:see issue 6" no_issue_numbers "$scratch/page.md"
done_testing
