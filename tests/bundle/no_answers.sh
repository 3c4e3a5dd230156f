#!/bin/sh
# The learners' bundle holds no answer.  Every "## Answer" section of
# steps/*/NOTES.md is cut into runs of eight words; none of them may be
# found in a text file of the unpacked learners' tarball (HTML read as
# its text).  Runs that the learners may see anyway - the notes without
# their answers, the demo sources, the patches - are not searched for: an
# answer that quotes its exercise or a demo's case name is no leak.  The
# trainer's key must hold every step's answer, and the search must find
# them in it.
. "$(dirname "$0")/../host/lib.sh"

[ -s "$BUILD/bundle/last" ] || make -s -C "$TOP" bundle >/dev/null || { echo "  NOT OK: make bundle failed"; exit 1; }
tarball=$(cat "$BUILD/bundle/last")
name=$(basename "$tarball" .tar.gz)
key=${tarball%.tar.gz}-trainer.tar.gz
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/learners" "$scratch/trainer"
tar -xzf "$tarball" -C "$scratch/learners"
check "the trainer's key was made beside the learners' tarball" [ -f "$key" ]
[ -f "$key" ] && tar -xzf "$key" -C "$scratch/trainer"

# answers NOTES...: the text of their "## Answer" sections, claim lines
# (- check:, - scratch:) left out: they name cases, the matrix has those
answers() {
	awk '
		FNR == 1 { fence = 0; on = 0 }
		/^```/ { fence = !fence }
		!fence && /^## Answer[ \t]*$/ { on = 1; next }
		!fence && on && /^##? / { on = 0 }
		on && !/^- (check|scratch):/' "$@"
}
# as_text FILE...: their text, HTML without its tags and entities
as_text() {
	for f in "$@"; do
		case $f in
		*.html) sed -e 's/<[^>]*>/ /g' -e 's/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&#39;/'"'"'/g; s/&amp;/\&/g' "$f" ;;
		*) cat "$f" ;;
		esac
	done
}
# texts DIR: the text files a person reads in an unpacked tarball (not
# the kernels, the initramfs files or the kernel source blobs)
texts() {
	find "$1" -type f \( -name '*.md' -o -name '*.html' -o -name '*.txt' -o -name '*.tsv' \
		-o -name '*.c' -o -name '*.h' -o -name patch -o -name '*.js' -o -name '*.css' \) | LC_ALL=C sort
}
# leaks NEEDLES ALLOWED HAYSTACK: the 8-word runs of NEEDLES that are not in
# ALLOWED and are in HAYSTACK (files of text); prints up to 5 and how many
leaks() {
	awk '
		function words(line,   n, i) {
			line = tolower(line)
			gsub(/[^a-z0-9]+/, " ", line)
			n = split(line, w, " ")
			for (i = 1; i <= n; i++) {
				run[++len] = w[i]
				if (len > 8) { for (j = 1; j <= 8; j++) run[j] = run[j + 1]; len = 8 }
				if (len == 8) shingle(run[1] " " run[2] " " run[3] " " run[4] " " run[5] " " run[6] " " run[7] " " run[8])
			}
		}
		function shingle(s) {
			if (pass == 1) needle[s] = 1
			else if (pass == 2) delete needle[s]
			else if (s in needle && !(s in found)) { found[s] = 1; hits++; if (hits <= 5) print "    found: " s }
		}
		FNR == 1 { pass++; len = 0 }
		{ words($0) }
		END { if (hits) { print "    " hits " run(s) of answer text in the learners files"; exit 1 } }' "$1" "$2" "$3"
}

answers "$TOP"/steps/*/NOTES.md >"$scratch/needles"
{
	for n in "$TOP"/steps/*/NOTES.md; do awk -f "$TOP/docs/learner.awk" "$n"; done
	cat "$TOP"/userspace-demo/*.c "$TOP"/userspace-demo/*/*.c "$TOP"/userspace-demo/lib/*.h "$TOP"/steps/*/patch 2>/dev/null
} >"$scratch/allowed"
words=$(wc -w <"$scratch/needles")
check "the answers to search for are there ($words words)" [ "$words" -gt 1000 ]
# shellcheck disable=SC2046 # file names without spaces
as_text $(texts "$scratch/learners") >"$scratch/haystack"
check "the learners' bundle holds no answer text ($(texts "$scratch/learners" | wc -l) files)" \
	leaks "$scratch/needles" "$scratch/allowed" "$scratch/haystack"
check "the learners' bundle has no instructor page" \
	sh -c "! find '$scratch/learners' -name 'instructor*' | grep -q ."

# The key has every answer, and the search finds them there.
# shellcheck disable=SC2046
as_text $(texts "$scratch/trainer") >"$scratch/key-text"
expect_fail "the search finds the answers in the trainer's key" "run(s) of answer text" \
	leaks "$scratch/needles" "$scratch/allowed" "$scratch/key-text"
for s in $(series_steps); do
	check "the key holds $s's notes with its answer" \
		grep -q '^## Answer' "$scratch/trainer/$name/trainer/steps/$s/NOTES.md"
done
check "the key holds the instructor page and README-trainers.md" \
	sh -c "[ -s '$scratch/trainer/$name/docs/instructor.html' ] && [ -s '$scratch/trainer/$name/README-trainers.md' ]"
# unpacked beside the learners' folder, the instructor page's links work
mkdir "$scratch/both"
tar -xzf "$tarball" -C "$scratch/both"
tar -xzf "$key" -C "$scratch/both"
broken=
for target in $(grep -o -E '(href|src)="[^"#:]+' "$scratch/both/$name/docs/instructor.html" | sed 's/^[a-z]*="//' | sort -u); do
	[ -e "$scratch/both/$name/docs/$target" ] || broken="$broken $target"
done
check "the instructor page's links resolve beside the learners' files${broken:+ (broken:$broken)}" [ -z "$broken" ]
done_testing
