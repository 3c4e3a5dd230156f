#!/bin/sh
# scripts/checkpatch.pl from the kernel tree on step patches: make
# checkpatch, the docs' checkpatch page and make check all run this.
#
#   kernel/checkpatch.sh [STEP...]     default: every step with a patch
#
# A warning a step keeps on purpose is listed in its NOTES.md under the
# heading "## checkpatch", one "- `TYPE`: why" line per checkpatch type;
# those types are passed to --ignore, everything else must be clean.
set -eu
. "$(dirname "$0")/lib.sh"

[ -x "$LINUX/scripts/checkpatch.pl" ] || die "build/linux is missing; run 'make tree'"
[ $# -gt 0 ] || set -- $(series_steps)
status=0
for arg in "$@"; do
	step=$(resolve_step "$arg")
	patch=$TOP/steps/$step/patch
	[ -f "$patch" ] || continue
	ignore=$(sed -n '/^## checkpatch/,/^## /s/^- `\([A-Z_]*\)`.*/\1/p' \
		"$TOP/steps/$step/NOTES.md" | paste -sd, -)
	# Debian's python3 first: checkpatch runs scripts/spdxcheck.py, which
	# needs python3-ply from make deps, not some other python3 on PATH.
	if PATH=/usr/bin:$PATH perl "$LINUX/scripts/checkpatch.pl" --root="$LINUX" -q \
		--strict ${ignore:+--ignore "$ignore"} "$patch"; then
		echo "checkpatch: steps/$step/patch clean${ignore:+ (ignoring $ignore as NOTES.md explains)}"
	else
		echo "checkpatch: steps/$step/patch has the findings above" >&2
		status=1
	fi
done
exit $status
