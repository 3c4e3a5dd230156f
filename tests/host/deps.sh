#!/bin/sh
# make deps: idempotent, names what is missing, tells a non-root user the sudo line.
. "$(dirname "$0")/lib.sh"

check "everything installed: deps --check passes" sh "$TOP/kernel/deps.sh" --check
expect_fail "a missing package is named" "missing: no-such-package-bpftok" \
	env DEPS_EXTRA=no-such-package-bpftok sh "$TOP/kernel/deps.sh" --check
expect_fail "without root: the exact sudo command" "sudo apt-get install -y --no-install-recommends --allow-downgrades no-such-package-bpftok" \
	setpriv --reuid=65534 --regid=65534 --clear-groups \
	env DEPS_EXTRA=no-such-package-bpftok sh "$TOP/kernel/deps.sh"
# A build tool missing from PATH is named with its package before any
# build starts (rsync once failed a fresh machine minutes into a build).
bin=$(mktemp -d)
for t in $KERNEL_BUILD_TOOLS; do
	t=${t%%:*}
	case $t in */*|*.h|rsync) continue ;; esac
	ln -s "$(command -v "$t")" "$bin/$t"
done
expect_fail "a kernel build without rsync names the package" "missing: rsync; run 'make deps'" \
	env PATH="$bin" /bin/sh -c ". '$TOP/kernel/lib.sh' && need_tools 'a kernel build' \$KERNEL_BUILD_TOOLS"
ln -s "$(command -v rsync)" "$bin/rsync"
check "... and with rsync it is content" \
	env PATH="$bin" /bin/sh -c ". '$TOP/kernel/lib.sh' && need_tools 'a kernel build' \$KERNEL_BUILD_TOOLS"
rm -rf "$bin"
done_testing
