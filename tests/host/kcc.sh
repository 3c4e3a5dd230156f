#!/bin/sh
# kernel/kcc, the compiler of every kernel build: a source that takes a
# file in with .incbin is compiled afresh each time, everything else
# still goes through ccache.  One assembler source, built twice with
# payloads of equal size and different bytes, in ccache's depend mode as
# the kernel builds run it (kbuild_env):
#   - through "ccache gcc" the second build is a hit that carries the
#     first payload: the hazard is real on this machine's ccache, so the
#     next check tests something (if this one fails, ccache has learnt
#     .incbin in depend mode and kernel/kcc can go);
#   - through kernel/kcc each object carries its own payload;
#   - a C file without .incbin compiled twice through kernel/kcc is a
#     ccache hit the second time.
. "$(dirname "$0")/lib.sh"
need_tools "the kcc test" ccache:ccache gcc:gcc objcopy:binutils

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
kbuild_env
export CCACHE_DIR="$scratch/ccache"

printf '\t.section .rodata..payload,"a"\n\t.incbin "payload.bin"\n' >wrap.S
# payload_after COMPILER... : build wrap.S with payload AAAA, then with
# BBBB; print what the second object carries
payload_after() {
	for bytes in AAAA BBBB; do
		printf '%s' "$bytes" >payload.bin
		rm -f wrap.o
		"$@" -Wp,-MMD,.wrap.o.d -c -o wrap.o wrap.S || return 1
	done
	objcopy -O binary --only-section=.rodata..payload wrap.o payload.out &&
		cat payload.out
}

check "ccache alone in depend mode hands back the first payload (the hazard kcc exists for)" \
	[ "$(payload_after ccache gcc)" = AAAA ]
rm -rf "$CCACHE_DIR"
check "through kernel/kcc the second object carries its own payload" \
	[ "$(payload_after sh "$TOP/kernel/kcc")" = BBBB ]

echo 'int answer(void) { return 42; }' >plain.c
ccache --zero-stats >/dev/null
for _ in 1 2; do
	rm -f plain.o
	sh "$TOP/kernel/kcc" -Wp,-MMD,.plain.o.d -c -o plain.o plain.c
done
check "a C file without .incbin is a ccache hit the second time through kernel/kcc" \
	sh -c 'ccache --print-stats | grep -qx "direct_cache_hit	1"'
done_testing
