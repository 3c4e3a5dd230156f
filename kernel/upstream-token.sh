#!/bin/sh
# Upstream's own BPF token selftest: tools/testing/selftests/bpf/
# prog_tests/token.c of the 6.12 tree and the four BPF programs it
# loads, built unchanged, with our stand-in for test_progs
# (userspace-demo/upstream/) into one static binary that prints KTAP,
# one line per subtest.  Built for the mainline column, and for the
# newest step, whose kernel speaks the ABI 6.12 does.
#
#   kernel/upstream-token.sh check TREE
#       fail unless every upstream file it builds is byte for byte the
#       one in TREE's pristine commit (Debian's tarball, committed as it
#       was extracted): nobody "fixes" upstream's test here
#   kernel/upstream-token.sh build TREE OBJ DEST
#       check, then build from TREE with the kernel built in OBJ (its
#       vmlinux BTF) and DEST's headers and libbpf (kernel/build.sh
#       --mainline made them) into DEST/selftests/upstream_token
#   kernel/upstream-token.sh build-step STEP
#       the same test for a step with vmlinux BTF: its BPF objects
#       compiled against that step's kernel (build/out/step-NN/
#       vmlinux.btf, which kernel/build.sh keeps), everything else as for
#       mainline, from the 6.12 tree and with its libbpf (1.5, as a
#       distribution ships it), into build/out/step-NN/selftests
#
# Everything is the tree's own: bpftool from its tools/bpf/bpftool
# (the bootstrap build, which needs neither clang nor libbfd), the BPF
# objects compiled with Debian's clang against a vmlinux.h that bpftool
# dumps from the kernel's BTF, skeletons from that bpftool,
# cap_helpers.c from the tree, libbpf from the tree.
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

# bpftool from TREE's tools/bpf/bpftool (the bootstrap build) into
# DIR/bootstrap/bpftool
build_bpftool() {
	local tree=$1 dir=$2 label=$3
	mkdir -p "$dir"
	info "$label: building bpftool (bootstrap) from the 6.12 tree's tools/bpf/bpftool"
	make -s -C "$tree/tools/bpf/bpftool" OUTPUT="$dir/" CC="ccache gcc" \
		-j"${JOBS:-$(nproc)}" bootstrap >"$dir/bootstrap.log" 2>&1 ||
		{ cat "$dir/bootstrap.log" >&2; die "bpftool's bootstrap build failed (log above)"; }
}

# compile TREE BTF WORK LIBBPF BPFTOOL OUT LABEL: the test from TREE, its
# BPF objects against the kernel whose BTF is BTF (a vmlinux, or raw BTF
# as /sys/kernel/btf/vmlinux has it), linked with LIBBPF's libbpf.a and
# headers, into OUT; WORK is emptied and used for the objects
compile() {
	local tree=$1 btf=$2 work=$3 lib=$4 bpftool=$5 out=$6 label=$7 src p
	src=$tree/$SELFTESTS
	rm -rf "$work"
	mkdir -p "$work" "$(dirname "$out")"
	"$bpftool" btf dump file "$btf" format c >"$work/vmlinux.h" ||
		die "bpftool found no BTF in $btf: the kernel needs CONFIG_DEBUG_INFO_BTF and pahole (make deps)"

	info "$label: building upstream's token selftest (prog_tests/token.c and $PROGS)"
	for p in $PROGS; do
		# the selftests Makefile's BPF_CFLAGS and CLANG_BPF_BUILD_RULE
		clang -g -O2 --target=bpf -mcpu=v3 -Wall -Werror -D__TARGET_ARCH_x86 \
			-Wno-compare-distinct-pointer-types -I"$work" -I"$lib/include" \
			-c "$src/progs/$p.c" -o "$work/$p.bpf.o" ||
			die "clang could not compile upstream's progs/$p.c against the $label kernel's BTF"
		"$bpftool" gen object "$work/$p.linked.o" "$work/$p.bpf.o" &&
		"$bpftool" gen skeleton "$work/$p.linked.o" name "$p" >"$work/$p.skel.h" ||
			die "bpftool could not make the skeleton of progs/$p.c"
	done
	# the include order of the selftests Makefile: tools/include (its
	# linux/filter.h has the BPF_*_INSN macros token.c uses) before the
	# UAPI, libbpf's headers (LIBBPF/include/bpf) last
	gcc -O2 -g -Wall -Werror -static -I"$HARNESS" -I"$work" -I"$src" \
		-I"$tree/tools/include" -I"$tree/tools/include/uapi" -I"$lib/include" \
		-o "$out.new" "$HARNESS/test_progs.c" \
		"$src/prog_tests/token.c" "$src/cap_helpers.c" \
		-L"$lib/libbpf" -lbpf -lelf -lz -lzstd ||
		die "upstream's token selftest does not build against our test_progs stand-in ($HARNESS)"
	mv "$out.new" "$out"
}

build() {
	local tree=$1 obj=$2 dest=$3
	check "$tree"
	need_tools "upstream's token selftest" clang:clang
	[ -f "$obj/vmlinux" ] || die "no $obj/vmlinux: build the mainline kernel first (make build-mainline)"
	rm -rf "$dest/selftests"
	build_bpftool "$tree" "$obj/bpftool" mainline
	compile "$tree" "$obj/vmlinux" "$obj/upstream-token" "$dest" \
		"$obj/bpftool/bootstrap/bpftool" "$dest/selftests/upstream_token" mainline
}

# For a step: the 6.12 tree, its libbpf and its bpftool come from the
# mainline build (make build-mainline), the BTF from the step's.
build_step() {
	local id dest bpftool
	id=$(step_id "$(resolve_step "$1")")
	dest=$OUT/step-$id
	bpftool=$BUILD/obj-mainline/bpftool/bootstrap/bpftool
	check "$MAINLINE_LINUX"
	need_tools "upstream's token selftest" clang:clang
	[ -f "$dest/vmlinux.btf" ] ||
		die "step-$id has no vmlinux BTF (build/out/step-$id/vmlinux.btf): upstream's selftest needs a step with CONFIG_DEBUG_INFO_BTF; make build STEP=$id"
	[ -x "$bpftool" ] && [ -f "$OUT/mainline/libbpf/libbpf.a" ] ||
		die "upstream's selftest for step-$id needs the mainline build's bpftool and libbpf: make build-mainline"
	compile "$MAINLINE_LINUX" "$dest/vmlinux.btf" "$BUILD/upstream-token-step" "$OUT/mainline" \
		"$bpftool" "$dest/selftests/upstream_token" "step-$id"
}

usage="usage: kernel/upstream-token.sh check TREE | build TREE OBJ DEST | build-step STEP"
case ${1:-} in
check) [ $# = 2 ] || die "$usage"; check "$2" ;;
build) [ $# = 4 ] || die "$usage"; build "$2" "$3" "$4" ;;
build-step) [ $# = 2 ] || die "$usage"; build_step "$2" ;;
*) die "$usage" ;;
esac
