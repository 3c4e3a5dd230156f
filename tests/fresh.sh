#!/bin/sh
# The project on a machine that has nothing installed: a minimal Debian 12
# root (mmdebstrap --variant=minbase, bookworm + -updates + -security, plus
# make, which reads the Makefile), a clone of this checkout's HEAD in it,
# and the README's commands run there as root.
#
#   tests/fresh.sh full    make fresh: `make demo` in the root; it must end
#                          with the matrix and no failure (20+ minutes)
#   tests/fresh.sh smoke   part of make check: `make deps`, step 00 built
#                          (from the pristine commit of build/linux, not
#                          the tarball), its demo in one boot, the docs
#                          and the slides
#
# Nothing on the host is installed or changed: the root lives in
# build/fresh/root-MODE and is entered in private namespaces (tests/debroot.sh).
# Its tarball is cached in build/debroot/; the .debs it downloads in
# build/fresh/apt-MODE (seeded from this machine's apt cache); the
# host's ccache is shared by a bind mount unless FRESH_CCACHE=0
# (compiler output does not depend on installed packages).
# The whole log is build/fresh/MODE.log; FRESH_KEEP=1 keeps the root
# (build/fresh/root-MODE).
set -eu
. "$(dirname "$0")/../kernel/lib.sh"
. "$TOP/tests/debroot.sh"

mode=${1:-}
case $mode in
full) what="make demo" ;;
smoke) what="make deps, step 00 and its demo, make docs and make slides" ;;
*) die "usage: tests/fresh.sh full|smoke" ;;
esac
[ "$(id -u)" = 0 ] || die "make fresh needs root: mmdebstrap --mode=root and chroot"
need_tools "make fresh" mmdebstrap:mmdebstrap unshare:util-linux git:git

FRESH=$BUILD/fresh
# one root and one .deb cache per mode: make fresh may run beside a check
root=$FRESH/root-$mode
log=$FRESH/$mode.log
apt=$FRESH/apt-$mode
mkdir -p "$apt"
# its own lock, not the checkout's: the root shares nothing with build/
# but ccache, so make fresh may run beside make check, not beside itself
exec 8>"$FRESH/$mode.lock"
flock -n 8 || die "another make fresh ($mode) is running in $TOP; wait for it to finish"
# The .debs this machine's apt has kept (the host's make deps fetched
# the same packages) seed the root's cache as hard links, where one file
# system holds both: apt checks each against its index's SHA256 before
# using it and fetches what is missing or differs, and it replaces a
# file rather than writing into it, so the host's copies stay as they are.
cp -l -n /var/cache/apt/archives/*.deb "$apt/" 2>/dev/null || true
need_space 8000 "a fresh Debian root with a kernel tree and its builds"

# shellcheck disable=SC2086 # a name and package names
tarball=$(debroot_tarball $DEBROOT_FRESH)

info "fresh: unpacking ${tarball#"$TOP/"} into ${root#"$TOP/"}"
debroot_unpack "$tarball" "$root"

# HEAD, as CI would clone it: uncommitted edits are not part of the proof.
head=$(git -C "$TOP" rev-parse --short HEAD)
[ -z "$(git -C "$TOP" status --porcelain --untracked-files=no)" ] ||
	info "fresh: testing commit $head; uncommitted changes in $TOP are not in it"
mkdir -p "$root/work"
git clone -q "$TOP" "$root/work/bpftok"

binds="--bind $apt:/var/cache/apt/archives"
# The smoke's step 00 starts from this checkout's build/linux, read-only
# (kernel/tree.sh BPFTOK_SEED): the root still installs and checks the
# pinned tarball, but does not spend minutes unpacking and hashing it
# again; make fresh does, as a new machine would.
seed_env=
if [ $mode = smoke ]; then
	[ -d "$LINUX/.git" ] || die "the smoke starts from build/linux; run 'make build' first"
	binds="$binds --bind $LINUX:/var/cache/bpftok-seed:ro"
	seed_env="BPFTOK_SEED=/var/cache/bpftok-seed"
fi
ccache_env=
if [ "${FRESH_CCACHE:-1}" = 1 ] && command -v ccache >/dev/null; then
	cache=$(ccache --get-config cache_dir)
	mkdir -p "$cache"
	binds="$binds --bind $cache:/var/cache/bpftok-ccache"
	ccache_env="CCACHE_DIR=/var/cache/bpftok-ccache"
fi

# The commands, as a newcomer types them after cloning (README).  The
# smoke builds one step and one demo with the same pieces make uses.
# Each command is announced with the time, so the log shows where the
# minutes go.
case $mode in
full)
	cmd="at make demo"
	;;
smoke)
	cmd="at make deps && at make build STEP=00 &&
	at make -s -C userspace-demo STEPDIR=\$PWD/build/out/step-00 \
		OBJDIR=\$PWD/build/demos/obj/step-00 BINDIR=\$PWD/build/demos DEMOS=00-baseline &&
	at sh vm/mkinitramfs.sh build/demos/00-baseline &&
	at sh vm/run 00 00-baseline &&
	at make docs && at make slides"
	;;
esac
at='at() { echo "==> fresh $(date +%T): $*"; "$@"; }'

info "fresh: in the root, as root: $what (log: ${log#"$TOP/"})"
start=$(date +%s)
rc=0
# shellcheck disable=SC2086
debroot_run "$root" $binds "cd /work/bpftok && ${ccache_env:+export $ccache_env &&} ${seed_env:+export $seed_env &&} $at &&
	$cmd" </dev/null >"$log" 2>&1 || rc=$?
echo "==> fresh $(date +%T): done" >>"$log"
grep '^==> fresh ' "$log" | sed 's/^==> fresh /    /'	# the timeline
took=$(($(date +%s) - start))

if [ $rc -ne 0 ]; then
	echo "---- last 40 lines of ${log#"$TOP/"} ----" >&2
	tail -40 "$log" >&2
	die "fresh: $what failed in a clean Debian 12 root after ${took} s (exit $rc).
  A 'not found' above usually means a package missing from kernel/deps.sh."
fi
if [ $mode = full ]; then
	# make demo ends with the matrix; show its summary line
	grep 'matrix: build/report/matrix.tsv' "$log" | tail -1
	cp "$root/work/bpftok/build/report/matrix.tsv" "$FRESH/matrix.tsv"
fi
[ "${FRESH_KEEP:-0}" = 1 ] || rm -rf "$root"
info "fresh: $what passed in a clean Debian 12 root, ${took} s (commit $head)"
