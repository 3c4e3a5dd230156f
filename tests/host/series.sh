#!/bin/sh
# steps/series is checked before anything uses it.
. "$(dirname "$0")/lib.sh"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/steps/00-base" "$scratch/steps/01-one" "$scratch/kernel"
echo notes >"$scratch/steps/00-base/NOTES.md"
echo notes >"$scratch/steps/01-one/NOTES.md"
cp "$TOP/kernel/lib.sh" "$scratch/kernel/"
in_scratch() {
	TOP=$scratch sh -c ". '$scratch/kernel/lib.sh'; $*"
}
printf '00-base\n# a comment\n\n01-one\n' >"$scratch/steps/series"
expect_fail "a step without its patch" "steps/01-one/patch is missing" in_scratch check_series
echo patch >"$scratch/steps/01-one/patch"
check "a complete series passes" in_scratch check_series
check "comments and blank lines are skipped" [ "$(in_scratch series_ids)" = "00 01" ]
printf '00-base\n01-one\n02-missing\n' >"$scratch/steps/series"
expect_fail "a listed folder that does not exist" "02-missing/ does not exist" in_scratch check_series
printf '00-base\nbogus\n' >"$scratch/steps/series"
expect_fail "a malformed name" "not of the form" in_scratch check_series
check "the real series is consistent" check_series
done_testing
