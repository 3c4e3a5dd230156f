#!/bin/sh
# bpftoken leaves no QEMU behind: Ctrl-C during `./bpftoken matrix` (SIGINT
# to the runner alone, then to its whole process group as a terminal
# sends it) and a boot past its deadline.  Run from an unpacked bundle.
. "$(dirname "$0")/../host/lib.sh"

# the bundle tests/bundle/reproducible.sh made (or a new one)
[ -s "$BUILD/bundle/last" ] || make -s -C "$TOP" bundle >/dev/null || { echo "  NOT OK: make bundle failed"; exit 1; }
tarball=$(cat "$BUILD/bundle/last")
name=$(basename "$tarball" .tar.gz)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
tar -xzf "$tarball" -C "$scratch"
dir=$scratch/$name

# QEMU processes of this unpacked bundle only
qemu_pids() {
	pgrep -f "^qemu-system-x86_64 .* -kernel $dir/kernels/" || true
}
qemus() {
	qemu_pids | wc -l
}

# wait_for_qemu: until one of its QEMUs runs (at most 30 s)
wait_for_qemu() {
	for _ in $(seq 300); do
		[ -n "$(qemu_pids)" ] && return 0
		sleep 0.1
	done
	return 1
}

# interrupt WHOM: start ./bpftoken matrix in a process group of its own,
# with SIGINT handled as in a terminal (a background job of a script
# starts with it ignored); once QEMU runs, SIGINT to the runner (WHOM=
# runner) or to the group (WHOM=group: Ctrl-C in a terminal).
interrupt() {
	(cd "$dir" && exec setsid env --default-signal=INT sh ./bpftoken matrix) >"$scratch/$1.log" 2>&1 &
	runner=$!
	check "QEMU started under ./bpftoken matrix ($1)" wait_for_qemu
	qemu=$(qemu_pids | head -1)
	case $1 in
	runner) kill -INT "$runner" 2>/dev/null || true ;;
	group) kill -INT "-$runner" 2>/dev/null || true ;;
	esac
	check "bpftoken stops within 5 s of SIGINT to the $1" gone_within 5 "$runner"
	rc=0
	wait "$runner" || rc=$?
	check "it exits with 130 (SIGINT to the $1; got $rc)" [ "$rc" = 130 ]
	check "the QEMU that ran ($qemu) is gone" sh -c "! kill -0 $qemu 2>/dev/null"
	sleep 1
	check "no QEMU of the bundle left, none started after SIGINT to the $1" [ "$(qemus)" = 0 ]
}
interrupt runner
interrupt group

expect_fail "a boot past VM_TIMEOUT fails as a timeout" "timeout: the VM did not finish within 1s" \
	sh -c "cd '$dir' && VM_TIMEOUT=1 sh ./bpftoken run 04"
check "no QEMU left after the timeout" [ "$(qemus)" = 0 ]
check "no result file after the timeout" [ ! -f "$dir/results/step-04.tsv" ]
done_testing
