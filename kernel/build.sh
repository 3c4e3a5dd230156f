#!/bin/sh
# Build one step into build/out/step-NN/:
#   bzImage            the kernel the VM boots
#   include/           the step's UAPI headers, libbpf's headers, kselftest.h
#   libbpf/libbpf.a    static libbpf from the step's tools/lib/bpf
#   selftests/         the step's token selftest, if its tree has one
#   stamp              what it was built from (commit, config fragments,
#                      compiler, binutils and pahole versions)
#
# A step is built from tinyconfig, kernel/config/base.config and the
# steps/NN-*/config fragments of it and the steps before it.
#
#   kernel/build.sh STEP [STEP...]
#   kernel/build.sh --debug [STEP]
#   kernel/build.sh --mainline
#
# All steps share one object directory (build/obj) and ccache, so moving
# from step-NN to the next recompiles only what the step's patch touched.
# A step whose stamp matches its branch, config and toolchain is not rebuilt at all,
# nor checked out: with several steps (make build-all) the series is
# applied once, and a step that is up to date costs a rev-parse.
#
# --debug builds the debug flavour (base.config + debug.config: KASAN,
# kmemleak, lockdep, UBSAN) of one step, the last one by default, into
# build/out/debug/ from an object directory of its own (build/obj-debug):
# a bzImage and a file "step" naming the step; the headers and libbpf
# are the plain build's.
#
# --mainline builds Debian's linux-source-6.12 (build/linux-mainline,
# upstream's merged BPF token) from base.config plus mainline.config
# (BTF, the JIT, the BPF LSM: what upstream's own token selftest needs)
# into build/out/mainline/, with its own object directory, headers and
# libbpf, and upstream's token selftest (kernel/upstream-token.sh) in
# selftests/: the matrix's mainline column.
set -eu
. "$(dirname "$0")/lib.sh"

take_lock
# Several steps: the series applied once, then each step on its own;
# BPFTOK_SERIES_APPLIED tells the step's run it need not apply it again.
case ${1:-} in
--*) ;;
*)
	if [ $# -gt 1 ]; then
		sh "$TOP/kernel/tree.sh" apply
		for s in "$@"; do
			BPFTOK_SERIES_APPLIED=1 sh "$0" "$s" || exit 1
		done
		exit 0
	fi
	;;
esac
need_space 1000 "a kernel build (object directory, bzImage, headers, libbpf)"
FRAGMENTS="$TOP/kernel/config/base.config"
case ${1:-} in
--debug)
	flavour=debug
	step=$(resolve_step "${2:-$(series_steps | tail -1)}")
	id=$(step_id "$step")
	label="step-$id (debug)"
	dest=$OUT/debug
	OBJ=$BUILD/obj-debug
	FRAGMENTS="$FRAGMENTS $(step_configs "$step") $TOP/kernel/config/debug.config"
	sh "$TOP/kernel/tree.sh" checkout "$id"
	;;
--mainline)
	flavour=mainline
	id=mainline
	label=mainline
	dest=$OUT/mainline
	OBJ=$BUILD/obj-mainline
	LINUX=$MAINLINE_LINUX
	FRAGMENTS="$FRAGMENTS $TOP/kernel/config/mainline.config"
	# pahole must be there before Kconfig looks (PAHOLE_VERSION), or
	# DEBUG_INFO_BTF is dropped and only named as missing afterwards
	need_tools "the mainline kernel (vmlinux BTF) and upstream's token selftest" \
		pahole:dwarves clang:clang
	sh "$TOP/kernel/tree.sh" mainline
	# the stand-in for test_progs is part of what the selftest is built from
	STAMP_EXTRA="$TOP/kernel/upstream-token.sh $TOP/userspace-demo/upstream/test_progs.c $TOP/userspace-demo/upstream/test_progs.h"
	;;
*)
	flavour=
	step=$(resolve_step "${1:-}")	# a bad STEP stops here, named
	id=$(step_id "$step")
	label=step-$id
	dest=$OUT/step-$id
	FRAGMENTS="$FRAGMENTS $(step_configs "$step")"
	# the step's branch is current once the series is applied (the
	# caller may have done that for several steps); checked out below,
	# only if it needs building
	[ -n "${BPFTOK_SERIES_APPLIED:-}" ] || sh "$TOP/kernel/tree.sh" apply
	;;
esac
JOBS=${JOBS:-$(nproc)}
# vmlinux BTF (a step's config, or mainline's): pahole must be there
# before Kconfig looks (PAHOLE_VERSION), or DEBUG_INFO_BTF is dropped
# and only named as missing afterwards
# shellcheck disable=SC2086
if grep -qs '^CONFIG_DEBUG_INFO_BTF=y' $FRAGMENTS; then
	need_tools "a kernel with vmlinux BTF" pahole:dwarves
fi

if [ -z "$flavour" ]; then
	commit=$(step_commit "$id")
else
	commit=$(git -C "$LINUX" rev-parse HEAD)
fi
toolchain=$(toolchain_id)
want="$commit $(file_hash $FRAGMENTS ${STAMP_EXTRA:-}) $toolchain"
# shellcheck disable=SC2086
if [ -f "$dest/stamp" ] && [ "$(cat "$dest/stamp")" = "$want" ] && [ -f "$dest/bzImage" ] &&
	[ -f "$dest/build-warnings.log" ] &&
	{ [ "$flavour" = debug ] || [ -f "$dest/libbpf/libbpf.a" ]; } &&
	{ [ "$flavour" != mainline ] || [ -x "$dest/selftests/upstream_token" ]; } &&
	{ [ -n "$flavour" ] || ! grep -qs '^CONFIG_DEBUG_INFO_BTF=y' $FRAGMENTS ||
		[ -f "$dest/vmlinux.btf" ]; }; then
	info "$label: up to date (${commit%"${commit#????????????}"})"
	# make asked because a file the build is made from is newer than
	# the stamp (a checkout, a touch): the build is current, say so
	touch "$dest/stamp"
	exit 0
fi
[ -n "$flavour" ] || checkout_step_at "$id" "$commit"
# shellcheck disable=SC2086
need_tools "a kernel build" $KERNEL_BUILD_TOOLS
rm -f "$dest/stamp" "$dest/build-warnings.log"
mkdir -p "$dest" "$OBJ"

# ccache and the fixed build metadata every kernel build shares (lib.sh)
kbuild_env

# tinyconfig + the fragments, every requested option checked (lib.sh)
configure() {
	# shellcheck disable=SC2086
	kconfig_merge "$LINUX" "$OBJ" tinyconfig "$label" $FRAGMENTS
}

# make's own "  CC  file" lines are too many to show; count them instead,
# so a long cold build still says it is alive.  kbuild prints none under
# a make -s (it reads MAKEFLAGS, which make check's "make -s initramfs"
# passes down), so the kernel's make gets no MAKEFLAGS of ours.
make_with_progress() {
	{
		rc=0
		(unset MAKEFLAGS && kmake "$LINUX" "$OBJ" "$1") 2>"$OBJ/build-warnings.log" || rc=$?
		echo $rc >"$OBJ/make.rc"
	} | awk '/^  [A-Z]+ / { n++; if (n % 200 == 0) printf "    ... %d files built\n", n; fflush() }
		END { if (n) printf "    %d files built\n", n }'
	return "$(cat "$OBJ/make.rc")"
}

# The payload piggy.o carries must be this build's compressed vmlinux.
# kernel/kcc keeps piggy.S (it .incbin's vmlinux.bin.xz) out of ccache,
# whose depend mode cannot see that file; this checks the outcome, so a
# wrapper that stops doing its job fails the build instead of shipping a
# bzImage with another kernel's code inside.
check_piggy() {
	local c=$OBJ/arch/x86/boot/compressed
	objcopy -O binary --only-section=.rodata..compressed "$c/piggy.o" "$c/piggy.payload" &&
		cmp -s "$c/piggy.payload" "$c/vmlinux.bin.xz" ||
		die "$label: the bzImage's payload is not this build's vmlinux (a stale piggy.o: see kernel/kcc); remove $c/piggy.o and build again"
}

build_kernel() {
	if [ -f "$OBJ/vmlinux" ]; then
		info "$label: building bzImage (incremental)"
	else
		info "$label: building bzImage (cold: about 6 minutes for a step on 2 cores without ccache, as make bench measures; longer for the debug flavour, less with ccache)"
	fi
	make_with_progress bzImage ||
		{ cat "$OBJ/build-warnings.log" >&2; die "kernel build of $label failed"; }
	check_piggy
	# always written, empty when the build was clean: tests/run.sh
	# takes a missing log for a build it cannot vouch for
	cp "$OBJ/build-warnings.log" "$dest/build-warnings.log.new"
	mv "$dest/build-warnings.log.new" "$dest/build-warnings.log"
	[ ! -s "$dest/build-warnings.log" ] ||
		info "$label: compiler warnings in $dest/build-warnings.log"
	cp "$OBJ/arch/x86/boot/bzImage" "$dest/bzImage.new"
	mv "$dest/bzImage.new" "$dest/bzImage"
}

install_headers() {
	rm -rf "$dest/include"
	kmake "$LINUX" "$OBJ" -s headers_install INSTALL_HDR_PATH="$dest" >/dev/null
	cp "$LINUX/tools/testing/selftests/kselftest.h" "$dest/include/"
}

# libbpf depends only on tools/: steps that do not touch it (all but
# 03-12's UAPI and libbpf changes) reuse the build of an identical tree.
build_libbpf() {
	key=$(git -C "$LINUX" rev-parse HEAD:tools/lib/bpf HEAD:tools/include \
		HEAD:tools/build HEAD:tools/scripts HEAD:scripts/bpf_doc.py | file_hash)
	cache=$BUILD/libbpf-cache/$key
	rm -rf "$dest/libbpf" "$dest/include/bpf"
	if [ ! -f "$cache/libbpf/libbpf.a" ]; then
		info "$label: building libbpf.a from its tools/lib/bpf"
		rm -rf "$cache"
		mkdir -p "$cache/libbpf"
		make -s -C "$LINUX/tools/lib/bpf" OUTPUT="$cache/libbpf/" CC="ccache gcc" \
			-j"$JOBS" "$cache/libbpf/libbpf.a" >"$cache/build.log" 2>&1 &&
		make -s -C "$LINUX/tools/lib/bpf" OUTPUT="$cache/libbpf/" DESTDIR="$cache" prefix= \
			install_headers >>"$cache/build.log" 2>&1 ||
			{ cat "$cache/build.log" >&2; rm -rf "$cache"; die "libbpf build of $label failed"; }
	else
		info "$label: libbpf unchanged since an earlier build, reusing it"
	fi
	mkdir -p "$dest/libbpf"
	cp "$cache/libbpf/libbpf.a" "$dest/libbpf/"
	cp -r "$cache/include/bpf" "$dest/include/"
}

# The step's tree may carry our token selftest (step 13 adds it): build it
# like the demos, static, against this step's headers and libbpf.  The
# mainline tree gets upstream's own instead (kernel/upstream-token.sh).
build_selftests() {
	if [ "$flavour" = mainline ]; then
		sh "$TOP/kernel/upstream-token.sh" build "$LINUX" "$OBJ" "$dest"
		return
	fi
	src=$LINUX/tools/testing/selftests/bpf
	rm -rf "$dest/selftests"
	[ -f "$src/test_token.c" ] || return 0
	info "step-$id: building the token selftest from the step's tree"
	mkdir -p "$dest/selftests"
	gcc -O2 -g -Wall -Werror -static -I"$dest/include" -I"$src" \
		-o "$dest/selftests/test_token" "$src/test_token.c" "$src/cap_helpers.c" \
		-L"$dest/libbpf" -lbpf -lelf -lz -lzstd ||
		die "the token selftest of step-$id does not build"
}

# A step with vmlinux BTF keeps it, raw as /sys/kernel/btf/vmlinux has
# it: upstream's token selftest compiles its BPF programs against the
# newest step's (kernel/upstream-token.sh build-step), after the object
# directory has moved on to other builds.
keep_btf() {
	rm -f "$dest/vmlinux.btf"
	[ -z "$flavour" ] && grep -qs '^CONFIG_DEBUG_INFO_BTF=y' "$OBJ/.config" || return 0
	objcopy -O binary --only-section=.BTF "$OBJ/vmlinux" "$dest/vmlinux.btf" ||
		die "could not copy the vmlinux BTF of $label"
}

configure
build_kernel
keep_btf
if [ "$flavour" = debug ]; then
	echo "$id" >"$dest/step"
else
	install_headers
	build_libbpf
	build_selftests
fi
printf '%s\n' "$want" >"$dest/stamp"
info "$label: built into ${dest#"$TOP/"}"
