#!/bin/sh
# make docs: a static site in build/docs/ from the steps' NOTES.md, their
# patches and the last measured matrix.  Works offline, from file://:
# pandoc's standalone HTML, nothing fetched, no scripts.
#
# Every page is laid out as a book by docs/template.html: the contents
# beside it (every step in steps/series order, then the other pages a
# learner reads - never the answer key), prose about 80 characters wide
# (docs/style.css), and on a step page links to the step before and
# after; docs/nav.lua marks the current entry and finds those neighbours
# in the list nav_yaml writes.  Code is highlighted by pandoc (pygments
# colours; a diff's added and removed lines by docs/style.css).
#
# Each step page interleaves the annotations with the hunks they name
# (the same hunk names tests/annotations.sh checks), then the step's
# matrix column as measured by the last `make check`/`make matrix` -
# or says that nothing was measured.
set -eu
. "$(dirname "$0")/../kernel/lib.sh"

command -v pandoc >/dev/null || die "pandoc not found; run 'make deps'"
# Made in build/docs.new and moved into place whole at the end: a run
# stopped halfway leaves no build/docs/index.html (the file make keeps)
# newer than its sources with half the pages missing beside it.
DOCS=$BUILD/docs
DEST=$DOCS.new
SRC=$DEST/src
rm -rf "$DEST"
mkdir -p "$SRC"
# the measured matrix, one row per case and step (vm/matrix.sh)
TSV=$BUILD/report/matrix.tsv

# measured_with LABEL: ", under QEMU VERSION (ACCEL)" for the run whose
# results LABEL.inputs describes (vm/run), or nothing.  What a result was
# measured with, never when: the pages of two checks of one commit are
# the same bytes.
measured_with() {
	local record=$BUILD/results/$1.inputs
	[ -f "$record" ] || return 0
	awk '$1 == "qemu" { sub(/^qemu /, ""); q = $0 } $1 == "accel" { a = $2 }
		END { if (q != "") printf ", under %s (%s)", q, a }' "$record"
}

# hunks_named PATCH NAME: the hunks of PATCH whose name is NAME, as diff.
hunks_named() {
	awk -v want="$2" -f "$TOP/kernel/hunks.awk" "$1"
}

# The cases whose answer changes at step folder $1, as measured: the
# first section of the step's page, so "what did this step change" is
# the first thing it shows.
flips_section() {
	local id prev f
	id=$(step_id "$1")
	prev=$(prev_step "$1")
	echo "## What this step changes, as measured"
	echo
	if [ ! -f "$TSV" ] || ! awk -F'\t' -v id="$id" '$3 == id { f = 1; exit } END { exit !f }' "$TSV"; then
		echo "Not measured yet: run \`make matrix\` (or \`make check\`) before \`make docs\`."
	elif [ -z "$prev" ]; then
		echo "The first column of the matrix: every later step is compared with this one."
	else
		prev=$(step_id "$prev")
		f=$(awk -F'\t' -f "$TOP/docs/flips.awk" "$TSV" | awk -F'\t' -v id="$id" '$3 == id')
		if [ -z "$f" ]; then
			echo "No demo case answers differently on this step's kernel than on step $prev's."
		else
			echo "Every demo case whose answer on this step's kernel differs from step $prev's ($(printf '%s\n' "$f" | wc -l)):"
			echo
			echo "| case | step $prev | step $id |"
			echo "|---|---|---|"
			printf '%s\n' "$f" | awk -F'\t' '{ printf "| `%s:%s` | %s | **%s** |\n", $1, $2, $5, $6 }'
		fi
	fi
	echo
}

step_page() {
	s=$1
	id=$(step_id "$s")
	notes=$TOP/steps/$s/NOTES.md
	patch=$TOP/steps/$s/patch
	out=$SRC/step-$id.md
	flips_section "$s" >"$out.flips"
	{
		# the annotation without its answer (docs/learner.awk), the flips
		# before its first section, each "### hunk" heading followed by its
		# hunks (the first line, the "# Step NN" title, becomes the page title)
		awk -f "$TOP/docs/learner.awk" "$notes" | awk -v flips="$out.flips" 'NR == 1 && /^# / { next }
			!done && /^## / { while ((getline l < flips) > 0) print l; done = 1 }
			/^### / { print; print ""; print "@@HUNKS@@ " substr($0, 5); next } { print }' |
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
		if [ -f "$TSV" ] && awk -F'\t' -v id="$id" '$3 == id { f = 1; exit } END { exit !f }' "$TSV"; then
			echo "Measured$(measured_with "step-$id") on the kernel of branch \`step-$id\` ($(git -C "$LINUX" rev-parse --short=12 "step-$id" 2>/dev/null || echo '?'))."
			echo
			echo "| case | result | expected |"
			echo "|---|---|---|"
			awk -F'\t' -v id="$id" '$3 == id {
				printf "| `%s:%s` | %s | %s |\n", $1, $2, ($6 == "pass" ? $5 : "**" $5 "** (mismatch)"), $4 }' "$TSV"
		else
			echo "Not measured yet: run \`make matrix\` (or \`make check\`) before \`make docs\`."
		fi
		console=$BUILD/logs/step-$id.console
		if [ -f "$console" ] && grep -q "^BPFTOK-DEMO-BEGIN $s\$" "$console"; then
			echo
			echo "## The demo's output, as measured"
			echo
			echo "From the last run on step-$id's kernel$(measured_with "step-$id"):"
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
	rm -f "$out.flips"
}

# A hand-written page with its "# Title" line turned into pandoc's title
# block, quoted: a title with a colon is not valid YAML otherwise.
with_title_block() {
	sed '1s/^# \(.*\)/---\ntitle: "\1"\n---/' "$1"
}

# The matrix as an HTML table from matrix.tsv: one row per case, grouped
# under a row per demo, one column per step; each cell classed by its
# outcome, and a cell whose answer differs from the step before's (a
# flip, docs/flips.awk's rule) marked "flip".  Only the cases listed in
# $MATRIX_ROWS (names without the demo) if that is set.
matrix_html() {
	echo '<table class="matrix">'
	awk -F'\t' -v rows="${MATRIX_ROWS:-}" '
		BEGIN { n = split(rows, r, "\n"); for (i = 1; i <= n; i++) want[r[i]] = 1 }
		NR == 1 { next }
		n && !($2 in want) { next }
		{
			if (!($3 in col)) { col[$3] = ++ncol; colname[ncol] = $3 }
			if (!($1 in seen)) { seen[$1] = 1; demo[++ndemo] = $1 }
			if (!(($1, $2) in known)) { known[$1, $2] = 1; cases[$1] = cases[$1] "\n" $2 }
			got[$1, $2, $3] = $5
			cell[$1, $2, $3] = ($6 == "pass") ? $5 : "fail:" $5 "/" $4
			cls[$1, $2, $3] = ($6 != "pass") ? "fail" : ($5 == "ok") ? "ok" : "err"
		}
		END {
			printf "<tr><th>case</th>"
			for (j = 1; j <= ncol; j++)
				printf "<th>%s</th>", (colname[j] == "mainline" ? "mainline" : "step-" colname[j])
			print "</tr>"
			for (d = 1; d <= ndemo; d++) {
				printf "<tr class=\"demo\"><th colspan=\"%d\">%s</th></tr>\n", ncol + 1, demo[d]
				m = split(substr(cases[demo[d]], 2), c, "\n")
				for (i = 1; i <= m; i++) {
					printf "<tr><td><code>%s</code></td>", c[i]
					for (j = 1; j <= ncol; j++) {
						k = demo[d] SUBSEP c[i] SUBSEP colname[j]
						if (!(k in cell)) { printf "<td class=\"none\">-</td>"; continue }
						p = demo[d] SUBSEP c[i] SUBSEP colname[j - 1]
						if (j > 1 && (p in got) && got[p] != got[k])
							printf "<td class=\"%s flip\" title=\"was %s on %s\">%s</td>", cls[k], got[p],
								(colname[j - 1] == "mainline" ? "mainline" : "step-" colname[j - 1]), cell[k]
						else
							printf "<td class=\"%s\">%s</td>", cls[k], cell[k]
					}
					print "</tr>"
				}
			}
		}' "$TSV"
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
		sh "$TOP/kernel/checkpatch.sh" 2>&1 || true
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
		if [ -f "$TSV" ]; then
			echo "Every case named above, on every step's kernel, as the last matrix measured it$(measured_with mainline):"
			echo
			cases=$(grep -o '`[a-z_]*\.[a-z0-9_]*`' "$TOP/docs/reliability.md" | tr -d '`' | sort -u)
			MATRIX_ROWS=$cases matrix_html
		else
			echo "Not measured yet: run \`make check\` before \`make docs\`."
		fi
	} >"$SRC/reliability.md"
}

# docs/compat.md, then build/report/compat.tsv as make compat last wrote it.
compat_page() {
	local tsv=$BUILD/report/compat.tsv
	{
		with_title_block "$TOP/docs/compat.md"
		echo
		echo "## As measured"
		echo
		if [ -f "$tsv" ]; then
			echo "From the last \`make compat\`: every step that did"
			echo "not apply as it is, and each version's last step (build and matrix)."
			echo
			echo '<table class="matrix"><tr><th>version</th><th>step</th><th>apply</th><th>patch</th><th>conflicts</th><th>build</th><th>matrix</th></tr>'
			awk -F'\t' 'NR > 1 && ($3 != "applies" || $4 ~ /^kernel\/ports\// || $6 != "-") {
				printf "<tr><td>%s</td><td>%s</td><td>%s</td><td><code>%s</code></td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
					$1, $2, $3, $4, $5, $6, $7 }' "$tsv"
			echo '</table>'
		else
			echo "Not measured yet: run \`make compat\` before \`make docs\`."
		fi
	} >"$SRC/compat.md"
}

# docs/debian-patches.md, then build/report/debian-config.tsv as the
# Debian-config compile (kernel/wide-check.sh --debian) last wrote it.
debian_patches_page() {
	local tsv=$BUILD/report/debian-config.tsv
	{
		with_title_block "$TOP/docs/debian-patches.md"
		echo
		echo "## As compiled"
		echo
		if [ -f "$tsv" ]; then
			echo "Every object of the list above, from the last \`make wide-check STEP=debian\`"
			echo "(\`make check\` runs it), with $(sed -n '3s/.*(\(linux-config-6.1 [^)]*\)).*/\1/p' "$tsv"):"
			echo
			echo '<table class="matrix"><tr><th>file</th><th>with Debian'"'"'s configuration</th></tr>'
			awk -F'\t' '!/^#/ { printf "<tr><td><code>%s</code></td><td>%s</td></tr>\n", $1, $2 }' "$tsv"
			echo '</table>'
		else
			echo "Not compiled yet: run \`make wide-check STEP=debian\` before \`make docs\`."
		fi
	} >"$SRC/debian-patches.md"
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
			echo "From the last matrix$(measured_with mainline):"
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

# notes_section FILE TITLE: the text under "## TITLE" up to the next
# heading of level 1 or 2, code blocks skipped over; its own headings one
# level deeper, to sit under the step's.
notes_section() {
	awk -v h="## $2" '
		/^```/ { fence = !fence }
		!fence && $0 == h { on = 1; next }
		!fence && on && /^##? / { exit }
		on && !fence && /^#/ { $0 = "##" $0 }
		on' "$1"
}

# The answer key, build/docs/instructor.html: every step's exercise and
# its "## Answer" from NOTES.md, which every learner page and the deck
# leave out (docs/learner.awk); no learner page links here.  Beside each
# "- check: DEMO:CASE @ STEP = RESULT" line, what the matrix measured.
instructor_page() {
	{
		printf -- '---\ntitle: "Answer key, for the instructor only"\n---\n'
		echo
		echo "The answers to every step's exercise, from the \`## Answer\` sections of"
		echo "\`steps/*/NOTES.md\`.  The step pages, the printable page and the deck"
		echo "leave them out, and no page a learner follows links here: hand out the"
		echo "step pages, keep this one."
		echo
		echo "A \`check:\` line names a demo case, a kernel and the answer the text"
		echo "claims; \`tests/host/answers.sh\` fails when the measured matrix says"
		echo "otherwise.  Beside each: what the last \`make matrix\` measured."
		for s in $(series_steps); do
			notes=$TOP/steps/$s/NOTES.md
			echo
			echo "## [$(sed -n '1s/^# //p' "$notes")](step-$(step_id "$s").html)"
			echo
			echo "### Exercise"
			echo
			notes_section "$notes" Exercise
			echo
			echo "### Answer"
			echo
			if grep -q '^## Answer' "$notes"; then
				notes_section "$notes" Answer | awk -F'\t' -v tsv="$TSV" '
					BEGIN {
						while ((getline l < tsv) > 0) {
							split(l, f, "\t")
							got[f[1] ":" f[2] " @ " f[3]] = f[5]
						}
					}
					/^- check: [^ ]+ @ [^ ]+ = [^ ]+[ \t]*$/ {
						split($0, w, " ")
						k = w[3] " @ " w[5]
						m = (k in got) ? (got[k] == w[7] ? "measured: " got[k] : "**measured: " got[k] ", not " w[7] "**") : "not measured yet"
						printf "- check: `%s` @ %s = %s - %s\n", w[3], w[5], w[7], m
						next
					}
					{ print }'
			else
				echo "No answer written yet."
			fi
		done
	} >"$SRC/instructor.md"
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
		echo "Teaching it: [the 90-minute workshop](workshop.html) and the deck (\`make slides\`)."
		echo
		echo "More: [backport notes of all steps](backports.html) -"
		echo "[glossary](glossary.html) - [checkpatch over the series](checkpatch.html) -"
		echo "[everything on one printable page](all.html) -"
		echo "[what a token does not allow: escapes, bad input, leaks, fuzzing](reliability.html) -"
		echo "[backporting: the steps on every Debian 6.1.y](compat.html) -"
		echo "[the patch queue a distro applies, and the fixes to carry](debian-patches.html) -"
		echo "[tokens in real systems: clients, managers, kernels](real-systems.html) -"
		echo "[v6 -> mainline: what upstream review changed, case by case](mainline.html) -"
		echo "[from v6 to Linux 6.9: the history, and the epilogue's steps](history.html)"
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
		if [ -f "$TSV" ]; then
			echo "Every demo case on every step's kernel, as the last matrix measured it$(measured_with mainline):"
			echo "one row per case, grouped by demo; green is success, amber an errno the step"
			echo "expects, red a mismatch.  A cell with a thick outline is a *flip*: the case"
			echo "answers differently than on the step before (its title says what it was), so"
			echo "the outlined cells of a column are what that step changed."
			echo
			matrix_html

		else
			echo "Not measured yet: run \`make matrix\` before \`make docs\`."
		fi
	} >"$SRC/index.md"
}

# The book's contents, as pandoc metadata for docs/nav.lua and
# docs/template.html: every step in series order (its title without the
# "Step NN: "; the first of the epilogue marked, to head its part), then
# the other pages a learner reads.  Not the answer key: no learner page
# links instructor.html.
nav_yaml() {
	local s id first_epilogue
	first_epilogue=$(epilogue_steps | head -1)
	echo "lang: en"
	echo "book-steps:"
	for s in $(series_steps); do
		id=$(step_id "$s")
		printf '  - id: "%s"\n    href: "step-%s.html"\n    title: "%s"\n' "$id" "$id" \
			"$(sed -n '1s/^# Step [^:]*: //p' "$TOP/steps/$s/NOTES.md" | sed 's/[\\"]/\\&/g')"
		[ "$s" != "$first_epilogue" ] || echo "    epilogue: true"
	done
	echo "book-pages:"
	printf '  - href: "%s"\n    title: "%s"\n' \
		index.html "Overview and matrix" \
		workshop.html "The 90-minute workshop" \
		glossary.html "Glossary" \
		backports.html "Backport notes" \
		reliability.html "What a token does not allow" \
		compat.html "Every Debian 6.1.y" \
		debian-patches.html "A distro's patch queue" \
		real-systems.html "Tokens in real systems" \
		mainline.html "v6 -> mainline" \
		history.html "v6 -> 6.9: the history" \
		checkpatch.html "checkpatch" \
		all.html "All steps on one page"
}

for s in $(series_steps); do
	step_page "$s"
done
nav_yaml >"$SRC/nav.yaml"
index_page
backports_page
checkpatch_page
reliability_page
mainline_page
compat_page
printable_page
instructor_page
with_title_block "$TOP/docs/workshop.md" >"$SRC/workshop.md"
with_title_block "$TOP/docs/glossary.md" >"$SRC/glossary.md"
with_title_block "$TOP/docs/history.md" >"$SRC/history.md"
debian_patches_page
with_title_block "$TOP/docs/real-systems.md" >"$SRC/real-systems.md"
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
		--template "$TOP/docs/template.html" --highlight-style pygments \
		--metadata-file "$SRC/nav.yaml" --metadata book-page="$name.html" \
		--lua-filter "$TOP/docs/nav.lua" \
		${title:+--metadata title="$title"} -o "$DEST/$name.html" "$md"
done
cp "$TOP/docs/style.css" "$DEST/"
rm -rf "$DOCS"
mv "$DEST" "$DOCS"
info "docs: $(ls "$DOCS"/*.html | wc -l) pages in build/docs/ (open build/docs/index.html)"
