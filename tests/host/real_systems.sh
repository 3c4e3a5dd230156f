#!/bin/sh
# docs/real-systems.md: every row of its two tables says where it was
# checked, every client row whether this project runs it or documents
# it; the site and the deck's appendix show both tables.
. "$(dirname "$0")/lib.sh"

page=$TOP/docs/real-systems.md
# rows SECTION: the table rows of that section, header and rule left out
rows() {
	awk -v h="$1" '$0 == h { on = 1; next } on && /^## / { exit }
		on && /^\| / && !/^\|:--/ { if (seen++) print }' "$page"
}
clients=$(rows "## Clients and managers")
kernels=$(rows "## Kernels")
check "the page has client rows" [ "$(printf '%s\n' "$clients" | wc -l)" -ge 6 ]
check "the page has kernel rows" [ "$(printf '%s\n' "$kernels" | wc -l)" -ge 5 ]
unsourced=$(printf '%s\n%s\n' "$clients" "$kernels" |
	awk -F' *[|] *' '$(NF - 1) == "" { print $2 }')
check "every row says where it was checked${unsourced:+ (not: $unsourced)}" [ -z "$unsourced" ]
unsaid=$(printf '%s\n' "$clients" |
	awk -F' *[|] *' '$5 !~ /^(\*\*)?(runs|documents)/ { print $2 }')
check "every client row says runs or documents${unsaid:+ (not: $unsaid)}" [ -z "$unsaid" ]
# every row that says "runs" names a case (`demo.case`) that a demo or
# suite of userspace-demo/ has
unshown=$(printf '%s\n' "$clients" | awk -F' *[|] *' '$5 ~ /^(\*\*)?runs/' |
	while IFS= read -r row; do
		cases=$(printf '%s\n' "$row" | awk -F' *[|] *' '{ print $5 }' |
			grep -o '`[a-z_0-9]*\.[a-z_0-9]*`' | tr -d '`')
		[ -n "$cases" ] || { printf '%s\n' "$row" | awk -F' *[|] *' '{ print $2, $3 }'; continue; }
		for c in $cases; do
			grep -rqF "\"$c\"" "$TOP/userspace-demo" || echo "$c"
		done
	done)
check "every row this project runs names cases its demos have${unshown:+ (not: $(echo $unshown))}" [ -z "$unshown" ]
check "the site has the page, linked from the landing page" \
	grep -q 'href="real-systems.html"' "$BUILD/docs/index.html"
for slide in "who speaks tokens" "which kernels have tokens"; do
	check "the deck's appendix has \"$slide\"" grep -q "Appendix: $slide" "$BUILD/slides/index.html"
done
missing=$(printf '%s\n' "$clients" | awk -F' *[|] *' '{ print $2 }' | sort -u |
	while read -r system; do
		awk '/Appendix: who speaks tokens/,/Appendix: which kernels/' "$BUILD/slides/index.html" |
			grep -qF "$system" || echo "$system"
	done)
check "the appendix lists every client of the page${missing:+ (not: $missing)}" [ -z "$missing" ]
done_testing
