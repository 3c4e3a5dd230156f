#!/bin/sh
# Annotation coverage: every hunk of every step patch has a "### " heading
# in its NOTES.md, and every such heading names a hunk that exists.
#
#   tests/annotations.sh [--list STEP]
#
# A hunk is named the way `git diff` shows it: the file, then the function
# from the "@@ ... @@ context" line: "### kernel/bpf/syscall.c: map_create()".
# Contexts without a call become their text ("struct bpf_mount_opts");
# hunks of a new file are "(new file)", hunks with no context "(top)".
# Several hunks with the same name share one heading.
set -eu
. "$(dirname "$0")/../kernel/lib.sh"

hunk_names() {
	awk '
		/^diff --git / { newfile = 0; next }
		/^--- \/dev\/null/ { newfile = 1; next }
		/^\+\+\+ b\// { file = substr($0, 7); next }
		/^@@ / {
			ctx = $0
			sub(/^@@ [^@]* @@ ?/, "", ctx)
			if (newfile)
				name = "(new file)"
			else if (ctx == "")
				name = "(top)"
			else if (match(ctx, /[A-Za-z0-9_]\(/)) {
				name = substr(ctx, 1, RSTART)
				n = split(name, w, /[ \t*]+/)
				name = w[n] "()"
			} else {
				name = ctx
				while (sub(/[ \t]*[{};=][ \t]*$/, "", name))
					;
			}
			print file ": " name
		}' "$1" | sort -u
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
