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
MATRIX=$BUILD/report/matrix-wide.tsv

# hunks_named PATCH NAME: the hunks of PATCH whose name is NAME, as diff.
hunks_named() {
	awk -v want="$2" -f "$TOP/kernel/hunks.awk" "$1"
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
		console=$BUILD/logs/step-$id.console
		if [ -f "$console" ] && grep -q "^BPFTOK-DEMO-BEGIN $s\$" "$console"; then
			echo
			echo "## The demo's output, as measured"
			echo
			echo "From the last run on step-$id's kernel, $(date -u -r "$console" '+%Y-%m-%d %H:%M UTC'):"
			echo
			echo '```'
			awk -v d="$s" '$0 == "BPFTOK-DEMO-BEGIN " d { on = 1; next }
				on && index($0, "BPFTOK-DEMO-END ") == 1 { exit } on' "$console"
			echo '```'
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

# A hand-written page with its "# Title" line turned into pandoc's title
# block, quoted: a title with a colon is not valid YAML otherwise.
with_title_block() {
	sed '1s/^# \(.*\)/---\ntitle: "\1"\n---/' "$1"
}

# The matrix as an HTML table, each cell classed by its outcome; only
# the cases listed in $MATRIX_ROWS if that is set.
matrix_html() {
	echo '<table class="matrix">'
	awk -F'\t' -v rows="${MATRIX_ROWS:-}" '
		BEGIN { n = split(rows, r, "\n"); for (i = 1; i <= n; i++) want[r[i]] = 1 }
		NR == 1 { printf "<tr>"; for (i = 1; i <= NF; i++) printf "<th>%s</th>", $i; print "</tr>"; next }
		n { c = $1; sub(/^[^:]*:/, "", c); if (!(c in want)) next }
		{
			printf "<tr><td><code>%s</code></td>", $1
			for (i = 2; i <= NF; i++) {
				c = ($i == "ok") ? "ok" : ($i ~ /^fail:/) ? "fail" : ($i == "-") ? "none" : "err"
				printf "<td class=\"%s\">%s</td>", c, $i
			}
			print "</tr>"
		}' "$MATRIX"
	echo '</table>'
}

# Every step's "## Backport notes", one page.
backports_page() {
	{
		printf -- '---\ntitle: Backport notes, all steps\n---\n'
		echo
		echo "Every place where Debian's 6.1 forced a difference from the series."
		for s in $(series_steps); do
			notes=$TOP/steps/$s/NOTES.md
			grep -q '^## Backport notes' "$notes" || continue
			echo
			echo "## [$(sed -n '1s/^# //p' "$notes")](step-$(step_id "$s").html)"
			echo
			awk '/^## Backport notes/ { on = 1; next } on && /^## / { exit } on' "$notes"
		done
	} >"$SRC/backports.md"
}

# checkpatch over the whole series, as the tests run it.
checkpatch_page() {
	{
		printf -- '---\ntitle: checkpatch over the series\n---\n'
		echo
		echo "\`scripts/checkpatch.pl --strict\` from the tree, on every step patch;"
		echo "types a step keeps on purpose are explained in its NOTES.md."
		echo
		echo '```'
		sh "$TOP/tests/checkpatch.sh" 2>&1 || true
		echo '```'
	} >"$SRC/checkpatch.md"
}

# docs/reliability.md, then the measured rows of every case it names.
reliability_page() {
	{
		with_title_block "$TOP/docs/reliability.md"
		echo
		echo "## As measured"
		echo
		if [ -f "$MATRIX" ]; then
			echo "Every case named above, on every step's kernel, as measured $(date -u -r "$MATRIX" '+%Y-%m-%d %H:%M UTC'):"
			echo
			cases=$(grep -o '`[a-z_]*\.[a-z0-9_]*`' "$TOP/docs/reliability.md" | tr -d '`' | sort -u)
			MATRIX_ROWS=$cases matrix_html
		else
			echo "Not measured yet: run \`make check\` before \`make docs\`."
		fi
	} >"$SRC/reliability.md"
}

# docs/mainline.md, then every case whose answer differs between step 13
# and mainline, as measured: the differences the page must explain.
mainline_page() {
	{
		with_title_block "$TOP/docs/mainline.md"
		echo
		echo "## As measured: every case step 13 and mainline answer differently"
		echo
		if [ -f "$BUILD/report/matrix.tsv" ]; then
			echo "From \`make check\`, $(date -u -r "$BUILD/report/matrix.tsv" '+%Y-%m-%d %H:%M UTC'):"
			echo
			echo '<table class="matrix"><tr><th>case</th><th>step-13</th><th>mainline</th></tr>'
			sh "$TOP/vm/matrix.sh" versus 13 mainline | awk -F'\t' '$2 != $3 {
				printf "<tr><td><code>%s</code></td><td>%s</td><td>%s</td></tr>\n", $1, $2, $3 }'
			echo '</table>'
		else
			echo "Not measured yet: run \`make check\` before \`make docs\`."
		fi
	} >"$SRC/mainline.md"
}

# All step pages in one, for printing.
printable_page() {
	{
		echo "---"
		echo "title: BPF token, step by step - all steps on one page"
		echo "---"
		for s in $(series_steps); do
			echo
			sed -n '1p' "$TOP/steps/$s/NOTES.md"
			sed 's/^#/##/' "$SRC/step-$(step_id "$s").md"
		done
	} >"$SRC/all.md"
}

index_page() {
	{
		echo "---"
		echo "title: BPF token, step by step, on Linux 6.1"
		echo "---"
		echo
		sed -n '/^The "BPF token/,/^## The two commands/p' "$TOP/README.md" | sed '$d' |
			sed '/^```$/,/^```$/d'
		echo "## What a BPF token is for"
		echo
		echo "\`CAP_BPF\` cannot be given to a container safely: a BPF program can read"
		echo "any kernel memory, so the capability only ever counted in the init user"
		echo "namespace.  The series lets a trusted host *delegate* a chosen part of"
		echo "\`bpf()\` to one container: it mounts a BPF FS owned by the container's"
		echo "user namespace with \`delegate_*\` options, the container derives a token"
		echo "from it, and commands given the token accept the capability held inside"
		echo "the container's namespace.  Token and namespaced capability are both"
		echo "needed; neither alone grants anything."
		echo
		echo '![The flow: the container configures, the host creates and mounts, the container derives a token and uses it](flow.svg)'
		echo
		echo "More: [backport notes of all steps](backports.html) -"
		echo "[glossary](glossary.html) - [checkpatch over the series](checkpatch.html) -"
		echo "[everything on one printable page](all.html) -"
		echo "[what a token does not allow: escapes, bad input, leaks, fuzzing](reliability.html) -"
		echo "[v6 -> mainline: what upstream review changed, case by case](mainline.html)"
		echo
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
			echo "Every demo case on every step's kernel, as measured $(date -u -r "$MATRIX" '+%Y-%m-%d %H:%M UTC'):"
			echo "green is success, amber an errno the step expects, red a mismatch."
			echo
			matrix_html

		else
			echo "Not measured yet: run \`make matrix\` before \`make docs\`."
		fi
	} >"$SRC/index.md"
}

for s in $(series_steps); do
	step_page "$s"
done
index_page
backports_page
checkpatch_page
reliability_page
mainline_page
printable_page
with_title_block "$TOP/docs/glossary.md" >"$SRC/glossary.md"
command -v dot >/dev/null || die "graphviz (dot) not found; run 'make deps'"
dot -Tsvg -o "$DEST/flow.svg" "$TOP/docs/flow.dot"
for md in "$SRC"/*.md; do
	name=$(basename "$md" .md)
	case $name in
	step-*) title=$(sed -n '1s/^# //p' "$TOP/steps/$(series_steps |
		awk -v id="${name#step-}" 'index($0, id "-") == 1')/NOTES.md") ;;
	*) title= ;;	# the page starts with its own title block
	esac
	pandoc --standalone --from markdown --to html5 --toc --toc-depth 2 --css style.css \
		${title:+--metadata title="$title"} -o "$DEST/$name.html" "$md"
done
cp "$TOP/docs/style.css" "$DEST/"
info "docs: $(ls "$DEST"/*.html | wc -l) pages in build/docs/ (open build/docs/index.html)"
