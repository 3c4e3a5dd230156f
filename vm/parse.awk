# The demo VM's console, read: the one parser behind vm/run and the
# workshop bundle's bpftoken, and the only place a verdict is computed.
# POSIX awk (no gawk extensions).
#
#   awk -v specs='DEMO[:PATTERN] ...' -v selftests='T ...' \
#       -v counts='DEMO=N ...' -v status=QEMU-STATUS -v timeout=SECONDS \
#       -v qemu_log=FILE -v disk_free_kb=N \
#       -v results=FILE -v problems=FILE -v verdict=FILE \
#       -f vm/parse.awk CONSOLE-LOG
#
# The log is the serial console with CR already removed.  /init prints
#   BPFTOK-BEGIN step=ID
#   BPFTOK-DEMO-BEGIN DEMO
#     KTAP from lib/cases.c, one line per case with its result:
#     1..N
#     ok 1 CASE # got=RESULT want=RESULT
#     not ok 2 CASE # got=RESULT want=RESULT
#   BPFTOK-DEMO-END DEMO exit=N        (exit=missing: not in the initramfs)
#   BPFTOK-SELFTEST-BEGIN T ... KTAP ... BPFTOK-SELFTEST-END T exit=N
#   BPFTOK-END
# in the order it was asked (specs, then selftests).
#
# What the runner knew outside the console: status is QEMU's exit status
# (124: the runner stopped it at the timeout), qemu_log holds what QEMU
# itself printed, disk_free_kb the space left where the log was written.
# Each may be left empty.
#
# Writes:
#   stdout    the KTAP the guest printed (BPFTOK-BEGIN..END, markers left out)
#   results   one row per case: demo case got expected verdict (pass|fail)
#   problems  one line per reason the run cannot be trusted: a timeout,
#             QEMU failing, a full disk, a kernel report, a missing
#             BPFTOK-END, a demo without an end marker, a case line
#             without a result, a case count that is not the plan (or,
#             for a demo asked for whole, not its count in `counts`,
#             what its --list printed), a selftest that did not pass
#   verdict   "PASSED FAILED" (result rows), then one line per failing case
#
# A result row is kept even when its demo has a problem: the caller
# decides, from the problems, whether the rows can be trusted.

BEGIN {
	# kernel reports that make any run a failure, whatever the demos said
	npat = split("Kernel panic|Oops:|BUG:|WARNING:|general protection fault|" \
		"UBSAN:|KASAN:|suspected memory leak|unreferenced object|Call Trace:", pat, "|")
	nspec = split(specs, spec, " ")
	nself = split(selftests, selftest, " ")
	n = split(counts, c, " ")
	for (i = 1; i <= n; i++) {
		eq = index(c[i], "=")
		want[substr(c[i], 1, eq - 1)] = substr(c[i], eq + 1)
	}
	# The k-th section of a demo belongs to the k-th spec naming it
	# (`04:map.* 04:prog.*` runs demo 04 twice).
	for (i = 1; i <= nspec; i++) {
		d = spec[i]
		sub(/:.*/, "", d)
		demo[i] = d
		nth[d]++
		slot[d, nth[d]] = i
	}
	cur = ""	# the spec index (demo) or "s" selftest index being read
}

# kernel reports: the first line of each pattern, anywhere in the log
{
	for (i = 1; i <= npat; i++)
		if (!(i in report) && index($0, pat[i]))
			report[i] = $0
}

/^BPFTOK-BEGIN/ { ktap = 1; next }
/^BPFTOK-END/ { ended = 1; ktap = 0; cur = ""; next }
ktap && !/^BPFTOK-/ { print }

/^BPFTOK-DEMO-BEGIN / {
	d = substr($0, length("BPFTOK-DEMO-BEGIN ") + 1)
	seen[d]++
	cur = ((d, seen[d]) in slot) ? slot[d, seen[d]] : ""
	next
}
/^BPFTOK-DEMO-END / && cur != "" && index($0, "BPFTOK-DEMO-END " demo[cur] " ") == 1 {
	endline[cur] = $0
	cur = ""
	next
}
/^BPFTOK-SELFTEST-BEGIN / {
	t = substr($0, length("BPFTOK-SELFTEST-BEGIN ") + 1)
	cur = ""
	for (i = 1; i <= nself; i++)
		if (selftest[i] == t && !(("s" i) in started)) { cur = "s" i; started[cur] = 1; break }
	next
}
/^BPFTOK-SELFTEST-END / && cur ~ /^s/ &&
	index($0, "BPFTOK-SELFTEST-END " selftest[substr(cur, 2)] " ") == 1 {
	endline[cur] = $0
	cur = ""
	next
}
cur == "" { next }

# a line inside a demo's or a selftest's section
/^1\.\.[0-9]*$/ {
	p = substr($0, 4)
	if (cur in plan)
		plan[cur] = plan[cur] "\n" p
	else
		plan[cur] = p
}
# a demo's case: "ok N CASE # got=X want=Y"; the verdict is got == want,
# and the ok/not ok in front must agree with it
cur !~ /^s/ && /^(not )?ok [0-9]/ {
	got[cur]++
	name = ($1 == "ok") ? $3 : $4
	g = field_of($0, "got")
	w = field_of($0, "want")
	if (g == "" || w == "") {
		note(cur, demo[cur] " " name ": no result on its line: " $0)
		next
	}
	v = (g == w) ? "pass" : "fail"
	if ((v == "pass") != ($1 == "ok"))
		note(cur, demo[cur] " " name ": the line says '" $1 "' but got=" g " want=" w)
	rows[cur] = rows[cur] sprintf("%s\t%s\t%s\t%s\t%s\n", demo[cur], name, g, w, v)
}
cur ~ /^s/ && /^(not )?ok [0-9]/ { got[cur]++ }
cur ~ /^s/ && /^ok [0-9]/ {
	rows[cur] = rows[cur] sprintf("selftest:%s\t%s\tok\tok\tpass\n", selftest[substr(cur, 2)], $3)
}
cur ~ /^s/ && /^not ok [0-9]/ {
	rows[cur] = rows[cur] sprintf("selftest:%s\t%s\tFAIL\tok\tfail\n", selftest[substr(cur, 2)], $4)
}

function problem(msg) {
	print msg >problems
}

# note(SECTION, MSG): a problem found inside a section, kept in order
function note(sec, msg) {
	notes[sec] = notes[sec] msg "\n"
}

# field_of(LINE, KEY): VALUE of the first " KEY=VALUE" after the " # "
function field_of(line, key,    rest, at) {
	at = index(line, " # ")
	if (at == 0)
		return ""
	rest = " " substr(line, at + 3) " "
	at = index(rest, " " key "=")
	if (at == 0)
		return ""
	rest = substr(rest, at + length(key) + 2)
	return substr(rest, 1, index(rest, " ") - 1)
}

# the first three lines QEMU printed, on one line
function qemu_said(    line, n, said) {
	said = ""
	while (n < 3 && qemu_log != "" && (getline line <qemu_log) > 0) {
		said = said (n ? " | " : "") line
		n++
	}
	return said
}

function exit_of(line) {
	return substr(line, index(line, "exit=") + 5)
}

END {
	printf "" >problems
	printf "" >results
	if (status == 124)
		problem("timeout: the VM did not finish within " timeout "s (VM_TIMEOUT=s allows more)")
	else if (status != "" && status != 0)
		problem("QEMU exited with status " status ": " qemu_said())
	# a disk that filled up cuts the console log short: say so first, the
	# missing markers below are only its consequence
	if (disk_free_kb != "" && disk_free_kb < 1024)
		problem("the disk holding the console log is full (" disk_free_kb " kB free), so the log is cut short; free some space and run again")
	for (i = 1; i <= npat; i++)
		if (i in report)
			problem("kernel report '" pat[i] "': " report[i])
	if (!ended)
		problem("missing result: the guest never reached BPFTOK-END")

	# per demo: it must have ended, and every planned case must have a result
	for (i = 1; i <= nspec; i++) {
		d = demo[i]
		if (!(i in endline)) {
			problem(d ": no end marker (crashed, hung or never started)")
			continue
		}
		if (exit_of(endline[i]) == "missing")
			problem(d ": not in the initramfs (make initramfs)")
		printf "%s", notes[i] >problems
		g = got[i] + 0
		if (!(i in plan) || plan[i] == "" || plan[i] != g)
			problem(d ": " g " case result(s) for a plan of " ((i in plan) && plan[i] != "" ? plan[i] : "nothing"))
		if (spec[i] == d && (d in want) && want[d] != g)
			problem(d ": " g " of its " want[d] " cases reported")
		printf "%s", rows[i] >results
	}

	# selftests: KTAP from kselftest_harness.h; every planned test must say ok
	for (i = 1; i <= nself; i++) {
		s = "s" i
		t = selftest[i]
		if (!(s in endline)) {
			problem("selftest " t ": no end marker (crashed, hung or never started)")
			continue
		}
		g = got[s] + 0
		if (!(s in plan) || plan[s] == "" || plan[s] != g)
			problem("selftest " t ": " g " result(s) for a plan of " ((s in plan) && plan[s] != "" ? plan[s] : "nothing"))
		if (exit_of(endline[s]) != "0")
			problem("selftest " t ": exited with " exit_of(endline[s]))
		printf "%s", rows[s] >results
	}

	# the verdict over every row written
	close(results)
	passed = failed = 0
	wrong = ""
	while ((getline line <results) > 0) {
		split(line, f, "\t")
		if (f[5] == "pass")
			passed++
		else if (f[5] == "fail") {
			failed++
			wrong = wrong sprintf("      %s %s: got %s, expected %s\n", f[1], f[2], f[3], f[4])
		}
	}
	close(results)
	printf "%d %d\n%s", passed, failed, wrong >verdict
}
