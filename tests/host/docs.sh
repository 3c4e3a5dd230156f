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
# The answer key: docs/learner.awk drops a "## Answer" section (up to the
# next "#"/"##" heading outside code) and nothing else...
fixture=$(printf '# T\n\n## Exercise\n\nQ?\n\n## Answer\n\nsecret\n\n```\n## inside code\n```\n\n### sub\n\n- check: a:b @ 04 = ok\n\n## Try it\n\n```\n## Answer\n```\n')
got=$(printf '%s\n' "$fixture" | awk -f "$TOP/docs/learner.awk")
want=$(printf '# T\n\n## Exercise\n\nQ?\n\n## Try it\n\n```\n## Answer\n```\n')
check "docs/learner.awk leaves out the Answer section, and only it" [ "$got" = "$want" ]
# ... so no learner page, nor the deck, shows an answer
learner=$(grep -l -E '^#+ Answer[[:space:]]*$|^- check: ' "$BUILD"/docs/src/step-*.md \
	"$BUILD/docs/src/all.md" "$BUILD/slides/slides.md" 2>/dev/null || true)
check "no learner page and not the deck shows an answer${learner:+ (but: $learner)}" [ -z "$learner" ]
# the instructor page has every step's answer, every check line of it,
# and no other page links it
for s in $(series_steps); do
	id=$(step_id "$s")
	n=$(awk '/^## Answer/ { on = 1; next } on && /^##? / { exit } on && /^- check: /' \
		"$TOP/steps/$s/NOTES.md" | wc -l)
	grep -q '^## Answer' "$TOP/steps/$s/NOTES.md" || continue
	got=$(awk -v h="step-$id.html" 'index($0, "## [") == 1 { on = index($0, "](" h ")") > 0; next }
		on && /^- check: /' "$BUILD/docs/src/instructor.md" | wc -l)
	check "the instructor page has step $id's answer with its $n check line(s) ($got)" [ "$got" = "$n" ]
done
check "the instructor page is built" [ -s "$BUILD/docs/instructor.html" ]
links=$(grep -l 'href="[^"]*instructor\.html' "$BUILD"/docs/*.html "$BUILD/slides/index.html" | grep -v '/instructor.html$' || true)
check "no learner page links the instructor page${links:+ (but: $links)}" [ -z "$links" ]

# The matrix a learner can read: grouped by demo, the flips outlined, and
# each step page opens with its flips.
if [ -f "$BUILD/report/matrix.tsv" ]; then
	check "the landing page's matrix has a row per demo" grep -q '<tr class="demo">' "$BUILD/docs/index.html"
	nflips=$(awk -F'\t' -f "$TOP/docs/flips.awk" "$BUILD/report/matrix.tsv" | wc -l)
	got=$(grep -o '<td class="[a-z]* flip"' "$BUILD/docs/index.html" | wc -l)
	check "the landing page outlines every flip docs/flips.awk finds ($nflips, $got)" [ "$got" = "$nflips" ]
fi
for s in $(series_steps); do
	id=$(step_id "$s")
	check "step-$id's page opens with what the step changes" \
		sh -c "grep -m1 '^## ' '$BUILD/docs/src/step-$id.md' | grep -q '^## What this step changes'"
done

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
