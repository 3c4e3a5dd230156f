#!/bin/sh
# docs/compat.md's worked port is checked against what it cites: each
# hunk it shows is in the recorded port, each stable change it names is in
# the pinned package's Debian changelog, in the version it says.
. "$(dirname "$0")/lib.sh"

page=$TOP/docs/compat.md
port=$TOP/kernel/ports/6.1.176-1/00b-centralize-map-perms.patch
check "the recorded port of 00b to 6.1.176-1 exists" [ -f "$port" ]

# every ```diff block of the page, verbatim, in the recorded port
blocks=$(mktemp -d)
trap 'rm -rf "$blocks"' EXIT
awk -v d="$blocks" '/^```diff$/ { n++; on = 1; next } /^```$/ { on = 0 } on { print > (d "/" n) }' "$page"
check "the page shows the port's hunks" [ -n "$(ls "$blocks")" ]
for b in "$blocks"/*; do
	check "hunk $(basename "$b") of docs/compat.md is in the recorded port" \
		awk -v want="$(cat "$b")" 'BEGIN { RS = "\001" } { exit index($0, want) == 0 }' "$port"
done

# the stable changes it names, in the changelog of the installed package
log=/usr/share/doc/linux-source-6.1/changelog.Debian.gz
for subject in "bpf: Harden bloom filter sizing and indexing on 32-bit kernels" \
	"bpf, sockmap: Reject max_entries > INT_MAX in sock_map_alloc"; do
	check "docs/compat.md names '$subject'" grep -qF "$subject" "$page"
	check "... and Debian 6.1.190-1's changelog entry has it" \
		sh -c "zcat '$log' | awk '/^linux \\(/ { v = \$2 } index(\$0, \"$subject\") { print v }' | grep -qx '(6.1.190-1)'"
done

check "make docs writes the backporting page" grep -q "The worked port: 6.1.176-1" "$BUILD/docs/compat.html"
check "... linked from the landing page" grep -q 'href="compat.html"' "$BUILD/docs/index.html"
done_testing
