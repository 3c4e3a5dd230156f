#!/bin/sh
# make slides: build/slides/index.html, a self-contained deck (pandoc's
# dzslides format carries its own CSS and script, nothing is fetched).
# A hand-written opening (docs/slides-opening.md), then one slide per
# step from its NOTES.md and patch: the summary, its largest hunk, the
# matrix rows the step flips (as last measured) and the "try it" line.
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

{
	cat "$TOP/docs/slides-opening.md"
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
} >"$md"
pandoc --standalone --to dzslides --from markdown --metadata title="BPF token, step by step" \
	-o "$DEST/index.html" "$md"
info "slides: $(grep -c '^# ' "$md") slides in build/slides/index.html"
