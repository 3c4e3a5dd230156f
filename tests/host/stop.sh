#!/bin/sh
# A stop of the top make leaves nothing behind: `make matrix` (what make
# demo runs after make deps) is started in a session of its own and, once
# its first QEMU runs, sent SIGTERM, then in a second run SIGINT, to the
# make process alone (what `kill PID` or a CI timeout sends; Ctrl-C at a
# terminal reaches the whole group, and tests/host/runner.sh covers the
# runner's own traps).  Within 15 s: make has exited, no QEMU of this
# checkout runs, and no process but this check's own holds build/.lock,
# so the next make check starts.  kernel/stopguard.sh is what makes the
# SIGINT case pass: GNU make only waits for its jobs on SIGINT.
. "$(dirname "$0")/lib.sh"

id=$(step_id "$(series_steps | head -1)")
[ -f "$OUT/step-$id/bzImage" ] && [ -f "$BUILD/initramfs.cpio.gz" ] ||
	{ echo "run make initramfs first"; exit 1; }
# the interrupted matrix replaces the records of the steps it booted
# (one per core, side by side): every record is put back at the end
scratch=$(mktemp -d)
for dir in results logs; do
	[ ! -d "$BUILD/$dir" ] || cp -a "$BUILD/$dir" "$scratch/$dir"
done
restore() {
	for dir in results logs; do
		rm -rf "$BUILD/$dir"
		[ ! -d "$scratch/$dir" ] || cp -a "$scratch/$dir" "$BUILD/$dir"
	done
	rm -rf "$scratch"
}
trap restore EXIT

# QEMU processes booting one of this checkout's kernels
qemus() {
	pgrep -f "^qemu-system-x86_64 .* -kernel $OUT/" | wc -l
}

qemu_runs() {
	[ "$(qemus)" -gt 0 ]
}

# ancestors: this test's process and those above it (the check that runs
# it holds the lock, and may)
ancestors() {
	pid=$$
	while [ "$pid" -gt 1 ]; do
		echo "$pid"
		pid=$(sed -n 's/^PPid:[[:space:]]*//p' "/proc/$pid/status")
	done
}

# strangers_hold_lock: a process other than an ancestor has build/.lock open
strangers_hold_lock() {
	mine=$(ancestors)
	for fd in /proc/[0-9]*/fd/*; do
		[ "$(readlink "$fd" 2>/dev/null)" = "$BUILD/.lock" ] || continue
		pid=${fd#/proc/}
		pid=${pid%%/*}
		printf '%s\n' "$mine" | grep -qx "$pid" || { echo "held by $pid: $(tr '\0' ' ' <"/proc/$pid/cmdline")"; return 0; }
	done
	return 1
}

# wait_until SECONDS COMMAND...: the command succeeds within that time
wait_until() {
	n=$(($1 * 10))
	shift
	while [ $n -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

# stop SIGNAL: start make matrix, SIGNAL to make once QEMU runs
stop() {
	log=$scratch/make-$1.log
	# a session of its own, so the signal reaches make alone; SIGINT as a
	# terminal would deliver it (a background job starts with it ignored);
	# a top-level make, as a user types it, not a sub-make of the make
	# check that runs this test
	# (VM_REUSE=0: every run boots, none is reported from its record)
	setsid env --default-signal=INT -u MAKELEVEL -u MAKEFLAGS -u MFLAGS VM_REUSE=0 \
		make -s -C "$TOP" matrix </dev/null >"$log" 2>&1 &
	make_pid=$!
	if ! wait_until 180 qemu_runs; then
		check "make matrix got to its first QEMU (SIG$1 run)" false
		sed 's/^/    | /' "$log"
		kill -TERM "$make_pid" 2>/dev/null
		return
	fi
	kill -"$1" "$make_pid"
	check "make exits within 15 s of SIG$1 to it alone" gone_within 15 "$make_pid"
	wait "$make_pid" 2>/dev/null || true
	check "no QEMU of this checkout left after SIG$1 to make" [ "$(qemus)" = 0 ]
	check "no other process holds build/.lock after SIG$1 to make" lock_free_for_next
}

lock_free_for_next() {
	! strangers_hold_lock
}

# The guard ends with make, a make that has exited but is not yet reaped
# too: a script reading make's output through a pipe the guard shares
# (out=$(make ... 2>&1)) gets it as soon as make exits.
piped_make() {
	local pid
	# the shell reading the pipe is make's parent, as in a script
	env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS sh -c \
		'out=$(make -s -C "$1" build STEP=99 2>&1); echo "$out"' - "$TOP" >"$scratch/piped" &
	pid=$!
	if ! gone_within 10 "$pid"; then
		echo "    still waiting after 10 s"
		kill "$pid" 2>/dev/null	# make is reaped, and the guard ends
		return 1
	fi
	grep -q "valid steps" "$scratch/piped"
}

check "no QEMU of this checkout runs before the test" [ "$(qemus)" = 0 ]
stop TERM
stop INT
check "out=\$(make ... 2>&1) returns when make fails, with the guard beside it" piped_make
done_testing
