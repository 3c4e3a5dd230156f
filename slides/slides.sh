#!/bin/sh
# make slides: build/slides/index.html, a reveal.js deck (pandoc -t
# revealjs) with its own copy of reveal.js beside it, so build/slides/
# works offline, copied anywhere: nothing is fetched at show time.
#
# A hand-written opening (slides/slides-opening.md, the workshop agenda
# from docs/workshop.md), then per step a vertical stack of three slides
# built from its NOTES.md, its patch and the last measured matrix:
#   1. title, the summary's first paragraph, the "Try it" command;
#   2. the hunk with the most added lines, cut to fit;
#   3. the cases whose answer changes at this step (the flips).
# Every step slide carries presenter notes from NOTES.md (press S): the
# "Why" section, the hunk's annotation, the "Try it" text.  A NOTES.md
# "## Answer" section never reaches the deck.  Then an appendix, one
# slide per change docs/mainline.md describes.
#
# slides/fit.sh (make slides) opens every slide in headless Chromium and
# fails on content outside the slide; it also prints the handout PDF.
set -eu
. "$(dirname "$0")/../kernel/lib.sh"

command -v pandoc >/dev/null || die "pandoc not found; run 'make deps'"
REVEAL=${NPM_DIR:-$BUILD/npm}/node_modules/reveal.js
[ -f "$REVEAL/dist/reveal.js" ] || die "reveal.js is not installed in ${NPM_DIR:-$BUILD/npm}; run 'make deps'"
DEST=$BUILD/slides
MATRIX=${MATRIX_TSV:-$BUILD/report/matrix.tsv}
mkdir -p "$DEST"
md=$DEST/slides.md

# The hunk cut to fit a slide: at most HUNK_LINES lines of at most
# HUNK_COLS columns (tabs as 4 spaces).
HUNK_LINES=15
HUNK_COLS=84

# key_hunk PATCH: the hunk of PATCH with the most added lines, cut to fit:
# its "@@" line, then from two lines before its first added line on.  A
# hunk of the kernel goes first: one under tools/ (libbpf, selftests)
# is the key only in a patch that has nothing else.
# First line: "N<TAB>FILE<TAB>FROM<TAB>TO<TAB>LINES" (the Nth hunk,
# counting from 1; body lines FROM-TO of LINES shown), then the cut hunk.
key_hunk() {
	awk -v lines=$HUNK_LINES -v cols=$HUNK_COLS '
		function done_hunk(  rank) {
			rank = file ~ /^tools\// ? adds : adds + 1000000
			if (in_hunk && rank > best) { best = rank; kidx = idx; kfile = file; kn = n; kfirst = first
				for (i = 0; i <= n; i++) keep[i] = body[i] }
			in_hunk = 0
		}
		/^diff --git / { done_hunk(); next }
		/^\+\+\+ b\// { file = substr($0, 7); next }
		/^-- $/ { done_hunk(); next }
		/^@@ / { done_hunk(); idx++; in_hunk = 1; adds = 0; n = 0; first = 0
			sub(/^@@ [^@]* @@ ?/, "@@ "); body[0] = $0; next }
		in_hunk {
			gsub(/\t/, "    ")
			if (length($0) > cols) $0 = substr($0, 1, cols - 3) "..."
			body[++n] = $0
			if (/^\+/) { adds++; if (!first) first = n }
		}
		END {
			done_hunk()
			from = kfirst - 2; if (from < 1) from = 1
			to = from + lines - 2; if (to > kn) to = kn
			from = to - lines + 2; if (from < 1) from = 1
			printf "%d\t%s\t%d\t%d\t%d\n%s\n", kidx, kfile, from, to, kn, keep[0]
			for (i = from; i <= to; i++) print keep[i]
		}' "$1"
}

# section NOTES HEADING: the text under "HEADING" up to the next heading
# of the same or a higher level.
section() {
	awk -v h="$2" '
		BEGIN { lvl = index(h, " ") - 1 }
		/^```/ { fence = !fence }
		!fence && $0 == h { on = 1; next }
		on && !fence && /^#+ / { l = index($0, " ") - 1; if (l <= lvl) exit }
		on' "$1"
}

# notes TEXT...: a presenter-notes block (stdin), unless it is empty
notes() {
	text=$(cat)
	[ -n "$(printf '%s' "$text" | tr -d '[:space:]')" ] || return 0
	echo
	echo '::: notes'
	printf '%s\n' "$text"
	echo ':::'
}

# flips ID: "demo:case<TAB>previous step<TAB>before<TAB>after" for every case whose measured
# answer on step ID differs from the previous step's.
flips() {
	[ -f "$MATRIX" ] || return 0
	awk -F'\t' -f "$TOP/docs/flips.awk" "$MATRIX" |
		awk -F'\t' -v OFS='\t' -v want="$1" '$3 == want { print $1 ":" $2, $4, $5, $6 }'
}

MAX_FLIPS=9

step_slides() {
	s=$1
	id=$(step_id "$s")
	notes=$TOP/steps/$s/NOTES.md
	patch=$TOP/steps/$s/patch
	title=$(sed -n '1s/^# Step [^:]*: //p' "$notes")
	try=$(section "$notes" "## Try it" | awk '/^```/ { if (on) exit; on = 1; next } on' | head -1)

	echo
	echo "# $id · $title {#step-$id}"
	echo
	section "$notes" "## Summary" | awk 'NF { p = 1 } p && !NF { exit } p'
	echo
	echo "Try it: \`${try:-make run STEP=$id}\`"
	section "$notes" "## Why" | notes

	if [ -f "$patch" ]; then
		key=$(key_hunk "$patch")
		n=$(printf '%s\n' "$key" | head -1 | cut -f1)
		file=$(printf '%s\n' "$key" | head -1 | cut -f2)
		from=$(printf '%s\n' "$key" | head -1 | cut -f3)
		to=$(printf '%s\n' "$key" | head -1 | cut -f4)
		total=$(printf '%s\n' "$key" | head -1 | cut -f5)
		name=$(awk -f "$TOP/kernel/hunks.awk" "$patch" | sed -n "${n}p")
		echo
		echo "## $id · the key hunk: \`${name#*: }\` {#step-$id-hunk}"
		echo
		echo "\`$file\`, hunk $n of $(grep -c '^@@ ' "$patch")"
		echo
		echo '```diff'
		printf '%s\n' "$key" | sed 1d
		echo '```'
		if [ "$from" -gt 1 ] || [ "$to" -lt "$total" ]; then
			echo
			echo "Lines $from-$to of $total; every hunk with its annotation: the step's page."
		fi
		{
			echo "**$name**"
			echo
			section "$notes" "### $name"
		} | notes

		echo
		echo "## $id · what it changes, as measured {#step-$id-flips}"
		echo
		if [ ! -f "$MATRIX" ]; then
			echo "Not measured yet: \`make matrix\`, then \`make slides\`."
		else
			f=$(flips "$id")
			if [ -z "$f" ]; then
				echo "No demo case answers differently from the step before."
			else
				total=$(printf '%s\n' "$f" | wc -l)
				echo "| demo | case | step $(printf '%s\n' "$f" | head -1 | cut -f2) | step $id |"
				echo "|:--|:--|:--|:--|"
				printf '%s\n' "$f" | head -$MAX_FLIPS |
					awk -F'\t' '{ d = $1; sub(/:.*/, "", d); c = substr($1, length(d) + 2); printf "| %s | `%s` | %s | **%s** |\n", d, c, $3, $4 }'
				echo
				if [ "$total" -gt $MAX_FLIPS ]; then
					echo "$MAX_FLIPS of $total cases that flip; all of them: the step's page."
				else
					echo "Every case whose answer changes here ($total)."
				fi
			fi
		fi
		section "$notes" "## Try it" | notes
	fi
}

# The epilogue's opening slide: the timeline of docs/history.md, its
# "when" and "what" columns, with the sources as presenter notes.
epilogue_opening() {
	echo
	echo "# The epilogue: from v6 to Linux 6.9 {#epilogue}"
	echo
	echo "v6 never merged.  Each step from here makes one change review made, on the same 6.1 tree."
	echo
	section "$TOP/docs/history.md" "## Timeline" |
		awk -F' *[|] *' '/^[|] [^:]/ && $2 != "when" { printf "- **%s**: %s\n", $2, $3 }'
	{
		echo "Sources, row by row: docs/history.md (the site's history page)."
		echo "Why the revert: the token work came mixed into the bpf-next pull, not as"
		echo "a branch of its own that could be reviewed apart (the networking side was"
		echo "not comfortable reviewing its filesystem part); and fd 0 is a"
		echo "valid fd, so a token fd field where 0 means \"no token\" could not stay;"
		echo "what merged is BPF_F_TOKEN_FD."
	} | notes
}

# Appendix: one slide per change that docs/mainline.md describes, with
# what step 13 and mainline answer for each case the section names.
mainline_appendix() {
	grep '^## ' "$TOP/docs/mainline.md" | grep -v '^## Not in' | sed 's/^## //' |
	while IFS= read -r title; do
		echo
		echo "# Appendix, v6 -> mainline: $title {.appendix}"
		echo
		cases=$(section "$TOP/docs/mainline.md" "## $title" |
			grep -o '`[a-z_0-9]*\.[a-z_0-9]*`' | tr -d '`' | sort -u)
		rows=
		[ -f "$MATRIX" ] &&
		rows=$(sh "$TOP/vm/matrix.sh" versus 13 mainline | awk -F'\t' -v cases="$cases" '
			BEGIN { n = split(cases, c, "\n"); for (i = 1; i <= n; i++) want[c[i]] = 1 }
			{ name = $1; sub(/^[^:]*:/, "", name) }
			name in want && !(name in seen) { seen[name] = 1
				printf "| `%s` | %s | %s |\n", name, $2, ($2 == $3 ? $3 : "**" $3 "**") }' | sort)
		# a selftest row the section names as `selftest:BINARY SUBTEST`:
		# mainline's own (upstream_token), so step 13 has none: "-"
		tests=$(section "$TOP/docs/mainline.md" "## $title" |
			grep -o '`selftest:[a-z_0-9]* [a-z_0-9]*`' | tr -d '`' | sort -u)
		[ -z "$tests" ] || [ ! -f "$MATRIX" ] ||
		rows="$rows${rows:+
}$(awk -F'\t' -v tests="$tests" '
			BEGIN { n = split(tests, t, "\n"); for (i = 1; i <= n; i++) want[t[i]] = 1 }
			$3 == "mainline" && (($1 " " $2) in want) {
				printf "| `%s %s` | - | %s |\n", $1, $2, $5 }' "$MATRIX" | sort)"
		rows=$(printf '%s\n' "$rows" | sed '/^$/d')
		if [ -n "$rows" ]; then
			echo "| case | step 13 | mainline |"
			echo "|:--|:--|:--|"
			printf '%s\n' "$rows" | head -8
			echo
			nrows=$(printf '%s\n' "$rows" | wc -l)
			[ "$nrows" -le 8 ] || { echo "8 of the $nrows cases this change is about."; echo; }
		fi
		echo "Details: the site's v6 -> mainline page; try it: \`make run STEP=mainline\`"
		section "$TOP/docs/mainline.md" "## $title" | awk 'NF { p = 1 } p && !NF { exit } p' | notes
	done
}

# Appendix: the two tables of docs/real-systems.md, cut to what a slide
# holds; the clients' knobs as presenter notes.
# table_cells SECTION cut|whole N...: the section's table rows (header
# left out) as table rows of cells N..., each cut at its first ":" and
# without bold, or whole
table_cells() {
	local sec=$1 how=$2
	shift 2
	section "$TOP/docs/real-systems.md" "$sec" | awk -F' *[|] *' -v cols="$*" -v how="$how" '
		BEGIN { n = split(cols, c, " ") }
		/^[|] [^:]/ && !header++ { next }
		/^[|] [^:]/ {
			row = "|"
			for (i = 1; i <= n; i++) {
				cell = $(c[i] + 1)
				if (how == "cut") { sub(/:.*/, "", cell); gsub(/[*]/, "", cell) }
				row = row " " cell " |"
			}
			print row
		}'
}

real_systems_appendix() {
	echo
	echo "# Appendix: who speaks tokens {.appendix}"
	echo
	echo "| system | first version | in this project |"
	echo "|:--|:--|:--|"
	table_cells "## Clients and managers" cut 1 2 4
	# the knobs, one item each: "- system version: knob"
	table_cells "## Clients and managers" whole 1 2 3 | sed 's/^| /- /; s/ |$//; s/ | / /; s/ | /: /' | notes
	echo
	echo "# Appendix: which kernels have tokens {.appendix}"
	echo
	echo "| kernel | tokens |"
	echo "|:--|:--|"
	table_cells "## Kernels" cut 1 2
	echo "Sources, row by row: the site's page \"Tokens in real systems\"." | notes
}

{
	cat "$TOP/slides/slides-opening.md"
	if [ -f "$TOP/docs/workshop.md" ]; then
		echo
		echo "# The 90 minutes"
		echo
		# the agenda table of docs/workshop.md, as it is
		awk '/^## Agenda/ { on = 1; next } on && /^## / { exit } on && /^\|/' "$TOP/docs/workshop.md"
	fi
	first_epilogue=$(epilogue_steps | head -1)
	for s in $(series_steps); do
		[ "$s" = "$first_epilogue" ] && epilogue_opening
		step_slides "$s"
	done
	mainline_appendix
	real_systems_appendix
} >"$md"

# reveal.js beside the deck: only what the page loads
rm -rf "$DEST/reveal.js"
mkdir -p "$DEST/reveal.js/dist/theme" "$DEST/reveal.js/plugin"
cp "$REVEAL/LICENSE" "$DEST/reveal.js/"
cp "$REVEAL/dist/reset.css" "$REVEAL/dist/reveal.css" "$REVEAL/dist/reveal.js" "$DEST/reveal.js/dist/"
cp "$REVEAL/dist/theme/white.css" "$DEST/reveal.js/dist/theme/"
cp -r "$REVEAL/dist/theme/fonts" "$DEST/reveal.js/dist/theme/"
for p in notes search zoom; do
	cp -r "$REVEAL/plugin/$p" "$DEST/reveal.js/plugin/"
done
cp "$TOP/slides/slides.css" "$DEST/"

pandoc --standalone --to revealjs --from markdown --slide-level=2 --columns=400 \
	--metadata title="BPF token, step by step" \
	--metadata subtitle="Delegating a slice of bpf() to a container, on Debian 12's Linux 6.1" \
	-V revealjs-url=reveal.js -V theme=white -V width=1280 -V height=720 -V margin=0.04 \
	-V slideNumber=true -V hash=true -V transition=none \
	--css slides.css -o "$DEST/index.html" "$md"
# one slide per heading outside code, and the title slide
n=$(awk '/^```/ { f = !f } !f && /^##? / { n++ } END { print n + 1 }' "$md")
info "slides: $n slides in build/slides/index.html (S: presenter view, O: overview, ?print-pdf: handout)"
