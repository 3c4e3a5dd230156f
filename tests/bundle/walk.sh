#!/bin/sh
# Runs a plan of tests/bundle/walk.awk in an unpacked bundle, as a
# learner would type it: inside the qemu-only root, as root, dropping to
# nobody for every command (setpriv is the test's, not the runner's).
#
#   sh walk.sh PLAN BUNDLE-DIR OUT-DIR [STEP...]
#
# For the Nth line of the plan (of the STEPs' lines only, if given) it
# writes OUT-DIR/N.out, and OUT-DIR/N.rc for a run line: the command's
# exit status.  Two walks of different steps may share OUT-DIR.  A vm line starts
# `./bpftoken vm ...` with its input from a FIFO; each in-vm line after
# it is typed into the VM's shell once the one before has finished
# (the output of an echo of a marker shows that), then `exit`.  OUT-DIR/N.out of the vm
# line is the whole console; OUT-DIR/N.rc holds "ok" when the VM powered
# off after the exit, else what went wrong.
set -u
plan=$1 dir=$2 out=$3
shift 3
steps=" $* "
tab=$(printf '\t')
fifo=$out/fifo.$$
mkdir -p "$out"
cd "$dir" || exit 1

as_learner() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}

# wait_for TEXT FILE SECONDS: until FILE holds TEXT
wait_for() {
	i=0
	while [ $i -lt $(($3 * 10)) ]; do
		grep -qF "$1" "$2" 2>/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

vm_n= vm_pid= vm_marks=0 vm_fail=
vm_start() {
	vm_n=$1 vm_marks=0 vm_fail=
	rm -f "$fifo"
	mkfifo "$fifo"
	as_learner sh -c "exec $2" <"$fifo" >"$out/$1.out" 2>&1 &
	vm_pid=$!
	exec 3>"$fifo"
	wait_for 'BPF FS is at /sys/fs/bpf' "$out/$1.out" 120 || vm_fail="no shell within 120 s"
	sleep 1	# the shell itself starts after the banner
}
vm_type() {
	[ -z "$vm_fail" ] || return 0
	vm_marks=$((vm_marks + 1))
	# the terminal echoes what is typed as soon as it arrives, so the
	# shell's prompt and output share lines with it; typed as
	# WALK""-DONE-N, the marker reads WALK-DONE-N only as output
	printf '%s\necho WALK""-DONE-%s\n' "$1" "$vm_marks" >&3
	wait_for "WALK-DONE-$vm_marks" "$out/$vm_n.out" 60 ||
		vm_fail="'$1' did not finish within 60 s"
}
vm_stop() {
	[ -n "$vm_n" ] || return 0
	printf 'exit\n' >&3
	exec 3>&-
	i=0
	while kill -0 "$vm_pid" 2>/dev/null && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 "$vm_pid" 2>/dev/null; then
		kill "$vm_pid"
		vm_fail=${vm_fail:-"the VM did not power off within 60 s of exit"}
	fi
	wait "$vm_pid" 2>/dev/null
	echo "${vm_fail:-ok}" >"$out/$vm_n.rc"
	rm -f "$fifo"
	vm_n=
}

n=0
while IFS=$tab read -r step section kind text; do
	n=$((n + 1))
	[ "$steps" = "  " ] || case $steps in *" $step "*) ;; *) continue ;; esac
	case $kind in
	run)
		vm_stop
		as_learner sh -c "$text" </dev/null >"$out/$n.out" 2>&1
		echo $? >"$out/$n.rc"
		;;
	vm)
		vm_stop
		vm_start "$n" "$text"
		;;
	in-vm)
		vm_type "$text"
		;;
	esac
done <"$plan"
vm_stop
