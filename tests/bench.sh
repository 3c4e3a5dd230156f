#!/bin/sh
# make bench: what the README's timings are made of, measured here.
#
#   cold build     step 00's bzImage from nothing: a scratch object
#                  directory (build/obj-bench), ccache off
#   one-step       the same tree after a one-file change (syscall.c
#                  touched): what a step rebuild costs when only its
#                  patch's files changed, ccache still off
#   boot-to-result vm/run of one demo on step 00's kernel, the median of
#                  BENCH_BOOTS (default 5) boots
#
# Prints a table; the targets: boot-to-result <= 3 s with TCG,
# one-step rebuild <= 90 s.  BENCH_COLD=0 skips the two builds.  The
# boots use the accelerator vm/run picks (TCG here: KVM's probe fails).
# build/linux is left on the branch it was on.
set -eu
. "$(dirname "$0")/../kernel/lib.sh"

take_lock
BOOTS=${BENCH_BOOTS:-5}
first=$(series_steps | head -1)
id=$(step_id "$first")
bench_obj=$BUILD/obj-bench

now() {
	date +%s.%N
}

# seconds since $1, one decimal
since() {
	echo "$1 $(now)" | awk '{ printf "%.1f", $2 - $1 }'
}

build_bench() {
	CCACHE_DISABLE=1 KBUILD_BUILD_TIMESTAMP=1970-01-01 \
		make -s -C "$LINUX" O="$bench_obj" -j"$(nproc)" CC=gcc "$@" >"$bench_obj.log" 2>&1 ||
		{ cat "$bench_obj.log" >&2; die "bench build failed"; }
}

[ -f "$OUT/step-$id/bzImage" ] && [ -f "$BUILD/initramfs.cpio.gz" ] ||
	die "step-$id or the initramfs is not built; run make initramfs first"

cold= incr=
if [ "${BENCH_COLD:-1}" = 1 ]; then
	branch=$(git -C "$LINUX" symbolic-ref --short -q HEAD || true)
	need_space 2000 "the benchmark's scratch kernel build"
	sh "$TOP/kernel/tree.sh" checkout "$id"
	rm -rf "$bench_obj"
	mkdir -p "$bench_obj"
	[ -f "$OBJ/.config" ] || die "build/obj has no .config; run make build first"
	cp "$OBJ/.config" "$bench_obj/.config"
	build_bench olddefconfig
	info "bench: cold build of step-$id, ccache off (several minutes)"
	t0=$(now)
	build_bench bzImage
	cold=$(since "$t0")
	info "bench: one-file change (kernel/bpf/syscall.c touched), rebuild"
	touch "$LINUX/kernel/bpf/syscall.c"
	t0=$(now)
	build_bench bzImage
	incr=$(since "$t0")
	rm -rf "$bench_obj" "$bench_obj.log"
	[ -z "$branch" ] || git -C "$LINUX" checkout -q "$branch"
fi
info "bench: $BOOTS boots of step-$id to the result of 00-baseline"
times=
for _ in $(seq "$BOOTS"); do
	t0=$(now)
	sh "$TOP/vm/run" "$id" 00-baseline </dev/null >/dev/null 2>&1 ||
		die "vm/run $id 00-baseline failed; run it alone to see why"
	times="$times $(since "$t0")"
done
boot=$(printf '%s\n' $times | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')

echo
printf '%-40s %10s %8s\n' "measure" "seconds" "target"
[ -z "$cold" ] || printf '%-40s %10s %8s\n' "cold kernel build (step-$id, no ccache)" "$cold" "-"
[ -z "$incr" ] || printf '%-40s %10s %8s\n' "rebuild after a one-file change" "$incr" "90"
printf '%-40s %10s %8s\n' "boot to result, median of $BOOTS" "$boot" "3"
echo "(boots:$times; $(nproc) cores, $(cat "$BUILD/accel" 2>/dev/null || echo tcg))"
