# vm/qemu.sh: a batch boot of a step's kernel in QEMU, from the launch to
# the verdict, and boots side by side (vm_schedule, at the end).  POSIX
# sh, sourced by both runners:
#   vm/run            in the repository (make run, make check, make demo)
#   ./bpftoken        in the workshop bundle, which ships this file beside
#                     it; so it needs only QEMU and the tools of any Unix
#                     (sh, awk, sed, tr, date, sleep, df, wc, and getconf
#                     or nproc for the core count)
#
# The caller sets, before sourcing:
#   VM_LIB        the folder holding this file and parse.awk
# and, before booting:
#   VM_KERNEL     the bzImage
#   VM_INITRAMFS  the initramfs image
#   VM_MEMORY     MB of guest memory (default 512; the debug kernel: more)
#   VM_TIMEOUT    seconds a batch boot may take before it is stopped (no
#                 default here: each runner has its own, the debug run's
#                 is longer)
#   QEMU          the emulator (default qemu-system-x86_64)

QEMU=${QEMU:-qemu-system-x86_64}
VM_MEMORY=${VM_MEMORY:-512}
# every boot: qemu_flags, -accel, -kernel, -initrd, -append; then
# BATCH_FLAGS and -serial file:LOG for a run, SHELL_FLAGS for a shell
BATCH_FLAGS="-display none -monitor none"
SHELL_FLAGS="-nographic -serial mon:stdio"

qemu_flags() {
	echo "-m $VM_MEMORY -smp 1 -nodefaults -no-user-config -no-reboot"
}

# vm_cmdline ID: the kernel command line every boot starts with.
# tsc=unstable: under TCG the TSC drifts, and the clocksource watchdog
# would print a warning in the middle of the demo output.
vm_cmdline() {
	echo "console=ttyS0 panic=-1 loglevel=5 tsc=unstable bpftok.step=$1"
}

# One QEMU at a time per runner, always started in the runner's own shell
# (never in a $(...) subshell, whose QEMU the traps below cannot see).
qemu_pid=
stop_qemu() {
	if [ -n "$qemu_pid" ]; then
		kill -TERM "$qemu_pid" 2>/dev/null || true
		_n=0
		while kill -0 "$qemu_pid" 2>/dev/null && [ $_n -lt 20 ]; do
			sleep 0.1 2>/dev/null || sleep 1
			_n=$((_n + 1))
		done
		kill -KILL "$qemu_pid" 2>/dev/null || true
		wait "$qemu_pid" 2>/dev/null || true
	fi
	qemu_pid=
}
# A stop of the runner (Ctrl-C, kill PID, a closed terminal) stops its
# QEMU and its VM jobs (vm_schedule) first, and exits with the shell's
# usual 128 + signal.
vm_stop() {
	vm_stop_jobs
	stop_qemu
}
trap vm_stop EXIT
trap 'vm_stop; trap - EXIT; exit 130' INT
trap 'vm_stop; trap - EXIT; exit 143' TERM
trap 'vm_stop; trap - EXIT; exit 129' HUP

# qemu_batch ACCEL LOG TIMEOUT CMDLINE: boot in the background with the
# serial console into LOG (QEMU's own messages into LOG.qemu), stopped
# once TIMEOUT seconds have passed.  Sets rc: 124 on timeout, else QEMU's
# status.
qemu_batch() {
	# QEMU reads a comma in a chardev path as an option separator
	_serial=$(printf '%s' "$2" | sed 's/,/,,/g')
	# where util-linux's setpriv is there (busybox's has no --pdeathsig),
	# QEMU dies with the runner even when the runner is killed with
	# SIGKILL and its traps cannot run
	_guard=
	setpriv --pdeathsig KILL -- true >/dev/null 2>&1 && _guard="setpriv --pdeathsig KILL --"
	# shellcheck disable=SC2046,SC2086 # the flags are words
	$_guard "$QEMU" -accel "$1" $(qemu_flags) -kernel "$VM_KERNEL" -initrd "$VM_INITRAMFS" \
		$BATCH_FLAGS -serial "file:$_serial" -append "$4" \
		</dev/null >"$2.qemu" 2>&1 &
	qemu_pid=$!
	# date +%s counts whole seconds: started at 12.9 s, a deadline of
	# 12 + TIMEOUT would stop QEMU after TIMEOUT - 0.9 s, and a 1 s
	# timeout at once.  One second more gives QEMU at least TIMEOUT.
	_deadline=$(($(date +%s) + $3 + 1))
	rc=0
	while kill -0 "$qemu_pid" 2>/dev/null; do
		if [ "$(date +%s)" -ge "$_deadline" ]; then
			stop_qemu
			rc=124
			return 0
		fi
		sleep 0.1 2>/dev/null || sleep 1
	done
	wait "$qemu_pid" || rc=$?
	qemu_pid=
}

# qemu_shell ACCEL CMDLINE: the interactive VM on this terminal
qemu_shell() {
	# shellcheck disable=SC2046,SC2086 # the flags are words
	"$QEMU" -accel "$1" $(qemu_flags) -kernel "$VM_KERNEL" -initrd "$VM_INITRAMFS" \
		$SHELL_FLAGS -append "$2"
}

# choose_accel FILE: sets accel.  BPFTOK_ACCEL wins; else the answer kept
# in FILE; else KVM only when a 15 s probe boot under it reaches /init
# (nested KVM can hang), and the answer is kept in FILE.
choose_accel() {
	if [ -n "${BPFTOK_ACCEL:-}" ]; then
		accel=$BPFTOK_ACCEL
		return
	fi
	if [ -s "$1" ]; then
		accel=$(cat "$1")
		return
	fi
	accel=tcg
	if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		printf '==> probing KVM with a 15 s test boot (once; the answer is kept in %s)\n' "$1" >&2
		qemu_batch kvm "$1.probe.console" 15 "$(vm_cmdline probe) bpftok.mode=probe"
		[ $rc = 0 ] && grep -q BPFTOK-PROBE-OK "$1.probe.console" && accel=kvm
	fi
	echo "$accel" >"$1"
}

# vm_problem TEXT: one more reason the run cannot be trusted
vm_problem() {
	problems="$problems
  - $*"
}

# vm_batch LOG RESULTS CMDLINE SPECS SELFTESTS COUNTS: one boot under
# $accel and its verdict.  The console goes to LOG (CR LF made LF);
# vm/parse.awk alone reads it, with QEMU's status, the deadline and the
# free space, and writes its KTAP to LOG.ktap.  SPECS are the demo
# specs run, SELFTESTS the kernel tree's selftests, COUNTS "demo=N ..."
# (a demo run whole must report N cases).
#
# Sets rc (QEMU's), took (seconds), passed, failed (counts), problems
# (one "  - " line each, empty when the run can be trusted) and wrong
# (the cases that did not return what they should).  A run the VM got
# through keeps its results in RESULTS, wrong answers included, so a
# matrix can show them; any other problem leaves no RESULTS.
vm_batch() {
	rm -f "$1" "$1.qemu" "$2"
	_start=$(date +%s)
	qemu_batch "$accel" "$1.raw" "$VM_TIMEOUT" "$3"
	took=$(($(date +%s) - _start))
	if [ -f "$1.raw" ]; then
		tr -d '\r' <"$1.raw" >"$1"
		rm -f "$1.raw"
	else
		: >"$1"
	fi
	mv "$1.raw.qemu" "$1.qemu" 2>/dev/null || true

	problems=
	rm -f "$2.new" "$2.problems" "$2.verdict"
	_free_kb=$(df -Pk "$(dirname "$2")" 2>/dev/null | awk 'NR == 2 { print $4 }')
	awk -v specs="$4" -v selftests="$(printf '%s' "$5" | tr ',' ' ')" -v counts="$6" \
		-v status="$rc" -v timeout="$VM_TIMEOUT" -v qemu_log="$1.qemu" -v disk_free_kb="$_free_kb" \
		-v results="$2.new" -v problems="$2.problems" -v verdict="$2.verdict" \
		-f "$VM_LIB/parse.awk" "$1" >"$1.ktap" || true
	passed= failed= wrong=
	[ -f "$2.verdict" ] && read -r passed failed <"$2.verdict" || true
	if [ -z "$failed" ]; then
		vm_problem "vm/parse.awk could not read $1 or write its findings beside $2"
		passed=0 failed=0
	else
		while IFS= read -r _line; do
			vm_problem "$_line"
		done <"$2.problems"
		wrong=$(sed 1d "$2.verdict")
	fi
	[ -z "$problems" ] && mv "$2.new" "$2"
	rm -f "$2.new" "$2.problems" "$2.verdict"
	[ "$failed" -eq 0 ] || vm_problem "$failed case(s) did not return what they should:
$wrong"
}

# --- VM runs side by side -------------------------------------------------
# vm_schedule DIR LABEL...: for each LABEL, the caller's function
# `vm_job LABEL` in a background job, its output in DIR/LABEL.out, at most
# VM_JOBS at a time (default: one per core; a TCG VM keeps a core busy).
# As each job ends, in the order they end, the caller's function
# `vm_report LABEL STATUS` reports it.  A stop of the caller stops every
# job: each job's trap stops the vm/run or the QEMU it runs.  The one
# scheduler of make demo (vm/matrix.sh), make check (tests/run.sh) and
# ./bpftoken matrix.
vm_running=	# "LABEL:PID ..." started and not yet reported

vm_cores() {
	getconf _NPROCESSORS_ONLN 2>/dev/null || nproc 2>/dev/null || echo 1
}

vm_schedule() {
	_dir=$1
	shift
	_max=${VM_JOBS:-$(vm_cores)}
	[ "$_max" -ge 1 ] 2>/dev/null || _max=1
	for _label in "$@"; do
		while [ "$(echo $vm_running | wc -w)" -ge "$_max" ]; do
			_vm_reap "$_dir"
		done
		rm -f "$_dir/$_label.status"
		_vm_job "$_dir" "$_label" >"$_dir/$_label.out" 2>&1 </dev/null &
		vm_running="$vm_running $_label:$!"
	done
	while [ -n "$vm_running" ]; do
		_vm_reap "$_dir"
	done
}

# _vm_job DIR LABEL: one job, run in the background (the subshell `&`
# makes, so its traps and variables stay its own; a "( )" body would fork
# once more, and a stop would reach only the outer process).  It writes
# its status to DIR/LABEL.status however it ends (a `die` included).
# vm_job may start a runner in the background and keep its PID in
# vm_child, so that a stop reaches it.
_vm_job() {
	vm_child=
	qemu_pid=
	vm_running=
	_status_file=$1/$2.status
	trap 'echo $? >"$_status_file"' EXIT
	trap '[ -z "$vm_child" ] || { kill -TERM "$vm_child" 2>/dev/null; wait "$vm_child"; }
		stop_qemu; exit 143' INT TERM HUP
	vm_job "$2"
}

# _vm_reap DIR: wait until a job has ended, and report it
_vm_reap() {
	while :; do
		for _job in $vm_running; do
			[ -s "$1/${_job%%:*}.status" ] || continue
			wait "${_job#*:}" 2>/dev/null || true
			vm_running=$(echo " $vm_running " | sed "s/ $_job / /; s/^ *//; s/ *$//")
			vm_report "${_job%%:*}" "$(cat "$1/${_job%%:*}.status")"
			return 0
		done
		sleep 0.2 2>/dev/null || sleep 1
	done
}

# vm_stop_jobs: TERM to every job still running, and wait for them
vm_stop_jobs() {
	[ -n "$vm_running" ] || return 0
	for _job in $vm_running; do
		kill -TERM "${_job#*:}" 2>/dev/null || true
	done
	for _job in $vm_running; do
		wait "${_job#*:}" 2>/dev/null || true
	done
	vm_running=
}
