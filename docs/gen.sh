#!/bin/sh
# make docs: a static site in build/docs/ from the steps' NOTES.md, their
# patches and the last measured matrix.  Works offline: pandoc's
# standalone HTML with its own CSS, nothing fetched.
#
# Each step page interleaves the annotations with the hunks they name
# (the same hunk names tests/annotations.sh checks), then the step's
# matrix column as measured by the last `make check`/`make matrix` -
# or says that nothing was measured.
set -eu
. "$(dirname "$0")/../kernel/lib.sh"

command -v pandoc >/dev/null || die "pandoc not found; run 'make deps'"
SRC=$BUILD/docs/src
DEST=$BUILD/docs
rm -rf "$DEST"
mkdir -p "$SRC"
MATRIX=$BUILD/report/matrix.tsv

# hunks_named PATCH NAME: the hunks of PATCH whose name is NAME, as diff.
hunks_named() {
	awk -v want="$2" '
		function flush() { if (keep && hunk != "") printf "%s", hunk; hunk = "" }
		/^diff --git / { flush(); keep = 0; newfile = 0; header = ""; next }
		/^--- \/dev\/null/ { newfile = 1 }
		/^--- / { header = $0 "\n"; next }
		/^\+\+\+ b\// { file = substr($0, 7); header = header $0 "\n"; next }
		/^@@ / {
			flush()
			ctx = $0
			sub(/^@@ [^@]* @@ ?/, "", ctx)
			if (newfile) name = "(new file)"
			else if (ctx == "") name = "(top)"
			else if (match(ctx, /[A-Za-z0-9_]\(/)) {
				name = substr(ctx, 1, RSTART)
				n = split(name, w, /[ \t*]+/)
				name = w[n] "()"
			} else {
				name = ctx
				while (sub(/[ \t]*[{};=][ \t]*$/, "", name))
					;
			}
			keep = (file ": " name == want)
			hunk = (keep ? header : "") $0 "\n"
			header = ""
			next
		}
		/^-- $/ { flush(); keep = 0; next }
		{ if (hunk != "") hunk = hunk $0 "\n" }
		END { flush() }' "$1"
}

step_page() {
	s=$1
	id=$(step_id "$s")
	notes=$TOP/steps/$s/NOTES.md
	patch=$TOP/steps/$s/patch
	out=$SRC/step-$id.md
	{
		# the annotation, each "### hunk" heading followed by its hunks
		# (the first line, the "# Step NN" title, becomes the page title)
		awk 'NR == 1 && /^# / { next }
			/^### / { print; print ""; print "@@HUNKS@@ " substr($0, 5); next } { print }' "$notes" |
		while IFS= read -r line; do
			case $line in
			"@@HUNKS@@ "*)
				name=${line#@@HUNKS@@ }
				echo '```diff'
				[ -f "$patch" ] && hunks_named "$patch" "$name"
				echo '```'
				;;
			*) printf '%s\n' "$line" ;;
			esac
		done
		echo
		echo "## The matrix column, as measured"
		echo
		if [ -f "$MATRIX" ] && head -1 "$MATRIX" | grep -q "step-$id"; then
			echo "Measured $(date -u -r "$MATRIX" '+%Y-%m-%d %H:%M UTC') on the kernel of branch \`step-$id\` ($(git -C "$LINUX" rev-parse --short=12 "step-$id" 2>/dev/null || echo '?'))."
			echo
			col=$(head -1 "$MATRIX" | tr '\t' '\n' | grep -n "^step-$id\$" | cut -d: -f1)
			echo "| case | result |"
			echo "|---|---|"
			awk -F'\t' -v c="$col" 'NR > 1 { printf "| `%s` | %s |\n", $1, $c }' "$MATRIX"
		else
			echo "Not measured yet: run \`make matrix\` (or \`make check\`) before \`make docs\`."
		fi
		demo=$TOP/userspace-demo/$s.c
		if [ -f "$demo" ]; then
			echo
			echo "## The demo: userspace-demo/$s.c"
			echo
			echo '```{.c .numberLines}'
			cat "$demo"
			echo '```'
		fi
	} >"$out"
}

index_page() {
	{
		echo "---"
		echo "title: BPF token, step by step, on Linux 6.1"
		echo "---"
		echo
		sed -n '/^The "BPF token/,/^## The two commands/p' "$TOP/README.md" | sed '$d'
		echo "## The steps"
		echo
		for s in $(series_steps); do
			title=$(sed -n '1s/^# //p' "$TOP/steps/$s/NOTES.md")
			echo "- [$title](step-$(step_id "$s").html)"
		done
		echo
		echo "## The whole matrix"
		echo
		if [ -f "$MATRIX" ]; then
			echo "Every demo case on every step's kernel, as measured $(date -u -r "$MATRIX" '+%Y-%m-%d %H:%M UTC')."
			echo
			awk -F'\t' 'NR == 1 { printf "|"; for (i = 1; i <= NF; i++) printf " %s |", $i; printf "\n|"
					for (i = 1; i <= NF; i++) printf "---|"; printf "\n"; next }
				{ printf "| `%s` |", $1; for (i = 2; i <= NF; i++) printf " %s |", $i; printf "\n" }' "$MATRIX"
		else
			echo "Not measured yet: run \`make matrix\` before \`make docs\`."
		fi
	} >"$SRC/index.md"
}

for s in $(series_steps); do
	step_page "$s"
done
index_page
for md in "$SRC"/*.md; do
	name=$(basename "$md" .md)
	case $name in
	index) title= ;;	# the landing page has its own title block
	*) title=$(sed -n '1s/^# //p' "$TOP/steps/$(series_steps | awk -v id="${name#step-}" 'index($0, id "-") == 1')/NOTES.md") ;;
	esac
	pandoc --standalone --from markdown --to html5 --toc --toc-depth 2 --css style.css \
		${title:+--metadata title="$title"} -o "$DEST/$name.html" "$md"
done
cp "$TOP/docs/style.css" "$DEST/"
info "docs: $(ls "$DEST"/*.html | wc -l) pages in build/docs/ (open build/docs/index.html)"
