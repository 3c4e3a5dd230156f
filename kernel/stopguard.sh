#!/bin/sh
# kernel/stopguard.sh MAKE-PID: a stop of the top make stops everything
# under it.
#
# Started in the background by the Makefile (top-level make only).  GNU
# make passes SIGTERM on to the jobs it started, but on SIGINT, SIGHUP or
# SIGQUIT sent to make alone (kill -INT PID, not Ctrl-C at a terminal,
# which reaches the whole process group) it only waits for its jobs to
# end: a check would go on for half an hour with nobody to report to, its
# QEMUs and the build/.lock with it.  And SIGTERM reaches only make's
# direct children, not a script's own children such as vm/run and QEMU.
#
# While make handles one of those signals it waits inside its handler,
# and the kernel keeps the signal blocked until the handler returns (GNU
# make's fatal_error_signal, commands.c).  This guard reads make's blocked
# signals (SigBlk in /proc/PID/status) twice a second; seen blocked on
# three readings in a row (make blocks signals for microseconds around a
# fork, never for a second), it sends SIGTERM to every process under make,
# deepest first: each runner's trap stops its QEMU, and the lock goes with
# the last holder.  What is still there 10 s later gets SIGKILL.  The guard
# ends when make does.
make_pid=${1:?usage: kernel/stopguard.sh MAKE-PID}

# stopping: make is inside its handler for SIGHUP (bit 0 of the mask),
# SIGINT (1), SIGQUIT (2) or SIGTERM (14): 0x4007
stopping() {
	blocked=$(sed -n 's/^SigBlk:[[:space:]]*//p' "/proc/$make_pid/status" 2>/dev/null) || return 1
	[ -n "$blocked" ] || return 1
	low=${blocked#"${blocked%????}"}	# the last four hex digits: signals 1-16
	[ $((0x$low & 0x4007)) -ne 0 ]
}

# tree PID: every process under PID, deepest first, from one reading of
# /proc ("pid (comm) state ppid ...": comm may hold spaces and parens)
tree() {
	for stat in /proc/[0-9]*/stat; do
		line=$(cat "$stat" 2>/dev/null) || continue
		rest=${line##*) }
		ppid=${rest#* }
		echo "${line%% *} ${ppid%% *}"
	done | awk -v top="$1" '
		{ kids[$2] = kids[$2] " " $1 }
		function under(p,    n, i, list) {
			n = split(kids[p], list, " ")
			for (i = 1; i <= n; i++) { under(list[i]); print list[i] }
		}
		END { under(top) }'
}

# alive PID...: whether any of them still runs (a zombie, waiting for
# its parent to read its status, does not count)
alive() {
	for pid in "$@"; do
		state=$(sed 's/.*) \(.\).*/\1/' "/proc/$pid/stat" 2>/dev/null) || continue
		[ "$state" = Z ] || return 0
	done
	return 1
}

# make that has exited but not been reaped is a zombie: the guard ends
# then too, or a caller reading make's output through a pipe it shares
# with the guard (out=$(make ... 2>&1)) would wait for the guard while
# make waits for that caller to reap it
hits=0
while alive "$make_pid"; do
	if stopping; then
		hits=$((hits + 1))
	else
		hits=0
	fi
	if [ $hits -ge 3 ]; then
		victims=$(tree "$make_pid")
		[ -z "$victims" ] && exit 0
		echo "make was stopped: stopping what it started ($(echo $victims | wc -w) process(es))" >&2
		# shellcheck disable=SC2086 # a list of PIDs
		kill -TERM $victims 2>/dev/null
		n=0
		# shellcheck disable=SC2086 # a list of PIDs
		while [ $n -lt 100 ] && alive $victims; do
			sleep 0.1
			n=$((n + 1))
		done
		for pid in $victims; do
			kill -KILL "$pid" 2>/dev/null
		done
		exit 0
	fi
	sleep 0.5
done
