#!/bin/sh
# The steps as one mailable series: build/series/0000-cover-letter.patch
# and one patch per step after 00, made by git format-patch from the
# step branches, then checked by applying them with git am onto the
# pristine tree in a scratch worktree: the result must be step-NN's tree.
#
#   kernel/series.sh
set -eu
. "$(dirname "$0")/lib.sh"

take_lock
sh "$TOP/kernel/tree.sh" apply
first=$(series_steps | head -1)
last=$(series_steps | tail -1)
dest=$BUILD/series
rm -rf "$dest"
mkdir -p "$dest"
git -C "$LINUX" format-patch -q --zero-commit --no-signature --cover-letter \
	-o "$dest" "$(branch_of "$first")..$(branch_of "$last")"

n=$(ls "$dest" | grep -vc '^0000-')
summary=$(for s in $(series_steps); do
	[ -f "$TOP/steps/$s/patch" ] || continue
	printf '  %-28s %s\n' "$s" "$(git -C "$LINUX" log -1 --format=%s "$(branch_of "$s")")"
done)
cover=$dest/0000-cover-letter.patch
awk -v n="$n" -v summary="$summary" '
	/\*\*\* SUBJECT HERE \*\*\*/ {
		sub(/\*\*\* SUBJECT HERE \*\*\*/, "BPF token and BPF FS-based delegation (v6), on Debian'"'"'s Linux 6.1")
	}
	/\*\*\* BLURB HERE \*\*\*/ {
		print "The BPF token series (v6, bpf-next, autumn 2023) reimplemented on"
		print "Debian 12'"'"'s linux-source-6.1, as " n " patches: three prerequisite"
		print "backports from Linux 6.5 that the series'"'"' base already had, then the"
		print "series'"'"' own thirteen, then an epilogue of the changes review made"
		print "before the token merged in Linux 6.9.  Each patch builds and boots;"
		print "the project that made them annotates every hunk and shows what each"
		print "one changes in a VM.  Apply with git am on the pristine tree."
		print ""
		print summary
		next
	}
	{ print }' "$cover" >"$cover.new"
mv "$cover.new" "$cover"

# Prove it: apply everything on the pristine tree in a scratch worktree.
check=$BUILD/series-check
git -C "$LINUX" worktree remove --force "$check" 2>/dev/null || rm -rf "$check"
git -C "$LINUX" worktree prune
info "series: applying $n patches on the pristine tree to check them"
git -C "$LINUX" worktree add -q --detach "$check" pristine
ok=1
ls "$dest"/*.patch | grep -v '/0000-' | xargs git -C "$check" am -q --keep-cr \
	--committer-date-is-author-date >"$BUILD/series-am.log" 2>&1 || ok=0
got=$(git -C "$check" rev-parse 'HEAD^{tree}')
want=$(git -C "$LINUX" rev-parse "$(branch_of "$last")^{tree}")
git -C "$LINUX" worktree remove --force "$check"
[ $ok = 1 ] || { cat "$BUILD/series-am.log" >&2; die "the series does not apply on the pristine tree"; }
[ "$got" = "$want" ] || die "the series applies but does not give $(branch_of "$last")'s tree"
info "series: build/series/ ($n patches + cover letter); git am on the pristine tree gives $(branch_of "$last")"
