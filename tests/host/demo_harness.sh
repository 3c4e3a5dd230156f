#!/bin/sh
# The demo binaries outside the VM: they list their cases, and refuse to
# run without knowing which step's kernel they are on.
. "$(dirname "$0")/lib.sh"

for s in $(series_steps); do
	[ -f "$TOP/userspace-demo/$s.c" ] || continue
	bin=$BUILD/demos/$s
	check "$s is built" [ -x "$bin" ]
	check "$s is static (the initramfs has no libc)" \
		sh -c "! readelf -l '$bin' | grep -q 'program interpreter'"
	want=$(grep -c 'EXPECT(' "$TOP/userspace-demo/$s.c")
	check "$s --list names its $want cases" [ "$("$bin" --list | wc -l)" = "$want" ]
	expect_fail "$s without BPFTOK_STEP" "BPFTOK_STEP is not set" env -u BPFTOK_STEP "$bin"
	expect_fail "$s with a pattern that matches nothing" "no case matches" \
		env BPFTOK_STEP=00 "$bin" "no.such.case"
done
done_testing
