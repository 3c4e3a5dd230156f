#!/bin/sh
# UAPI: every step has the token fields the series has added by then (and
# no later ones), the values and offsets of tests/uapi_layout.c hold, and
# the include/uapi and tools/include/uapi copies of linux/bpf.h change
# together (their difference stays what it was in Debian's pristine tree);
# the steps of the shipped ABI match 6.12's header member by member.
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

# The UAPI each step must have, stated here and not read from the header
# under test: FEATURE FIRST-STEP FIELD (the field's declaration in
# union bpf_attr).  A step has every feature from its first step on, and
# none before it.
features='TOKEN_CREATE 03 token_create
MAP_TOKEN_FD 04 map_token_fd
BTF_TOKEN_FD 05 btf_token_fd
PROG_TOKEN_FD 06 prog_token_fd
SHIPPED_ABI 17 btf_flags'

# step_index ID: the position of step ID in steps/series
step_index() {
	for s in $(series_steps); do step_id "$s"; done | grep -nx "$1" | cut -d: -f1
}

for s in $(series_steps); do
	id=$(step_id "$s")
	hdr=$OUT/step-$id/include
	[ -f "$hdr/linux/bpf.h" ] || { echo "step-$id is not built"; exit 1; }
	flags='' has='' lacks=''
	while read -r feature first field; do
		if [ "$(step_index "$id")" -ge "$(step_index "$first")" ]; then
			flags="$flags -DHAVE_$feature"
			has="$has $field"
		else
			lacks="$lacks $field"
		fi
	done <<EOF
$features
EOF
	for field in $has; do
		check "step-$id: union bpf_attr has $field" grep -q "[[:space:]]$field;" "$hdr/linux/bpf.h"
	done
	for field in $lacks; do
		check "step-$id: union bpf_attr has no $field yet" \
			sh -c "! grep -q '[[:space:]]$field;' '$hdr/linux/bpf.h'"
	done
	check "step-$id: layout as in the series (${flags:-no token UAPI yet})" \
		gcc -fsyntax-only -I"$hdr" -I"$TOP/userspace-demo/lib" $flags "$TOP/tests/uapi_layout.c"
	check "step-$id: both UAPI copies of linux/bpf.h changed together" \
		[ "$(base_diff "step-$id")" = "$pristine" ]
done

# The steps of the shipped ABI (steps/series) against Debian's 6.12,
# member by member (tests/uapi_probe.c): any difference in an offset, a
# size, the flag or the command number fails.
[ -f "$OUT/mainline/include/linux/bpf.h" ] || { echo "build/out/mainline is not built (make build-mainline)"; exit 1; }
probe() {
	gcc -Wall -Werror -I"$1" -o "$scratch/probe" "$TOP/tests/uapi_probe.c" && "$scratch/probe"
}
probe "$OUT/mainline/include" >"$scratch/mainline.probe"
for s in $(shipped_abi_steps); do
	id=$(step_id "$s")
	probe "$OUT/step-$id/include" >"$scratch/step.probe" 2>&1 || true
	check "step-$id: every BPF_MAP_CREATE, BPF_PROG_LOAD, BPF_BTF_LOAD and BPF_TOKEN_CREATE member, BPF_F_TOKEN_FD and the command number as in 6.12 ($(wc -l <"$scratch/mainline.probe") lines)" \
		cmp -s "$scratch/step.probe" "$scratch/mainline.probe"
	cmp -s "$scratch/step.probe" "$scratch/mainline.probe" || diff "$scratch/step.probe" "$scratch/mainline.probe" | sed 's/^/    /' | head -10
done
# The shipped image is built against the newest step's headers alone, so
# every step it boots must have those very headers.
newest=$(step_id "$(series_steps | tail -1)")
for s in $(shipped_abi_steps); do
	id=$(step_id "$s")
	check "step-$id's UAPI bpf.h is the newest step's, which its image's demos are built against" \
		cmp -s "$OUT/step-$id/include/linux/bpf.h" "$OUT/step-$newest/include/linux/bpf.h"
done
# ... and it can fail: a v6 step's header differs
probe "$OUT/step-$(step_id "$(v6_abi_steps | tail -1)")/include" >"$scratch/v6.probe" 2>&1 || true
expect_fail "the probe tells $(v6_abi_steps | tail -1)'s UAPI from 6.12's" "differ" \
	cmp "$scratch/v6.probe" "$scratch/mainline.probe"

# and the check itself can fail: a wrong value must not compile
sed 's/SAME(BPF_PROG_BIND_MAP, 35)/SAME(BPF_PROG_BIND_MAP, 34)/' "$TOP/tests/uapi_layout.c" >"$scratch/bad.c"
expect_fail "a wrong value is caught" "BPF_PROG_BIND_MAP == 34" \
	gcc -fsyntax-only -I"$OUT/step-00/include" -I"$TOP/userspace-demo/lib" "$scratch/bad.c"
done_testing
