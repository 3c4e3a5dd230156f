#!/bin/sh
# The docs as a person sees them: every local link and image of the site
# and the deck resolves; the site reads as a book (every page's contents
# list every step in series order and every other learner page, every
# step page links the step before and after it); and headless Chromium
# (Debian's, with its network use switched off and every host name
# unresolvable) renders the landing page and a step page into
# screenshots that are not blank.
. "$(dirname "$0")/lib.sh"

[ -f "$BUILD/docs/index.html" ] || sh "$TOP/docs/gen.sh" >/dev/null
[ -f "$BUILD/slides/index.html" ] || sh "$TOP/slides/slides.sh" >/dev/null
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

done_testing
