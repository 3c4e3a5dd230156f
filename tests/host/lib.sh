# Sourced by the host tests: paths, and assertions that say what failed.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
export TOP
. "$TOP/kernel/lib.sh"

fails=0
check() {
	# check "what" COMMAND...: the command must succeed
	what=$1
	shift
	if "$@"; then
		echo "  ok: $what"
	else
		echo "  NOT OK: $what"
		fails=$((fails + 1))
	fi
}

# expect_fail "what" PATTERN COMMAND...: must fail, with PATTERN in its output
expect_fail() {
	what=$1 pattern=$2
	shift 2
	if out=$("$@" 2>&1); then
		echo "  NOT OK: $what: succeeded, output: $out"
		fails=$((fails + 1))
	elif ! printf '%s\n' "$out" | grep -q -- "$pattern"; then
		echo "  NOT OK: $what: no '$pattern' in: $out"
		fails=$((fails + 1))
	else
		echo "  ok: $what"
	fi
}

done_testing() {
	[ "$fails" -eq 0 ]
}

need_tree() {
	[ -d "$LINUX/.git" ] || { echo "build/linux missing: run make build first"; exit 1; }
}
