#!/bin/sh
# Install the Debian packages the project needs, by name, and nothing else.
#
#   kernel/deps.sh          install what is missing (root), or print the
#                           exact sudo command and stop (not root)
#   kernel/deps.sh --check  only say what is missing; exit 1 if anything is
#   kernel/deps.sh --list   only print the package names it requires
#
# Then the deck's reveal.js, pinned by slides/package-lock.json, into
# build/npm (slides/deps.sh).
#
# Idempotent: with everything present it installs nothing and says so.
set -eu
. "$(dirname "$0")/lib.sh"

PACKAGES="
linux-source-6.1
linux-config-6.1
linux-source-6.12
qemu-system-x86
busybox-static
pandoc
libcap-dev
libelf-dev
zlib1g-dev
libzstd-dev
bc
bison
flex
libssl-dev
cpio
ccache
gcc
make
git
xz-utils
zstd
python3
python3-ply
python3-git
chromium
graphviz
perl
util-linux
bsdextrautils
binutils
rsync
mmdebstrap
quilt
dwarves
clang
"
# The deck's reveal.js comes from the npm registry (slides/deps.sh, run
# last), which needs the npm command.  Debian's nodejs and npm give it; a
# machine that already has the command keeps it (nodesource's nodejs
# bundles npm and conflicts with Debian's npm package): ask for the
# command, not the package.
command -v "${DEPS_NPM:-npm}" >/dev/null 2>&1 || PACKAGES="$PACKAGES nodejs npm"
# For the tests of this script: extra names to require (DEPS_NPM: the npm
# command to look for).
PACKAGES="$PACKAGES ${DEPS_EXTRA:-}"
if [ "${1:-}" = --list ]; then
	printf '%s\n' $PACKAGES
	exit 0
fi

# A pinned package (kernel/versions) counts as missing unless exactly
# that version is installed; it is installed as package=version.
missing=
for p in $PACKAGES; do
	pin=$(pinned_version "$p")
	have=$(installed_version "$p")
	if [ -z "$have" ]; then
		missing="$missing $p${pin:+=$pin}"
	elif [ -n "$pin" ] && [ "$have" != "$pin" ]; then
		echo "deps: $p is $have here; the steps are made on $pin (kernel/versions)"
		missing="$missing $p=$pin"
	fi
done
missing=${missing# }

if [ -z "$missing" ]; then
	echo "deps: all $(echo $PACKAGES | wc -w) packages are installed"
	exec sh "$TOP/slides/deps.sh" ${1:+"$1"}
fi
echo "deps: missing: $missing"
[ "${1:-}" = --check ] && exit 1

# A pinned version the archive no longer has cannot be installed: name
# both versions and the way to move the steps onto the archive's.  Before
# apt-get update (not root) the lists may be empty; then only the update
# can tell, and the check waits for it.
check_pins_in_archive() {
	local want p pin listed
	for want in $missing; do
		case $want in *=*) ;; *) continue ;; esac
		p=${want%%=*} pin=${want#*=}
		listed=$(apt-cache madison "$p" 2>/dev/null | awk '{ print $3 }')
		[ -n "$listed" ] || [ "$1" = after-update ] || continue
		printf '%s\n' "$listed" | grep -qxF "$pin" && continue
		die "$p $pin, the version the steps are made on (kernel/versions), is not in this machine's archive, whose newest is $(printf '%s\n' "$listed" | head -1 | sed 's/^$/none at all/').
  To port the steps onto it: make port BASE=$(printf '%s\n' "$listed" | sed -n '1p' | sed 's/^$/VERSION/')   (docs/compat.md walks through a port)
  To see which versions the steps apply to: make compat"
	done
}

check_pins_in_archive before-update
if [ "$(id -u)" != 0 ]; then
	echo "deps: installing needs root. Run this, then the make command again:" >&2
	echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends --allow-downgrades $missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
echo "deps: apt-get update"
apt-get update -q >/dev/null
check_pins_in_archive after-update

echo "deps: installing with apt-get: $missing"
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends --allow-downgrades $missing
echo "deps: done"
exec sh "$TOP/slides/deps.sh"
