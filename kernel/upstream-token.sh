#!/bin/sh
# Upstream's own BPF token selftest, for the mainline column:
# tools/testing/selftests/bpf/prog_tests/token.c of the 6.12 tree and
# the four BPF programs it loads, built unchanged, with our stand-in for
# test_progs (userspace-demo/upstream/) into one static binary that
# prints KTAP, one line per subtest.
#
#   kernel/upstream-token.sh check TREE
#       fail unless every upstream file it builds is byte for byte the
#       one in TREE's pristine commit (Debian's tarball, committed as it
#       was extracted): nobody "fixes" upstream's test here
#   kernel/upstream-token.sh build TREE OBJ DEST
#       check, then build from TREE with the kernel built in OBJ (its
#       vmlinux BTF) and DEST's headers and libbpf (kernel/build.sh
#       --mainline made them) into DEST/selftests/upstream_token
#
# Everything is the tree's own: bpftool from its tools/bpf/bpftool
# (the bootstrap build, which needs neither clang nor libbfd), the BPF
# objects compiled with Debian's clang against a vmlinux.h that bpftool
# dumps from the kernel just built, skeletons from that bpftool,
# cap_helpers.c from the tree, libbpf from the tree (DEST/libbpf).
set -eu
. "$(dirname "$0")/lib.sh"

# what is used from the tree, unchanged; progs/ are the BPF programs
SELFTESTS=tools/testing/selftests/bpf
UPSTREAM_FILES="
$SELFTESTS/prog_tests/token.c
$SELFTESTS/cap_helpers.c
$SELFTESTS/cap_helpers.h
$SELFTESTS/progs/priv_map.c
$SELFTESTS/progs/priv_prog.c
$SELFTESTS/progs/token_lsm.c
$SELFTESTS/progs/dummy_st_ops_success.c
"
PROGS="priv_map priv_prog token_lsm dummy_st_ops_success"
HARNESS=$TOP/userspace-demo/upstream

check() {
	local tree=$1 f want got bad=
	git -C "$tree" rev-parse -q --verify pristine^{commit} >/dev/null ||
		die "${tree#"$TOP/"} has no pristine commit to compare upstream's selftest with; extract it again: make distclean && make build-mainline"
	for f in $UPSTREAM_FILES; do
		want=$(git -C "$tree" rev-parse -q --verify "pristine:$f" 2>/dev/null) ||
			die "$f is not in the 6.12 tree (${tree#"$TOP/"}, tag pristine); upstream's token selftest cannot be built from it"
		got=$(git -C "$tree" hash-object "$tree/$f" 2>/dev/null) || got=missing
		[ "$got" = "$want" ] || bad="$bad $f"
	done
	[ -z "$bad" ] && return 0
	die "upstream's token selftest is built from the 6.12 tree unchanged, but these files differ from it:$bad
  They are upstream's test of upstream's design: a failing subtest is reported, never fixed here.
  To restore them: git -C ${tree#"$TOP/"} checkout pristine --$bad"
}

build() {
	local tree=$1 obj=$2 dest=$3 src work bpftool p
	src=$tree/$SELFTESTS
	work=$obj/upstream-token
	check "$tree"
	need_tools "upstream's token selftest" clang:clang
	[ -f "$obj/vmlinux" ] || die "no $obj/vmlinux: build the mainline kernel first (make build-mainline)"
	rm -rf "$work" "$dest/selftests"
	mkdir -p "$work" "$dest/selftests" "$obj/bpftool"

	info "mainline: building bpftool (bootstrap) from the tree's tools/bpf/bpftool"
	make -s -C "$tree/tools/bpf/bpftool" OUTPUT="$obj/bpftool/" CC="ccache gcc" \
		-j"${JOBS:-$(nproc)}" bootstrap >"$work/bpftool.log" 2>&1 ||
		{ cat "$work/bpftool.log" >&2; die "bpftool's bootstrap build failed (log above)"; }
	bpftool=$obj/bpftool/bootstrap/bpftool

	"$bpftool" btf dump file "$obj/vmlinux" format c >"$work/vmlinux.h" ||
		die "bpftool found no BTF in $obj/vmlinux: the mainline kernel needs CONFIG_DEBUG_INFO_BTF (kernel/config/mainline.config) and pahole (make deps)"

	info "mainline: building upstream's token selftest (prog_tests/token.c and $PROGS)"
	for p in $PROGS; do
		# the selftests Makefile's BPF_CFLAGS and CLANG_BPF_BUILD_RULE
		clang -g -O2 --target=bpf -mcpu=v3 -Wall -Werror -D__TARGET_ARCH_x86 \
			-Wno-compare-distinct-pointer-types -I"$work" -I"$dest/include" \
			-c "$src/progs/$p.c" -o "$work/$p.bpf.o" ||
			die "clang could not compile upstream's progs/$p.c"
		"$bpftool" gen object "$work/$p.linked.o" "$work/$p.bpf.o" &&
		"$bpftool" gen skeleton "$work/$p.linked.o" name "$p" >"$work/$p.skel.h" ||
			die "bpftool could not make the skeleton of progs/$p.c"
	done
	# the include order of the selftests Makefile: tools/include (its
	# linux/filter.h has the BPF_*_INSN macros token.c uses) before the
	# UAPI, libbpf's headers (DEST/include/bpf) last
	gcc -O2 -g -Wall -Werror -static -I"$HARNESS" -I"$work" -I"$src" \
		-I"$tree/tools/include" -I"$tree/tools/include/uapi" -I"$dest/include" \
		-o "$dest/selftests/upstream_token.new" "$HARNESS/test_progs.c" \
		"$src/prog_tests/token.c" "$src/cap_helpers.c" \
		-L"$dest/libbpf" -lbpf -lelf -lz -lzstd ||
		die "upstream's token selftest does not build against our test_progs stand-in ($HARNESS)"
	mv "$dest/selftests/upstream_token.new" "$dest/selftests/upstream_token"
}

case ${1:-} in
check) [ $# = 2 ] || die "usage: kernel/upstream-token.sh check TREE"; check "$2" ;;
build) [ $# = 4 ] || die "usage: kernel/upstream-token.sh build TREE OBJ DEST"; build "$2" "$3" "$4" ;;
*) die "usage: kernel/upstream-token.sh check TREE | build TREE OBJ DEST" ;;
esac
