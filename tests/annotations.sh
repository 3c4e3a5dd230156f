#!/bin/sh
# Annotation coverage: every hunk of every step patch has a "### " heading
# in its NOTES.md, and every such heading names a hunk that exists.
#
#   tests/annotations.sh [--list STEP]
#
# Hunks are named by kernel/hunks.awk, the way `git diff` shows them:
# "### kernel/bpf/syscall.c: map_create()".  Several hunks with the same
# name share one heading.
set -eu
. "$(dirname "$0")/../kernel/lib.sh"

hunk_names() {
	awk -f "$TOP/kernel/hunks.awk" "$1" | sort -u
}

heading_names() {
	sed -n 's/^### \(.*[^[:space:]]\)[[:space:]]*$/\1/p' "$1" | sort -u
}

if [ "${1:-}" = "--list" ]; then
	hunk_names "$TOP/steps/$(resolve_step "${2:-}")/patch"
	exit 0
fi

status=0
for s in $(series_steps); do
	patch=$TOP/steps/$s/patch
	notes=$TOP/steps/$s/NOTES.md
	[ -f "$patch" ] || continue
	hunk_names "$patch" >"$BUILD/hunks.txt"
	heading_names "$notes" >"$BUILD/headings.txt"
	comm -23 "$BUILD/hunks.txt" "$BUILD/headings.txt" | while IFS= read -r h; do
		echo "steps/$s/NOTES.md: no annotation for hunk '### $h'"
	done
	comm -13 "$BUILD/hunks.txt" "$BUILD/headings.txt" | while IFS= read -r h; do
		echo "steps/$s/NOTES.md: '### $h' names no hunk of steps/$s/patch"
	done
	if ! cmp -s "$BUILD/hunks.txt" "$BUILD/headings.txt"; then
		status=1
	else
		echo "steps/$s: $(wc -l <"$BUILD/hunks.txt") hunk name(s), all annotated"
	fi
done
exit $status
