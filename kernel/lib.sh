# Shared shell helpers for kernel/ and vm/ scripts.  POSIX sh, sourced.
#
# Paths are absolute so scripts can run from any directory.  TOP is the
# project checkout; every generated file lives under $BUILD.

TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
BUILD=${BUILD:-$TOP/build}
LINUX=$BUILD/linux
OBJ=$BUILD/obj
OUT=$BUILD/out
SERIES=$TOP/steps/series
KERNEL_TARBALL=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
# the mainline column: upstream's merged BPF token, as Debian ships it
MAINLINE_LINUX=$BUILD/linux-mainline
MAINLINE_TARBALL=${MAINLINE_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
# the Debian versions the steps are made on (BPFTOK_VERSIONS: the tests')
VERSIONS=${BPFTOK_VERSIONS:-$TOP/kernel/versions}

die() {
	printf 'error: %s\n' "$*" >&2
	exit 1
}

info() {
	printf '==> %s\n' "$*"
}

# The step list: one folder name of steps/ per line, in order; blank
# lines and '#' comments are ignored.  Every listed folder must exist and
# every step but the first must carry a patch.
series_steps() {
	[ -f "$SERIES" ] || die "missing $SERIES"
	series_names <"$SERIES"
}

# The epilogue's steps, after the "# epilogue" line of steps/series: the
# changes review made before the token merged in Linux 6.9.
epilogue_steps() {
	[ -f "$SERIES" ] || die "missing $SERIES"
	sed -n '/^# epilogue$/,$p' "$SERIES" | series_names
}

# The steps that speak the ABI Linux 6.9 shipped (BPF_F_TOKEN_FD, token
# fds placed as 6.9 places them, token_create from a BPF FS fd): from the
# "# shipped ABI" line of steps/series on.  The steps before it speak
# v6's.  A demo is built for one ABI or the other, so each ABI has its
# own initramfs (build/initramfs.cpio.gz, build/initramfs-shipped.cpio.gz).
shipped_abi_steps() {
	[ -f "$SERIES" ] || die "missing $SERIES"
	sed -n '/^# shipped ABI$/,$p' "$SERIES" | series_names
}

v6_abi_steps() {
	[ -f "$SERIES" ] || die "missing $SERIES"
	sed '/^# shipped ABI$/,$d' "$SERIES" | series_names
}

# step_abi STEP: "shipped" or "v6", for a step name or id
step_abi() {
	local _s
	for _s in $(shipped_abi_steps); do
		[ "$(step_id "$_s")" != "$(step_id "$1")" ] || { echo shipped; return 0; }
	done
	echo v6
}

# step_configs STEP: the config fragments steps/ adds for STEP, oldest
# first.  A step's steps/NN-*/config applies to it and every later step
# (vmlinux BTF from the step whose code needs it, say).
step_configs() {
	local _s _want
	_want=$(step_id "$1")
	for _s in $(series_steps); do
		[ ! -f "$TOP/steps/$_s/config" ] || echo "$TOP/steps/$_s/config"
		[ "$(step_id "$_s")" != "$_want" ] || return 0
	done
}

# The step names of series lines on stdin: comments and blanks dropped.
series_names() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d'
}

check_series() {
	local first=1 s
	for s in $(series_steps); do
		case $s in
		[0-9][0-9]-*|[0-9][0-9][a-z]-*) ;;
		*) die "steps/series: '$s' is not of the form NN-slug or NNx-slug" ;;
		esac
		[ -d "$TOP/steps/$s" ] || die "steps/series lists '$s' but steps/$s/ does not exist"
		[ -f "$TOP/steps/$s/NOTES.md" ] || die "steps/$s/NOTES.md is missing"
		if [ $first = 1 ]; then
			[ ! -f "$TOP/steps/$s/patch" ] ||
				die "steps/$s is the pristine base and must not have a patch"
		else
			[ -f "$TOP/steps/$s/patch" ] || die "steps/$s/patch is missing"
		fi
		first=0
	done
}

# Functions use 'local' (dash, bash and busybox sh all have it): the
# scripts nest these calls and plain sh variables are global.

# step_id 01-bpf-net-capable -> 01
step_id() {
	printf '%s\n' "${1%%-*}"
}

# selftest_dir ID: where kernel/build.sh puts the token selftests that the
# kernel tree of step ID (or mainline) builds; the folder exists only for
# the kernels that have some (the series' from step 13 on, upstream's on
# mainline)
selftest_dir() {
	case $1 in
	mainline) printf '%s\n' "$OUT/mainline/selftests" ;;
	*) printf '%s\n' "$OUT/step-$1/selftests" ;;
	esac
}

# Turn what a user typed as STEP (01, 1, 01-bpf-net-capable) into the
# step's folder name, or stop with the list of valid steps.
resolve_step() {
	local want=$1 s
	[ -n "$want" ] || die "no STEP given; valid steps: $(series_ids)"
	case $want in
	[0-9]) want=0$want ;;
	esac
	for s in $(series_steps); do
		if [ "$want" = "$s" ] || [ "$want" = "$(step_id "$s")" ]; then
			printf '%s\n' "$s"
			return 0
		fi
	done
	die "unknown STEP '$1'; valid steps: $(series_ids)"
}

series_ids() {
	local ids= s
	for s in $(series_steps); do
		ids="$ids $(step_id "$s")"
	done
	printf '%s\n' "${ids# }"
}

# The step before $1 in the series (empty for the first).
prev_step() {
	local prev= s
	for s in $(series_steps); do
		if [ "$s" = "$1" ]; then
			printf '%s\n' "$prev"
			return 0
		fi
		prev=$s
	done
	die "step '$1' is not in steps/series"
}

branch_of() {
	printf 'step-%s\n' "$(step_id "$1")"
}

# step_commit ID: the commit of step ID's branch (current once the series
# is applied: kernel/tree.sh apply), read without checking it out
step_commit() {
	git -C "$LINUX" rev-parse "refs/heads/$(branch_of "$1")"
}

# checkout_step_at ID COMMIT: check step ID out to build it, and stop if
# its branch is no longer the COMMIT the build was decided on
checkout_step_at() {
	sh "$TOP/kernel/tree.sh" checkout "$1"
	[ "$(git -C "$LINUX" rev-parse HEAD)" = "$2" ] ||
		die "step-$1: build/linux is not on $(branch_of "$1") ($2) after checking it out"
}

# One make at a time per checkout: two builds sharing build/obj would
# corrupt each other.  Nested scripts inherit the lock.
take_lock() {
	[ -n "${BPFTOK_LOCKED:-}" ] && return 0
	mkdir -p "$BUILD"
	exec 9>"$BUILD/.lock"
	if ! flock -n 9; then
		die "another make is already running in $TOP (lock $BUILD/.lock); wait for it to finish"
	fi
	BPFTOK_LOCKED=1
	export BPFTOK_LOCKED
}

# file_hash FILE...: a short hash of the files' bytes.  A missing or
# unreadable file stops the caller (sh has no pipefail: cat's failure
# would otherwise hash whatever it managed to read).
file_hash() {
	local f
	for f in "$@"; do
		[ -f "$f" ] && [ -r "$f" ] || die "cannot hash $f: it is missing or unreadable"
	done
	cat "$@" | sha256sum | cut -c1-16
}

# free_kb DIR: kilobytes free on the filesystem holding DIR (empty if df
# cannot tell)
free_kb() {
	df -Pk "$1" 2>/dev/null | awk 'NR == 2 { print $4 }'
}

# need_space MB WHAT: stop before WHAT if the filesystem holding build/
# has less than MB megabytes free, rather than fail half-way through with
# a truncated file.  BPFTOK_MIN_FREE_MB overrides MB (the tests use it).
need_space() {
	local want=${BPFTOK_MIN_FREE_MB:-$1} free
	mkdir -p "$BUILD"
	free=$(($(free_kb "$BUILD") / 1024))
	[ "$free" -ge "$want" ] ||
		die "only ${free} MB free on the filesystem of $BUILD, $2 needs about $want MB; free some space (make clean removes build outputs) and run again"
}

# pinned_version PACKAGE: the version kernel/versions pins it to, or
# nothing for a package that is not pinned.
pinned_version() {
	[ -f "$VERSIONS" ] || die "missing $VERSIONS"
	# Debian's configuration comes from the same source package as the
	# kernel source, so it is pinned with it, never apart
	case $1 in
	linux-config-6.1) set -- linux-source-6.1 ;;
	esac
	awk -v p="$1" '$1 == p { print $2 }' "$VERSIONS"
}

# installed_version PACKAGE: what dpkg has installed, or nothing.
installed_version() {
	dpkg-query -W -f '${db:Status-Abbrev} ${Version}\n' "$1" 2>/dev/null |
		awk '$1 ~ /^[ih]i/ { print $2 }'
}

# check_tarball TARBALL PACKAGE: the tarball must be the one dpkg
# installed with PACKAGE at the version kernel/versions pins, unchanged.
check_tarball() {
	local pin have sum want
	pin=$(pinned_version "$2")
	have=$(installed_version "$2")
	[ -n "$pin" ] || die "$2 has no version in kernel/versions"
	[ "$have" = "$pin" ] ||
		die "$2 is ${have:-not installed} here, the steps are made on $pin (kernel/versions).
  To install $pin: make deps
  To port the steps onto ${have:-another version} instead: make port BASE=${have:-VERSION}"
	want=$(awk -v f="${1#/}" '$2 == f { print $1 }' "/var/lib/dpkg/info/$2.md5sums" 2>/dev/null || true)
	[ -n "$want" ] || die "$1 is not the tarball the package $2 installed; the steps are made on /usr/src/$2.tar.xz (make deps installs it)"
	sum=$(md5sum <"$1" | cut -d' ' -f1)
	[ "$sum" = "$want" ] ||
		die "$1 differs from what $2 $pin installed (md5 $sum, dpkg has $want); reinstall it: apt-get install --reinstall $2=$pin"
}

# need_tools WHAT TOOL:PACKAGE...: stop before WHAT, naming every missing
# tool's Debian package, rather than let make fail minutes in with
# "Error 127".  A TOOL with a slash is a header under /usr/include.
need_tools() {
	local what=$1 t missing=
	shift
	for t in "$@"; do
		case ${t%%:*} in
		*/*|*.h) [ -f "/usr/include/${t%%:*}" ] ;;
		*) command -v "${t%%:*}" >/dev/null 2>&1 ;;
		esac || missing="$missing ${t#*:}"
	done
	[ -z "$missing" ] || die "$what needs these packages, which are missing:$missing; run 'make deps'"
}

# What a kernel build, its headers_install and libbpf run.
KERNEL_BUILD_TOOLS="gcc:gcc make:make ccache:ccache bison:bison flex:flex bc:bc perl:perl
rsync:rsync cpio:cpio xz:xz-utils git:git python3:python3 libelf.h:libelf-dev
zlib.h:zlib1g-dev zstd.h:libzstd-dev openssl/ssl.h:libssl-dev"

# ---- the kernel's own make, one way for every tree ----

# kbuild_env: what every kernel build exports.  ccache keys on paths
# relative to CCACHE_BASEDIR, so a fresh clone in another folder (as CI
# makes) reuses the cache; the folder holding build/ is the base, so a
# compat tree in build/compat/V/build/linux reads as build/linux too.
# Fixed build metadata keeps init/version.c and friends identical
# between runs (and __DATE__ out of ccache's keys).
kbuild_env() {
	CCACHE_BASEDIR=$(dirname "$BUILD")
	export CCACHE_BASEDIR CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=time_macros
	# On a miss ccache's default mode runs the preprocessor besides the
	# compiler and hashes each of a file's few hundred headers again: a
	# cold step-00 kernel compile cost a third more CPU through ccache
	# than without it.  Depend mode takes the headers from gcc's own -MD
	# list instead, the inode cache keeps a header's hash between calls,
	# and an uncompressed cache skips zstd; a hit costs the same.
	export CCACHE_DEPEND=1 CCACHE_INODECACHE=1 CCACHE_NOCOMPRESS=1
	export KBUILD_BUILD_TIMESTAMP="1970-01-01" KBUILD_BUILD_USER=bpftok KBUILD_BUILD_HOST=vm
	# the "#N" in the banner: by default a count of the object directory's
	# builds, so a step built again from the same commit gave another
	# bzImage, and every VM run of it booted again
	export KBUILD_BUILD_VERSION=1
}

# toolchain_id: what compiles a kernel, by version: gcc, binutils' ld,
# pahole (BTF), and by content kernel/kcc, which decides what goes
# through ccache.  Part of every build stamp,
# so an updated compiler rebuilds, rather than a stamp vouching for the
# old compiler's objects and its warnings log.  A tool that cannot say
# its version stops the build.
toolchain_id() {
	local gcc ld pahole
	gcc=$(gcc -dumpfullversion 2>/dev/null) && [ -n "$gcc" ] ||
		die "gcc cannot say its version; run 'make deps'"
	ld=$(ld --version 2>/dev/null | sed -n 1p) && [ -n "$ld" ] ||
		die "ld (binutils) cannot say its version; run 'make deps'"
	pahole=$(pahole --version 2>/dev/null) || pahole=none
	echo "gcc $gcc; $ld; pahole $pahole; kcc $(file_hash "$TOP/kernel/kcc")"
}

# toolchain_record: build/toolchain.id, rewritten only when toolchain_id
# says something else, so make rebuilds the kernels after a compiler
# update and not otherwise (the top Makefile runs this as it starts)
toolchain_record() {
	local id
	id=$(toolchain_id)
	mkdir -p "$BUILD"
	[ "$(cat "$BUILD/toolchain.id" 2>/dev/null)" = "$id" ] && return 0
	printf '%s\n' "$id" >"$BUILD/toolchain.id.new"
	mv "$BUILD/toolchain.id.new" "$BUILD/toolchain.id"
}

# kmake TREE OBJ [MAKE-ARGS...]: the kernel's make for TREE with its
# objects in OBJ, through ccache (kernel/kcc says which files bypass
# it), $JOBS (default: every core) at a time
kmake() {
	local tree=$1 obj=$2
	shift 2
	make -C "$tree" O="$obj" -j"${JOBS:-$(nproc)}" CC="sh $TOP/kernel/kcc" "$@"
}

# kconfig_merge TREE OBJ BASE-TARGET LABEL FRAGMENT...: OBJ/.config made
# from `make BASE-TARGET` (tinyconfig, x86_64_defconfig) and the fragments
# through merge_config.sh, again only when the fragments change; then
# olddefconfig, and every option the fragments ask for must have survived
# Kconfig's dependency rules.  A fragment line may carry its reason:
# "CONFIG_X=y  # why".
kconfig_merge() {
	local tree=$1 obj=$2 base=$3 label=$4 fhash missing line names
	shift 4
	names=$(echo "$@" | sed "s|$TOP/||g")
	sed -n 's/^\(CONFIG_[A-Za-z0-9_]*=[^[:space:]#]*\).*/\1/p' "$@" >"$obj/fragment.config"
	fhash=$(file_hash "$obj/fragment.config")
	if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/fragment.hash" 2>/dev/null)" != "$fhash" ]; then
		info "$label: configuring ($base + $names)"
		kmake "$tree" "$obj" -s "$base" >/dev/null
		(cd "$obj" && "$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" \
			"$obj/.config" "$obj/fragment.config") >"$obj/merge.log" 2>&1 ||
			{ cat "$obj/merge.log" >&2; die "merge_config.sh failed for $label"; }
		printf '%s\n' "$fhash" >"$obj/fragment.hash"
	fi
	# olddefconfig warns about every choice a fragment flips:
	# kept in the log, shown only on failure
	kmake "$tree" "$obj" -s olddefconfig >>"$obj/merge.log" 2>&1 ||
		{ cat "$obj/merge.log" >&2; die "make olddefconfig failed for $label"; }
	missing=
	while IFS= read -r line; do
		case $line in
		*=n) ! grep -q "^${line%=n}=" "$obj/.config" ;;
		*) grep -qx "$line" "$obj/.config" ;;
		esac || missing="$missing ${line%%=*}"
	done <"$obj/fragment.config"
	[ -z "$missing" ] ||
		die "these options of $names did not make it into the .config of $label (a dependency is missing):$missing"
}

# source_deb VERSION: linux-source-6.1 at VERSION as a .deb, downloaded
# once with apt-get download into build/compat/debs (nothing installed).
source_deb() {
	local dir=$BUILD/compat/debs deb
	mkdir -p "$dir"
	deb=$(ls "$dir/linux-source-6.1_$1_"*.deb 2>/dev/null | head -1)
	if [ -z "$deb" ]; then
		need_space 200 "downloading linux-source-6.1 $1"
		info "apt-get download linux-source-6.1=$1" >&2
		(cd "$dir" && apt-get download -q "linux-source-6.1=$1" >/dev/null 2>"$dir/download.log") ||
			die "apt-get download linux-source-6.1=$1 failed ($(tail -1 "$dir/download.log"));
  'apt-cache madison linux-source-6.1' lists the versions this machine's archive has"
		deb=$(ls "$dir/linux-source-6.1_$1_"*.deb | head -1)
	fi
	printf '%s\n' "$deb"
}
