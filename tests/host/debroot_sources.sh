#!/bin/sh
# The Debian roots of make fresh and the bundle's qemu-only test are made
# from this machine's own apt sources (tests/debroot.sh): every file apt
# reads that holds an entry, in either format, and nothing else; no
# sources, a clear error; and the tree names no Debian mirror host.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/debroot.sh"

etc=$(mktemp -d)
trap 'rm -rf "$etc"' EXIT
mkdir -p "$etc/sources.list.d"
printf '# only a comment\n\n' >"$etc/sources.list"
printf 'deb http://mirror.example/debian bookworm main\n' >"$etc/sources.list.d/site.list"
printf 'Types: deb\nURIs: http://mirror.example/debian-security\nSuites: bookworm-security\nComponents: main\n' \
	>"$etc/sources.list.d/security.sources"
printf 'deb http://other.example/x y main\n' >"$etc/sources.list.d/old.list.disabled"
: >"$etc/sources.list.d/empty.sources"
got=$(DEBROOT_APT_ETC=$etc debroot_sources | tr '\n' ' ')
want="$etc/sources.list.d/site.list $etc/sources.list.d/security.sources "
check "debroot_sources lists the files with entries, one-line and deb822 ($got)" [ "$got" = "$want" ]

rm -f "$etc"/sources.list.d/*
expect_fail "no apt sources stops with the reason" "no apt sources in $etc" \
	env DEBROOT_APT_ETC="$etc" sh -c ". '$TOP/kernel/lib.sh'; . '$TOP/tests/debroot.sh'; debroot_tarball x"

# mirror_hosts FILE...: lines that name a Debian mirror host
mirror_hosts() {
	grep -n -I -E '(deb|security|ftp[.a-z0-9]*)\.debian\.org' "$@" && return 1
	return 0
}
# shellcheck disable=SC2046 # tracked paths without spaces
check "the tree names no Debian mirror host" mirror_hosts $(git -C "$TOP" ls-files | sed "s|^|$TOP/|")
# (the fixture spells the name in parts: this file is in the tree too)
d=debian
printf 'deb http://deb.%s.org/%s bookworm main\n' "$d" "$d" >"$etc/named"
expect_fail "a file that names one is found" "^1:deb http://deb" mirror_hosts "$etc/named"
done_testing
