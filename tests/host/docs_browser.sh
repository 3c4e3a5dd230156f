#!/bin/sh
# The docs as a person sees them: every local link and image of the site
# and the deck resolves; the site reads as a book (every page's contents
# list every step in series order and every other learner page, every
# step page links the step before and after it); and headless Chromium
# (Debian's, with its network use switched off and every host name
# unresolvable) renders the landing page and a step page into
# screenshots that are not blank, and lays every learner page out with
# prose lines of about 80 characters at 1280 px and nothing wider than
# the window, at 1280 px nor on a 390 px phone - the matrix too, drawn
# from a fixture when no matrix was measured.
. "$(dirname "$0")/lib.sh"

[ -f "$BUILD/docs/index.html" ] && [ -f "$BUILD/slides/index.html" ] ||
	{ echo "no site or deck in build/: run make docs and make slides"; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

broken=
for page in "$BUILD"/docs/*.html "$BUILD/slides/index.html"; do
	dir=$(dirname "$page")
	for target in $(grep -o -E '(href|src)="[^"#:]+' "$page" | sed 's/^[a-z]*="//' | sort -u); do
		[ -e "$dir/$target" ] || broken="$broken $(basename "$page"):$target"
	done
done
check "no broken local link or image${broken:+ (broken:$broken)}" [ -z "$broken" ]

# The book's navigation, as docs/template.html writes it.
# contents PAGE: the page's contents (the sidebar), a tag a line (pandoc
# wraps long lines, inside a tag too)
contents() {
	sed -n '/<aside class="book-nav">/,/<\/aside>/p' "$1" | tr '\n' ' ' | sed 's/</\n</g'
}
# contents_links PAGE: every page its contents link, in order
contents_links() {
	contents "$1" | grep -o 'href="[^"]*"' | sed 's/^href="//; s/"$//'
}
# current PAGE: the entries its contents mark as the page being read
current() {
	contents "$1" | grep '^<a [^>]*aria-current="page"' |
		sed 's/^<a href="\([^"]*\)".*/\1/' | paste -sd' ' -
}
# neighbour PAGE prev|next: where its link to the step before/after goes
neighbour() {
	grep -o "<a rel=\"$2\" href=\"[^\"]*\"" "$1" | sed 's/.*href="//; s/"$//' | sort -u | paste -sd' ' -
}
# the step pages in steps/series order, one line; then each with the
# one before and after it ("-": none)
steps=$(for s in $(series_steps); do echo "step-$(step_id "$s").html"; done)
all_steps=$(echo "$steps" | paste -sd' ' -)
echo "$steps" | awk '{ p[NR] = $0 }
	END { for (i = 1; i <= NR; i++) print p[i], (i > 1 ? p[i - 1] : "-"), (i < NR ? p[i + 1] : "-") }' \
	>"$scratch/neighbours"
while read -r page prev next; do
	f=$BUILD/docs/$page
	got=$(contents_links "$f" | grep '^step-' | paste -sd' ' -)
	cur=$(current "$f")
	[ "$got" = "$all_steps" ] && lists= || lists=" (but: ${got:-none})"
	[ "$cur" = "$page" ] && marks= || marks=" (but: ${cur:-none})"
	check "$page's contents list every step in series order$lists and mark $page$marks" \
		[ -z "$lists$marks" ]
	want_prev=${prev#-} want_next=${next#-}
	got_prev=$(neighbour "$f" prev) got_next=$(neighbour "$f" next)
	check "$page links the step before, ${want_prev:-none} (${got_prev:-none}), and after, ${want_next:-none} (${got_next:-none})" \
		[ "$got_prev" = "$want_prev" -a "$got_next" = "$want_next" ]
done <"$scratch/neighbours"
# every page a learner reads (all but the answer key) is in every
# learner page's contents
for f in "$BUILD"/docs/*.html; do
	[ "$f" = "$BUILD/docs/instructor.html" ] || basename "$f"
done >"$scratch/learner"
learner=$(cat "$scratch/learner")
for page in $learner; do
	missing=$(contents_links "$BUILD/docs/$page" | sort -u | comm -13 - "$scratch/learner" | paste -sd' ' -)
	check "$page's contents link every learner page${missing:+ (not: $missing)}" [ -z "$missing" ]
done

chromium_headless() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --host-resolver-rules="MAP * ~NOTFOUND" \
		--user-data-dir="$scratch/profile" "$@" 2>/dev/null
}
shoot() {
	chromium_headless --window-size=1280,1400 --screenshot="$scratch/$2.png" "file://$1" >/dev/null
}
for page in index step-04; do
	shoot "$BUILD/docs/$page.html" "$page"
	# a blank 1280x1400 page compresses to a few kB; text makes it large
	size=$(stat -c %s "$scratch/$page.png" 2>/dev/null || echo 0)
	check "$page renders, not blank ($size bytes of PNG)" [ "$size" -gt 20000 ]
done

# The layout, measured.  The widest thing the site draws is the matrix,
# which needs build/report/matrix.tsv; without one, a copy of the site
# is made with a fixture matrix (every step and mainline, a long case
# name) to measure its landing page.
fixture_matrix() {
	local c id got
	printf 'demo\tcase\tstep\texpected\tmeasured\tverdict\n'
	for c in no_token token_in_userns a_case_with_a_rather_long_name; do
		for id in $(series_ids) mainline; do
			case $id in 0[0-3]*) got=EPERM ;; *) got=ok ;; esac
			printf 'map_create\t%s\t%s\tok\t%s\t%s\n' "$c" "$id" "$got" \
				"$([ "$got" = ok ] && echo pass || echo fail)"
		done
	done
}
matrix_site=$BUILD/docs
if [ ! -f "$BUILD/report/matrix.tsv" ]; then
	mkdir -p "$scratch/build/report"
	fixture_matrix >"$scratch/build/report/matrix.tsv"
	BUILD=$scratch/build sh "$TOP/docs/gen.sh" >/dev/null 2>&1
	matrix_site=$scratch/build/docs
fi
# One page holding an iframe per page and width - an iframe is a
# viewport of its own, as narrow as asked, where chromium's window is
# never narrower than 500 px - that tests/host/docs_measure.js measures
# once all have loaded: a line "PAGE WIDTH CHARS SCROLL VIEWPORT" each.
frame() {
	echo "<iframe data-page=\"$1\" src=\"file://$2\" width=\"$3\" height=\"800\"></iframe>"
}
{
	echo '<!DOCTYPE html><html><body>'
	for page in $learner; do
		frame "$page" "$BUILD/docs/$page" 1280
		frame "$page" "$BUILD/docs/$page" 390
	done
	frame "the matrix" "$matrix_site/index.html" 1280
	frame "the matrix" "$matrix_site/index.html" 390
	echo "<script src=\"file://$TOP/tests/host/docs_measure.js\"></script></body></html>"
} >"$scratch/book.html"
tab=$(printf '\t')
chromium_headless --allow-file-access-from-files --hide-scrollbars --window-size=1400,900 \
	--dump-dom "file://$scratch/book.html" | sed -n '/<pre id="measured">/,/<\/pre>/p' |
	grep "^[^<]*${tab}[0-9]*${tab}[0-9]*${tab}[0-9]*${tab}[0-9]*\$" >"$scratch/measured" || true
want=$(grep -c '<iframe' "$scratch/book.html")
got=$(wc -l <"$scratch/measured")
check "chromium measured every page at 1280 and at 390 px ($got of $want)" [ "$got" = "$want" ]
while IFS=$tab read -r page width chars scroll viewport; do
	if [ "$width" = 1280 ]; then
		check "$page at 1280 px: prose lines of 60 to 90 characters ($chars)" \
			[ "$chars" -ge 60 -a "$chars" -le 90 ]
	fi
	check "$page at $width px: nothing wider than the window ($scroll of $viewport px)" \
		[ "$scroll" -le "$viewport" ]
done <"$scratch/measured"
done_testing
