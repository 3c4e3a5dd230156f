#!/bin/sh
# A Debian root dies with its caller: debroot_run gives back the
# command's exit status, and a TERM to the script that called it (kill
# PID, not a signal to the group) leaves no process of the root behind.
# unshare --fork itself ignores TERM while it waits, so without
# debroot_run's trap the root would run on.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/debroot.sh"
[ "$(id -u)" = 0 ] || skip_test "a Debian root needs root (mmdebstrap, chroot)"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# shellcheck disable=SC2086 # a name and package names
debroot_unpack "$(debroot_tarball $DEBROOT_FRESH)" "$scratch/root"

status=0
debroot_run "$scratch/root" "exit 3" </dev/null || status=$?
check "debroot_run gives back the command's exit status" [ "$status" = 3 ]

marker="sleep 3$$"	# a command line only this test runs
sh -c '. "$1/kernel/lib.sh"; . "$1/tests/debroot.sh"; debroot_run "$2" "$3"' \
	- "$TOP" "$scratch/root" "$marker" </dev/null >/dev/null 2>&1 &
caller=$!
started() { pgrep -fx "$marker" >/dev/null; }
for _ in $(seq 50); do started && break; sleep 0.1; done
check "the root's command runs" started
kill -TERM "$caller"
check "the caller exits on TERM" gone_within 10 "$caller"
root_gone() {
	for _ in $(seq 50); do started || return 0; sleep 0.1; done
	return 1
}
check "nothing of the root is left 5 s later" root_gone
pkill -KILL -fx "$marker" 2>/dev/null || true
done_testing
