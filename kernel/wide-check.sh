#!/bin/sh
# Compile, under a wide configuration, every object a step could break.
#
#   kernel/wide-check.sh STEP
#
# The VM's kernel is minimal: it does not build bpf-lirc.c, bpf_tcp_ca.c
# and other callers of what the series changes.  So for each step this
# compiles, with x86_64_defconfig + kernel/config/wide.config in
# build/obj-wide, (a) every .c file its patch touches and (b) every .c
# file that mentions a function whose declaration the patch changes in a
# header.  Compiler errors fail the check; objects the wide config does
# not build are listed.  A step whose commit, wide.config and toolchain
# (kernel/lib.sh's toolchain_id) are those of its last passing check is
# not compiled again (build/obj-wide/stamp-NN).
set -eu
. "$(dirname "$0")/lib.sh"

take_lock
step=$(resolve_step "${1:-}")
id=$(step_id "$step")
patch=$TOP/steps/$step/patch
[ -f "$patch" ] || { echo "step-$id: no patch, nothing to check"; exit 0; }
WIDE=$BUILD/obj-wide
kbuild_env

# the branch is current once the series is applied (tests/run.sh does that
# once for every step); it is checked out only if it needs compiling
[ -n "${BPFTOK_SERIES_APPLIED:-}" ] || sh "$TOP/kernel/tree.sh" apply
mkdir -p "$WIDE"
frag=$TOP/kernel/config/wide.config
stamp=$WIDE/stamp-$id
commit=$(step_commit "$id")
frag_hash=$(file_hash "$frag")
toolchain=$(toolchain_id)
want="$commit $frag_hash $toolchain"
if [ -f "$stamp" ] && [ "$(head -1 "$stamp")" = "$want" ]; then
	info "step-$id: unchanged since its last wide compile, which passed:"
	tail -n +2 "$stamp"
	exit 0
fi
rm -f "$stamp"

# What to compile is read from the patch and the step's commit, before
# anything is checked out: a step that changes no kernel C (a libbpf
# step) costs no checkout and no make prepare.
# (a) touched .c files
touched=$(sed -n 's|^+++ b/\(.*\.c\)$|\1|p' "$patch" | grep -v '^tools/' || true)
# (b) functions whose declaration a header hunk removes (a line at column
# 0, so a prototype, not a statement in an inline body), and their users
symbols=$(awk '/^\+\+\+ b\// { hdr = ($0 ~ /\.h$/) } hdr && /^-[A-Za-z]/' "$patch" |
	sed -n 's/^[^(]*[^A-Za-z0-9_(]\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' | sort -u || true)
users=
for sym in $symbols; do
	users="$users $(git -C "$LINUX" grep -lw "$sym" "$commit" -- '*.c' ':!tools' |
		sed "s|^$commit:||" || true)"
done
files=$(printf '%s\n' $touched $users | sort -u)
if [ -z "$files" ]; then
	echo "step-$id: no C files to check" | tee "$WIDE/summary"
	{ echo "$want"; cat "$WIDE/summary"; } >"$stamp"
	exit 0
fi

checkout_step_at "$id" "$commit"
kconfig_merge "$LINUX" "$WIDE" x86_64_defconfig "the wide config" "$frag"
info "step-$id: preparing the wide build tree"
kmake "$LINUX" "$WIDE" -s prepare >"$WIDE/prepare.log" 2>&1 ||
	{ cat "$WIDE/prepare.log" >&2; die "make prepare failed for the wide config"; }

# the objects their directory's Makefile names at all
objs= skipped=
for f in $files; do
	if grep -qw "$(basename "${f%.c}.o")" "$LINUX/$(dirname "$f")/Makefile" 2>/dev/null; then
		objs="$objs ${f%.c}.o"
	else
		skipped="$skipped $f"
	fi
done
# All of them in one make, on every core (one make per object costs
# kbuild's start-up each time).  Only if that fails, one at a time: to
# tell an object the wide config does not build from a compiler error.
built=0
# shellcheck disable=SC2086 # a list of objects
if [ -n "$objs" ] && kmake "$LINUX" "$WIDE" -s $objs >"$WIDE/obj.log" 2>&1; then
	built=$(echo $objs | wc -w)
else
	for obj in $objs; do
		if kmake "$LINUX" "$WIDE" -s "$obj" >"$WIDE/obj.log" 2>&1; then
			built=$((built + 1))
		elif grep -q "No rule to make target" "$WIDE/obj.log"; then
			skipped="$skipped ${obj%.o}.c"
		else
			cat "$WIDE/obj.log" >&2
			die "step-$id: $obj does not compile under the wide config"
		fi
	done
fi
{
	info "step-$id: $built object(s) compiled under the wide config${symbols:+ (changed: $(echo $symbols))}"
	[ -z "$skipped" ] || echo "    not built by the wide config:$skipped"
} >"$WIDE/summary"
cat "$WIDE/summary"
{ echo "$want"; cat "$WIDE/summary"; } >"$stamp.new"
mv "$stamp.new" "$stamp"
