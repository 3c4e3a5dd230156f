#!/bin/sh
# make vm: the shell VM boots, and DELEGATE mounts a BPF FS with the
# given options.  On a kernel without the names parser the names are
# translated into the masks a v6 kernel takes; from step 18 on
# (userspace-demo/lib/demo.h: DEMO_KERNEL_PARSES_NAMES) they reach the
# kernel, which shows them by name.  Expected masks, from the UAPI enums:
# BPF_MAP_CREATE 0 | BPF_PROG_LOAD 5 = 0x21; BPF_MAP_TYPE_ARRAY 2 = 0x4;
# XDP 6 | SOCKET_FILTER 1 = 0x42.
. "$(dirname "$0")/lib.sh"

last=$(step_id "$(series_steps | tail -1)")
numbers=17	# the last step whose kernel takes numbers only
[ -f "$OUT/step-$last/bzImage" ] && [ -f "$OUT/step-$numbers/bzImage" ] &&
	[ -f "$BUILD/initramfs-shipped.cpio.gz" ] ||
	{ echo "run make initramfs-shipped first"; exit 1; }

# shell_vm STEP DELEGATE: boot the shell VM and type "exit" once a second
# until it powers off (the writer dies of SIGPIPE then); at most 150 s.
# Early keystrokes may be lost while the guest boots: that is why the
# loop repeats.  A VM that never ends is reported, not silently cut.
shell_vm() {
	(while :; do echo exit; sleep 1; done) |
		DELEGATE=$2 timeout -k 5 150 sh "$TOP/vm/run" --shell "$1" 2>&1 ||
		echo "shell VM ended with status $?"
}

options="delegate_cmds=map_create:PROG_LOAD delegate_maps=array delegate_progs=xdp:socket_filter"
# shows KERNEL DELEGATE MOUNTINFO: the shell VM's /mnt/delegated line
shows() {
	out=$(shell_vm "$1" "$2")
	printf '%s\n' "$out" | grep "^shell VM ended" || true
	printf '%s\n' "$out" | grep -q "^/mnt/delegated: rw,$3"
}
check "make vm STEP=$numbers DELEGATE= translates names and mounts /mnt/delegated" \
	shows "$numbers" "$options" "delegate_cmds=0x21,delegate_maps=0x4,delegate_progs=0x42"
check "make vm STEP=$last DELEGATE= gives the kernel the names, which it shows" \
	shows "$last" "$options" "delegate_cmds=map_create:prog_load,delegate_maps=array,delegate_progs=socket_filter:xdp"
check "the shell VM powers off when the shell exits" \
	sh -c "printf '%s\n' \"\$1\" | grep -q 'reboot: Restarting system'" - "$out"

# refused KERNEL LOG: an unknown name reaches the kernel, which logs LOG
refused() {
	out=$(shell_vm "$1" "delegate_cmds=map_creat")
	printf '%s\n' "$out" | grep "^shell VM ended" || true
	printf '%s\n' "$out" | grep -q "$2"
}
check "an unknown name reaches step $numbers, which refuses it with its log line" \
	refused "$numbers" "delegate_cmds: 'map_creat' is neither 'any' nor a 64-bit number"
check "... and step $last, with its own" \
	refused "$last" "delegate_cmds: 'map_creat' is not 'any', a number or a name"
check "no QEMU left after the shell VMs" \
	[ "$(pgrep -fc "^qemu-system-x86_64 .* -kernel $OUT/step-.*/bzImage .*bpftok.mode=shell")" = 0 ]
done_testing
