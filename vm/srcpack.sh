#!/bin/sh
# vm/srcpack.sh DIR: the kernel source a learner reads in the exercises,
# for the bundle's `./bpftoken src STEP FILE[:FUNCTION]`, written into
# DIR (the bundle's src/ folder):
#
#   DIR/files.tsv       step id (or mainline), path, blob: one line for
#                       every file the series touches as that step's tree
#                       has it (a file a step has not created yet has no
#                       line), sorted
#   DIR/blobs/BLOB      the file's bytes; BLOB is git's object id, so a
#                       file that several steps leave alike is stored once
#
# The files: every path any step's commit changes (step-00..step-LAST in
# build/linux), read from each step's branch, and the same paths from
# build/linux-mainline's mainline branch (Debian's 6.12, where they exist)
# so an exercise can compare with upstream.  Read with git cat-file: no
# checkout, nothing in build/linux changes.
set -eu
. "$(dirname "$0")/../kernel/lib.sh"

[ $# = 1 ] || die "usage: vm/srcpack.sh DIR"
DIR=$1
[ -d "$LINUX/.git" ] || die "build/linux is missing: run 'make tree' (make bundle does)"
[ -d "$MAINLINE_LINUX/.git" ] || die "build/linux-mainline is missing: run 'make build-mainline' (make bundle does)"

first=$(series_ids | tr " " "\n" | head -n 1)
last=$(series_ids | tr " " "\n" | tail -n 1)
# every path a step's commit touched, once
paths=$(git -C "$LINUX" log --format= --name-only "step-$first..step-$last" | sort -u)
[ -n "$paths" ] || die "build/linux: no file changed between step-$first and step-$last; run 'make tree'"

rm -rf "$DIR"
mkdir -p "$DIR/blobs"

# list GITDIR REF LABEL: "LABEL<TAB>PATH<TAB>BLOB" for each path REF has,
# from one git ls-tree ("MODE blob BLOB<TAB>PATH")
list() {
	# shellcheck disable=SC2086 # kernel paths have no spaces
	git -C "$1" ls-tree -r "$2" -- $paths |
		awk -F'\t' -v label="$3" '{ split($1, f, " "); print label "\t" $2 "\t" f[3] }'
}
{
	for id in $(series_ids); do
		list "$LINUX" "refs/heads/step-$id" "$id"
	done
	list "$MAINLINE_LINUX" refs/heads/mainline mainline
} | LC_ALL=C sort >"$DIR/files.tsv"

# the bytes, once per blob, from whichever tree has it
cut -f3 "$DIR/files.tsv" | LC_ALL=C sort -u | while IFS= read -r blob; do
	git -C "$LINUX" cat-file blob "$blob" >"$DIR/blobs/$blob" 2>/dev/null ||
		git -C "$MAINLINE_LINUX" cat-file blob "$blob" >"$DIR/blobs/$blob" ||
		die "blob $blob is in neither build/linux nor build/linux-mainline"
done
info "srcpack: $(wc -l <"$DIR/files.tsv") file versions, $(ls "$DIR/blobs" | wc -l) distinct, $(du -sk "$DIR" | cut -f1) kB"
