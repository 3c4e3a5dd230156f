#!/bin/sh
# The steps as the patch queue a Debian kernel carries: build/debian-patches/
# holds bpf-token/STEP.patch for every step after 00 and a quilt "series"
# file listing them, each patch opening with a DEP-3 header
# (docs/debian-patches.md says how a backporter uses it).  Then proved:
# kernel/dep3.sh reads every header, and quilt pushes the whole queue,
# with no fuzz, onto a fresh extraction of the pinned linux-source-6.1,
# which must then be the last step's tree byte for byte.
#
#   kernel/debian-patches.sh
#   kernel/debian-patches.sh --origin STEP   only print the Origin,
#                        Applied-Upstream and Forwarded lines of STEP
#
# Each header is made from what the project already says once:
#   Description       the step commit's subject and message (its patch);
#   Origin            from the table atop the step's NOTES.md: a "Series
#                     patch | NN/13" row is v6's patch NN, posted to the
#                     bpf list; otherwise the first commit id of the
#                     "Upstream" row, a backport (the code is this
#                     project's, written for 6.1);
#   Applied-Upstream  the newest "Linux X.Y" of that Upstream row, with
#                     the commit named last before it: from that release
#                     on upstream has all of the patch (step 18's fix
#                     came in 6.12, three releases after the feature);
#   Forwarded         not-needed: each patch is upstream's own or its
#                     reimplementation, there is nothing to send back;
#   Last-Update       the step commit's author date (its patch's Date).
set -eu
. "$(dirname "$0")/lib.sh"

# v6's patch NN/13 in the bpf list's archive: git send-email numbered the
# posting's Message-Ids, the cover letter (00/13) -1, patch NN -(NN+1)
# (docs/debian-patches.md says which of them were seen).
v6_posting() {
	echo "https://lore.kernel.org/bpf/20230927225809.2049655-$((${1#0} + 1))-andrii@kernel.org/"
}

QUEUE=$BUILD/debian-patches
SUBDIR=bpf-token

# notes_row STEP NAME: the value of row NAME in the table atop the step's
# NOTES.md, empty if it has none
notes_row() {
	awk -v name="$2" -F' *\\| *' '
		/^## / { exit }
		$2 == name { print $3; exit }' "$TOP/steps/$1/NOTES.md"
}

# dep3_origin STEP: the Origin, Applied-Upstream and Forwarded lines
dep3_origin() {
	local series upstream id release
	series=$(notes_row "$1" "Series patch" | sed -n 's|^\([0-9][0-9]\)/13\b.*|\1|p')
	upstream=$(notes_row "$1" "Upstream")
	if [ -n "$series" ]; then
		echo "Origin: other, $(v6_posting "$series")"
	elif [ -n "$upstream" ]; then
		id=$(printf '%s\n' "$upstream" | grep -o '\b[0-9a-f]\{12\}\b' | head -1)
		# "RELEASE ID" for each "Linux X.Y" and the id named last before
		# it, the newest release last
		applied=$(printf '%s\n' "$upstream" | grep -o '\b[0-9a-f]\{12\}\b\|Linux [0-9]*\.[0-9]*' |
			awk '/^Linux/ { if (last != "") print $2, last; next } { last = $0 }' | sort -V | tail -1)
		[ -n "$id" ] && [ -n "$applied" ] ||
			die "steps/$1/NOTES.md: its Upstream row names no commit id (12 hex digits) followed by a \"Linux X.Y\"; they make the patch's DEP-3 Origin and Applied-Upstream"
		echo "Origin: backport, commit:$id"
		echo "Applied-Upstream: ${applied% *}, commit:${applied#* }"
	else
		die "steps/$1/NOTES.md: its table has neither a \"Series patch | NN/13\" row nor an \"Upstream\" row; one of them makes the patch's DEP-3 Origin"
	fi
	echo "Forwarded: not-needed"
}

# commit_field FORMAT BRANCH: its commit's fields, without a signature
# check a user's log.showSignature would add
commit_field() {
	git -C "$LINUX" log -1 --no-show-signature --format="$1" "$2"
}

# dep3_patch STEP: the step's commit as a quilt patch with a DEP-3 header
dep3_patch() {
	local branch prev
	branch=$(branch_of "$1")
	prev=$(branch_of "$(prev_step "$1")")
	commit_field 'Description: %s' "$branch"
	# the message's body as DEP-3's long description: each line indented
	# by a space, an empty line as " ."
	commit_field '%b' "$branch" | sed -e '/./!s/^/./' -e 's/^/ /' |
		sed -e :a -e '/^ \.$/{$d;N;ba' -e '}'
	commit_field 'Author: %an <%ae>' "$branch"
	dep3_origin "$1"
	commit_field 'Last-Update: %as' "$branch"
	echo "---"
	# plain git diffs, whatever the user's git config: a/ and b/ prefixes
	# for quilt's patch -p1, no renames for GNU patch
	git -C "$LINUX" diff --no-ext-diff --no-color --no-renames --src-prefix=a/ --dst-prefix=b/ \
		--stat=72 --summary --patch "$prev" "$branch"
}

if [ "${1:-}" = --origin ]; then
	step=$(resolve_step "${2:-}")
	dep3_origin "$step"
	exit 0
fi
[ $# = 0 ] || die "usage: kernel/debian-patches.sh [--origin STEP]"

need_tools "the patch queue check" quilt:quilt xz:xz-utils
take_lock
sh "$TOP/kernel/tree.sh" apply
first=$(series_steps | head -1)
last=$(series_steps | tail -1)

# made beside, and put in place only once proved: a queue in
# build/debian-patches/ is always one that applies
new=$QUEUE.new
rm -rf "$new"
mkdir -p "$new/$SUBDIR"
for s in $(series_steps); do
	[ "$s" != "$first" ] || continue
	dep3_patch "$s" >"$new/$SUBDIR/$s.patch"
	echo "$SUBDIR/$s.patch" >>"$new/series"
done
n=$(wc -l <"$new/series")
sh "$TOP/kernel/dep3.sh" "$new/$SUBDIR"/*.patch ||
	die "the queue's DEP-3 headers are incomplete (above)"

# Prove it: a fresh extraction of the pinned source, the queue pushed
# with no fuzz, then the tree hashed as git hashes a commit (the .pc
# folder of quilt left out) against the last step's.
check=$BUILD/debian-patches-check
rm -rf "$check"
need_space 1600 "a fresh extraction of $(basename "$KERNEL_TARBALL") to push the queue onto"
check_tarball "$KERNEL_TARBALL" linux-source-6.1
mkdir -p "$check"
info "debian-patches: extracting $(basename "$KERNEL_TARBALL") afresh (about a minute)"
tar -xJf "$KERNEL_TARBALL" -C "$check" --strip-components=1
info "debian-patches: quilt push -a --fuzz=0 ($n patches)"
log=$BUILD/debian-patches-push.log
if ! (cd "$check" && QUILT_PATCHES=$new QUILT_PC=.pc quilt --quiltrc=- push -a --fuzz=0) >"$log" 2>&1; then
	cat "$log" >&2
	die "quilt push -a --fuzz=0 failed on a fresh $(basename "$KERNEL_TARBALL") (above; $log; the tree is in $check)"
fi
# hashed as git hashes a commit, with no conversion a user's git
# configuration could ask for
git -C "$check" init -q
echo "$LINUX/.git/objects" >"$check/.git/objects/info/alternates"
git -C "$check" -c core.autocrlf=false -c core.attributesFile=/dev/null add -A -f -- . ':(exclude).pc'
got=$(git -C "$check" write-tree)
want=$(git -C "$LINUX" rev-parse "$(branch_of "$last")^{tree}")
if [ "$got" != "$want" ]; then
	git -C "$check" diff --stat "$want" "$got" >&2 || true
	die "the queue applies but does not give $(branch_of "$last")'s tree (files above; the tree is in $check)"
fi
rm -rf "$check" "$QUEUE"
mv "$new" "$QUEUE"
info "debian-patches: build/debian-patches/ ($n patches and series); quilt push -a on a fresh linux-source-6.1 gives $(branch_of "$last")"
