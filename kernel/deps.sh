#!/bin/sh
# Install the Debian packages the project needs, by name, and nothing else.
#
#   kernel/deps.sh          install what is missing (root), or print the
#                           exact sudo command and stop (not root)
#   kernel/deps.sh --check  only say what is missing; exit 1 if anything is
#
# Idempotent: with everything present it installs nothing and says so.
set -eu

PACKAGES="
linux-source-6.1
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
"
# For the tests of this script: extra names to require.
PACKAGES="$PACKAGES ${DEPS_EXTRA:-}"

missing=
for p in $PACKAGES; do
	status=$(dpkg-query -W -f '${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	case $status in
	ii*) ;;
	*) missing="$missing $p" ;;
	esac
done
missing=${missing# }

if [ -z "$missing" ]; then
	echo "deps: all $(echo $PACKAGES | wc -w) packages are installed"
	exit 0
fi
echo "deps: missing: $missing"
[ "${1:-}" = "--check" ] && exit 1

if [ "$(id -u)" != 0 ]; then
	echo "deps: installing needs root. Run this, then the make command again:" >&2
	echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends $missing" >&2
	exit 1
fi
echo "deps: installing with apt-get: $missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
echo "deps: done"
