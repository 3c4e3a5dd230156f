#!/bin/sh
# The Debian patch queue: kernel/dep3.sh refuses a header without each
# field it requires, every step after 00 has an Origin its NOTES.md
# gives, and the queue make check wrote (kernel/debian-patches.sh, which
# pushed it onto a fresh linux-source-6.1) passes the checker.
. "$(dirname "$0")/lib.sh"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# header FIELD...: a patch whose DEP-3 header has all of a good one's
# fields but those named
header() {
	{
		case " $* " in *" Description "*) ;; *)
			echo "Description: bpf: a change"
			echo " Its long description."
		esac
		case " $* " in *" Origin "*) ;; *) echo "Origin: backport, commit:6fe01d3cbb92" ;; esac
		case " $* " in *" Applied-Upstream "*) ;; *) echo "Applied-Upstream: 6.9, commit:6fe01d3cbb92" ;; esac
		case " $* " in *" Forwarded "*) ;; *) echo "Forwarded: not-needed" ;; esac
		case " $* " in *" Last-Update "*) ;; *) echo "Last-Update: 2026-12-06" ;; esac
		echo "---"
		echo " kernel/bpf/inode.c | 1 +"
		echo
		echo "diff --git a/kernel/bpf/inode.c b/kernel/bpf/inode.c"
	} >"$scratch/p.patch"
	echo "$scratch/p.patch"
}
dep3() {
	sh "$TOP/kernel/dep3.sh" "$@"
}

check "a complete DEP-3 header passes" dep3 "$(header)"
for f in Description Origin Forwarded Last-Update Applied-Upstream; do
	expect_fail "a header without $f is refused, naming it" "missing DEP-3 field $f" dep3 "$(header "$f")"
done
p=$(header)
sed -i 's/^Last-Update: .*/Last-Update: 6 Dec 2026/' "$p"
expect_fail "a Last-Update that is not YYYY-MM-DD is refused" "is not a YYYY-MM-DD date" dep3 "$p"
p=$(header)
sed -i 's/^Origin: .*/Origin: somewhere, commit:6fe01d3cbb92/' "$p"
expect_fail "an Origin with an unknown keyword is refused" "is not \"upstream|backport|vendor|other, WHERE\"" dep3 "$p"
p=$(header Applied-Upstream)
sed -i 's/^Origin: .*/Origin: other, https:\/\/lore.kernel.org\/bpf\/x\//' "$p"
check "Applied-Upstream is not asked of a patch from a mailing list" dep3 "$p"
p=$(header)
sed -i 's/^\(Description: .*\)/\1\nSubject: bpf: the same again/' "$p"
expect_fail "Description and its alias Subject together are refused" "given twice" dep3 "$p"
p=$(header)
sed -i '/^Origin/d; s/^---$/Origin: backport, commit:6fe01d3cbb92\n---/' "$p"
sed -i '1i From: someone' "$p"
check "fields in any order, beside others (From:)" dep3 "$p"
expect_fail "a patch that does not exist is named" "no such file" dep3 "$scratch/none.patch"

# Every step after 00 gets an Origin from its NOTES.md table; a table
# with neither row stops the queue with the file named.
for s in $(series_steps | sed 1d); do
	check "step $s has a DEP-3 Origin" sh -c "sh '$TOP/kernel/debian-patches.sh' --origin '$s' | grep -q '^Origin: '"
done
expect_fail "the base step has no patch, hence no Origin" "steps/00-baseline/NOTES.md: its table has neither" \
	sh "$TOP/kernel/debian-patches.sh" --origin 00
mkdir -p "$scratch/top/kernel" "$scratch/top/steps/00-base" "$scratch/top/steps/01-one"
cp "$TOP/kernel/lib.sh" "$TOP/kernel/debian-patches.sh" "$scratch/top/kernel/"
printf '00-base\n01-one\n' >"$scratch/top/steps/series"
echo patch >"$scratch/top/steps/01-one/patch"
printf '# Step 01: one\n\n| | |\n|---|---|\n| Upstream | abcdef012345 "x" |\n' >"$scratch/top/steps/01-one/NOTES.md"
expect_fail "an Upstream row without its release is refused" "names no commit id (12 hex digits) followed by a \"Linux X.Y\"" \
	env TOP="$scratch/top" sh "$scratch/top/kernel/debian-patches.sh" --origin 01
sed -i 's/"x" |/"x" (Linux 6.9) |/' "$scratch/top/steps/01-one/NOTES.md"
check "... and taken with it" \
	sh -c "TOP='$scratch/top' sh '$scratch/top/kernel/debian-patches.sh' --origin 01 | grep -qx 'Applied-Upstream: 6.9, commit:abcdef012345'"
# a feature and its later fix: applied upstream from the fix's release
sed -i 's/(Linux 6.9) |/(Linux 6.9), with its fix 0123456789ab "y" (Linux 6.12) |/' "$scratch/top/steps/01-one/NOTES.md"
check "a row with a fix: Origin the first commit, Applied-Upstream the newest release and its fix" \
	sh -c "TOP='$scratch/top' sh '$scratch/top/kernel/debian-patches.sh' --origin 01 | tr '\n' ' ' |
		grep -q 'Origin: backport, commit:abcdef012345 Applied-Upstream: 6.12, commit:0123456789ab '"
expect_fail "an unknown step is refused" "unknown STEP 'bogus'" sh "$TOP/kernel/debian-patches.sh" --origin bogus

# The queue make check made: one patch per step after 00, in series order.
queue=$BUILD/debian-patches
if [ -f "$queue/series" ]; then
	check "the queue's series lists every step after 00, in order" \
		[ "$(sed 's|^bpf-token/||; s|\.patch$||' "$queue/series")" = "$(series_steps | sed 1d)" ]
	check "every patch of the queue passes the DEP-3 check" dep3 "$queue"/bpf-token/*.patch
else
	echo "  NOT OK: $queue/series is missing: make debian-patches (make check runs it before these tests)"
	fails=$((fails + 1))
fi
# Debian's configuration: without it the compile names the fix; with it
# (make check ran wide-compile/debian-config before these tests) every
# .c file a step touches is in the report, compiled or not built.
expect_fail "the Debian-config compile without linux-config-6.1's file says how to reinstall it" "apt-get install --reinstall linux-config-6.1=" \
	env DEBIAN_CONFIG=/nonexistent/config.xz sh "$TOP/kernel/wide-check.sh" --debian
report=$BUILD/report/debian-config.tsv
if [ -f "$report" ]; then
	grep -h '^+++ b/.*\.c$' "$TOP"/steps/*/patch | sed 's|^+++ b/||' | grep -v '^tools/' | sort -u |
		while read -r f; do grep -q "^$f	" "$report" || echo "$f"; done >"$scratch/unlisted"
	check "the Debian-config report lists every .c file a step touches$(tr '\n' ' ' <"$scratch/unlisted" | sed 's/./ (not: &/; s/ $/)/')" \
		[ ! -s "$scratch/unlisted" ]
	check "... each compiled or not built" \
		sh -c "! grep -v '^#' '$report' | grep -qv '	\(compiled\|not built\)\$'"
	check "... and most of them compiled" [ "$(grep -c '	compiled$' "$report")" -ge 20 ]
else
	echo "  NOT OK: $report is missing: make wide-check STEP=debian (make check runs it before these tests)"
	fails=$((fails + 1))
fi

# The page: built, linked, and each fix it marks taken in step NN is one
# that step's NOTES.md names.
check "make docs writes the patch queue page" grep -q 'id="fixes-to-carry"' "$BUILD/docs/debian-patches.html"
check "... linked from the landing page" grep -q 'href="debian-patches.html"' "$BUILD/docs/index.html"
taken=$(sed -n 's/^| \([0-9a-f]\{12\}\) .*| \*\*taken\*\*, in step \([0-9a-z]*\):.*/\1 \2/p' "$TOP/docs/debian-patches.md")
check "the page marks at least one fix taken" [ -n "$taken" ]
printf '%s\n' "$taken" | while read -r commit id; do
	[ -n "$commit" ] || continue
	notes=$(ls "$TOP"/steps/"$id"-*/NOTES.md)
	grep -q "$commit" "$notes" || echo "$commit $notes"
done >"$scratch/untaken"
check "every fix marked taken is named in its step's NOTES.md$(sed 's/^/ (not: /; s/$/)/' "$scratch/untaken" | tr '\n' ' ')" \
	[ ! -s "$scratch/untaken" ]
done_testing
