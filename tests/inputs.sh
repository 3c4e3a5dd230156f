#!/bin/sh
# What make check's results depend on, as one hash: tests/run.sh does not
# run again a test that passed on exactly these inputs (build/check/).
#
#   tests/inputs.sh     print the hash; exit 1, saying why, when there is
#                       nothing a result could be trusted for
#
# The inputs are
#   - the committed tree of the checkout (HEAD^{tree}).  An uncommitted
#     change or an untracked file gives no hash: a test reads files, not
#     commits, and git cannot name a dirty tree cheaply and surely;
#   - every installed package and its version (a new QEMU, compiler or
#     linux-source is a new input);
#   - what was built from the tree: every kernel's stamp (the build/linux
#     commit it was built from, so a learner's commit on a step branch
#     counts, and its config fragments) and the bytes of both initramfs
#     images.  The debug kernel needs no entry of its own: it is step 13's
#     commit with config files from the tree;
#   - the cached Debian root tarballs the bundle and fresh-root tests
#     unpack;
#   - who runs it (some tests need root) and the knobs the scripts read
#     from the environment (VM_TIMEOUT, BPFTOK_ROUNDS, FUZZ_COUNT, QEMU,
#     ...), as make check VM_TIMEOUT=5 passes them on: a debug run with
#     fewer rounds is not the debug run;
#   - the day (UTC).  Everything runs at least once a day: the archive
#     moves under the tests that read it, and a run that depends on timing
#     gets a new chance to show a race.
set -eu
. "$(dirname "$0")/../kernel/lib.sh"

git -C "$TOP" rev-parse -q --verify HEAD >/dev/null 2>&1 ||
	{ echo "no commit checked out in $TOP" >&2; exit 1; }
dirty=$(git -C "$TOP" status --porcelain --untracked-files=normal)
if [ -n "$dirty" ]; then
	echo "uncommitted changes in $TOP ($(printf '%s\n' "$dirty" | wc -l) file(s)): every test runs" >&2
	exit 1
fi

{
	echo "tree $(git -C "$TOP" rev-parse 'HEAD^{tree}')"
	echo "day $(date -u +%F)"
	echo "uid $(id -u)"
	# the knobs, less those that change how, not what, is run
	env | grep -E '^(BPFTOK_|VM_|FUZZ_|FRESH_|QEMU|INITRAMFS|KERNEL_|MAINLINE_|BUSYBOX|DEPS_|NPM_DIR|MATRIX_|ANSWERS_|FIT_|SOURCE_DATE_EPOCH|DELEGATE|WORKSHOP_MD|CASES|STEP)' |
		grep -vE '^(BPFTOK_LOCKED|BPFTOK_MIN_FREE_MB|VM_SLOTS|FRESH_FORCE|FIT_VERBOSE)=' | sort
	dpkg-query -W -f '${Package} ${Version} ${Architecture}\n' | sort
	for stamp in "$OUT"/step-*/stamp "$OUT"/mainline/stamp; do
		[ -f "$stamp" ] && echo "${stamp#"$OUT/"} $(cat "$stamp")"
	done
	for image in "$BUILD"/initramfs.cpio.gz "$BUILD"/initramfs-mainline.cpio.gz; do
		[ -f "$image" ] && sha256sum "$image" | sed "s|$TOP/||"
	done
	# hundreds of MB, and only ever replaced whole: size and time suffice
	for root in "$BUILD"/debroot/*.tar; do
		[ -f "$root" ] && stat -c '%n %s %Y' "$root" | sed "s|$TOP/||"
	done
} | sha256sum | cut -d' ' -f1
