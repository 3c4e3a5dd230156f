#!/bin/sh
# What make check reuses is keyed on its exact inputs, and nothing else:
#   - a VM run (vm/run --reuse) is not booted again only while the
#     kernel, the initramfs, QEMU's version, the accelerator, the command
#     line, the deadline and the runner's and parser's bytes are those
#     recorded beside its results (build/results/LABEL.inputs); each one
#     changed on a scratch copy refuses the reuse, and says which;
#   - the initramfs's bytes follow its files' bytes, not their mtimes;
#   - a kernel build's stamp carries the toolchain's versions and the
#     bytes of kernel/kcc, the compiler wrapper;
#   - an input that cannot be read or hashed stops with an error, never
#     hashes to something.
# No VM boots: the scratch QEMU only says its version.
. "$(dirname "$0")/lib.sh"

id=$(step_id "$(series_steps | head -1)")
[ -f "$OUT/step-$id/bzImage" ] && [ -f "$BUILD/initramfs.cpio.gz" ] ||
	{ echo "run make initramfs first"; exit 1; }

# a scratch checkout: the scripts vm/run reads, one kernel, the initramfs
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
s=$scratch/top
mkdir -p "$s/build/out/step-$id" "$s/build/results"
cp -r "$TOP/vm" "$TOP/kernel" "$TOP/steps" "$TOP/userspace-demo" "$s/"
cp "$OUT/step-$id/bzImage" "$s/build/out/step-$id/"
cp "$BUILD/initramfs.cpio.gz" "$BUILD/initramfs.cpio.gz.list" "$s/build/"
ln -s "$BUILD/demos" "$s/build/demos"	# read only: the case counts
# A QEMU that says a version (QEMU_FAKE_VERSION's) and fails any boot at
# once, so a refused reuse shows as a failed boot, not as minutes of TCG
cat >"$scratch/qemu" <<'EOF'
#!/bin/sh
[ "$1" = --version ] || { echo "fake QEMU: no boot here" >&2; exit 1; }
printf '%s' "${QEMU_FAKE_VERSION-QEMU emulator version 7.2 (scratch)}"
[ -z "${QEMU_FAKE_VERSION-x}" ] || echo
EOF
chmod +x "$scratch/qemu"

# vmrun [VAR=VALUE...] ARGS...: the scratch checkout's vm/run, under TCG
# unless ACCEL says otherwise
vmrun() {
	env -u INITRAMFS TOP="$s" BUILD="$s/build" QEMU="$scratch/qemu" \
		BPFTOK_ACCEL="${ACCEL:-tcg}" VM_TIMEOUT="${TIMEOUT:-180}" \
		sh -c 'while [ "${1#*=}" != "$1" ]; do export "$1"; shift; done; exec sh "$0" "$@"' \
		"$s/vm/run" "$@"
}

record=$scratch/record
vmrun --inputs "$id" >"$record" 2>"$scratch/err" || { cat "$scratch/err"; exit 1; }
for input in kernel initramfs qemu accel memory timeout cmdline counts "script vm/run" \
	"script vm/qemu.sh" "script vm/parse.awk"; do
	check "the record names the input '$input'" grep -q "^$input " "$record"
done
check "the kernel's entry is its sha256" \
	grep -qx "kernel $(sha256sum <"$OUT/step-$id/bzImage" | cut -d' ' -f1)" "$record"

# plant: a passing run's results and the record of its inputs
plant() {
	echo "planted" >"$s/build/results/step-$id.tsv"
	cp "$record" "$s/build/results/step-$id.inputs"
}

plant
out=$(vmrun --reuse "$id" 2>&1) || true
check "unchanged inputs: the run is reused, no boot" \
	sh -c 'printf "%s\n" "$1" | grep -q "not booted"' - "$out"

# refused WHAT WORD CHANGE UNDO: with CHANGE made, --reuse boots again
# (the scratch QEMU fails it) naming WORD as changed; the stale record
# and results are gone; UNDO puts the input back
refused() {
	plant
	eval "$3"
	expect_fail "a changed $1 refuses the reuse" "changed since the last pass: .*$2" \
		vmrun --reuse "$id"
	eval "$4"
	check "after a refused reuse ($1), no record is left to trust" \
		[ ! -f "$s/build/results/step-$id.inputs" ]
	check "... and no results" [ ! -f "$s/build/results/step-$id.tsv" ]
}
k=$s/build/out/step-$id/bzImage
i=$s/build/initramfs.cpio.gz
refused kernel kernel "cp '$k' '$scratch/k'; printf x >>'$k'" "mv '$scratch/k' '$k'"
refused initramfs initramfs "cp '$i' '$scratch/i'; printf x >>'$i'" "mv '$scratch/i' '$i'"
refused "QEMU version" qemu "QEMU_FAKE_VERSION='QEMU emulator version 9.0'; export QEMU_FAKE_VERSION" \
	"unset QEMU_FAKE_VERSION"
refused accelerator accel "ACCEL=kvm" "ACCEL=tcg"
refused deadline timeout "TIMEOUT=60" "TIMEOUT=180"
for script in vm/run vm/qemu.sh vm/parse.awk; do
	refused "$script" "$script" "cp '$s/$script' '$scratch/script'; echo '# changed' >>'$s/$script'" \
		"mv '$scratch/script' '$s/$script'"
done
plant
out=$(vmrun --reuse "$id" 2>&1) || true
check "every input put back: reused again" sh -c 'printf "%s\n" "$1" | grep -q "not booted"' - "$out"

# an input that cannot be read stops the run, loudly
mv "$s/vm/parse.awk" "$scratch/parse.awk"
expect_fail "a runner script that cannot be hashed stops vm/run" "cannot hash .*parse.awk" vmrun --inputs "$id"
mv "$scratch/parse.awk" "$s/vm/parse.awk"
expect_fail "a QEMU that prints no version stops vm/run" "printed nothing" \
	vmrun QEMU_FAKE_VERSION= --inputs "$id"

# The initramfs is an input of every VM run: its bytes must follow the
# bytes of what it holds, not their mtimes or the commit (a NOTES edit
# would otherwise boot every VM again).  A demo rebuilt to the same bytes
# (here: touched) leaves the image as it was.
image=$BUILD/initramfs.cpio.gz
before=$(sha256sum <"$image")
demo=$(ls "$BUILD/demos" | grep -v '^obj$' | head -1)
touch "$BUILD/demos/$demo" "$TOP/vm/init"
env -u SOURCE_DATE_EPOCH make -s -C "$TOP" initramfs >"$scratch/initramfs.log" 2>&1 ||
	{ cat "$scratch/initramfs.log"; exit 1; }
check "new mtimes on $demo and vm/init leave the initramfs's bytes alone" \
	[ "$(sha256sum <"$image")" = "$before" ]

# the kernel build's stamp: the toolchain, and loud failures
mkdir "$scratch/bin"
printf '#!/bin/sh\necho 99.1.0\n' >"$scratch/bin/gcc"
chmod +x "$scratch/bin/gcc"
real=$(toolchain_id)
fake=$(PATH="$scratch/bin:$PATH" toolchain_id)
check "toolchain_id names gcc's version ($real)" sh -c 'printf "%s\n" "$1" | grep -q "^gcc [0-9]"' - "$real"
check "another gcc is another toolchain_id, so another build stamp" [ "$real" != "$fake" ]
mkdir -p "$scratch/kcc-top/kernel"
{ cat "$TOP/kernel/kcc"; echo "# changed"; } >"$scratch/kcc-top/kernel/kcc"
check "another kernel/kcc is another toolchain_id, so another build stamp" \
	[ "$real" != "$(TOP=$scratch/kcc-top toolchain_id)" ]
printf '#!/bin/sh\nexit 0\n' >"$scratch/bin/gcc"
expect_fail "a gcc that says no version stops the build" "gcc cannot say its version" \
	env PATH="$scratch/bin:$PATH" sh -c ". '$TOP/kernel/lib.sh'; toolchain_id"
check "kernel/build.sh puts the toolchain in the stamp" \
	grep -q 'want=.*\$toolchain' "$TOP/kernel/build.sh"
expect_fail "file_hash of a missing file stops its caller" "cannot hash" \
	sh -c ". '$TOP/kernel/lib.sh'; file_hash '$scratch/none'"
done_testing
