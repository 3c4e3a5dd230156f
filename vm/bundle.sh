#!/bin/sh
# make bundle: the workshop's two files, in build/bundle/:
#
#   bpf-token-steps-VERSION.tar.gz          the learners' file: everything
#                                           below, without the answer key
#   bpf-token-steps-VERSION-trainer.tar.gz  the trainer's key: unpacked
#                                           beside the first, it adds
#                                           docs/instructor.html (among the
#                                           pages it links), trainer/ (each
#                                           step's NOTES.md with its answer)
#                                           and README-trainers.md
#
# The learners' file unpacks into one folder that runs every step's demos
# with nothing installed but QEMU (vm/bpftoken, POSIX sh):
#
#   bpftoken, qemu.sh, parse.awk,     the runner, and the boot library and
#   matrix.awk                        the two awk files it shares with
#                                     vm/run and vm/matrix.sh
#   kernels/step-NN/bzImage, kernels/mainline/bzImage
#   initramfs.cpio.zst, initramfs-shipped.cpio.zst,
#   initramfs-mainline.cpio.zst       build/'s, repacked with the demos
#                                     stripped of their debug information
#   steps.tsv, demos.tsv,             what bpftoken needs to know: steps
#   selftests.tsv                     and titles; demos and their case
#                                     counts (expectations are in the
#                                     demos themselves); each kernel's
#                                     token selftests
#   build-matrix.tsv                  the matrix this build measured
#   steps/, userspace-demo/           the patches, NOTES.md without its
#                                     "## Answer" (docs/learner.awk), demo
#                                     sources
#   src/                              the kernel files the series touches,
#                                     as each step leaves them, for
#                                     `./bpftoken src` (vm/srcpack.sh)
#   docs/, slides/                    make docs (not instructor.html),
#                                     make slides
#   README-learners.md, VERSION, SHA256SUMS
#
# VERSION is `git describe --always --dirty`; build/bundle/last names the
# learners' tarball last made (the key is the same name with -trainer).
# Reproducible: the same build outputs give byte-identical tarballs (sorted entries, owner 0,
# every mtime the commit's date, gzip -n), so a trainer can publish its
# sha256.  make bundle brings the matrix up to date first (vm/matrix.sh
# run: a run whose recorded inputs changed boots again), then the docs and
# the slides from it; this script packs them, and only from a matrix
# that passed.
set -eu
. "$(dirname "$0")/../kernel/lib.sh"

take_lock
command -v git >/dev/null || die "git not found; run 'make deps'"
git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1 ||
	die "$TOP is not a git checkout: the bundle's version comes from git describe"
VERSION=$(git -C "$TOP" describe --always --dirty)
COMMIT=$(git -C "$TOP" rev-parse HEAD)
EPOCH=$(git -C "$TOP" log -1 --format=%ct HEAD)
DATE=$(date -u -d "@$EPOCH" '+%Y-%m-%d %H:%M UTC')
NAME=bpf-token-steps-$VERSION
DEST=$BUILD/bundle
STAGE=$DEST/stage
ROOT=$STAGE/$NAME
TARBALL=$DEST/$NAME.tar.gz
# the trainer's key: its own staging folder, the same top folder name
KEYSTAGE=$DEST/stage-trainer
KEYROOT=$KEYSTAGE/$NAME
KEY=$DEST/$NAME-trainer.tar.gz
GEN=$BUILD/tools/gen_init_cpio-linux

# --- what must exist --------------------------------------------------------
missing=
ids=$(series_ids)
for id in $ids; do
	[ -f "$OUT/step-$id/bzImage" ] || missing="$missing build/out/step-$id/bzImage"
done
[ -f "$OUT/mainline/bzImage" ] || missing="$missing build/out/mainline/bzImage"
for f in initramfs initramfs-shipped initramfs-mainline; do
	[ -f "$BUILD/$f.cpio.gz" ] && [ -f "$BUILD/$f.cpio.gz.list" ] || missing="$missing build/$f.cpio.gz"
done
[ -x "$GEN" ] || missing="$missing ${GEN#"$TOP/"}"
[ -z "$missing" ] || die "missing:$missing
  run 'make initramfs initramfs-shipped initramfs-mainline' (or 'make bundle', which does)"

# --- the matrix, the docs and the slides, made before (make bundle) --------
MATRIX=$BUILD/report/matrix.tsv
[ -f "$MATRIX" ] || die "no build/report/matrix.tsv; run 'make bundle' (it runs the matrix first)"
bad=$(awk -F'\t' -v ids="$ids mainline" '
	BEGIN { n = split(ids, want, " ") }
	NR > 1 { seen[$3] = 1; if ($6 != "pass") fails++ }
	END {
		for (i = 1; i <= n; i++) if (!(want[i] in seen)) printf " no column %s;", want[i]
		if (fails) printf " %d failing cell(s);", fails
	}' "$MATRIX")
[ -z "$bad" ] || die "build/report/matrix.tsv:$bad run 'make matrix' and fix what fails before making a bundle"

[ -s "$BUILD/docs/index.html" ] && [ -s "$BUILD/slides/fit.txt" ] ||
	die "no site or no fitting deck in build/; run 'make bundle' (it makes them from the matrix)"

need_space 300 "the bundle (staging folder and tarball)"
rm -rf "$STAGE"
mkdir -p "$ROOT/kernels"

# --- the runner and the kernels ------------------------------------------------
cp "$TOP/vm/bpftoken" "$TOP/vm/qemu.sh" "$TOP/vm/parse.awk" "$TOP/vm/matrix.awk" "$ROOT/"
for id in $ids; do
	mkdir -p "$ROOT/kernels/step-$id"
	cp "$OUT/step-$id/bzImage" "$ROOT/kernels/step-$id/"
done
mkdir -p "$ROOT/kernels/mainline"
cp "$OUT/mainline/bzImage" "$ROOT/kernels/mainline/"

# repack LIST OUT: the initramfs LIST describes (relative paths are from
# the checkout), every ELF program stripped of its symbols and debug
# information (the demos are built with -g), every entry dated EPOCH, and
# compressed with zstd: its window of megabytes finds what the static demos share
# (libc, libelf, libbpf), which gzip's 32 kB cannot; the kernel reads it
# (CONFIG_RD_ZSTD) and decompresses it as fast as gzip.
repack() {
	files=$STAGE/initramfs-files
	rm -rf "$files"
	mkdir -p "$files"
	n=0
	while read -r kind name src rest; do
		if [ "$kind" = file ]; then
			case $src in
			/*) ;;
			*) src=$TOP/$src ;;
			esac
			[ -f "$src" ] || die "$src, listed in $1, is missing; run 'make initramfs initramfs-shipped initramfs-mainline'"
			n=$((n + 1))
			copy=$files/$n-$(basename "$name")
			# the programs; not a BPF object (ELF too, but for
			# EM_BPF, which the host's strip does not know)
			if [ -x "$src" ] && [ "$(head -c 4 "$src")" = "$(printf '\177ELF')" ]; then
				strip -o "$copy" "$src"
			else
				cp "$src" "$copy"
			fi
			touch -d "@$EPOCH" "$copy"
			echo "$kind $name $copy $rest"
		else
			echo "$kind $name $src $rest"
		fi
	done <"$1" >"$files.list"
	"$GEN" -t "$EPOCH" "$files.list" >"$files.cpio" ||
		die "gen_init_cpio failed on $files.list (from $1)"
	zstd -q -9 --no-progress -f -o "$2" "$files.cpio"
	rm -f "$files.cpio"
	rm -rf "$files" "$files.list"
}
command -v zstd >/dev/null || die "zstd not found; run 'make deps'"
for f in initramfs initramfs-shipped initramfs-mainline; do
	repack "$BUILD/$f.cpio.gz.list" "$ROOT/$f.cpio.zst"
done

# --- what bpftoken needs to know ---------------------------------------------
# steps.tsv: id, folder, title (README's table), and the flavour of the
# demos it boots: "steps" (v6's ABI) or "shipped" (steps/series)
for s in $(series_steps); do
	id=$(step_id "$s")
	title=$(awk -F'|' -v s="$s" 'index($2, "`" s "`") { t = $3; gsub(/`/, "", t); sub(/^ +/, "", t); sub(/ +$/, "", t); print t; exit }' "$TOP/README.md")
	[ -n "$title" ] || die "README.md's step table has no row for $s"
	flavour=steps
	[ "$(step_abi "$s")" = v6 ] || flavour=shipped
	printf '%s\t%s\t%s\t%s\n' "$id" "$s" "$title" "$flavour"
done >"$ROOT/steps.tsv"

# selftests.tsv: a kernel (step id or mainline) and the token selftests
# its own tree built, where vm/run finds them too (lib.sh's selftest_dir):
# the series' from step 13 on, upstream's on mainline
for s in $(series_steps) mainline; do
	id=$(step_id "$s")
	dir=$(selftest_dir "$id")
	[ -d "$dir" ] || continue
	printf '%s\t%s\n' "$id" "$(ls "$dir" | paste -sd, -)"
done >"$ROOT/selftests.tsv"

# demos.tsv: flavour, demo, case count (its --list), default or extra.
# The default run is vm/run's: every step's demo, every suite but the fuzzer.
demos_of() {
	flavour=$1 bin=$2
	{
		for s in $(series_steps); do
			[ -f "$TOP/userspace-demo/$s.c" ] && echo "$s default"
		done
		for f in "$TOP"/userspace-demo/suites/*.c; do
			suite=$(basename "$f" .c)
			if [ "$suite" = fuzz ]; then echo "$suite extra"; else echo "$suite default"; fi
		done
	} | while read -r demo when; do
		printf '%s\t%s\t%s\t%s\n' "$flavour" "$demo" "$("$bin/$demo" --list | wc -l)" "$when"
	done
}
{
	demos_of steps "$BUILD/demos"
	demos_of shipped "$BUILD/demos-shipped"
	demos_of mainline "$BUILD/demos-mainline"
} >"$ROOT/demos.tsv"
empty=$(awk -F'\t' '$3 + 0 == 0 { printf " %s/%s", $1, $2 }' "$ROOT/demos.tsv")
[ -z "$empty" ] || die "no case list from:$empty (a demo binary missing?); run 'make initramfs initramfs-shipped initramfs-mainline'"
cp "$MATRIX" "$ROOT/build-matrix.tsv"

# --- sources, docs and slides ----------------------------------------------------
# The learners get each NOTES.md as the docs show it, without its
# "## Answer" (docs/learner.awk); the whole file goes to the key.
rm -rf "$KEYSTAGE"
mkdir -p "$KEYROOT/trainer"
git -C "$TOP" ls-files -- steps userspace-demo | while IFS= read -r f; do
	[ -f "$TOP/$f" ] || continue	# deleted in the working tree
	mkdir -p "$ROOT/$(dirname "$f")"
	case $f in
	steps/*/NOTES.md)
		awk -f "$TOP/docs/learner.awk" "$TOP/$f" >"$ROOT/$f"
		mkdir -p "$KEYROOT/trainer/$(dirname "$f")"
		cp "$TOP/$f" "$KEYROOT/trainer/$f"
		;;
	*) cp "$TOP/$f" "$ROOT/$f" ;;
	esac
done
info "bundle: the kernel files the series touches, per step (vm/srcpack.sh)"
sh "$TOP/vm/srcpack.sh" "$ROOT/src" >/dev/null
mkdir -p "$ROOT/docs" "$ROOT/slides"
mkdir -p "$KEYROOT/docs"
cp "$BUILD/docs/instructor.html" "$KEYROOT/docs/"
(cd "$BUILD/docs" && find . -path ./src -prune -o -type f ! -name instructor.html -print) | while IFS= read -r f; do
	mkdir -p "$ROOT/docs/$(dirname "$f")"
	cp "$BUILD/docs/$f" "$ROOT/docs/$f"
done
# not the handout PDF (make slides prints it with Chromium, which writes
# the time into it): a bundle with it would differ on every build; nor
# the fit's report, which names this checkout's path
(cd "$BUILD/slides" && find . -type f ! -name slides.pdf ! -name fit.txt -print) | while IFS= read -r f; do
	mkdir -p "$ROOT/slides/$(dirname "$f")"
	cp "$BUILD/slides/$f" "$ROOT/slides/$f"
done

# --- the READMEs ---------------------------------------------------------------------
# fill TEMPLATE: @NAME@ and the like replaced from the environment; an
# unknown placeholder stops the bundle rather than print an empty one
fill() {
	awk '{
		out = ""
		while (match($0, /@[A-Z_]+@/)) {
			k = substr($0, RSTART + 1, RLENGTH - 2)
			if (!(k in ENVIRON)) { print "unknown placeholder @" k "@" >"/dev/stderr"; exit 1 }
			out = out substr($0, 1, RSTART - 1) ENVIRON[k]
			$0 = substr($0, RSTART + RLENGTH)
		}
		print out $0
	}' "$1"
}
# mb PATH...: the bytes of their files, in MiB with one decimal
mb() {
	find "$@" -type f -exec cat {} + | wc -c | awk '{ printf "%.1f\n", $1 / 1048576 }'
}
export NAME VERSION COMMIT DATE
NKERNELS=$(ls "$ROOT/kernels" | wc -l)
KERNELS_MB=$(mb "$ROOT/kernels")
INITRAMFS_MB=$(mb "$ROOT/initramfs.cpio.zst" "$ROOT/initramfs-shipped.cpio.zst" "$ROOT/initramfs-mainline.cpio.zst")
DOCS_MB=$(mb "$ROOT/docs" "$ROOT/slides")
SOURCES_MB=$(mb "$ROOT/steps" "$ROOT/userspace-demo")
SRC_MB=$(mb "$ROOT/src")
QEMU_RUN=$(cd "$ROOT" && BPFTOK_ACCEL='' QEMU='' sh ./bpftoken command 04 | sed -n 1p)
QEMU_VM=$(cd "$ROOT" && BPFTOK_ACCEL='' QEMU='' sh ./bpftoken command 04 | sed -n 2p)
export NKERNELS KERNELS_MB INITRAMFS_MB DOCS_MB SOURCES_MB SRC_MB QEMU_RUN QEMU_VM
fill "$TOP/vm/bundle-learners.md" >"$ROOT/README-learners.md"
fill "$TOP/vm/bundle-trainers.md" >"$KEYROOT/README-trainers.md"
printf 'bpf-token-steps %s\ncommit %s (%s)\n' "$VERSION" "$COMMIT" "$DATE" >"$ROOT/VERSION"

# --- checksums and the tarballs ------------------------------------------------------
(cd "$ROOT" && find . -type f ! -name SHA256SUMS | sed 's|^\./||' | LC_ALL=C sort |
	xargs sha256sum) >"$ROOT/SHA256SUMS"
# pack STAGE TARBALL: STAGE's $NAME folder, reproducibly
pack() {
	find "$1" -type d -exec chmod 0755 {} +
	find "$1" -type f -exec chmod 0644 {} +
	[ ! -f "$1/$NAME/bpftoken" ] || chmod 0755 "$1/$NAME/bpftoken"
	LC_ALL=C tar --sort=name --format=ustar --owner=0 --group=0 --numeric-owner \
		--mtime="@$EPOCH" -C "$1" -cf - "$NAME" | gzip -9 -n >"$2.new"
	mv "$2.new" "$2"
}
pack "$STAGE" "$TARBALL"
pack "$KEYSTAGE" "$KEY"
# the tests find the tarball just made here (HEAD may have moved since they began)
echo "$TARBALL" >"$DEST/last"
rm -rf "$STAGE" "$KEYSTAGE"
info "bundle: ${TARBALL#"$TOP/"}, $(($(wc -c <"$TARBALL") / 1024)) kB, for the learners; unpacked: kernels $KERNELS_MB MiB, initramfs $INITRAMFS_MB MiB, docs and slides $DOCS_MB MiB, kernel source $SRC_MB MiB"
info "bundle: sha256 $(sha256sum "$TARBALL" | cut -d" " -f1)"
info "bundle: ${KEY#"$TOP/"}, $(($(wc -c <"$KEY") / 1024)) kB, the trainer's key (README-trainers.md, docs/instructor.html, trainer/: the answers); keep it from the learners"
