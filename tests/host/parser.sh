#!/bin/sh
# vm/parse.awk, the one reader of a VM's console, on saved console logs:
# no QEMU needed.  Each tests/fixtures/console/NAME.log is a console as
# vm/run saves it; NAME.expect holds what the runner knew besides the log
# (specs, selftests, counts, QEMU's status, free disk space) and what the
# parser must make of it: the result rows, the problems, the verdict.
#
#   sh tests/host/parser.sh              every fixture against its .expect
#   sh tests/host/parser.sh --show NAME  what the parser makes of NAME.log
#                                        now, laid out as NAME.expect (to
#                                        write a new fixture: review it!)
. "$(dirname "$0")/lib.sh"

FIXTURES=$TOP/tests/fixtures/console
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# param KEY EXPECT-FILE: the value of the "KEY: value" line in the header
# (the lines before "--- results")
param() {
	sed -n -e '/^--- results$/q' -e "s/^$1: //p" "$2"
}

# parsed NAME: what vm/parse.awk makes of NAME.log, laid out as NAME.expect
parsed() {
	e=$FIXTURES/$1.expect
	qemu_log=$(param qemu_log "$e")
	awk -v specs="$(param specs "$e")" -v selftests="$(param selftests "$e")" \
		-v counts="$(param counts "$e")" -v status="$(param status "$e")" \
		-v timeout="$(param timeout "$e")" -v disk_free_kb="$(param disk_free_kb "$e")" \
		-v qemu_log="${qemu_log:+$FIXTURES/$qemu_log}" \
		-v results="$scratch/results" -v problems="$scratch/problems" \
		-v verdict="$scratch/verdict" \
		-f "$TOP/vm/parse.awk" "$FIXTURES/$1.log" >"$scratch/ktap"
	sed '/^--- results$/q' "$e"	# the header, as given
	cat "$scratch/results"
	echo "--- problems"
	cat "$scratch/problems"
	echo "--- verdict"
	cat "$scratch/verdict"
}

if [ "${1:-}" = --show ]; then
	parsed "${2:?--show NAME}"
	exit 0
fi

n=0
for e in "$FIXTURES"/*.expect; do
	name=$(basename "$e" .expect)
	[ -f "$FIXTURES/$name.log" ] || { check "$name.log exists" false; continue; }
	parsed "$name" >"$scratch/$name.got"
	check "$name: $(param what "$e")" diff -u "$e" "$scratch/$name.got"
	n=$((n + 1))
done
check "fixtures were read ($n)" [ "$n" -gt 0 ]
# the failure modes the runner must tell apart, each with its fixture
for mode in clean wrong-answer timeout missing-end count-mismatch kasan kmemleak \
	selftest-fail full-disk panic qemu-killed; do
	check "a fixture for $mode" [ -f "$FIXTURES/$mode.expect" ]
done

# The KTAP passed on to the reader: the guest's lines without the markers.
parsed clean >/dev/null
check "KTAP out: no BPFTOK- markers" sh -c "! grep -q '^BPFTOK-' '$scratch/ktap'"
check "KTAP out: every case line kept" [ "$(grep -c '^ok ' "$scratch/ktap")" = 7 ]
check "KTAP out: nothing from before BPFTOK-BEGIN" sh -c "! grep -q 'Run /init' '$scratch/ktap'"
done_testing
