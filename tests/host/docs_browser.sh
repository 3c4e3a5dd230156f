#!/bin/sh
# The docs as a person sees them: every local link and image of the site
# and the deck resolves, and headless Chromium (Debian's, with its
# network use switched off and every host name unresolvable) renders the
# landing page and a step page into screenshots that are not blank.
. "$(dirname "$0")/lib.sh"

[ -f "$BUILD/docs/index.html" ] || sh "$TOP/docs/gen.sh" >/dev/null
[ -f "$BUILD/slides/index.html" ] || sh "$TOP/slides/slides.sh" >/dev/null

broken=
for page in "$BUILD"/docs/*.html "$BUILD/slides/index.html"; do
	dir=$(dirname "$page")
	for target in $(grep -o -E '(href|src)="[^"#:]+' "$page" | sed 's/^[a-z]*="//' | sort -u); do
		[ -e "$dir/$target" ] || broken="$broken $(basename "$page"):$target"
	done
done
check "no broken local link or image${broken:+ (broken:$broken)}" [ -z "$broken" ]

shots=$(mktemp -d)
trap 'rm -rf "$shots"' EXIT
shoot() {
	timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --host-resolver-rules="MAP * ~NOTFOUND" \
		--user-data-dir="$shots/profile" --window-size=1280,1400 \
		--screenshot="$shots/$2.png" "file://$1" >/dev/null 2>&1
}
for page in index step-04; do
	shoot "$BUILD/docs/$page.html" "$page"
	# a blank 1280x1400 page compresses to a few kB; text makes it large
	size=$(stat -c %s "$shots/$page.png" 2>/dev/null || echo 0)
	check "$page renders, not blank ($size bytes of PNG)" [ "$size" -gt 20000 ]
done
done_testing
