#!/bin/sh
# What make slides built (tests/run.sh builds it before the host tests;
# this reads it): a reveal.js deck from its own copy of reveal.js, every
# slide inside its box at 1280x720 and 1024x768 as headless Chromium
# laid it out (slides/fit.sh's report, build/slides/fit.txt), a handout
# PDF with one page per slide, presenter notes on every step slide - and
# slides/fit.sh fails a slide that is too long or too wide.
. "$(dirname "$0")/lib.sh"

deck=$BUILD/slides/index.html
report=$BUILD/slides/fit.txt
[ -s "$deck" ] && [ -f "$report" ] || { echo "no deck or fit report in build/slides: run make slides"; exit 1; }
check "reveal.js is beside the deck" [ -f "$BUILD/slides/reveal.js/dist/reveal.js" ]
check "the deck loads reveal.js from its own copy" \
	grep -q '<script src="reveal.js/dist/reveal.js">' "$deck"
check "nothing of the deck reaches for the network" \
	sh -c "! grep -r -l -E '(src|href)=\"(https?:)?//|@import url\((https?:)?//' '$BUILD/slides' --include='*.html' --include='*.css'"

# the fit, at both sizes, and the handout, as make slides measured them
out=$(cat "$report")
printf '%s\n' "$out" | grep -v ' ok ' | sed 's/^/    /'
check "every slide fits at 1280x720 and 1024x768, the PDF has a page per slide" \
	grep -qx 'fit: every slide fits at 1280x720 1024x768' "$report"
for size in 1280x720 1024x768; do
	check "slides measured at $size" sh -c "printf '%s\n' \"\$1\" | grep -q '^fit $size slides [1-9][0-9]* overflowing 0 '" - "$out"
done
check "the handout is build/slides/slides.pdf" [ -s "$BUILD/slides/slides.pdf" ]

# presenter notes: the step's "Why" on its title slide, and notes on each
# of its slides (a step with a patch has three)
# sections: the deck, one <section ...> opening per line with its content
sections() {
	tr '\n' ' ' <"$deck" | sed 's/<section  */\n<section /g'
}
for s in $(series_steps); do
	id=$(step_id "$s")
	want=1
	[ -f "$TOP/steps/$s/patch" ] && want=3
	got=$(sections | awk -v id="$id" '
		match($0, /^<section id="[^"]*"/) { sid = substr($0, 14, RLENGTH - 14) }
		(sid == "step-" id || index(sid, "step-" id "-") == 1) && /<aside class="notes">/ { n++ }
		END { print n + 0 }')
	check "step $id: presenter notes on each of its $want slide(s) ($got)" [ "$got" = "$want" ]
	# the first words of the Why, up to a character pandoc typesets
	why=$(awk '/^## Why/ { on = 1; next } on && /^## / { exit } on && NF { print; exit }' \
		"$TOP/steps/$s/NOTES.md" | sed 's/[`*_"'"'"'].*//' | cut -c1-30 | tr -s ' ')
	check "step $id: its notes start with its Why ('$why')" \
		sh -c "sed -n '/<section id=\"step-$id\"/,/<\/aside>/p' '$deck' | sed 's/<[^>]*>//g' | tr '\n' ' ' | grep -q -F \"\$1\"" - "$why"
done

# A deliberately overlong slide, and one too wide, must fail the fit.
bad=$BUILD/slides/.fit-test-bad.html
trap 'rm -f "$bad" "${bad%.html}.pdf"' EXIT
long=$(i=0; while [ $i -lt 30 ]; do printf '<p>line %d of a slide that is too long</p>' $i; i=$((i + 1)); done)
sed "s|<section id=\"step-04\"|<section id=\"too-long\"><h2>too long</h2>$long</section>\n&|" "$deck" >"$bad"
expect_fail "a slide 30 paragraphs long fails the fit" "OVER [0-9]*px .*'too long'" \
	env FIT_SIZES=1024x768 sh "$TOP/slides/fit.sh" "$bad"
wide=$(printf '<pre><code>%0300d</code></pre>' 0)
sed "s|<section id=\"step-04\"|<section id=\"too-wide\"><h2>too wide</h2>$wide</section>\n&|" "$deck" >"$bad"
expect_fail "a code line 300 characters wide fails the fit" "OVER [0-9]*px .*'too wide'" \
	env FIT_SIZES=1280x720 sh "$TOP/slides/fit.sh" "$bad"
done_testing
