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

# The deck's reveal.js: part of make deps, checked, quick once installed.
empty=$(mktemp -d)
expect_fail "reveal.js not installed: --check names it" "missing: reveal.js" \
	env NPM_DIR="$empty" sh "$TOP/kernel/deps.sh" --check
rmdir "$empty"
check "reveal.js installed: a second make deps says so and installs nothing" \
	sh -c "sh '$TOP/slides/deps.sh' | grep -q '^deps: reveal.js [0-9.]* is installed in'"
# Without the npm command, Debian's npm is asked for (nodejs too, unless
# another nodejs package is installed); with it, never.
bin=$(mktemp -d)
for f in /usr/local/bin/* /usr/bin/* /bin/*; do
	n=$(basename "$f")
	[ "$n" = npm ] || [ -e "$bin/$n" ] || ln -s "$f" "$bin/$n"
done
expect_fail "no npm command: Debian's npm is named" "missing: .*npm" \
	env PATH="$bin" sh "$TOP/kernel/deps.sh" --check
rm -rf "$bin"
done_testing
