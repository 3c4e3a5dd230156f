#!/bin/sh
# Compile, under a wide configuration, every object a step could break.
#
#   kernel/wide-check.sh STEP
#   kernel/wide-check.sh --debian
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
#
# --debian: the same objects of every step, as the last step has them,
# with the configuration Debian builds its amd64 kernel from (the
# linux-config-6.1 package at the version kernel/versions pins), in
# build/obj-debian: what a distro ships is compiled with its own options,
# modules included.  The objects that configuration does not build are
# listed in build/report/debian-config.tsv as well.
set -eu
. "$(dirname "$0")/lib.sh"

DEBIAN_CONFIG=${DEBIAN_CONFIG:-/usr/src/linux-config-6.1/config.amd64_none_amd64.xz}

# files_to_compile PATCH COMMIT: (a) the .c files PATCH touches and (b)
# the .c files of COMMIT that use a function whose declaration PATCH
# changes in a header, one a line
files_to_compile() {
	local touched symbols sym users=
	touched=$(sed -n 's|^+++ b/\(.*\.c\)$|\1|p' "$1" | grep -v '^tools/' || true)
	# a prototype a header hunk removes is a line at column 0, not a
	# statement in an inline body
	symbols=$(awk '/^\+\+\+ b\// { hdr = ($0 ~ /\.h$/) } hdr && /^-[A-Za-z]/' "$1" |
		sed -n 's/^[^(]*[^A-Za-z0-9_(]\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' | sort -u || true)
	for sym in $symbols; do
		users="$users $(git -C "$LINUX" grep -lw "$sym" "$2" -- '*.c' ':!tools' |
			sed "s|^$2:||" || true)"
	done
	[ -z "$symbols" ] || echo "$symbols" | sed 's/^/symbol /'
	printf '%s\n' $touched $users | sed '/^$/d'
}

if [ "${1:-}" = --debian ]; then
	step=$(series_steps | tail -1)
	label="Debian's configuration"
	WIDE=$BUILD/obj-debian
	pin=$(pinned_version linux-config-6.1)
	have=$(installed_version linux-config-6.1)
	[ "$have" = "$pin" ] ||
		die "Debian's configuration is linux-config-6.1 $pin (the version of linux-source-6.1 in kernel/versions), here ${have:-not installed}; run 'make deps'"
	[ -f "$DEBIAN_CONFIG" ] ||
		die "$DEBIAN_CONFIG is missing although linux-config-6.1 $pin is installed; reinstall it: apt-get install --reinstall linux-config-6.1=$pin"
	frag=$DEBIAN_CONFIG
else
	step=$(resolve_step "${1:-}")
	label="the wide config"
	WIDE=$BUILD/obj-wide
	frag=$TOP/kernel/config/wide.config
fi
id=$(step_id "$step")
patch=$TOP/steps/$step/patch
[ -f "$patch" ] || { echo "step-$id: no patch, nothing to check"; exit 0; }
take_lock
kbuild_env

# the branch is current once the series is applied (tests/run.sh does that
# once for every step); it is checked out only if it needs compiling
[ -n "${BPFTOK_SERIES_APPLIED:-}" ] || sh "$TOP/kernel/tree.sh" apply
mkdir -p "$WIDE"
stamp=$WIDE/stamp-$id
commit=$(step_commit "$id")
frag_hash=$(file_hash "$frag")
toolchain=$(toolchain_id)
# this script's bytes too: they decide which files are compiled
want="$commit $frag_hash $toolchain $(file_hash "$TOP/kernel/wide-check.sh")"
# --debian: the list of objects, compiled or not built, for the report
# and the site (build/report/debian-config.tsv), kept beside the stamp
report=
[ "$WIDE" != "$BUILD/obj-debian" ] || report=$WIDE/objects.tsv
publish_report() {
	[ -n "$report" ] || return 0
	mkdir -p "$BUILD/report"
	cp "$report" "$BUILD/report/debian-config.tsv.new"
	mv "$BUILD/report/debian-config.tsv.new" "$BUILD/report/debian-config.tsv"
}
if [ -f "$stamp" ] && [ "$(head -1 "$stamp")" = "$want" ] && { [ -z "$report" ] || [ -f "$report" ]; }; then
	info "step-$id: unchanged since its last wide compile, which passed:"
	tail -n +2 "$stamp"
	publish_report
	exit 0
fi
rm -f "$stamp"

# What to compile is read from the patches and the step's commit, before
# anything is checked out: a step that changes no kernel C (a libbpf
# step) costs no checkout and no make prepare.  --debian: every step's.
if [ "$WIDE" = "$BUILD/obj-debian" ]; then
	patches=$(for s in $(series_steps); do
		[ ! -f "$TOP/steps/$s/patch" ] || echo "$TOP/steps/$s/patch"
	done)
else
	patches=$patch
fi
list=$(for p in $patches; do files_to_compile "$p" "$commit"; done)
symbols=$(printf '%s\n' "$list" | sed -n 's/^symbol //p' | sort -u)
files=$(printf '%s\n' "$list" | grep -v '^symbol ' | sort -u || true)
if [ -z "$files" ]; then
	echo "step-$id: no C files to check" | tee "$WIDE/summary"
	{ echo "$want"; cat "$WIDE/summary"; } >"$stamp"
	exit 0
fi

checkout_step_at "$id" "$commit"
if [ "$WIDE" = "$BUILD/obj-debian" ]; then
	# Debian's own .config, brought to this tree by olddefconfig, as
	# Debian's build does for its featureset
	if [ "$(cat "$WIDE/config.hash" 2>/dev/null)" != "$frag_hash" ]; then
		info "step-$id: configuring with Debian's amd64 configuration ($(basename "$frag"), linux-config-6.1 $pin)"
		xz -dc "$frag" >"$WIDE/.config"
		printf '%s\n' "$frag_hash" >"$WIDE/config.hash"
	fi
	kmake "$LINUX" "$WIDE" -s olddefconfig >"$WIDE/merge.log" 2>&1 ||
		{ cat "$WIDE/merge.log" >&2; die "make olddefconfig failed for $label"; }
else
	kconfig_merge "$LINUX" "$WIDE" x86_64_defconfig "$label" "$frag"
fi
info "step-$id: preparing the build tree for $label"
kmake "$LINUX" "$WIDE" -s prepare >"$WIDE/prepare.log" 2>&1 ||
	{ cat "$WIDE/prepare.log" >&2; die "make prepare failed for $label"; }

objs= skipped=
if [ "$WIDE" = "$BUILD/obj-debian" ]; then
	# The objects Debian's configuration builds, as kbuild itself decides
	# it: a dry run of each top-level folder the files are in (so every
	# folder on the way down must be built too) lists the compile of
	# every missing object, so ours are removed first.  A folder's
	# Makefile may name an object under an option that is off (bpf-lirc.o
	# under CONFIG_BPF_LIRC_MODE2): compiled by hand it would fail.
	for f in $files; do
		rm -f "$WIDE/${f%.c}.o"
	done
	# (arch/ itself is no kbuild folder: arch/x86/ is)
	tops=$(printf '%s\n' $files | sed 's|^arch/[^/]*/.*|arch/x86/|; s|^\([^/]*\)/.*|\1/|' | sort -u)
	# one job: parallel sub-makes could interleave their long lines
	# shellcheck disable=SC2086 # a list of folders
	JOBS=1 kmake "$LINUX" "$WIDE" -n $tops >"$WIDE/dry-run.out" 2>"$WIDE/dry-run.log" ||
		{ cat "$WIDE/dry-run.log" >&2; die "make -n $tops failed for $label"; }
	sed -n 's/.* -o \([^ ]*\.o\) .*/\1/p' "$WIDE/dry-run.out" | sort -u >"$WIDE/built-objects"
	for f in $files; do
		if grep -qxF "${f%.c}.o" "$WIDE/built-objects"; then
			objs="$objs ${f%.c}.o"
		else
			skipped="$skipped $f"
		fi
	done
	# kernel/bpf/syscall.c is built by any configuration with bpf():
	# none at all means the dry run was not read right
	[ -n "$objs" ] || die "kbuild's dry run lists none of the files for $label (build/obj-debian/dry-run.out); nothing compiled"
else
	# the objects their directory's Makefile names at all (wide.config
	# turns on the options they are built under)
	for f in $files; do
		if grep -qw "$(basename "${f%.c}.o")" "$LINUX/$(dirname "$f")/Makefile" 2>/dev/null; then
			objs="$objs ${f%.c}.o"
		else
			skipped="$skipped $f"
		fi
	done
fi
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
			die "step-$id: $obj does not compile under $label"
		fi
	done
fi
{
	info "step-$id: $built object(s) compiled under $label${symbols:+ (changed: $(echo $symbols))}"
	[ -z "$skipped" ] || echo "    not built by $label:$skipped"
} >"$WIDE/summary"
cat "$WIDE/summary"
if [ -n "$report" ]; then
	{
		echo "# Every .c file a step's patch touches, or that uses a function whose"
		echo "# declaration a step changes, compiled as $(branch_of "$step") has it with"
		echo "# Debian's amd64 configuration (linux-config-6.1 $pin): compiled or not built."
		for f in $files; do
			case " $skipped " in
			*" $f "*) printf '%s\tnot built\n' "$f" ;;
			*) printf '%s\tcompiled\n' "$f" ;;
			esac
		done
	} >"$report"
	publish_report
fi
{ echo "$want"; cat "$WIDE/summary"; } >"$stamp.new"
mv "$stamp.new" "$stamp"
