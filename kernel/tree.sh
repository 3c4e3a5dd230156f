#!/bin/sh
# build/linux: Debian's linux-source-6.1 as a git repository with one
# branch per step.
#
#   kernel/tree.sh apply          extract if needed, (re)apply changed steps
#   kernel/tree.sh checkout STEP  apply, then check out branch step-NN
#   kernel/tree.sh refresh STEP   turn commits on step-NN back into its patch
#   kernel/tree.sh mainline       extract build/linux-mainline (Debian's 6.12)
#   kernel/tree.sh guard          fail if build/ holds work of the user's
#
# steps/ is the single source of truth.  A record of what each branch was
# made from (patch hash and parent commit) lives in .git/bpftok-steps, so
# re-running only redoes steps whose patch or parent changed.  Nothing the
# user wrote in build/linux is ever thrown away: uncommitted edits and
# commits on a step branch stop the script with instructions instead.
#
# The same script makes the trees of make compat and make port, which
# put the steps on another Debian 6.1.y (with BUILD pointing elsewhere):
#   BPFTOK_BASE=VERSION  the tree's base is that version, not the pin
#   KERNEL_DEB=FILE      ... extracted from this linux-source-6.1 .deb
#   BPFTOK_OBJECTS=DIR   borrow git objects from DIR (build/linux's)
#   BPFTOK_PATCHES=DIR   DIR/STEP.patch replaces steps/STEP/patch (a port)
#   BPFTOK_SEED=DIR      take the pristine commit from DIR, another
#                        checkout's build/linux, instead of extracting
#                        the tarball again (make check's fresh smoke)
#   BPFTOK_3WAY=abort|stop  a patch that does not apply is retried with
#                        git am -3; a conflict then aborts (compat) or
#                        stops with the merge left for the user (port)
# Each step's outcome goes to $BUILD/apply.tsv: step, how it applied
# (applies, 3-way, conflict), the patch it used, conflicting files.
set -eu
. "$(dirname "$0")/lib.sh"

STATE=$LINUX/.git/bpftok-steps

git_linux() {
	git -C "$LINUX" "$@"
}

# extract_as_git TARBALL PACKAGE DEST BRANCH WHAT: unpack a Debian
# linux-source tarball into DEST as a git repository with one commit on
# BRANCH, so that later edits show up in git status.
extract_as_git() {
	local tarball=$1 package=$2 dest=$3 branch=$4 what=$5 tmp version
	# what is to be extracted is checked before anything is written
	if [ -n "${KERNEL_DEB:-}" ]; then
		version=$(check_deb "$KERNEL_DEB" "$package")
	else
		[ -f "$tarball" ] || die "$tarball not found; run 'make deps' (installs $package), or if it is installed: apt-get install --reinstall $package=$(pinned_version "$package")"
		check_tarball "$tarball" "$package"
		version=$(installed_version "$package")
	fi
	tmp=$dest.tmp
	rm -rf "$tmp"
	need_space 3000 "extracting $(basename "$tarball") and its git history"
	if [ -n "${BPFTOK_SEED:-}" ]; then
		seed_pristine "$BPFTOK_SEED" "$tmp" "$branch" "$package" "$version"
		mv "$tmp" "$dest"
		return 0
	fi
	mkdir -p "$tmp"
	if [ -n "${KERNEL_DEB:-}" ]; then
		info "extracting $(basename "$tarball") from $(basename "$KERNEL_DEB") into ${dest#"$TOP/"} (about a minute)"
		dpkg-deb --fsys-tarfile "$KERNEL_DEB" | tar -xOf - ".$tarball" |
			tar -xJf - -C "$tmp" --strip-components=1
	else
		info "extracting $(basename "$tarball") into ${dest#"$TOP/"} (about a minute)"
		tar -xJf "$tarball" -C "$tmp" --strip-components=1
	fi
	info "committing the pristine tree as $branch (Debian $version)"
	git -C "$tmp" init -q -b "$branch"
	# a compat or port tree borrows build/linux's objects, where git am -3
	# finds the blobs the steps' patches were made against
	[ -z "${BPFTOK_OBJECTS:-}" ] || echo "$BPFTOK_OBJECTS" >"$tmp/.git/objects/info/alternates"
	git_setup "$tmp"
	# -f: commit the tarball exactly, including files a .gitignore names
	git -C "$tmp" add -A -f .
	git -C "$tmp" commit -q -m "Debian $package $version (pristine)" -m "$what"
	git -C "$tmp" tag pristine
	mv "$tmp" "$dest"
}

# git_setup DIR: what the steps' commits need in a tree's repository
git_setup() {
	git -C "$1" config user.name "bpf-token steps"
	git -C "$1" config user.email "bpf-token-steps@localhost"
	git -C "$1" config feature.manyFiles true
	git -C "$1" config gc.auto 0
	git -C "$1" config core.abbrev 12
}

# seed_pristine SEED DEST BRANCH PACKAGE VERSION: DEST as a clone of the
# pristine commit of SEED (another build/linux, read-only to us) that
# borrows SEED's objects, instead of unpacking and hashing the tarball
# again.  SEED must have been extracted from the same VERSION.
seed_pristine() {
	local seed=$1 tmp=$2 branch=$3 package=$4 version=$5 got
	got=$(extracted_version "$seed")
	[ "$got" = "$version" ] ||
		die "BPFTOK_SEED=$seed was extracted from $package ${got:-of an unknown version}, not $version"
	info "cloning the pristine tree as $branch from $seed (Debian $version)"
	git clone -q --shared --no-checkout "$seed" "$tmp"
	git -C "$tmp" remote remove origin
	git_setup "$tmp"
	# the clone made a branch of whatever the seed had checked out (step-00
	# while the seed builds it, a later step after): only pristine is taken
	git -C "$tmp" checkout -q --detach pristine
	git -C "$tmp" for-each-ref --format='%(refname)' refs/heads |
		xargs -r -n1 git -C "$tmp" update-ref -d
	git -C "$tmp" checkout -q -b "$branch"
}

# check_deb DEB PACKAGE: DEB must be PACKAGE at version $BPFTOK_BASE;
# prints the version.
check_deb() {
	local pkg ver
	[ -f "$1" ] || die "$1 not found"
	pkg=$(dpkg-deb -f "$1" Package) ver=$(dpkg-deb -f "$1" Version)
	[ "$pkg" = "$2" ] && [ "$ver" = "${BPFTOK_BASE:-}" ] ||
		die "$1 is $pkg $ver, not $2 ${BPFTOK_BASE:-(BPFTOK_BASE unset)}"
	printf '%s\n' "$ver"
}

# The version build/linux was extracted from, as its pristine commit says.
extracted_version() {
	git -C "$1" log -1 --format=%s pristine 2>/dev/null | sed -n 's/^Debian [^ ]* \([^ ]*\) (pristine)$/\1/p'
}

# build/linux made from another version than kernel/versions pins (the pin
# moved, or it predates pinning) would give steps that apply nowhere else.
check_extracted() {
	local got pin
	got=$(extracted_version "$1")
	pin=${BPFTOK_BASE:-$(pinned_version "$2")}
	[ "$got" = "$pin" ] && return 0
	die "${1#"$TOP/"} was extracted from $2 ${got:-of an unknown version}, the steps are made on $pin (kernel/versions).
  Keep any work in it first (commit + make refresh STEP=NN), then: make distclean && make tree"
}

extract_pristine() {
	extract_as_git "$KERNEL_TARBALL" linux-source-6.1 "$LINUX" step-00 \
		"Step 00: the unmodified base every later step applies to."
}

# build/linux-mainline: Debian's linux-source-6.12, upstream's merged BPF
# token, unpatched.  It is never written to after the extraction; like
# build/linux, edits in it stop the build instead of being built silently.
mainline_tree() {
	LINUX=$MAINLINE_LINUX
	if [ ! -d "$LINUX/.git" ]; then
		extract_as_git "$MAINLINE_TARBALL" linux-source-6.12 "$LINUX" mainline \
			"The mainline column: upstream's final BPF token, for comparison."
	fi
	check_extracted "$LINUX" linux-source-6.12
	show_changes || {
		die "build/linux-mainline has uncommitted changes (above); nothing was built.
  It is upstream's tree exactly as Debian ships it, for comparison, and is not edited.
  To set them aside: git -C build/linux-mainline stash
  To drop them:      git -C build/linux-mainline checkout -- . && git -C build/linux-mainline clean -fd"
	}
	git_linux checkout -q mainline
}

# show_changes: succeed when $LINUX has no uncommitted change, else list
# them on stderr and fail.  --ignored as well: Debian's top-level
# .gitignore ignores every top-level entry ("/*"), so a new file anywhere
# reads as ignored.
show_changes() {
	local dirty
	dirty=$(git_linux status --porcelain --untracked-files=normal --ignored)
	[ -z "$dirty" ] && return 0
	printf '%s\n' "$dirty" | sed 's/^/    /' >&2
	return 1
}

# Refuse to touch a tree with uncommitted work, and say how to keep it.
ensure_clean() {
	local cur
	show_changes && return 0
	cur=$(git_linux symbolic-ref --short -q HEAD || echo "a detached HEAD")
	[ -z "${BPFTOK_BASE:-}" ] || die "${LINUX#"$TOP/"} has uncommitted changes (above) on $cur; nothing was touched.
  It is a make port or make compat tree: finish a resolution with git add -f and make port
  BASE=$BPFTOK_BASE again, or remove the stray files (an editor's backups count too)."
	die "build/linux has uncommitted changes (above) on $cur; nothing was touched.
  To keep them as part of a step: git -C build/linux commit -a, then make refresh STEP=NN
  To set them aside:             git -C build/linux stash
  To drop them:                  git -C build/linux checkout -- . && git -C build/linux clean -fd"
}

recorded() {
	# recorded STEP FIELD: field 2 = patch hash, 3 = parent commit, 4 = result
	[ -f "$STATE" ] || return 0
	awk -v s="$1" -v f="$2" '$1 == s { v = $f } END { if (v != "") print v }' "$STATE"
}

record() {
	touch "$STATE"
	awk -v s="$1" '$1 != s' "$STATE" >"$STATE.new"
	printf '%s %s %s %s\n' "$1" "$2" "$3" "$4" >>"$STATE.new"
	mv "$STATE.new" "$STATE"
}

# A branch that moved past what we recorded holds the user's commits.
guard_user_commits() {
	local step=$1 branch want have
	branch=$(branch_of "$1")
	want=$(recorded "$step" 4)
	have=$(git_linux rev-parse -q --verify "refs/heads/$branch" || true)
	[ -n "$want" ] && [ -n "$have" ] && [ "$want" != "$have" ] || return 0
	die "branch $branch was changed in build/linux (commits not in steps/$step/patch); nothing was touched.
  To keep them:  make refresh STEP=$(step_id "$step")
  To drop them:  git -C build/linux branch -f $branch $want"
}

# The patch a step applies: a port's replacement, or the step's own.
# A port records the hash of the step's patch it was made from (STEP.base):
# after the step changes, the port is stale and must be made again.
patch_of() {
	if [ -n "${BPFTOK_PATCHES:-}" ] && [ -f "$BPFTOK_PATCHES/$1.patch" ]; then
		[ "$(cat "$BPFTOK_PATCHES/$1.base" 2>/dev/null)" = "$(file_hash "$TOP/steps/$1/patch")" ] ||
			die "${BPFTOK_PATCHES#"$TOP/"}/$1.patch was made from another steps/$1/patch than today's;
  make it again: make port BASE=${BPFTOK_BASE:-VERSION}"
		printf '%s\n' "$BPFTOK_PATCHES/$1.patch"
	else
		printf '%s\n' "$TOP/steps/$1/patch"
	fi
}

# Our git am marks itself (.git/bpftok-am) while it runs, so that one a
# stop killed midway is known for ours and undone at the next apply.
am() {
	local rc=0
	: >"$LINUX/.git/bpftok-am"
	git_linux am -q --keep-cr --committer-date-is-author-date "$@" >"$BUILD/am.log" 2>&1 || rc=$?
	rm -f "$LINUX/.git/bpftok-am"
	return $rc
}

# A git am in progress that no port stopped (continue_stopped): ours, killed
# midway (Ctrl-C, a timeout), is aborted; anyone else's is left alone.
abort_killed_am() {
	[ -d "$LINUX/.git/rebase-apply" ] || { rm -f "$LINUX/.git/bpftok-am"; return 0; }
	[ -f "$LINUX/.git/bpftok-am" ] ||
		die "build/linux has a git am or rebase in progress (.git/rebase-apply) that is not this project's; nothing was touched.
  Finish it (git -C build/linux am --continue) or drop it (git -C build/linux am --abort), then run this again."
	info "build/linux: a git am of an earlier run was stopped midway; aborting it"
	git_linux am --abort >/dev/null 2>&1 || true
	rm -f "$LINUX/.git/bpftok-am"
}

# status_line STEP HOW PATCH FILES: one row of $BUILD/apply.tsv
status_line() {
	local f=$BUILD/apply.tsv
	touch "$f"
	awk -F'\t' -v s="$1" '$1 != s' "$f" >"$f.new"
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "${3#"$TOP/"}" "$4" >>"$f.new"
	mv "$f.new" "$f"
}

# A port stopped at a conflict that the user has since resolved: finish
# that git am, record the step, and let apply_all go on with the next.
continue_stopped() {
	local stopped=$LINUX/.git/bpftok-stopped step phash parent files
	[ -f "$stopped" ] || return 0
	read -r step phash parent <"$stopped"
	if [ ! -d "$LINUX/.git/rebase-apply" ]; then
		# the user ended that git am (--abort or --skip): start the step again
		rm -f "$stopped"
		info "$step: the stopped git am is gone; applying the step again"
		return 0
	fi
	# the files git am -3 left conflicting, as apply.tsv names them
	files=$(awk -F'\t' -v s="$step" '$1 == s { print $4 }' "$BUILD/apply.tsv" 2>/dev/null)
	[ -z "$(git_linux diff --name-only --diff-filter=U)" ] &&
		! { [ -n "$files" ] && (cd "$LINUX" && grep -l -E '^(<<<<<<<|=======|>>>>>>>)( |$)' $files </dev/null 2>/dev/null); } ||
		die "${LINUX#"$TOP/"}: $step still has conflicts in $files;
  resolve them there, git add the files, and run the same make port again"
	git_linux am --continue >"$BUILD/am.log" 2>&1 || {
		sed 's/^/    /' "$BUILD/am.log" >&2
		die "git am --continue failed for $step (output above); git add the resolved files first"
	}
	git_linux branch -f "$(branch_of "$step")" HEAD
	record "$step" "$phash" "$parent" "$(git_linux rev-parse HEAD)"
	status_line "$step" resolved "$(patch_of "$step")" ""
	rm -f "$stopped"
	info "$step: your resolution is committed on $(branch_of "$step")"
}

apply_step() {
	local step=$1 prev=$2 branch parent patch phash have result how files
	branch=$(branch_of "$step")
	parent=$(git_linux rev-parse "$(branch_of "$prev")")
	patch=$(patch_of "$step")
	phash=$(file_hash "$patch")
	have=$(git_linux rev-parse -q --verify "refs/heads/$branch" || true)
	if [ "$(recorded "$step" 2)" = "$phash" ] &&
		[ "$(recorded "$step" 3)" = "$parent" ] &&
		[ "$(recorded "$step" 4)" = "$have" ]; then
		return 0
	fi
	guard_user_commits "$step"
	info "applying ${patch#"$TOP/"} -> branch $branch"
	git_linux checkout -q --detach "$parent"
	how=applies
	if ! am "$patch"; then
		[ -n "${BPFTOK_3WAY:-}" ] || {
			sed 's/^/    /' "$BUILD/am.log" >&2
			git_linux am --abort >/dev/null 2>&1 || true
			die "${patch#"$TOP/"} does not apply on $(branch_of "$prev") (git am output above).
  Fix the patch, or rebuild it: check out $(branch_of "$prev"), apply by hand, commit, make refresh STEP=$(step_id "$step")"
		}
		git_linux am --abort >/dev/null 2>&1 || true
		info "$step: does not apply as it is; trying a 3-way merge"
		how=3-way
		if ! am -3 "$patch"; then
			files=$(git_linux diff --name-only --diff-filter=U | paste -sd' ' -)
			status_line "$step" conflict "$patch" "${files:-?}"
			if [ "$BPFTOK_3WAY" = stop ]; then
				printf '%s %s %s\n' "$step" "$phash" "$parent" >"$LINUX/.git/bpftok-stopped"
				exit 3
			fi
			git_linux am --abort >/dev/null 2>&1 || true
			exit 3
		fi
	fi
	status_line "$step" "$how" "$patch" ""
	result=$(git_linux rev-parse HEAD)
	git_linux branch -f "$branch" "$result"
	record "$step" "$phash" "$parent" "$result"
}

apply_all() {
	local here prev s
	check_series
	mkdir -p "$BUILD"
	[ -d "$LINUX/.git" ] || extract_pristine
	check_extracted "$LINUX" linux-source-6.1
	continue_stopped
	[ -f "$LINUX/.git/bpftok-stopped" ] || abort_killed_am
	ensure_clean
	here=$(git_linux symbolic-ref --short -q HEAD || true)
	prev=
	for s in $(series_steps); do
		if [ -z "$prev" ]; then
			git_linux rev-parse -q --verify "refs/heads/$(branch_of "$s")" >/dev/null ||
				git_linux branch "$(branch_of "$s")" pristine
		else
			apply_step "$s" "$prev"	# exits 3 at a conflict (BPFTOK_3WAY)
		fi
		prev=$s
	done
	# Leave HEAD on a branch, so that commits a user makes land on a step.
	if [ -n "$here" ] && git_linux rev-parse -q --verify "refs/heads/$here" >/dev/null; then
		git_linux checkout -q "$here"
	else
		git_linux checkout -q "$(branch_of "$prev")"
	fi
}

checkout_step() {
	local step
	step=$(resolve_step "$1")
	apply_all
	git_linux checkout -q "$(branch_of "$step")"
}

# Squash everything on step-NN since step-(NN-1) into one commit, keep the
# step's original message, write it back to steps/NN-*/patch, and let
# apply_all rebuild the later steps on top of it.
refresh_step() {
	local step prev branch base orig result
	step=$(resolve_step "$1")
	prev=$(prev_step "$step")
	[ -n "$prev" ] || die "step $step is the pristine base; it has no patch to refresh"
	[ -d "$LINUX/.git" ] || die "build/linux does not exist yet; run make tree first"
	ensure_clean
	branch=$(branch_of "$step")
	base=$(git_linux rev-parse "$(branch_of "$prev")")
	orig=$(recorded "$step" 4)
	[ -n "$orig" ] || die "no record of how $branch was made; run make tree first"
	git_linux merge-base --is-ancestor "$base" "$branch" ||
		die "$branch is not based on $(branch_of "$prev"); rebase it first"
	git_linux checkout -q --detach "$branch"
	git_linux reset -q --soft "$base"
	# the author's date as commit date, as git am does in apply_step, so
	# that the same patch always yields the same commit
	GIT_COMMITTER_DATE=$(git_linux log -1 --format=%aD "$orig") \
		git_linux commit -q --allow-empty -C "$orig"
	git_linux format-patch -q -1 --stdout --no-signature --zero-commit HEAD \
		>"$TOP/steps/$step/patch.new"
	mv "$TOP/steps/$step/patch.new" "$TOP/steps/$step/patch"
	result=$(git_linux rev-parse HEAD)
	git_linux branch -f "$branch" "$result"
	record "$step" "$(file_hash "$TOP/steps/$step/patch")" "$base" "$result"
	info "wrote steps/$step/patch; re-applying the later steps"
	git_linux checkout -q "$branch"
	apply_all
}

# Before make distclean: nothing of the user's in build/linux (edits, new
# files, commits not refreshed into steps/) or in a stopped make port.
guard_all() {
	local s d
	if [ -d "$LINUX/.git" ]; then
		ensure_clean
		for s in $(series_steps); do
			guard_user_commits "$s"
		done
	fi
	for d in "$BUILD"/port/*/build/linux; do
		[ ! -f "$d/.git/bpftok-stopped" ] ||
			die "${d#"$TOP/"} holds a make port stopped at a conflict; finish it (make port BASE=...) or remove build/port/ by hand"
	done
}

take_lock
cmd=${1:-apply}
case $cmd in
apply) apply_all ;;
checkout) checkout_step "${2:-}" ;;
refresh) refresh_step "${2:-}" ;;
mainline) mainline_tree ;;
guard) guard_all ;;
*) die "usage: kernel/tree.sh apply | checkout STEP | refresh STEP | mainline | guard" ;;
esac
