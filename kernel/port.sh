#!/bin/sh
# make port BASE=VERSION: the steps re-made on another Debian 6.1.y, the
# way git rebase would do it, without touching steps/.
#
#   kernel/port.sh VERSION          apply the steps to linux-source-6.1
#                                   VERSION in build/port/VERSION/build/linux;
#                                   at a conflict, stop and say where;
#                                   run again after resolving to go on
#   kernel/port.sh VERSION --adopt  after a complete port: make VERSION the
#                                   pinned base, the port's patches the steps
#
# Each step is applied with git am, then git am -3 (the blobs the steps
# were made against come from build/linux).  At a conflict the merge is
# left in the port's tree: edit the files, `git add` them, and run the
# same command again; it commits your resolution and goes on.
#
# When every step is in, the port is written out:
#   build/port/VERSION/patches/STEP.patch   every step, as format-patch makes it
#   kernel/ports/VERSION/STEP.patch          the steps that needed a merge or
#                                            your hand: the recorded port that
#                                            make compat applies on VERSION
# steps/ and kernel/versions change only with --adopt.
set -eu
. "$(dirname "$0")/lib.sh"

version=${1:-}
[ -n "$version" ] || die "no BASE given: make port BASE=VERSION, one of: $(apt-cache madison linux-source-6.1 | awk '{ print $3 }' | paste -sd' ' -)"
take_lock
[ -d "$LINUX/.git" ] || die "build/linux is missing; run make tree (the port borrows its objects for git am -3)"
P=$BUILD/port/$version
PB=$P/build
# BPFTOK_PORTS: where recorded ports go (the tests' scratch folder)
ports=${BPFTOK_PORTS:-$TOP/kernel/ports}/$version
case ${2:-} in
--adopt | "") ;;
*) die "usage: kernel/port.sh VERSION [--adopt]" ;;
esac
deb=
[ "${2:-}" = --adopt ] || [ -d "$PB/linux/.git" ] || deb=$(source_deb "$version")
mkdir -p "$PB"

in_port() {
	env BUILD="$PB" BPFTOK_BASE="$version" KERNEL_DEB="$deb" \
		BPFTOK_OBJECTS="$LINUX/.git/objects" BPFTOK_3WAY=stop \
		BPFTOK_PATCHES="$ports" BPFTOK_LOCKED= "$@"
}

# write_port: every step's commit on the port's branches as a patch, and
# the ones that did not apply as they are into kernel/ports/VERSION/.
write_port() {
	local s how linux=$PB/linux recorded=
	rm -rf "$P/patches"
	mkdir -p "$P/patches"
	for s in $(series_steps | tail -n +2); do
		git -C "$linux" format-patch -q -1 --stdout --no-signature --zero-commit \
			"step-$(step_id "$s")" >"$P/patches/$s.patch"
		how=$(awk -F'\t' -v s="$s" -v p="${ports#"$TOP/"}/" '$1 == s { print $2 (index($3, p) == 1 ? "+port" : "") }' "$PB/apply.tsv")
		case $how in
		applies) rm -f "$ports/$s.patch" "$ports/$s.base" ;;
		*)
			mkdir -p "$ports"
			cp "$P/patches/$s.patch" "$ports/$s.patch"
			file_hash "$TOP/steps/$s/patch" >"$ports/$s.base"
			recorded="$recorded $s"
			;;
		esac
	done
	rmdir "$ports" 2>/dev/null || true
	info "port to $version: every step applies; all of them in ${P#"$TOP/"}/patches/"
	if [ -n "$recorded" ]; then
		info "recorded for make compat in ${ports#"$TOP/"}/:$recorded (commit them)"
	else
		info "no step needed a merge: the canonical steps apply to $version as they are"
	fi
}

adopt() {
	local s pin
	[ -d "$P/patches" ] || die "no complete port to $version yet; run make port BASE=$version first"
	pin=$(pinned_version linux-source-6.1)
	for s in $(series_steps | tail -n +2); do
		[ -f "$P/patches/$s.patch" ] || die "${P#"$TOP/"}/patches/$s.patch is missing; run make port BASE=$version again"
	done
	for s in $(series_steps | tail -n +2); do
		cp "$P/patches/$s.patch" "$TOP/steps/$s/patch"
	done
	awk -v v="$version" 'BEGIN { OFS = "\t" } $1 == "linux-source-6.1" { $2 = v } { print }' \
		"$VERSIONS" >"$VERSIONS.new"
	mv "$VERSIONS.new" "$VERSIONS"
	rm -rf "$ports"
	info "the steps are now made on linux-source-6.1 $version (was $pin): steps/*/patch and kernel/versions rewritten"
	info "next: make deps (installs $version), make distclean && make tree, make check; then commit"
}

[ "${2:-}" != --adopt ] || { adopt; exit 0; }

info "porting the steps to linux-source-6.1 $version in ${PB#"$TOP/"}/linux"
rc=0
in_port sh "$TOP/kernel/tree.sh" apply || rc=$?
case $rc in
0) write_port ;;
3)
	step=$(awk -F'\t' '$2 == "conflict" { s = $1 } END { print s }' "$PB/apply.tsv")
	files=$(awk -F'\t' -v s="$step" '$1 == s { print $4 }' "$PB/apply.tsv")
	die "port to $version stopped at $step: git am -3 left conflicts in
    $(printf '%s' "$files" | sed "s|^|${PB#"$TOP/"}/linux/|; s| | ${PB#"$TOP/"}/linux/|g")
  Resolve them (keep the step's intent; docs/compat.md walks through one),
  then: git -C ${PB#"$TOP/"}/linux add -f $files   (-f: Debian's .gitignore covers the whole tree)
  and run make port BASE=$version again to go on."
	;;
*) die "port to $version: kernel/tree.sh failed (exit $rc)" ;;
esac
