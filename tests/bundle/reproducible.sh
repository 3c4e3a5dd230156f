#!/bin/sh
# make bundle twice from the same build: the same bytes, the learners'
# tarball and the trainer's key, so a trainer can publish the sha256.
# Between the two, what a second make check of the same commit changes:
# step 00 is booted again (a new console log and results file) and every
# measured file gets a new mtime; neither may show in the bundle (its
# docs say what a result was measured with, never when).  Also what the
# tarball must hold, and its size.
. "$(dirname "$0")/../host/lib.sh"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# keep N: a copy of the bundle build/bundle/last names; sets tarball and
# sha, its sha256
keep() {
	tarball=$(cat "$BUILD/bundle/last")
	cp "$tarball" "$scratch/build$1.tar.gz"
	sha=$(sha256sum "$tarball" | cut -d" " -f1)
	key_sha=$(sha256sum "${tarball%.tar.gz}-trainer.tar.gz" | cut -d" " -f1)
}
# the first: the bundle make check built before its bundle tests (or a
# new one)
start=$(date +%s)
[ -s "$BUILD/bundle/last" ] || make -s -C "$TOP" bundle >"$scratch/build1.log" 2>&1 ||
	{ sed 's/^/    /' "$scratch/build1.log"; echo "  NOT OK: make bundle failed"; exit 1; }
keep 1
first=$sha
first_key=$key_sha
first_name=$(basename "$tarball")
# as a later check would leave them: step 00 measured again, every
# result, log and report file newer
id=$(step_id "$(series_steps | head -1)")
sh "$TOP/vm/run" "$id" >"$scratch/rerun.log" 2>&1 ||
	{ sed 's/^/    /' "$scratch/rerun.log"; echo "  NOT OK: step $id did not run again"; exit 1; }
find "$BUILD/results" "$BUILD/logs" "$BUILD/report" -type f -exec touch {} +
mid=$(date +%s)
rm -f "$BUILD/bundle/last"
make -s -C "$TOP" bundle >"$scratch/build2.log" 2>&1 ||
	{ sed 's/^/    /' "$scratch/build2.log"; echo "  NOT OK: make bundle failed (the second build)"; exit 1; }
keep 2
second=$sha
echo "  first build ($((mid - start)) s):  $first"
echo "  second build ($(($(date +%s) - mid)) s): $second"
[ "$first_name" = "$(basename "$tarball")" ] ||
	echo "  (HEAD or the working tree changed between the builds: $first_name, then $(basename "$tarball"))"
name=$(basename "$tarball" .tar.gz)
check "two builds of the bundle are byte-identical" [ "$first" = "$second" ]
check "two builds of the trainer's key are byte-identical" [ "$first_key" = "$key_sha" ]
if [ "$first" != "$second" ]; then
	# say which entries differ, so the cause can be found
	for n in 1 2; do
		tar -tvzf "$scratch/build$n.tar.gz" >"$scratch/list$n"
		mkdir "$scratch/x$n" && tar -xzf "$scratch/build$n.tar.gz" -C "$scratch/x$n"
	done
	diff "$scratch/list1" "$scratch/list2" | head -20
	diff -r "$scratch/x1" "$scratch/x2" | head -20
fi

size=$(wc -c <"$tarball")
echo "  size: $((size / 1024)) kB"
check "the bundle is under 60 MB" [ "$size" -lt $((60 * 1024 * 1024)) ]

tar -tvzf "$tarball" >"$scratch/list"
# path MODE: an entry of the tarball with that mode
has() {
	awk -v p="$name/$1" -v m="$2" '$6 == p && $1 == m { found = 1 } END { exit !found }' "$scratch/list"
}
check "bpftoken is executable" has bpftoken -rwxr-xr-x
for f in parse.awk matrix.awk steps.tsv demos.tsv selftests.tsv build-matrix.tsv VERSION SHA256SUMS \
	README-learners.md src/files.tsv initramfs.cpio.zst initramfs-shipped.cpio.zst initramfs-mainline.cpio.zst \
	kernels/mainline/bzImage steps/series docs/index.html slides/index.html; do
	check "the bundle holds $f" has "$f" -rw-r--r--
done
for s in $(series_steps); do
	id=$(step_id "$s")
	check "the bundle holds step $id's kernel and notes" \
		sh -c "grep -q ' $name/kernels/step-$id/bzImage\$' '$scratch/list' &&
			grep -q ' $name/steps/$s/NOTES.md\$' '$scratch/list'"
done
mkdir "$scratch/unpacked"
git -C "$LINUX" show step-03:kernel/bpf/token.c >"$scratch/token.c"
tar -xzf "$tarball" -C "$scratch/unpacked"
commit=$(sed -n 's/^commit \([0-9a-f]*\) .*/\1/p' "$scratch/unpacked/$name/VERSION")
epoch=$(git -C "$TOP" log -1 --format=%ct "$commit")
check "every entry is owned by 0/0 and dated at the commit" \
	sh -c "TZ=UTC tar --numeric-owner --full-time -tvzf '$tarball' |
		awk -v d=\"\$(date -u -d @$epoch '+%Y-%m-%d %H:%M:%S')\" '\$2 != \"0/0\" || \$4 \" \" \$5 != d { print; bad = 1 } END { exit bad }'"
check "SHA256SUMS lists every file and matches" \
	sh -c "cd '$scratch/unpacked/$name' && sha256sum --quiet -c SHA256SUMS &&
		[ \$(find . -type f ! -name SHA256SUMS | wc -l) = \$(wc -l <SHA256SUMS) ]"
tar -xzf "${tarball%.tar.gz}-trainer.tar.gz" -C "$scratch/unpacked"
check "the READMEs name no placeholder left unfilled" \
	sh -c "! grep -n '@[A-Z_]*@' '$scratch/unpacked/$name'/README-*.md"
# every blob src/files.tsv names is there, and a step's file reads back
# as its branch has it
check "src/ holds every file version src/files.tsv names" \
	sh -c "cd '$scratch/unpacked/$name/src' && cut -f3 files.tsv | sort -u | while read -r b; do [ -f blobs/\$b ] || { echo missing \$b; exit 1; }; done"
check "./bpftoken src 03 kernel/bpf/token.c is step 03's file" \
	sh -c "cd '$scratch/unpacked/$name' && ./bpftoken src 03 kernel/bpf/token.c | sed 's/^ *[0-9]*  //' |
		cmp -s - '$scratch/token.c'" 

done_testing
