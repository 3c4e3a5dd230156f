#!/bin/sh
# The base is pinned (kernel/versions): make deps wants exactly those
# versions, and make tree extracts nothing else.  A pin this machine does
# not have is reported with both versions and the command that ports.
. "$(dirname "$0")/lib.sh"
need_tree

pin=$(pinned_version linux-source-6.1)
check "kernel/versions pins linux-source-6.1" [ -n "$pin" ]
check "kernel/versions pins linux-source-6.12" [ -n "$(pinned_version linux-source-6.12)" ]
check "the pinned 6.1 is what is installed" [ "$(installed_version linux-source-6.1)" = "$pin" ]
check "build/linux's pristine commit names the pinned version" \
	[ "$(git -C "$LINUX" log -1 --format=%s pristine)" = "Debian linux-source-6.1 $pin (pristine)" ]

# A versions file pinning a 6.1.y nobody ships.
fake=$(mktemp)
chmod 644 "$fake"	# read by the non-root check too
trap 'rm -f "$fake"' EXIT
sed "s/^linux-source-6.1\t.*/linux-source-6.1\t6.1.999-1/" "$TOP/kernel/versions" >"$fake"
expect_fail "deps --check: the installed version is not the pin" \
	"is $pin here; the steps are made on 6.1.999-1" env BPFTOK_VERSIONS="$fake" sh "$TOP/kernel/deps.sh" --check
expect_fail "deps --check: the pinned package=version is missing" "missing: linux-source-6.1=6.1.999-1" \
	env BPFTOK_VERSIONS="$fake" sh "$TOP/kernel/deps.sh" --check
expect_fail "without root: a pin the archive lacks is named, not put in a sudo line" \
	"6.1.999-1, the version the steps are made on" as_nobody_deps BPFTOK_VERSIONS="$fake"
# a pin that is in the archive but not installed: the sudo line has
# package=version.  Debian's configuration is pinned with the source, so
# the pin is one the archive has both packages of (it keeps fewer
# versions of the amd64 linux-config-6.1 than of linux-source-6.1).
other=$(apt-cache madison linux-config-6.1 | awk '{ print $3 }' >"$fake.configs"
	apt-cache madison linux-source-6.1 | awk -v p="$pin" '$3 != p { print $3 }' |
		grep -xF -f "$fake.configs" | head -1)
rm -f "$fake.configs"
check "the archive has another version of both linux-source-6.1 and linux-config-6.1 (${other:-none})" [ -n "$other" ]
sed "s/^linux-source-6.1\t.*/linux-source-6.1\t$other/" "$TOP/kernel/versions" >"$fake.other"
chmod 644 "$fake.other"
expect_fail "without root: the sudo line installs package=version" \
	"apt-get install -y --no-install-recommends --allow-downgrades linux-source-6.1=$other" \
	as_nobody_deps BPFTOK_VERSIONS="$fake.other"
rm -f "$fake.other"
# a source pin whose configuration the archive lacks is named as such
noconfig=$(apt-cache madison linux-config-6.1 | awk '{ print $3 }' >"$fake.configs"
	apt-cache madison linux-source-6.1 | awk '{ print $3 }' | grep -vxF -f "$fake.configs" | head -1)
rm -f "$fake.configs"
if [ -n "$noconfig" ]; then
	sed "s/^linux-source-6.1\t.*/linux-source-6.1\t$noconfig/" "$TOP/kernel/versions" >"$fake.other"
	chmod 644 "$fake.other"
	expect_fail "without root: a source pin whose configuration the archive lacks names linux-config-6.1" \
		"linux-config-6.1 $noconfig, the version the steps are made on" as_nobody_deps BPFTOK_VERSIONS="$fake.other"
	rm -f "$fake.other"
fi
if [ "$(id -u)" = 0 ]; then
	# apt-get update, then the archive lookup (nothing is installed)
	expect_fail "deps: a pin the archive lacks names both versions" "6.1.999-1, the version the steps are made on" \
		env BPFTOK_VERSIONS="$fake" sh "$TOP/kernel/deps.sh"
	expect_fail "... and the command that ports the steps" "make port BASE=6.1." \
		env BPFTOK_VERSIONS="$fake" sh "$TOP/kernel/deps.sh"
fi
before=$(git -C "$LINUX" for-each-ref --format='%(refname) %(objectname)' | md5sum)
expect_fail "tree: build/linux of another version than the pin is refused" \
	"extracted from linux-source-6.1 $pin, the steps are made on 6.1.999-1" \
	env BPFTOK_VERSIONS="$fake" sh "$TOP/kernel/tree.sh" apply
expect_fail "build: refused the same way" "the steps are made on 6.1.999-1" \
	env BPFTOK_VERSIONS="$fake" sh "$TOP/kernel/build.sh" 01
check "... and no branch of build/linux moved" \
	[ "$before" = "$(git -C "$LINUX" for-each-ref --format='%(refname) %(objectname)' | md5sum)" ]
# No build/linux yet, and the installed package is not the pin (as after
# installing another linux-source-6.1 by hand): nothing is extracted.
empty=$(mktemp -d)
expect_fail "tree: a tarball of another version than the pin is not extracted" \
	"linux-source-6.1 is $pin here, the steps are made on 6.1.999-1" \
	env BUILD="$empty" BPFTOK_VERSIONS="$fake" sh "$TOP/kernel/tree.sh" apply
check "... and nothing was written" [ -z "$(ls -A "$empty" | grep -v '^\.lock$')" ]
rm -rf "$empty"
done_testing
