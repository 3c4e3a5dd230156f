#!/bin/sh
# docs/gen.sh stopped halfway must leave the site it found, whole.  make
# keeps build/docs/index.html: a run that wrote a new index.html and
# then stopped would leave half a site that make takes for current
# until a source changes.  Here pandoc stops it, on a page with a broken
# metadata block, in a copy of the sources over a copy of the site that
# make docs made.
. "$(dirname "$0")/lib.sh"

[ -f "$BUILD/docs/index.html" ] || { echo "no build/docs: run make docs first"; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -r "$TOP/steps" "$TOP/docs" "$TOP/kernel" "$TOP/userspace-demo" "$scratch/"
mkdir -p "$scratch/build"
cp -rp "$BUILD/docs" "$scratch/build/docs"
cp -rp "$BUILD/docs" "$scratch/before"
printf '\n---\nbroken: [unclosed\n---\n' >>"$scratch/docs/glossary.md"

expect_fail "a page pandoc cannot read stops make docs" "YAML parse exception" \
	env TOP="$scratch" BUILD="$scratch/build" sh "$scratch/docs/gen.sh"
check "... and the site it found is still there, every page as it was" \
	diff -r "$scratch/before" "$scratch/build/docs"
done_testing
