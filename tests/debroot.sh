# A minimal Debian 12 root for tests that must not see this machine's
# packages: the fresh-machine proof (tests/fresh.sh) and the workshop
# bundle's qemu-only machine.  POSIX sh, sourced after kernel/lib.sh.
#
#   debroot_tarball NAME [PACKAGE...]  path of build/debroot/NAME.tar, made
#                                      with mmdebstrap --variant=minbase if
#                                      missing (with PACKAGEs added)
#   debroot_unpack TARBALL DIR         DIR emptied and filled from TARBALL
#   debroot_run DIR [--bind HOST:GUEST]... COMMAND
#                                      COMMAND (a sh -c string) as root in
#                                      DIR, with /proc, /sys and /dev, a
#                                      clean environment, the host's DNS and
#                                      local CA certificates
#
# debroot_run uses a private mount and PID namespace: when COMMAND ends,
# or the caller is killed, every mount and every process started inside
# goes with it.  Nothing is left mounted on the host, ever.
#
# The root has the suites a stock Debian 12 install has: bookworm,
# bookworm-updates and bookworm-security, from deb.debian.org.

DEBROOT_SUITES="bookworm bookworm-updates bookworm-security"

debroot_tarball() {
	local name=$1 tar include
	shift
	tar=$BUILD/debroot/$name.tar
	[ -s "$tar" ] && { printf '%s\n' "$tar"; return 0; }
	command -v mmdebstrap >/dev/null || die "mmdebstrap not found; run 'make deps'"
	[ "$(id -u)" = 0 ] || die "a Debian root needs root (mmdebstrap --mode=root, chroot)"
	need_space 1500 "a minimal Debian 12 root ($name)"
	mkdir -p "$BUILD/debroot"
	include=$(printf '%s,' "$@")
	info "mmdebstrap: a minimal Debian 12 root, $name${include:+ with ${include%,}} (about a minute)" >&2
	if ! mmdebstrap --quiet --variant=minbase --mode=root --format=tar \
		${include:+--include="${include%,}"} \
		bookworm "$tar.new.$$" \
		"deb http://deb.debian.org/debian bookworm main" \
		"deb http://deb.debian.org/debian bookworm-updates main" \
		"deb http://deb.debian.org/debian-security bookworm-security main" \
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
	unshare --mount --pid --fork --propagation private --kill-child \
		env DEBROOT_DIR="$dir" DEBROOT_BINDS="$binds" DEBROOT_CMD="$1" sh -c '
		set -e
		d=$DEBROOT_DIR
		mount -t proc proc "$d/proc"
		mount --rbind /sys "$d/sys"
		mount --rbind /dev "$d/dev"
		for b in $DEBROOT_BINDS; do
			mkdir -p "$d${b#*:}"
			mount --bind "${b%%:*}" "$d${b#*:}"
		done
		exec chroot "$d" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			/bin/sh -c "$DEBROOT_CMD"'
}
