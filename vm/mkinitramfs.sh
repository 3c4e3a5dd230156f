#!/bin/sh
# build/initramfs.cpio.gz: busybox-static, vm/init, every demo binary,
# the client suite's bpftool (build/client/), and the token selftest of
# the newest v6-ABI step that builds one.
#
#   vm/mkinitramfs.sh DEMO-BINARY...
#   vm/mkinitramfs.sh --shipped DEMO-BINARY...
#   vm/mkinitramfs.sh --mainline DEMO-BINARY...
#
# --shipped writes build/initramfs-shipped.cpio.gz, for the demos built
# against the newest step's headers (the ABI 6.9 shipped, steps/series'
# "# shipped ABI" on), with the selftest of the newest step that has one.
# --mainline writes build/initramfs-mainline.cpio.gz, for the demos
# built against upstream's final headers, with the selftests built from
# the 6.12 tree (build/out/mainline/selftests).
#
# The archive is written with the kernel tree's own usr/gen_init_cpio, which
# can create /dev/console without root (the kernel opens it for /init's
# stdio before devtmpfs is mounted).
set -eu
. "$(dirname "$0")/../kernel/lib.sh"

BUSYBOX=${BUSYBOX:-/bin/busybox}
[ -x "$BUSYBOX" ] || die "$BUSYBOX not found; run 'make deps' (installs busybox-static)"
! readelf -l "$BUSYBOX" | grep -q 'program interpreter' ||
	die "$BUSYBOX is not static; run 'make deps' (busybox-static, not busybox)"
out=$BUILD/initramfs.cpio.gz
selftests_from=v6_abi_steps
tree=$LINUX
case ${1:-} in
--mainline)
	shift
	out=$BUILD/initramfs-mainline.cpio.gz
	selftests_from=mainline
	tree=$MAINLINE_LINUX
	;;
--shipped)
	shift
	out=$BUILD/initramfs-shipped.cpio.gz
	selftests_from=shipped_abi_steps
	;;
esac
[ -d "$tree" ] || die "${tree#"$TOP/"} is missing; run 'make tree' (or 'make build-mainline')"

# gen_init_cpio from the kernel tree this initramfs is for
gen=$BUILD/tools/gen_init_cpio-$(basename "$tree")
if [ ! -x "$gen" ] || [ "$tree/usr/gen_init_cpio.c" -nt "$gen" ]; then
	mkdir -p "$BUILD/tools"
	gcc -O2 -o "$gen" "$tree/usr/gen_init_cpio.c"
fi

list=$out.list	# one per flavour: make -j builds both at once
{
	for d in /bin /dev /proc /sys /tmp /demos /selftests; do
		echo "dir $d 0755 0 0"
	done
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "file /bin/busybox $BUSYBOX 0755 0 0"
	echo "slink /bin/sh busybox 0777 0 0"
	echo "file /init $TOP/vm/init 0755 0 0"
	for demo in "$@"; do
		[ -x "$demo" ] || die "demo binary $demo is missing"
		echo "file /demos/$(basename "$demo") $demo 0755 0 0"
	done
	# the client suite's bpftool and objects (make client), where made:
	# a hand-made image of one demo (the fresh smoke's) goes without
	if [ -x "$BUILD/client/bpftool" ]; then
		echo "file /bin/bpftool $BUILD/client/bpftool 0755 0 0"
		echo "dir /lib 0755 0 0"
		echo "dir /lib/bpftok 0755 0 0"
		# one object per source (a deleted source's old object stays out)
		for src in "$TOP"/userspace-demo/client/*.bpf.c; do
			o=$(basename "$src" .c).o
			[ -f "$BUILD/client/$o" ] || die "build/client/$o is missing; run 'make client'"
			echo "file /lib/bpftok/$o $BUILD/client/$o 0644 0 0"
		done
	fi
	# the kernel tree's own selftests, from the newest step of the ABI
	# that has them (or from the mainline build)
	selftests=
	if [ "$selftests_from" = mainline ]; then
		d=$(selftest_dir mainline)
		[ -d "$d" ] && selftests=$d
	else
		for s in $($selftests_from); do
			d=$(selftest_dir "$(step_id "$s")")
			[ -d "$d" ] && selftests=$d
		done
	fi
	for t in ${selftests:+"$selftests"/*}; do
		echo "file /selftests/$(basename "$t") $t 0755 0 0"
	done
} >"$list"
# The same bytes in, the same image out, and nothing else: gen_init_cpio
# stamps the entries it makes up (directories, /dev/console, the busybox
# link) with -t's time, and a file with its own mtime, which a rebuild of
# identical bytes or a fresh checkout moves.  So every file goes in as a
# copy dated the same fixed epoch (SOURCE_DATE_EPOCH, default 0: not the
# commit's date, or any commit, a NOTES edit too, would make a new image
# and boot every VM again), and gzip from a pipe stores no name and no
# time.  An unchanged image is not rewritten, only touched: the VM runs'
# input records (vm/run) hash it and see it is the same one.
epoch=${SOURCE_DATE_EPOCH:-0}
stage=$out.stage
rm -rf "$stage"
mkdir -p "$stage"
n=0
while read -r kind dest src rest; do
	if [ "$kind" = file ]; then
		n=$((n + 1))
		cp "$src" "$stage/$n"
		touch -d "@$epoch" "$stage/$n"
		src=$stage/$n
	fi
	echo "$kind $dest $src $rest"
done <"$list" >"$stage/list"
"$gen" -t "$epoch" "$stage/list" | gzip -1 >"$out.new"
rm -rf "$stage"
if cmp -s "$out.new" "$out"; then
	# the same image: its bytes stay, and make learns it is current
	rm -f "$out.new"
	touch "$out"
else
	mv "$out.new" "$out"
fi
info "initramfs: busybox + $# demo(s) -> ${out#"$TOP/"}"
