#!/bin/sh
# The libbpf steps: 09's libbpf exports bpf_token_create and 12's opts
# carry token_fd, earlier ones do not; and a demo written for a later
# libbpf does not compile against an earlier one - it never silently
# builds without the token.  The shipped ABI's demos link 6.12's.
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
# a compile that fails must fail for the reason named, not because a
# header is missing: the headers are there, and the error is the member
for id in 08 09 12; do
	check "step-$id has libbpf's installed headers" [ -f "$OUT/step-$id/include/bpf/bpf.h" ]
done
# fails_with WHAT FILE PATTERN... COMPILE-ARGS: gcc fails on FILE, every
# PATTERN (a gcc error, in the C locale's quotes) in its output
fails_with() {
	what=$1 file=$2
	shift 2
	patterns=
	while [ "$1" != -- ]; do
		patterns="$patterns$1
"
		shift
	done
	shift
	if LC_ALL=C gcc -fsyntax-only "$@" "$file" >"$scratch/err.log" 2>&1; then
		check "$what: does not compile (it does)" false
		return
	fi
	missing=$(printf '%s' "$patterns" | while IFS= read -r p; do
		grep -qF -- "$p" "$scratch/err.log" || printf ' [%s]' "$p"
	done)
	check "$what${missing:+: no$missing in: $(grep -m3 error "$scratch/err.log")}" [ -z "$missing" ]
}
check "step-12 opts structs carry token_fd" \
	env LC_ALL=C gcc -fsyntax-only -I"$OUT/step-12/include" "$scratch/opts.c"
fails_with "step-08 opts structs have no token_fd, and no bpf_token_create_opts" "$scratch/opts.c" \
	"'struct bpf_map_create_opts' has no member named 'token_fd'" \
	"'struct bpf_btf_load_opts' has no member named 'token_fd'" \
	"'struct bpf_prog_load_opts' has no member named 'token_fd'" \
	"'struct bpf_token_create_opts' has no member named 'sz'" \
	-- -I"$OUT/step-08/include"
fails_with "demo 10 against step-09's libbpf: no token_fd in bpf_map_create_opts" \
	"$TOP/userspace-demo/10-libbpf-map-create-token.c" \
	"'struct bpf_map_create_opts' has no member named 'token_fd'" \
	-- -I"$OUT/step-09/include" -I"$TOP/userspace-demo/lib"
# The shipped ABI's libbpf demos link 6.12's libbpf (1.5), whose implicit
# token says when it "failed (%d) to create BPF token from" a BPF FS; the
# v6 image's link their step's.  (Not the variable's name: the demo
# library sets LIBBPF_BPF_TOKEN_PATH for the client suite, lib/client.c.)
libbpf_of() { strings "$BUILD/$1/12-libbpf-prog-load-token" | grep -c 'to create BPF token from'; }
check "the shipped ABI's demo 12 links 6.12's libbpf" [ "$(libbpf_of demos-shipped)" -ge 1 ]
check "the v6 image's demo 12 links step 12's libbpf" [ "$(libbpf_of demos)" = 0 ]
done_testing
