#!/bin/sh
# What make docs built (tests/run.sh makes it before the host tests):
# every step gets a page, every hunk of its patch appears on
# it beside its annotation, and the landing page links every step.
. "$(dirname "$0")/lib.sh"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# hunks_not_shown PATCH PAGE: the hunks of PATCH that PAGE (a step page's
# markdown) does not show whole - the "@@" line and every line the "@@"
# counts cover - in a diff block under the "### NAME" heading that
# kernel/hunks.awk gives the hunk.  One line per missing hunk.
hunks_not_shown() {
	awk -f "$TOP/kernel/hunks.awk" "$1" >"$scratch/names"
	awk -v names="$scratch/names" '
		BEGIN { while ((getline l < names) > 0) name[++nnames] = l }
		FNR == 1 { file++ }
		file == 1 && (old > 0 || new > 0) {
			c = substr($0, 1, 1)
			if (c == "\\") { hunk[k] = hunk[k] "\n" $0; next }
			if (c == " " || $0 == "") { old--; new-- }
			else if (c == "-") old--
			else if (c == "+") new--
			hunk[k] = hunk[k] "\n" $0
			next
		}
		file == 1 && /^@@ -[0-9]+(,[0-9]+)? \+[0-9]+(,[0-9]+)? @@/ {
			k++
			hunk[k] = $0
			split($2, a, ","); old = (2 in a) ? a[2] : 1
			split($3, b, ","); new = (2 in b) ? b[2] : 1
			next
		}
		file == 2 && /^```/ { code = !code; next }
		file == 2 && !code && /^##/ { heading = (/^### /) ? substr($0, 5) : ""; next }
		file == 2 && code { shown[heading] = shown[heading] "\n" $0 }
		END {
			if (k != nnames)
				printf "%d hunks but hunks.awk names %d\n", k, nnames
			for (i = 1; i <= k; i++)
				if (!index(shown[name[i]] "\n", "\n" hunk[i] "\n"))
					printf "hunk %d (%s)\n", i, name[i]
		}' "$1" "$2"
}

# make docs has run (tests/run.sh builds the site before the host tests)
[ -s "$BUILD/docs/index.html" ] || { echo "no site in build/docs: run make docs"; exit 1; }
for s in $(series_steps); do
	id=$(step_id "$s")
	page=$BUILD/docs/step-$id.html
	check "step-$id has a page" [ -s "$page" ]
	check "the landing page links step-$id" grep -q "href=\"step-$id.html\"" "$BUILD/docs/index.html"
	[ -f "$TOP/steps/$s/patch" ] || continue
	want=$(grep -c '^@@ ' "$TOP/steps/$s/patch")
	missing=$(hunks_not_shown "$TOP/steps/$s/patch" "$BUILD/docs/src/step-$id.md" | paste -sd';' -)
	check "step-$id's page shows each of its $want hunks whole, under its annotation${missing:+ (not: $missing)}" \
		[ -z "$missing" ]
done
# every escape case is explained on the reliability page, and it exists
for c in $(sed -n 's/^\t{ "\(escape\.[a-z_]*\)".*/\1/p' "$TOP/userspace-demo/suites/escape.c"); do
	check "docs/reliability.md explains $c" grep -q "\`$c\`" "$TOP/docs/reliability.md"
done
# every case of the real client (6.12's bpftool) is explained in the
# v6 -> mainline page's section on it
client_cases=$(sed -n 's/^\t{ "\(client\.[a-z_]*\)".*/\1/p' "$TOP/userspace-demo/suites/client.c")
check "the client suite has its cases (prog load, undelegated, map create)" \
	[ "$(echo "$client_cases" | wc -w)" -ge 3 ]
for c in $client_cases; do
	check "docs/mainline.md explains $c" grep -q "\`$c\`" "$TOP/docs/mainline.md"
done
check "the reliability page is built and linked" \
	grep -q 'href="reliability.html"' "$BUILD/docs/index.html"
# every case with its own mainline expectation is explained on the
# v6 -> mainline page, which has a section per kind of change
for c in $(cat "$TOP"/userspace-demo/*.c "$TOP"/userspace-demo/suites/*.c | awk '
	match($0, /^\t\{ "[a-z_0-9]+\.[a-z_0-9]+"/) { name = substr($0, RSTART + 4, RLENGTH - 5) }
	/\{ "mainline",/ { print name }'); do
	check "docs/mainline.md explains $c" grep -q "\`$c\`" "$TOP/docs/mainline.md"
done
for h in "UAPI" "Token creation" "Delegation options" "Token use"; do
	check "docs/mainline.md has a section on $h" grep -q "^## $h" "$TOP/docs/mainline.md"
done
check "the mainline page is built and linked" \
	grep -q 'href="mainline.html"' "$BUILD/docs/index.html"
# The history page: every epilogue step names the upstream commit it
# reproduces (its "Upstream" row), and docs/history.md maps that commit
# to the step; the v6 steps 02-08 end with a box that links the page.
check "steps/series marks an epilogue" [ -n "$(epilogue_steps)" ]
for s in $(epilogue_steps); do
	id=$(step_id "$s")
	commit=$(sed -n 's/^| Upstream | .*\([0-9a-f]\{12\}\) ".*/\1/p' "$TOP/steps/$s/NOTES.md" | head -1)
	check "steps/$s/NOTES.md names its upstream commit${commit:+ ($commit)}" [ -n "$commit" ]
	check "docs/history.md maps ${commit:-it} to step $id" \
		grep -q "^| .*${commit:-none}.* | step $id |\$" "$TOP/docs/history.md"
done
for id in 02 03 04 05 06 07 08; do
	check "step $id's page ends with what review changed, linking the history" \
		sh -c "awk '/<h2[^>]*>What review changed/ { on = 1 } on' '$BUILD/docs/step-$id.html' | grep -q 'href=\"history.html\"'"
done
check "the history page is built and linked" \
	grep -q 'href="history.html"' "$BUILD/docs/index.html"
# The answer key: docs/learner.awk drops a "## Answer" section (up to the
# next "#"/"##" heading outside code) and nothing else...
fixture=$(printf '# T\n\n## Exercise\n\nQ?\n\n## Answer\n\nsecret\n\n```\n## inside code\n```\n\n### sub\n\n- check: a:b @ 04 = ok\n\n## Try it\n\n```\n## Answer\n```\n')
got=$(printf '%s\n' "$fixture" | awk -f "$TOP/docs/learner.awk")
want=$(printf '# T\n\n## Exercise\n\nQ?\n\n## Try it\n\n```\n## Answer\n```\n')
check "docs/learner.awk leaves out the Answer section, and only it" [ "$got" = "$want" ]
# ... so no learner page, nor the deck, shows one (checked below)
# the instructor page has every step's answer, every check line of it,
# and no other page links it
for s in $(series_steps); do
	id=$(step_id "$s")
	n=$(awk '/^## Answer/ { on = 1; next } on && /^##? / { exit } on && /^- check: /' \
		"$TOP/steps/$s/NOTES.md" | wc -l)
	grep -q '^## Answer' "$TOP/steps/$s/NOTES.md" || continue
	got=$(awk -v h="step-$id.html" 'index($0, "## [") == 1 { on = index($0, "](" h ")") > 0; next }
		on && /^- check: /' "$BUILD/docs/src/instructor.md" | wc -l)
	check "the instructor page has step $id's answer with its $n check line(s) ($got)" [ "$got" = "$n" ]
done
check "the instructor page is built" [ -s "$BUILD/docs/instructor.html" ]

# The matrix a learner can read: grouped by demo, the flips outlined, and
# each step page opens with its flips.
if [ -f "$BUILD/report/matrix.tsv" ]; then
	check "the landing page's matrix has a row per demo" grep -q '<tr class="demo">' "$BUILD/docs/index.html"
	nflips=$(awk -F'\t' -f "$TOP/docs/flips.awk" "$BUILD/report/matrix.tsv" | wc -l)
	got=$(grep -o '<td class="[a-z]* flip"' "$BUILD/docs/index.html" | wc -l)
	check "the landing page outlines every flip docs/flips.awk finds ($nflips, $got)" [ "$got" = "$nflips" ]
fi
for s in $(series_steps); do
	id=$(step_id "$s")
	check "step-$id's page opens with what the step changes" \
		sh -c "grep -m1 '^## ' '$BUILD/docs/src/step-$id.md' | grep -q '^## What this step changes'"
done

# nothing on a page may reach for the network
check "no page loads anything from the network" \
	sh -c "! grep -l -E '(src|href)=\"(https?:)?//' '$BUILD'/docs/*.html"

check "make slides has built the deck" [ -s "$BUILD/slides/slides.md" ]
# no learner page, nor the deck, shows an answer or
# links the instructor page
learner=$(grep -l -E '^#+ Answer[[:space:]]*$|^- check: ' "$BUILD"/docs/src/step-*.md \
	"$BUILD/docs/src/all.md" "$BUILD/slides/slides.md" || true)
check "no learner page and not the deck shows an answer${learner:+ (but: $learner)}" [ -z "$learner" ]
links=$(grep -l 'href="[^"]*instructor\.html' "$BUILD"/docs/*.html "$BUILD/slides/index.html" | grep -v '/instructor.html$' || true)
check "no learner page links the instructor page${links:+ (but: $links)}" [ -z "$links" ]
# the opening's slides (and the agenda's, from docs/workshop.md) come
# before the first step's; then every step has its own, the appendix's
# slides count for none of them
n_opening=$(grep -c '^# ' "$TOP/slides/slides-opening.md")
[ ! -f "$TOP/docs/workshop.md" ] || n_opening=$((n_opening + 1))
first=$(step_id "$(series_steps | head -1)")
got=$(grep -o '<section id="[^"]*" class="[^"]*level1' "$BUILD/slides/index.html" |
	sed -n "/id=\"step-$first\"/q; p" | wc -l)
check "the deck opens with the opening's $n_opening slides ($got)" [ "$got" = "$n_opening" ]
for s in $(series_steps); do
	id=$(step_id "$s")
	check "the deck has step $id's slide" grep -q "<section id=\"step-$id\"" "$BUILD/slides/index.html"
done
check "the deck loads nothing from the network" \
	sh -c "! grep -E '(src|href)=\"(https?:)?//' '$BUILD/slides/index.html'"
done_testing
