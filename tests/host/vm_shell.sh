#!/bin/sh
# make vm: the shell VM boots, and DELEGATE mounts a BPF FS with the
# given options, names translated into the masks a v6 kernel takes.
# Expected masks, from the UAPI enums: BPF_MAP_CREATE 0 | BPF_PROG_LOAD 5
# = 0x21; BPF_MAP_TYPE_ARRAY 2 = 0x4; XDP 6 | SOCKET_FILTER 1 = 0x42.
. "$(dirname "$0")/lib.sh"

last=$(step_id "$(series_steps | tail -1)")
[ -f "$OUT/step-$last/bzImage" ] && [ -f "$BUILD/initramfs.cpio.gz" ] ||
	{ echo "run make initramfs first"; exit 1; }

# shell_vm STEP DELEGATE: boot the shell VM and type "exit" once a second
# until it powers off (the writer dies of SIGPIPE then); at most 150 s.
# Early keystrokes may be lost while the guest boots: that is why the
# loop repeats.  A VM that never ends is reported, not silently cut.
shell_vm() {
	(while :; do echo exit; sleep 1; done) |
		DELEGATE=$2 timeout -k 5 150 sh "$TOP/vm/run" --shell "$1" 2>&1 ||
		echo "shell VM ended with status $?"
}

out=$(shell_vm "$last" "delegate_cmds=map_create:PROG_LOAD delegate_maps=array delegate_progs=xdp:socket_filter")
printf '%s\n' "$out" | grep "^shell VM ended" || true
check "make vm DELEGATE= translates names and mounts /mnt/delegated" \
	sh -c "printf '%s\n' \"\$1\" | grep -q '^/mnt/delegated: rw,delegate_cmds=0x21,delegate_maps=0x4,delegate_progs=0x42'" - "$out"
check "the shell VM powers off when the shell exits" \
	sh -c "printf '%s\n' \"\$1\" | grep -q 'reboot: Restarting system'" - "$out"

out=$(shell_vm "$last" "delegate_cmds=map_creat")
printf '%s\n' "$out" | grep "^shell VM ended" || true
check "an unknown name reaches the kernel, which refuses it with its log line" \
	sh -c "printf '%s\n' \"\$1\" | grep -q \"delegate_cmds: 'map_creat' is neither 'any' nor a 64-bit number\"" - "$out"
check "no QEMU left after the shell VMs" \
	[ "$(pgrep -fc "^qemu-system-x86_64 .* -kernel $OUT/step-$last/bzImage .*bpftok.mode=shell")" = 0 ]
done_testing
