#!/bin/sh
# make docs: every step gets a page, every hunk of its patch appears on
# it beside its annotation, and the landing page links every step.
. "$(dirname "$0")/lib.sh"

check "make docs succeeds" sh "$TOP/docs/gen.sh"
for s in $(series_steps); do
	id=$(step_id "$s")
	page=$BUILD/docs/step-$id.html
	check "step-$id has a page" [ -s "$page" ]
	check "the landing page links step-$id" grep -q "href=\"step-$id.html\"" "$BUILD/docs/index.html"
	[ -f "$TOP/steps/$s/patch" ] || continue
	want=$(grep -c '^@@ ' "$TOP/steps/$s/patch")
	check "step-$id's page shows all $want hunks" \
		[ "$(grep -c '^@@ ' "$BUILD/docs/src/step-$id.md")" = "$want" ]
done
# every escape case is explained on the reliability page, and it exists
for c in $(sed -n 's/^\t{ "\(escape\.[a-z_]*\)".*/\1/p' "$TOP/userspace-demo/suites/escape.c"); do
	check "docs/reliability.md explains $c" grep -q "\`$c\`" "$TOP/docs/reliability.md"
done
check "the reliability page is built and linked" \
	grep -q 'href="reliability.html"' "$BUILD/docs/index.html"
# every case with its own mainline expectation is explained on the
# v6 -> mainline page, which has a section per kind of change
for c in $(cat "$TOP"/userspace-demo/*.c "$TOP"/userspace-demo/suites/*.c | awk '
	match($0, /^\t\{ "[a-z_0-9]+\.[a-z_0-9]+"/) { name = substr($0, RSTART + 4, RLENGTH - 5) }
	/\{ "mainline",/ { print name }'); do
	check "docs/mainline.md explains $c" grep -q "\`$c\`" "$TOP/docs/mainline.md"
done
for h in "UAPI" "Token creation" "Delegation options" "Token use"; do
	check "docs/mainline.md has a section on $h" grep -q "^## $h" "$TOP/docs/mainline.md"
done
check "the mainline page is built and linked" \
	grep -q 'href="mainline.html"' "$BUILD/docs/index.html"
# nothing on a page may reach for the network
check "no page loads anything from the network" \
	sh -c "! grep -l -E '(src|href)=\"(https?:)?//' '$BUILD'/docs/*.html"

check "make slides succeeds" sh "$TOP/slides/slides.sh"
n_steps=$(series_steps | wc -l)
n_opening=$(grep -c '^# ' "$TOP/slides/slides-opening.md")
check "the deck has the opening plus one slide per step" \
	[ "$(grep -c '<section' "$BUILD/slides/index.html")" -ge $((n_steps + n_opening)) ]
check "the deck loads nothing from the network" \
	sh -c "! grep -E '(src|href)=\"(https?:)?//' '$BUILD/slides/index.html'"
done_testing
