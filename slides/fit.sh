#!/bin/sh
# The deck as a projector shows it: open every slide of build/slides/
# in headless Chromium at each screen size and measure, in the DOM,
# whether anything on it lies outside the slide's box; then print every
# slide to build/slides/slides.pdf, the handout, and count its pages.
#
#   slides/fit.sh [DECK.html]   default build/slides/index.html
#   FIT_SIZES='1280x720 1024x768'  the screen sizes (the default)
#   FIT_VERBOSE=1                   also list the slides that fit
#
# Prints a line per slide and size that does not fit ("fit 1280x720 3/1
# OVER 12px text <p> 'what' 'slide title'"), then a summary per size, the
# handout's page count and, last, "fit: every slide fits at SIZES"; exits
# 1 if any slide overflows at any size or the PDF's page count is not the
# slide count.
#
# How: a copy of the deck gets a script that walks every slide through
# reveal.js's API, compares each text node's and element's box with the
# slide's (.reveal .slides, after reveal scaled it to the window) and
# writes its verdict into the page, which Chromium's --dump-dom prints.
# The browser has its network switched off and resolves no host name.
set -eu
. "$(dirname "$0")/../kernel/lib.sh"

DECK=${1:-$BUILD/slides/index.html}
SIZES=${FIT_SIZES:-1280x720 1024x768}
[ -f "$DECK" ] || die "no deck at $DECK; run 'make slides'"
command -v chromium >/dev/null || die "chromium not found; run 'make deps'"
DIR=$(cd "$(dirname "$DECK")" && pwd)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

browser() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --host-resolver-rules="MAP * ~NOTFOUND" \
		--user-data-dir="$work/profile" --virtual-time-budget=20000 "$@" 2>"$work/chromium.log"
}

# probe FILE [SCRIPT]: a copy of the deck beside it, so its relative links
# resolve, with requestAnimationFrame on a timer (headless Chromium's
# virtual time does not always run animation frames, and reveal.js awaits
# them before it lays out its print view) and SCRIPT before </body>.
probe() {
	awk -v script="${2:-}" '
		/<script src="reveal.js\/dist\/reveal.js">/ {
			print "<script>window.requestAnimationFrame = function (cb) {"
			print "\treturn setTimeout(function () { cb(performance.now()); }, 16); };</script>"
		}
		script != "" && /<\/body>/ { while ((getline l < script) > 0) print l }
		{ print }' "$DECK" >"$1"
}

probe=$DIR/.fit-probe.html
print=$DIR/.print-probe.html
trap 'rm -rf "$work" "$probe" "$print"' EXIT INT TERM
probe "$probe" "$TOP/slides/fit.js"
probe "$print"

bad=0
for size in $SIZES; do
	w=${size%x*} h=${size#*x}
	browser --window-size="$w,$h" --dump-dom "file://$probe" >"$work/dom.html" || true
	# the verdict: the text of <pre id="fit-verdict">, entities undone
	sed -n '/<pre id="fit-verdict">/,/<\/pre>/p' "$work/dom.html" |
		sed -e 's/<[^>]*>//g' -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&quot;/"/g' -e 's/&amp;/\&/g' |
		sed '/^$/d' >"$work/verdict"
	if ! grep -q '^slides ' "$work/verdict"; then
		echo "fit $size: no verdict from the page (reveal.js did not start?)"
		sed 's/^/    chromium: /' "$work/chromium.log" | tail -5
		bad=1
		continue
	fi
	if [ -n "${FIT_VERBOSE:-}" ]; then
		sed "s/^/fit $size /" "$work/verdict"
	else
		grep -v -e "^[0-9]*/[0-9]* ok " -e "^plugins " "$work/verdict" | sed "s/^/fit $size /"
	fi
	# the presenter view (S) is reveal.js's notes plugin
	grep -q '^plugins .*notes' "$work/verdict" ||
		{ echo "fit $size: reveal.js runs without its notes plugin: no presenter view"; bad=1; }
	n=$(sed -n 's/^slides \([0-9]*\) .*/\1/p' "$work/verdict")
	over=$(sed -n 's/^slides [0-9]* overflowing \([0-9]*\).*/\1/p' "$work/verdict")
	[ "$over" = 0 ] || bad=1
	[ "$n" -gt 0 ] || bad=1
	[ -z "${slides:-}" ] || [ "$slides" = "$n" ] || { echo "fit: $slides slides at one size, $n at another"; bad=1; }
	slides=$n
done

# The handout: reveal's print layout (?print-pdf), one page per slide
# the deck index.html prints to slides.pdf, any other X.html to X.pdf
case $DECK in
*/index.html) pdf=$DIR/slides.pdf ;;
*) pdf=${DECK%.html}.pdf ;;
esac
rm -f "$pdf"
browser --no-pdf-header-footer --print-to-pdf="$pdf.new" "file://$print?print-pdf" >/dev/null || true
if [ -s "$pdf.new" ]; then
	mv "$pdf.new" "$pdf"
	# Chromium writes every page object as "/Type /Page", the tree as "/Pages"
	pages=$(grep -a -o -E '/Type ?/Pages?' "$pdf" | grep -c -v Pages || true)
	if [ "$pages" = "${slides:-?}" ]; then
		echo "pdf: $pdf, $pages pages, one per slide"
	else
		echo "pdf: $pdf has $pages pages, the deck ${slides:-?} slides"
		bad=1
	fi
else
	echo "pdf: Chromium printed nothing"
	tail -5 "$work/chromium.log"
	bad=1
fi
[ "$bad" = 0 ] || exit 1
echo "fit: every slide fits at $SIZES"
