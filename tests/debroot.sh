# A minimal Debian 12 root for tests that must not see this machine's
# packages: the fresh-machine proof (tests/fresh.sh) and the workshop
# bundle's qemu-only machine.  POSIX sh, sourced after kernel/lib.sh.
#
#   debroot_sources                    the apt source files this machine
#                                      reads, one path a line
#   debroot_prepare                    both tarballs below, made if missing
#   debroot_tarball NAME [PACKAGE...]  path of build/debroot/NAME-HASH.tar,
#                                      made with mmdebstrap
#                                      --variant=minbase if missing (with
#                                      PACKAGEs added); HASH is that of the
#                                      sources and the package names
#   debroot_unpack TARBALL DIR         DIR emptied and filled from TARBALL
#   debroot_run DIR [--bind HOST:GUEST[:ro]]... COMMAND
#                                      COMMAND (a sh -c string) as root in
#                                      DIR, with /proc, /sys and /dev, a
#                                      clean environment, the host's DNS and
#                                      local CA certificates; a bind ending
#                                      in :ro is mounted read-only
#
# debroot_run uses a private mount and PID namespace: when COMMAND ends,
# or the caller is killed, every mount and every process started inside
# goes with it.  Nothing is left mounted on the host, ever.
#
# The root gets this machine's own apt sources (a stock Debian 12 has
# bookworm, bookworm-updates and bookworm-security), so a site behind its
# own mirror or proxy makes its roots from there: the tree names no host.
# DEBROOT_APT_ETC (default /etc/apt) is for the tests of this.

# The roots the tests use, by name and the packages added to minbase:
# the fresh machine (make, which reads the Makefile) and the workshop
# laptop that has only QEMU (tests/bundle/qemu-only.sh).
DEBROOT_FRESH="bookworm-make make"
DEBROOT_QEMU_ONLY="qemu-only-busybox qemu-system-x86 busybox-static"

# debroot_prepare: both roots' tarballs, made now if missing (make check
# makes them in the background while the kernels compile: mmdebstrap
# waits on the network and the disk more than on the CPU)
debroot_prepare() {
	# shellcheck disable=SC2086 # a name and package names
	debroot_tarball $DEBROOT_FRESH >/dev/null &&
		debroot_tarball $DEBROOT_QEMU_ONLY >/dev/null
}

# debroot_sources: the files apt reads for its sources that hold an
# entry: sources.list and sources.list.d/*.list (one-line style),
# sources.list.d/*.sources (deb822); mmdebstrap takes each file as it is
debroot_sources() {
	local etc=${DEBROOT_APT_ETC:-/etc/apt} f
	for f in "$etc/sources.list" "$etc"/sources.list.d/*.list "$etc"/sources.list.d/*.sources; do
		[ -f "$f" ] && grep -q '^[^#[:space:]]' "$f" && printf '%s\n' "$f"
	done
	return 0
}

debroot_tarball() {
	local name=$1 tar include sources key
	shift
	sources=$(debroot_sources)
	[ -n "$sources" ] ||
		die "no apt sources in ${DEBROOT_APT_ETC:-/etc/apt} (sources.list, sources.list.d/*.list or *.sources): a Debian root is made from this machine's own sources"
	# a root is reused only for the same sources and packages
	# shellcheck disable=SC2086 # paths without spaces
	key=$({ cat $sources; echo "$*"; } | sha256sum | cut -c1-12)
	tar=$BUILD/debroot/$name-$key.tar
	[ -s "$tar" ] && { printf '%s\n' "$tar"; return 0; }
	command -v mmdebstrap >/dev/null || die "mmdebstrap not found; run 'make deps'"
	[ "$(id -u)" = 0 ] || die "a Debian root needs root (mmdebstrap --mode=root, chroot)"
	need_space 1500 "a minimal Debian 12 root ($name)"
	mkdir -p "$BUILD/debroot"
	include=$(printf '%s,' "$@")
	info "mmdebstrap: a minimal Debian 12 root, $name${include:+ with ${include%,}}, from $(echo $sources) (about a minute)" >&2
	rm -f "$BUILD/debroot/$name"-????????????.tar	# made from other sources or packages
	# shellcheck disable=SC2086 # each source file is one MIRROR argument
	if ! mmdebstrap --quiet --variant=minbase --mode=root --format=tar \
		${include:+--include="${include%,}"} \
		bookworm "$tar.new.$$" $sources \
		>"$BUILD/debroot/$name.log" 2>&1; then
		tail -20 "$BUILD/debroot/$name.log" >&2
		rm -f "$tar.new.$$"
		die "mmdebstrap failed (log above, all of it in build/debroot/$name.log)"
	fi
	mv "$tar.new.$$" "$tar"
	printf '%s\n' "$tar"
}

debroot_unpack() {
	rm -rf "$2"
	mkdir -p "$2"
	tar -xf "$1" -C "$2"
}

debroot_run() {
	local dir=$1 binds=
	shift
	while [ "${1:-}" = --bind ]; do
		binds="$binds $2"
		shift 2
	done
	# The network as the host sees it: its DNS, and the local CA
	# certificates of a network that intercepts TLS (the npm registry is
	# reached over https); ca-certificates adds them once installed.
	cp /etc/resolv.conf "$dir/etc/resolv.conf" 2>/dev/null || true
	if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
		mkdir -p "$dir/usr/local/share/ca-certificates"
		cp /usr/local/share/ca-certificates/*.crt "$dir/usr/local/share/ca-certificates/"
	fi
	# Inside the new namespaces: mount what a booted system has, bind
	# what the caller shares, then become the root's own init-less shell.
	# unshare --fork ignores INT and TERM while it waits, so a stop of the
	# caller (kill PID) would leave the root running: it runs in the
	# background, and a stop sends it KILL, which --kill-child passes to
	# the namespace's first process, and the kernel to every other one.
	unshare --mount --pid --fork --propagation private --kill-child \
		env DEBROOT_DIR="$dir" DEBROOT_BINDS="$binds" DEBROOT_CMD="$1" sh -c '
		set -e
		d=$DEBROOT_DIR
		mount -t proc proc "$d/proc"
		mount --rbind /sys "$d/sys"
		mount --rbind /dev "$d/dev"
		for b in $DEBROOT_BINDS; do
			guest=${b#*:}
			guest=${guest%:ro}
			mkdir -p "$d$guest"
			mount --bind "${b%%:*}" "$d$guest"
			[ "$b" = "${b%:ro}" ] || mount -o remount,bind,ro "$d$guest"
		done
		exec chroot "$d" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			/bin/sh -c "$DEBROOT_CMD"' &
	debroot_pid=$!
	trap 'kill -KILL $debroot_pid 2>/dev/null; exit 130' INT
	trap 'kill -KILL $debroot_pid 2>/dev/null; exit 143' TERM
	trap 'kill -KILL $debroot_pid 2>/dev/null; exit 129' HUP
	debroot_status=0
	wait "$debroot_pid" || debroot_status=$?
	trap - INT TERM HUP
	return "$debroot_status"
}
