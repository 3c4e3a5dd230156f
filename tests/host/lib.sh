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

# gone_within SECONDS PID: the process has exited by then
gone_within() {
	for _ in $(seq $(($1 * 10))); do
		kill -0 "$2" 2>/dev/null || return 0
		sleep 0.1
	done
	return 1
}

# skip_test REASON: this test cannot run here; tests/run.sh reports it as
# "# SKIP REASON" (exit 4 is kselftest's KSFT_SKIP), not as a pass
skip_test() {
	echo "SKIP: $*"
	exit 4
}

done_testing() {
	[ "$fails" -eq 0 ]
}

need_tree() {
	[ -d "$LINUX/.git" ] || { echo "build/linux missing: run make build first"; exit 1; }
}

# as_nobody_deps [VAR=VALUE...] [ARGS...]: kernel/deps.sh run as uid
# 65534 with those variables, from a world-readable copy: the checkout
# may sit under /root (mode 0700), the usual place when working as root,
# where nobody could not read it.
as_nobody_deps() {
	local copy rc=0 vars=
	while [ $# -gt 0 ]; do
		case $1 in
		[A-Z]*=*) vars="$vars $1"; shift ;;
		*) break ;;
		esac
	done
	copy=$(mktemp -d)
	mkdir "$copy/kernel"
	cp "$TOP/kernel/deps.sh" "$TOP/kernel/lib.sh" "$TOP/kernel/versions" "$copy/kernel/"
	chmod -R a+rX "$copy"
	# shellcheck disable=SC2086
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		env -u TOP -u BPFTOK_VERSIONS BUILD="$copy/build" $vars sh "$copy/kernel/deps.sh" "$@" || rc=$?
	rm -rf "$copy"
	return $rc
}

# matrix_to_compare MATRIX NEED: sets compare to MATRIX when the tests
# may compare their claims with it, else to nothing.  NEED=1 (right
# after the VM phase) makes its presence a check; otherwise a missing
# matrix, or one older than a demo source or a step patch, is a skip,
# said on a line of its own.
matrix_to_compare() {
	compare=$1
	if [ "$2" = 1 ]; then
		check "the matrix to compare with exists" [ -s "$1" ]
	elif [ ! -s "$1" ]; then
		echo "  skip: measured results (no $1 yet; make matrix)"
		compare=
	else
		newer=$(find "$TOP/userspace-demo" "$TOP/steps" -newer "$1" \
			\( -name '*.c' -o -name '*.h' -o -name patch \) | head -n 1)
		if [ -n "$newer" ]; then
			echo "  skip: measured results ($1 is older than ${newer#"$TOP"/}; make matrix)"
			compare=
		fi
	fi
}
