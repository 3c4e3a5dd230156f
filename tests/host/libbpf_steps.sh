#!/bin/sh
# The libbpf steps: 09's libbpf exports bpf_token_create and 12's opts
# carry token_fd, earlier ones do not; and a demo written for a later
# libbpf does not compile against an earlier one - it never silently
# builds without the token.
. "$(dirname "$0")/lib.sh"

has_step() { [ -f "$OUT/step-$1/libbpf/libbpf.a" ]; }
for id in 08 09 12; do has_step $id || { echo "step-$id is not built"; exit 1; }; done

exports() { nm "$OUT/step-$1/libbpf/libbpf.a" 2>/dev/null | grep -q " T bpf_token_create$"; }
check "step-09 libbpf.a exports bpf_token_create" exports 09
check "step-12 libbpf.a exports bpf_token_create" exports 12
check "step-08 libbpf.a does not" sh -c "! nm '$OUT/step-08/libbpf/libbpf.a' | grep -q ' T bpf_token_create$'"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cat >"$scratch/opts.c" <<'C'
#include <bpf/bpf.h>
struct bpf_map_create_opts m = { .sz = sizeof(m), .token_fd = 3 };
struct bpf_btf_load_opts b = { .sz = sizeof(b), .token_fd = 3 };
struct bpf_prog_load_opts p = { .sz = sizeof(p), .token_fd = 3 };
struct bpf_token_create_opts t = { .sz = sizeof(t) };
C
compiles() { gcc -fsyntax-only -I"$OUT/step-$1/include" "$scratch/opts.c" 2>"$scratch/err.log"; }
check "step-12 opts structs carry token_fd" compiles 12
check "step-08 opts structs do not" sh -c "! gcc -fsyntax-only -I'$OUT/step-08/include' '$scratch/opts.c' 2>/dev/null"

expect_fail "demo 10 against step-09's libbpf does not compile" "token_fd" \
	gcc -fsyntax-only -I"$OUT/step-09/include" -I"$TOP/userspace-demo/lib" \
	"$TOP/userspace-demo/10-libbpf-map-create-token.c"
done_testing
