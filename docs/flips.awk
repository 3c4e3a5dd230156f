# The flips of the measured matrix: every case whose answer on a step
# differs from its answer on the step before it.
#
#   awk -F'\t' -f docs/flips.awk build/report/matrix.tsv
#
# Input: matrix.tsv, one row per case and step (demo case step expected
# measured verdict), the steps in series order, mainline last (its "step
# before" is the last step).  Output, one line per flip, in input order:
#   demo  case  step  previous-step  previous-answer  answer
# A case that did not run on the step before (a selftest before step 13)
# does not flip.
NR == 1 {
	if ($1 != "demo" || $3 != "step" || $5 != "measured") {
		print "flips.awk: not a matrix.tsv header: " $0 > "/dev/stderr"
		bad = 1
		exit 1
	}
	next
}
NF != 6 {
	print "flips.awk: line " NR " has " NF " fields, not 6" > "/dev/stderr"
	bad = 1
	exit 1
}
{
	if (!($3 in stepno)) { stepno[$3] = ++nsteps; stepat[nsteps] = $3 }
	got[$1 SUBSEP $2 SUBSEP $3] = $5
	row[++n] = $0
}
END {
	if (bad)
		exit 1
	for (i = 1; i <= n; i++) {
		split(row[i], f, "\t")
		k = stepno[f[3]]
		if (k == 1)
			continue
		prev = stepat[k - 1]
		key = f[1] SUBSEP f[2] SUBSEP prev
		if ((key in got) && got[key] != f[5])
			printf "%s\t%s\t%s\t%s\t%s\t%s\n", f[1], f[2], f[3], prev, got[key], f[5]
	}
}
