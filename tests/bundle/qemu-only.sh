#!/bin/sh
# The bundle where a learner has it: a minimal Debian 12 root with only
# qemu-system-x86 added (no compiler, make or git), unpacked and run by
# an unprivileged user.  `./bpftoken run 04` must show step 04's cases,
# `./bpftoken vm` must boot a shell with DELEGATE's BPF FS, and
# `./bpftoken matrix` must match build/report/matrix.tsv cell by cell.
# `./bpftoken check` must pass, and fail with the fix named when QEMU is
# missing or the boot runs out of time.
#
# bpftoken is POSIX sh for laptops that are not Debian: `run 04` and
# `matrix` (of one step per image) run again under busybox's ash with a
# PATH of busybox applets only (a non-GNU userland: awk, sed, date, ...
# are busybox's), and
# `run 04` under busybox ash with Debian's tools.  busybox-static is in
# the root for that alone; the runner never needs it.
#
# And every command of every step's "Try it" and "Exercise" from the
# bundle (the bpftoken blocks of steps/*/NOTES.md, tests/bundle/walk.awk)
# runs there as typed (tests/bundle/walk.sh), in two halves, each in an
# unpacked copy of its own, beside the runs above: a learner with the
# bundle can do every exercise.
. "$(dirname "$0")/../host/lib.sh"
. "$TOP/tests/debroot.sh"

if [ "$(id -u)" != 0 ]; then
	skip_test "a Debian root needs root (mmdebstrap, chroot)"
fi
# the bundle tests/bundle/reproducible.sh made (or a new one)
[ -s "$BUILD/bundle/last" ] || make -s -C "$TOP" bundle >/dev/null || { echo "  NOT OK: make bundle failed"; exit 1; }
tarball=$(cat "$BUILD/bundle/last")
name=$(basename "$tarball" .tar.gz)
[ -f "$BUILD/report/matrix.tsv" ] || { echo "no build/report/matrix.tsv: run make matrix first"; exit 1; }

root=$BUILD/debroot/qemu-only.root
trap 'rm -rf "$root"' EXIT
# shellcheck disable=SC2086 # a name and package names
debroot_unpack "$(debroot_tarball $DEBROOT_QEMU_ONLY)" "$root"
mkdir -p "$root/home/learner"
cp "$tarball" "$root/home/learner/"
out=$root/home/learner/out
mkdir -p "$out"
awk -f "$TOP/tests/bundle/walk.awk" "$TOP"/steps/*/NOTES.md >"$out/walk.plan"
cp "$TOP/tests/bundle/walk.sh" "$root/home/learner/"

# The busybox-only matrix runs one step of each image and mainline: the
# runner's code paths are the same for every step of an image, and the
# full matrix, cell by cell, is the run under Debian's tools below.
bb_steps="$(step_id "$(series_steps | head -1)") $(step_id "$(v6_abi_steps | tail -1)") $(step_id "$(series_steps | tail -1)") mainline"

# the walk's two halves: the first half of the steps, and the rest
steps=$(series_steps)
first_half=$(($(printf '%s\n' "$steps" | wc -l) / 2))
walk_a=$(printf '%s\n' "$steps" | head -n "$first_half" | tr '\n' ' ')
walk_b=$(printf '%s\n' "$steps" | tail -n +$((first_half + 1)) | tr '\n' ' ')

# As nobody, from the tarball, what the learners' README says to type.
# setpriv is the test's, not the runner's: it only drops root.
start=$(date +%s)
debroot_run "$root" "
	for tool in gcc cc make git; do
		if command -v \$tool; then echo \"\$tool is installed: not a qemu-only root\"; exit 1; fi
	done
	chown -R nobody:nogroup /home/learner
	cd /home/learner
	as_learner() { setpriv --reuid=nobody --regid=nogroup --clear-groups \"\$@\"; }
	as_learner tar -xzf $name.tar.gz
	# The walk boots one VM at a time, so it runs beside the rest, in
	# two halves of the steps, each in a copy of its own (its own
	# results and logs, as another learner's: a step's notes may boot
	# another step's kernel)
	walk_start=\$(date +%s)
	for half in a b; do
		as_learner mkdir -p walk/\$half
		as_learner tar -xzf $name.tar.gz -C walk/\$half
	done
	sh walk.sh /home/learner/out/walk.plan /home/learner/walk/a/$name /home/learner/out/walk $walk_a &
	walk_a_pid=\$!
	sh walk.sh /home/learner/out/walk.plan /home/learner/walk/b/$name /home/learner/out/walk $walk_b &
	walk_b_pid=\$!
	cd $name
	as_learner ./bpftoken list >../out/list 2>&1; echo \$? >../out/list.rc
	as_learner ./bpftoken run 04 >../out/run04 2>&1; echo \$? >../out/run04.rc
	as_learner ./bpftoken check >../out/check 2>&1; echo \$? >../out/check.rc
	as_learner env QEMU=/nonexistent/qemu-system-x86_64 ./bpftoken check >../out/check-noqemu 2>&1
	echo \$? >../out/check-noqemu.rc
	as_learner env VM_TIMEOUT=1 ./bpftoken check >../out/check-timeout 2>&1; echo \$? >../out/check-timeout.rc
	as_learner ./bpftoken src 02 kernel/bpf/inode.c:bpf_parse_param >../out/src 2>&1; echo \$? >../out/src.rc
	# busybox: its ash with Debian's tools, then with nothing but its applets
	mkdir -p /opt/busybox && busybox --install -s /opt/busybox
	as_learner busybox sh ./bpftoken run 04 >../out/ash-run04 2>&1; echo \$? >../out/ash-run04.rc
	as_learner env PATH=/opt/busybox QEMU=/usr/bin/qemu-system-x86_64 busybox sh ./bpftoken run 04 \
		>../out/bb-run04 2>&1; echo \$? >../out/bb-run04.rc
	as_learner env PATH=/opt/busybox QEMU=/usr/bin/qemu-system-x86_64 BPFTOK_RESULTS=\$PWD/results-bb \
		busybox sh ./bpftoken matrix $bb_steps >../out/bb-matrix 2>&1; echo \$? >../out/bb-matrix.rc
	(while :; do echo exit; sleep 1; done) |
		as_learner timeout -k 5 150 ./bpftoken vm 13 \
			DELEGATE='delegate_cmds=map_create:prog_load delegate_maps=array' >../out/vm 2>&1
	echo \$? >../out/vm.rc
	s=\$(date +%s)
	as_learner ./bpftoken matrix >../out/matrix 2>&1; echo \$? >../out/matrix.rc
	echo \$((\$(date +%s) - s)) >../out/matrix.seconds
	wait \$walk_a_pid \$walk_b_pid
	echo \$((\$(date +%s) - walk_start)) >../out/walk.seconds
" </dev/null >"$out/debroot.log" 2>&1 || { sed 's/^/    /' "$out/debroot.log"; echo "  NOT OK: the root's script failed"; exit 1; }
echo "  ./bpftoken matrix in the qemu-only root: $(cat "$out/matrix.seconds") s ($(($(date +%s) - start)) s with unpacking and the other runs)"

# shown: the command's output when it did not do what was expected
shown() {
	if ! "$@"; then
		sed 's/^/    | /' "$out/$file" | tail -40
		return 1
	fi
}
file=list
check "./bpftoken list names every step" shown sh -c "[ \$(cat '$out/list.rc') = 0 ] &&
	[ \$(grep -c '^  [0-9][0-9][a-z]\{0,1\} ' '$out/list') = $(series_steps | wc -l) ]"
file=run04
check "./bpftoken run 04 runs step 04's cases as expected" shown sh -c "[ \$(cat '$out/run04.rc') = 0 ] &&
	grep -q '^ok [0-9]* map.token_and_cap # got=ok want=ok\$' '$out/run04' &&
	grep -q '^==> step-04: [0-9]* case(s) as expected' '$out/run04'"
file=check
check "./bpftoken check passes: OK, the accelerator, the boot time" shown sh -c "[ \$(cat '$out/check.rc') = 0 ] &&
	grep -q '^OK: step 00 booted and ran its [1-9][0-9]* case(s) as expected\$' '$out/check' &&
	grep -q '^accelerator: tcg (this QEMU offers: .*tcg' '$out/check' &&
	grep -q '^boot to result: [0-9]* s\$' '$out/check'"
file="check-noqemu"
check "./bpftoken check without QEMU fails and says how to install it" shown sh -c "[ \$(cat '$out/check-noqemu.rc') = 1 ] &&
	grep -q 'qemu-system-x86_64 not found: install QEMU (Debian/Ubuntu, also inside WSL2: sudo apt install qemu-system-x86' '$out/check-noqemu'"
file="check-timeout"
check "./bpftoken check on a boot past its time fails and names the fix" shown sh -c "[ \$(cat '$out/check-timeout.rc') = 1 ] &&
	grep -q '^NOT OK: the boot did not end within 1 s under tcg' '$out/check-timeout' &&
	grep -q 'VM_TIMEOUT=600 ./bpftoken check' '$out/check-timeout'"
file=src
check "./bpftoken src 02 kernel/bpf/inode.c:bpf_parse_param prints the function, numbered" shown sh -c "[ \$(cat '$out/src.rc') = 0 ] &&
	grep -q '^ *[0-9][0-9]*  static int bpf_parse_param(struct fs_context \*fc, struct fs_parameter \*param)\$' '$out/src' &&
	grep -q '^ *[0-9][0-9]*  }\$' '$out/src'"
for sh in ash bb; do
	file="$sh-run04"
	check "./bpftoken run 04 under busybox ash ($([ $sh = bb ] && echo 'busybox applets only' || echo "Debian's tools"))" \
		shown sh -c "[ \$(cat '$out/$sh-run04.rc') = 0 ] &&
		grep -q '^ok [0-9]* map.token_and_cap # got=ok want=ok\$' '$out/$sh-run04' &&
		grep -q '^==> step-04: [0-9]* case(s) as expected' '$out/$sh-run04'"
done
file="bb-matrix"
check "./bpftoken matrix under busybox ash with busybox applets only exits 0" shown [ "$(cat "$out/bb-matrix.rc")" = 0 ]
file=vm
check "./bpftoken vm 13 DELEGATE= boots a shell with a delegating BPF FS" shown sh -c "
	grep -q '^/mnt/delegated: rw,delegate_cmds=0x21,delegate_maps=0x4' '$out/vm' &&
	grep -q 'reboot: Restarting system' '$out/vm'"
file=matrix
check "./bpftoken matrix exits 0" shown [ "$(cat "$out/matrix.rc")" = 0 ]
theirs=$root/home/learner/$name/results/matrix.tsv
check "./bpftoken matrix wrote results/matrix.tsv" [ -f "$theirs" ]

# Cell by cell: every (demo, case, step) of the build's matrix (of the
# steps STEPS names, if given) must be in the bundle's with the same
# expected, measured and verdict, and no more.
compare_cells() {
	[ -f "$2" ] || { echo "  NOT OK: $1: no $2"; fails=$((fails + 1)); return 0; }
	check "$1" awk -F'\t' -v steps="${3:-}" '
		BEGIN { n_only = split(steps, s, " "); for (i = 1; i <= n_only; i++) only[s[i]] = 1 }
		FNR == 1 { if (NR == 1) head = $0; else if ($0 != head) { print "header: " $0; bad = 1 }; next }
		NR == FNR { if (!n_only || ($3 in only)) want[$1 FS $2 FS $3] = $4 FS $5 FS $6; next }
		{
			k = $1 FS $2 FS $3
			if (!(k in want)) { print "only in the bundle run: " $0; bad = 1 }
			else if (want[k] != $4 FS $5 FS $6) { print "differs: " k ": build " want[k] ", bundle " $4 FS $5 FS $6; bad = 1 }
			delete want[k]
			n++
		}
		END {
			for (k in want) { print "missing in the bundle run: " k; bad = 1 }
			print "  " n + 0 " cells compared"
			exit bad
		}' "$BUILD/report/matrix.tsv" "$2"
}
compare_cells "the qemu-only matrix matches build/report/matrix.tsv cell by cell" "$theirs"
bb=$root/home/learner/$name/results-bb/matrix.tsv
compare_cells "the busybox-only matrix ($bb_steps) matches build/report/matrix.tsv cell by cell" "$bb" "$bb_steps"

# The walk: per step and section, every command from the bundle worked.
echo "  the Try it and Exercise commands from the bundle (beside the runs above): $(cat "$out/walk.seconds") s"
# walk_problems STEP SECTION: what failed among that section's commands
# (a run that did not exit 0, a VM that did not power off after exit, a
# command the VM has not got)
walk_problems() {
	bad=0 n=0
	while IFS=$tab read -r step sec kind text; do
		n=$((n + 1))
		[ "$step" = "$1" ] && [ "$sec" = "$2" ] || continue
		case $kind in
		bad)
			echo "    $text"
			bad=1
			;;
		run | vm)
			rc=$(cat "$out/walk/$n.rc" 2>/dev/null || echo "not run")
			want=0
			[ "$kind" = run ] || want=ok
			if [ "$rc" != "$want" ]; then
				echo "    $text: $rc"
				tr -d '\r' <"$out/walk/$n.out" | tail -15 | sed 's/^/    | /'
				bad=1
			fi
			if [ "$kind" = vm ] && tr -d '\r' <"$out/walk/$n.out" | grep ': not found' | sed 's/^/    not in the VM: /' | grep .; then
				bad=1
			fi
			;;
		esac
	done <"$out/walk.plan"
	[ "$bad" = 0 ]
}
tab=$(printf '\t')
for s in $(series_steps); do
	for sec in "Try it" Exercise; do
		n=$(awk -F'\t' -v s="$s" -v c="$sec" '$1 == s && $2 == c && $3 != "bad"' "$out/walk.plan" | wc -l)
		check "$s, $sec: its $n command(s) work from the bundle" walk_problems "$s" "$sec"
	done
done
done_testing
