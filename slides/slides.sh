#!/bin/sh
# make slides: build/slides/index.html, a self-contained deck (pandoc's
# dzslides format carries its own CSS and script, nothing is fetched).
# A hand-written opening (slides/slides-opening.md), then one slide per
# step from its NOTES.md and patch: the summary, its largest hunk, the
# matrix rows the step flips (as last measured) and the "try it" line;
# then an appendix from docs/mainline.md, one slide per upstream change.
set -eu
. "$(dirname "$0")/../kernel/lib.sh"

command -v pandoc >/dev/null || die "pandoc not found; run 'make deps'"
DEST=$BUILD/slides
MATRIX=$BUILD/report/matrix-wide.tsv
mkdir -p "$DEST"
md=$DEST/slides.md

# The hunk with the most added lines, cut to 18 lines.
key_hunk() {
	awk '
		/^diff --git / { file = "" }
		/^\+\+\+ b\// { file = substr($0, 7); next }
		/^@@ / { if (cur != "" && adds > best) { best = adds; keep = cur }
			 cur = "// " file "\n" $0 "\n"; adds = 0; n = 0; next }
		/^-- $/ { if (cur != "" && adds > best) { best = adds; keep = cur }; cur = ""; next }
		cur != "" { if (/^\+/) adds++; if (++n <= 16) cur = cur $0 "\n" }
		END { if (cur != "" && adds > best) keep = cur; printf "%s", keep }' "$1"
}

# Matrix rows whose cell on this step differs from the previous step's.
flips() {
	[ -f "$MATRIX" ] || return 0
	awk -F'\t' -v want="step-$1" '
		NR == 1 { for (i = 2; i <= NF; i++) if ($i == want) c = i; next }
		c > 2 && $c != $(c - 1) { printf "- `%s`: %s -> **%s**\n", $1, $(c - 1), $c }' "$MATRIX" |
		head -6
}

# Appendix: one slide per change that docs/mainline.md describes, with
# what step 13 and mainline answer for each case the section names.
mainline_appendix() {
	local title cases
	grep '^## ' "$TOP/docs/mainline.md" | grep -v '^## Not in' | sed 's/^## //' |
	while IFS= read -r title; do
		echo
		echo "# Appendix, v6 -> mainline: $title"
		echo
		cases=$(awk -v t="## $title" '$0 == t { on = 1; next } on && /^## / { exit } on' \
			"$TOP/docs/mainline.md" | grep -o '`[a-z_0-9]*\.[a-z_0-9]*`' | tr -d '`' | sort -u)
		[ -f "$BUILD/report/matrix.tsv" ] &&
		sh "$TOP/vm/matrix.sh" versus 13 mainline | awk -F'\t' -v cases="$cases" '
			BEGIN { n = split(cases, c, "\n"); for (i = 1; i <= n; i++) want[c[i]] = 1 }
			{ name = $1; sub(/^[^:]*:/, "", name) }
			name in want {
				if ($2 == $3) printf "- `%s`: %s on both\n", name, $2
				else printf "- `%s`: step 13 %s, mainline **%s**\n", name, $2, $3
			}' | sort
		echo
		echo "Details: build/docs/mainline.html; try it: \`make run STEP=mainline\`"
	done
}

{
	cat "$TOP/slides/slides-opening.md"
	for s in $(series_steps); do
		id=$(step_id "$s")
		notes=$TOP/steps/$s/NOTES.md
		echo
		echo "# $(sed -n '1s/^# Step //p' "$notes")"
		echo
		awk '/^## Summary/ { on = 1; next } on && /^## / { exit } on' "$notes" |
			awk 'NF { p = 1 } p && !NF { exit } p'
		if [ -f "$TOP/steps/$s/patch" ]; then
			echo
			echo '```diff'
			key_hunk "$TOP/steps/$s/patch"
			echo '```'
		fi
		f=$(flips "$id")
		if [ -n "$f" ]; then
			echo
			echo "What it flips:"
			echo
			printf '%s\n' "$f"
		fi
		echo
		echo "Try it: \`make run STEP=$id\`"
	done
	mainline_appendix
} >"$md"
pandoc --standalone --to dzslides --from markdown --metadata title="BPF token, step by step" \
	-o "$DEST/index.html" "$md"
info "slides: $(grep -c '^# ' "$md") slides in build/slides/index.html"
