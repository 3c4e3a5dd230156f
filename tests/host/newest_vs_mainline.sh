#!/bin/sh
# The epilogue's goal, measured: every demo and suite case reads the same
# on the newest step as on the mainline column (Debian's 6.12), except
# the cases docs/mainline.md lists under "## The newest step against
# 6.12", each with its reason.  A case that differs and is not listed
# fails, and so does one listed that no longer differs: the page stays
# what the matrix says.  Upstream's own token selftest runs on both
# kernels and its rows are compared like a demo's; the tree's own
# (test_token) is the series' and runs on the steps alone.
#
# Needs build/report/matrix.tsv newer than the demo sources and step
# patches; tests/run.sh runs it right after the matrix with
# NEWEST_NEED_MATRIX=1, where it must compare, and a host-test run
# before the VM phase skips the comparison.
. "$(dirname "$0")/lib.sh"

matrix=${NEWEST_MATRIX:-$BUILD/report/matrix.tsv}
page=$TOP/docs/mainline.md
heading='## The newest step against 6.12'

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# differing MATRIX STEP: "demo:case" of every case both kernels run whose
# measured answer on STEP is not mainline's
differing() {
	awk -F'\t' -v s="$2" 'NR > 1 && ($1 !~ /^selftest:/ || $1 == "selftest:upstream_token") &&
		($3 == s || $3 == "mainline") {
			k = $1 ":" $2; got[k, $3] = $5; keys[k] = 1
		}
		END { for (k in keys) if (got[k, s] != got[k, "mainline"]) print k }' "$1" | sort
}

# listed PAGE: the "demo:case" names in the section's "- `demo:case`:" lines
listed() {
	awk -v h="$heading" '$0 == h { on = 1; next } on && /^## / { exit }
		on && /^- `[^`]*:[^`]*`:/ { sub(/^- `/, ""); sub(/`:.*/, ""); print }' "$1" | sort
}

# same_set DIFFERING LISTED: the two lists agree, or say how they do not
same_set() {
	unlisted=$(comm -23 "$1" "$2" | paste -sd' ' -)
	stale=$(comm -13 "$1" "$2" | paste -sd' ' -)
	[ -z "$unlisted" ] || echo "    differs but not on the page: $unlisted"
	[ -z "$stale" ] || echo "    on the page but reads as on mainline: $stale"
	[ -z "$unlisted$stale" ]
}

newest=$(step_id "$(series_steps | tail -1)")
check "docs/mainline.md has the section '$heading'" grep -qx "$heading" "$page"
listed "$page" >"$scratch/listed"

matrix_to_compare "$matrix" "${NEWEST_NEED_MATRIX:-0}"
if [ -n "$compare" ] && [ -s "$matrix" ]; then
	differing "$matrix" "$newest" >"$scratch/differing"
	check "step-$newest reads as mainline but for the $(wc -l <"$scratch/listed") case(s) the page lists" \
		same_set "$scratch/differing" "$scratch/listed"
	upstream_ok=$(awk -F'\t' -v s="$newest" '$1 == "selftest:upstream_token" && $3 == s && $5 == "ok"' "$matrix" | wc -l)
	upstream_all=$(awk -F'\t' '$1 == "selftest:upstream_token" && $3 == "mainline"' "$matrix" | wc -l)
	all_ok=no
	[ "$upstream_all" -gt 0 ] && [ "$upstream_ok" = "$upstream_all" ] && all_ok=yes
	check "upstream's token selftest on step-$newest: $upstream_ok of mainline's $upstream_all subtests ok" \
		[ "$all_ok" = yes ]
fi

# the check itself can fail, both ways
printf 'demo\tcase\tstep\texpected\tmeasured\tverdict\n' >"$scratch/m.tsv"
printf 'd\ta.same\t99\tok\tok\tpass\nd\ta.same\tmainline\tok\tok\tpass\n' >>"$scratch/m.tsv"
printf 'd\ta.diff\t99\tok\tok\tpass\nd\ta.diff\tmainline\tEPERM\tEPERM\tpass\n' >>"$scratch/m.tsv"
differing "$scratch/m.tsv" 99 >"$scratch/d"
: >"$scratch/none"
expect_fail "an unlisted difference is caught" "d:a.diff" same_set "$scratch/d" "$scratch/none"
printf 'd:a.diff\nd:a.same\n' | sort >"$scratch/two"
expect_fail "a listed case that no longer differs is caught" "d:a.same" same_set "$scratch/d" "$scratch/two"
done_testing
