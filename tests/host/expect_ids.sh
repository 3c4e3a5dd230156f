#!/bin/sh
# Every step id in a demo's or suite's EXPECT() is a step of steps/series
# or "mainline", and each EXPECT lists them in series order.  The harness
# compares ids as strings ("00" < "00a" < "01" < "13" < "mainline"), so a
# typo such as "4" sorts after "13" and would silently apply to mainline
# only; an entry out of order would hide the one before it.
#
#   tests/host/expect_ids.sh [FILE.c...]    default: every demo and suite
. "$(dirname "$0")/lib.sh"

ids=$(for s in $(series_steps); do step_id "$s"; done; echo mainline)

# expect_lists FILE: one line per EXPECT(), its step ids in the order
# written.  The C preprocessor expands the file's own macros (the
# UNKNOWN_BEFORE_03 kind) without its #includes, so EXPECT is the marker
# defined here.
expect_lists() {
	sed '/^[[:space:]]*#[[:space:]]*include/d' "$1" |
		cpp -P -undef -w '-DEXPECT(...)=@EXPECT@ __VA_ARGS__ @END@' |
		tr '\n' ' ' | grep -o '@EXPECT@[^@]*@END@' |
		sed -e 's/^@EXPECT@//' -e 's/@END@$//' |
		while IFS= read -r list; do
			printf '%s\n' "$list" | grep -o '"[^"]*"' | tr -d '"' | tr '\n' ' '
			echo
		done
}

# bad_ids LIST: the ids of LIST that are no step nor mainline, and the
# first one out of series order
bad_ids() {
	printf '%s\n' "$ids" | awk -v list="$1" '
		{ pos[$0] = NR }
		END {
			n = split(list, id, " ")
			last = 0
			for (i = 1; i <= n; i++) {
				if (!(id[i] in pos)) { printf " unknown \"%s\"", id[i]; continue }
				if (pos[id[i]] <= last) printf " \"%s\" out of order", id[i]
				last = pos[id[i]]
			}
		}'
}

[ $# -gt 0 ] || set -- "$TOP"/userspace-demo/*.c "$TOP"/userspace-demo/suites/*.c
for f in "$@"; do
	name=${f#"$TOP"/}
	lists=$(expect_lists "$f")
	n=$(printf '%s' "$lists" | grep -c . || true)
	if grep -q 'EXPECT(' "$f"; then
		check "$name: its EXPECT() lists are found ($n)" [ "$n" -gt 0 ]
	fi
	bad=$(printf '%s\n' "$lists" | while IFS= read -r l; do
		[ -n "$l" ] || continue
		b=$(bad_ids "$l")
		[ -z "$b" ] || echo "{ $l}:$b;"
	done | tr "\n" " ")
	check "$name: every EXPECT() names steps of steps/series or mainline, in order${bad:+ (but: $bad)}" \
		[ -z "$bad" ]
done
done_testing
