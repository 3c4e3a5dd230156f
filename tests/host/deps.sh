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

# Every package a script names for a tool it needs (need_tools TOOL:PACKAGE,
# KERNEL_BUILD_TOOLS) is one make deps installs, unless every Debian root
# has it (Priority: required, as mmdebstrap's minbase).  make check's
# fresh-root smoke builds step 00 only: without this, dropping dwarves
# or clang from make deps would fail nothing but make fresh.
named_packages() {
	{
		sed -n '/^KERNEL_BUILD_TOOLS=/,/"$/p' "$TOP/kernel/lib.sh"
		grep -h -A1 '^[[:space:]]*need_tools "' "$TOP"/kernel/*.sh "$TOP"/tests/*.sh \
			"$TOP"/vm/run "$TOP"/vm/*.sh
	} | grep -o '[A-Za-z0-9_./+-]*:[a-z0-9][a-z0-9.+-]*' | cut -d: -f2 | sort -u
}
not_in_deps() {
	local installs p missing=
	installs=$(sh "$TOP/kernel/deps.sh" --list)
	for p in $(named_packages); do
		printf '%s\n' "$installs" | grep -qx "$p" && continue
		[ "$(dpkg-query -W -f '${Priority}' "$p" 2>/dev/null)" = required ] && continue
		missing="$missing $p"
	done
	[ -z "$missing" ] || { echo "named by a script but not installed by make deps:$missing"; return 1; }
}
check "every package the scripts name for their tools ($(named_packages | wc -l)) is in make deps" not_in_deps
named() {
	local p
	for p; do named_packages | grep -qx "$p" || { echo "no script names $p"; return 1; }; done
}
check "... dwarves and clang (the mainline kernel and selftest) among them" named dwarves clang

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
