#!/bin/sh
# make compat: do the steps apply to every Debian 6.1.y the archive holds,
# and where they do, does the last step answer as on the pinned base?
#
#   kernel/compat.sh [VERSION...]   default: every version that
#                                   `apt-cache madison linux-source-6.1` lists
#
# For each version:
#   - its linux-source-6.1 .deb, fetched with apt-get download into
#     build/compat/debs/ (kept; nothing is installed);
#   - its tree in build/compat/VERSION/build/linux, made by kernel/tree.sh
#     like build/linux, every step applied with git am and, where that
#     fails, with git am -3; a recorded port (kernel/ports/VERSION/STEP.patch,
#     made by make port) replaces a step's own patch;
#   - if the whole series applies: the last step built (kernel/build.sh,
#     same config; ccache hits for every file the versions share) and
#     booted with every demo, suite and the selftest, judged by that
#     step's expectations (the demos are the canonical build's binaries:
#     the UAPI they use is the series', on every base).
#
# build/report/compat.tsv, one row per version and step, for every
# version measured so far (make compat BASES=... refreshes only those):
#   version step apply patch conflicts build matrix
# apply: applies | 3-way | conflict | not-reached; patch: the file used;
# conflicts: the files git am -3 could not merge; build and matrix on the
# last step's row (build: ok | failed | -, matrix: "N pass, M fail" or
# the VM's failure).
set -eu
. "$(dirname "$0")/lib.sh"

C=$BUILD/compat
take_lock
need_tools "make compat" apt-get:apt dpkg-deb:dpkg git:git
[ -d "$LINUX/.git" ] || die "build/linux is missing; run make tree (compat borrows its objects for git am -3)"

versions=${*:-$(apt-cache madison "linux-source-6.1" | awk '{ print $3 }')}
[ -n "$versions" ] || die "apt-cache madison lists no linux-source-6.1; run 'apt-get update' (make deps does)"
last=$(series_steps | tail -1)
last_id=$(step_id "$last")
# the image its last step boots: the v6 one, or the shipped ABI's
image=initramfs.cpio.gz
[ "$(step_abi "$last")" = v6 ] || image=initramfs-shipped.cpio.gz
mkdir -p "$BUILD/report"

# in_version VERSION COMMAND...: COMMAND with BUILD and the base switched
# to that version's folder; the canonical lock is already ours.
in_version() {
	local v=$1
	shift
	env BUILD="$C/$v/build" BPFTOK_BASE="$v" KERNEL_DEB="$(source_deb "$v")" \
		BPFTOK_OBJECTS="$LINUX/.git/objects" BPFTOK_3WAY=abort \
		BPFTOK_PATCHES="$TOP/kernel/ports/$v" BPFTOK_LOCKED= "$@"
}

# run_vm VERSION: boot its last step with the canonical initramfs of
# that step's ABI (vm/run picks it).  The selftests are those that
# initramfs holds, like the demos: the series' test_token and, for the
# shipped ABI, upstream's, built once against the pinned step's BTF;
# libbpf relocates its programs against this version's kernel as it
# loads them (CO-RE), as for any distribution's binary.  vm/run runs
# the selftests the step's folder names, so the version's folder is made
# to name the canonical ones (its tree's own test_token has shown that
# it builds there; the VM would run the canonical one anyway).
run_vm() {
	local b=$C/$1/build f selftests=$OUT/step-$last_id/selftests
	for f in $image $image.list demos demos-shipped accel; do
		[ -e "$BUILD/$f" ] && ln -sfn "$BUILD/$f" "$b/$f"
	done
	if [ -d "$selftests" ]; then
		rm -rf "$b/out/step-$last_id/selftests"
		ln -s "$selftests" "$b/out/step-$last_id/selftests"
	fi
	in_version "$1" sh "$TOP/vm/run" "$last_id" >"$C/$1/vm.log" 2>&1
}

# compat_version VERSION: its rows of compat.tsv into build/compat/VERSION/rows.tsv
compat_version() {
	local v=$1 b=$C/$1/build rc=0 build=- matrix=- s
	mkdir -p "$b"
	source_deb "$v" >/dev/null
	# apply.tsv is kept: a step applied on an earlier run is not applied
	# again, and its row still says how it went in
	info "$v: applying the steps"
	in_version "$v" sh "$TOP/kernel/tree.sh" apply >"$C/$v/apply.log" 2>&1 || rc=$?
	if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
		tail -5 "$C/$v/apply.log" >&2
		die "$v: kernel/tree.sh failed (log: ${C#"$TOP/"}/$v/apply.log)"
	fi
	if [ $rc -eq 0 ]; then
		info "$v: every step applies; building step-$last_id"
		if in_version "$v" sh "$TOP/kernel/build.sh" "$last_id" >"$C/$v/build.log" 2>&1; then
			build=ok
			info "$v: booting step-$last_id with every demo, suite and the selftest"
			if [ ! -f "$BUILD/$image" ]; then
				matrix="not booted: no build/$image (make ${image%.cpio.gz})"
			elif run_vm "$v"; then
				matrix=$(awk -F'\t' '{ n[$5]++ } END { printf "%d pass, %d fail", n["pass"], n["fail"] }' \
					"$b/results/step-$last_id.tsv")
			else
				matrix="vm failed: $(grep -m1 -A1 'FAILED' "$C/$v/vm.log" | tail -1 | sed 's/^ *- //')"
			fi
		else
			build=failed
		fi
	fi
	# one row per step, in series order
	for s in $(series_steps | tail -n +2); do
		touch "$b/apply.tsv"
		awk -F'\t' -v OFS='\t' -v v="$v" -v s="$s" -v last="$last" -v b="$build" -v m="$matrix" '
			$1 == s { found = 1; print v, s, $2, $3, ($4 == "" ? "-" : $4), (s == last ? b : "-"), (s == last ? m : "-") }
			END { if (!found) print v, s, "not-reached", "-", "-", "-", "-" }' "$b/apply.tsv"
	done >"$C/$v/rows.tsv"
	info "$v: $(awk -F'\t' '$3 != "applies" && $3 != "not-reached" { printf "%s %s; ", $2, $3 }
		$7 != "-" { printf "build %s, %s", $6, $7 }' "$C/$v/rows.tsv")"
}

for v in $versions; do
	need_space 4000 "the tree and build of linux-source-6.1 $v"
	compat_version "$v"
done
# The report has every version measured so far, in the archive's order
# (newest first), so checking some versions again keeps the others' rows.
out=$BUILD/report/compat.tsv
printf 'version\tstep\tapply\tpatch\tconflicts\tbuild\tmatrix\n' >"$out.new"
for v in $(apt-cache madison linux-source-6.1 | awk '{ print $3 }') $versions; do
	[ -f "$C/$v/rows.tsv" ] && ! grep -q "^$v	" "$out.new" && cat "$C/$v/rows.tsv" >>"$out.new"
done
mv "$out.new" "$out"
info "compat: ${out#"$TOP/"}"
column -t -s "$(printf '\t')" "$out" | awk 'NR == 1 || $3 != "applies" || $6 != "-"'
