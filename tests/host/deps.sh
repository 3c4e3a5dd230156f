#!/bin/sh
# make deps: idempotent, names what is missing, tells a non-root user the sudo line.
. "$(dirname "$0")/lib.sh"

check "everything installed: deps --check passes" sh "$TOP/kernel/deps.sh" --check
expect_fail "a missing package is named" "missing: no-such-package-bpftok" \
	env DEPS_EXTRA=no-such-package-bpftok sh "$TOP/kernel/deps.sh" --check
expect_fail "without root: the exact sudo command" "sudo apt-get install -y --no-install-recommends --allow-downgrades no-such-package-bpftok" \
	as_nobody_deps DEPS_EXTRA=no-such-package-bpftok
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

# The deck's reveal.js: part of make deps, checked, quick once installed.
empty=$(mktemp -d)
expect_fail "reveal.js not installed: --check names it" "missing: reveal.js" \
	env NPM_DIR="$empty" sh "$TOP/kernel/deps.sh" --check
rmdir "$empty"
check "reveal.js installed: a second make deps says so and installs nothing" \
	sh -c "sh '$TOP/slides/deps.sh' | grep -q '^deps: reveal.js [0-9.]* is installed in'"
# Without the npm command, Debian's nodejs and npm are required; with it
# (whichever package brought it: nodesource's nodejs conflicts with
# Debian's npm), neither.
check "no npm command: Debian's nodejs and npm are required" \
	sh -c "env DEPS_NPM=no-such-npm-bpftok sh '$TOP/kernel/deps.sh' --list | tr '\n' ' ' | grep -q ' nodejs npm '"
check "an npm command: no npm package is required" \
	sh -c "! env DEPS_NPM=sh sh '$TOP/kernel/deps.sh' --list | grep -q -x -e npm -e nodejs"
done_testing
