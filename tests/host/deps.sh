#!/bin/sh
# make deps: idempotent, names what is missing, tells a non-root user the sudo line.
. "$(dirname "$0")/lib.sh"

check "everything installed: deps --check passes" sh "$TOP/kernel/deps.sh" --check
expect_fail "a missing package is named" "missing: no-such-package-bpftok" \
	env DEPS_EXTRA=no-such-package-bpftok sh "$TOP/kernel/deps.sh" --check
expect_fail "without root: the exact sudo command" "sudo apt-get install -y --no-install-recommends no-such-package-bpftok" \
	setpriv --reuid=65534 --regid=65534 --clear-groups \
	env DEPS_EXTRA=no-such-package-bpftok sh "$TOP/kernel/deps.sh"
done_testing
