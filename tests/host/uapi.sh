#!/bin/sh
# UAPI: the values and offsets of tests/uapi_layout.c hold on every step
# whose header has the feature, and the include/uapi and tools/include/uapi
# copies of linux/bpf.h change together (their difference stays what it
# was in Debian's pristine tree).
. "$(dirname "$0")/lib.sh"
need_tree

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
base_diff() {
	git -C "$LINUX" show "$1:include/uapi/linux/bpf.h" >"$scratch/a"
	git -C "$LINUX" show "$1:tools/include/uapi/linux/bpf.h" >"$scratch/b"
	diff "$scratch/a" "$scratch/b" | grep '^[<>]' || true
}
pristine=$(base_diff step-00)
for s in $(series_steps); do
	id=$(step_id "$s")
	hdr=$OUT/step-$id/include
	[ -f "$hdr/linux/bpf.h" ] || { echo "step-$id is not built"; exit 1; }
	flags=
	grep -q 'token_create;' "$hdr/linux/bpf.h" && flags="$flags -DHAVE_TOKEN_CREATE"
	grep -q 'map_token_fd;' "$hdr/linux/bpf.h" && flags="$flags -DHAVE_MAP_TOKEN_FD"
	grep -q 'btf_token_fd;' "$hdr/linux/bpf.h" && flags="$flags -DHAVE_BTF_TOKEN_FD"
	grep -q 'prog_token_fd;' "$hdr/linux/bpf.h" && flags="$flags -DHAVE_PROG_TOKEN_FD"
	check "step-$id: layout as in the series (${flags:-no token UAPI yet})" \
		gcc -fsyntax-only -I"$hdr" -I"$TOP/userspace-demo/lib" $flags "$TOP/tests/uapi_layout.c"
	check "step-$id: both UAPI copies of linux/bpf.h changed together" \
		[ "$(base_diff "step-$id")" = "$pristine" ]
done

# and the check itself can fail: a wrong value must not compile
sed 's/SAME(BPF_PROG_BIND_MAP, 35)/SAME(BPF_PROG_BIND_MAP, 34)/' "$TOP/tests/uapi_layout.c" >"$scratch/bad.c"
expect_fail "a wrong value is caught" "BPF_PROG_BIND_MAP == 34" \
	gcc -fsyntax-only -I"$OUT/step-00/include" -I"$TOP/userspace-demo/lib" "$scratch/bad.c"
done_testing
