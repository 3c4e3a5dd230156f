#!/bin/sh
# The real client the VM images carry: 6.12's bpftool, built from the
# 6.12 tree's tools/bpf/bpftool with that tree's libbpf (1.5) as a
# distribution builds it, unchanged, static, and the BPF objects the
# client suite loads with it (userspace-demo/client/*.bpf.c).
#
#   kernel/client.sh      -> build/client/bpftool, build/client/*.bpf.o
#
# bpftool is built without its optional parts: no skeletons (they need
# a vmlinux BTF of the build machine), no LLVM or libbfd disassembler,
# no libcap; what the suite runs (prog load, map create) needs none.  The
# link names zstd, which Debian's static libelf needs.
set -eu
. "$(dirname "$0")/lib.sh"

take_lock
need_tools "6.12's bpftool and the client's BPF object" clang:clang
sh "$TOP/kernel/tree.sh" mainline
dir=$BUILD/client
obj=$dir/obj
mkdir -p "$obj"
rm -f "$dir/bpftool" "$dir"/*.bpf.o

info "client: building bpftool (static) from the 6.12 tree's tools/bpf/bpftool"
make -s -C "$MAINLINE_LINUX/tools/bpf/bpftool" OUTPUT="$obj/" CC="ccache gcc" \
	-j"${JOBS:-$(nproc)}" VMLINUX_BTF= feature-llvm=0 feature-libbfd=0 \
	feature-libbfd-liberty=0 feature-libbfd-liberty-z=0 feature-libcap=0 \
	EXTRA_LDFLAGS=-static LIBS="$obj/libbpf/libbpf.a -lelf -lz -lzstd" \
	>"$dir/build.log" 2>&1 ||
	{ cat "$dir/build.log" >&2; die "bpftool's build from the 6.12 tree failed (log above)"; }
strip -o "$dir/bpftool.new" "$obj/bpftool"
mv "$dir/bpftool.new" "$dir/bpftool"

# their UAPI and libbpf's headers: those of the same tree
for src in "$TOP"/userspace-demo/client/*.bpf.c; do
	o=$dir/$(basename "$src" .c).o
	clang -g -O2 --target=bpf -Wall -Werror -I"$MAINLINE_LINUX/tools/include/uapi" \
		-I"$obj/libbpf/include" -c "$src" -o "$o.new" ||
		die "clang could not compile ${src#"$TOP/"}"
	mv "$o.new" "$o"
done
