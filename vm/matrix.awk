# The demo matrix from the result rows of every boot: shared by
# vm/matrix.sh and the workshop bundle's bpftoken.  POSIX awk.
#
#   awk -F'\t' -v ids='00 00a ... 13 mainline' -v long=FILE -v summary=FILE \
#       -f vm/matrix.awk ROWS >WIDE
#
# ROWS: one line per case and kernel, "ID demo case measured expected
# verdict" (a results file of vm/run or bpftoken with the column's id in
# front), in column order.
#
# Writes:
#   long     one row per case and step, with a header: demo case step
#            expected measured verdict (pass or fail)
#   WIDE     (stdout) one row per case, one column per id: the result
#            ("ok" or an errno name) when it matched the expectation,
#            "fail:GOT/EXPECTED" when it did not, "-" when not run
#   summary  "FAILS MISSING": failing rows, and "-" cells outside the
#            selftest rows (a selftest runs only on the steps whose tree
#            has it, so its "-" cells are expected)

BEGIN {
	OFS = "\t"
	print "demo", "case", "step", "expected", "measured", "verdict" >long
}

{
	print $2, $3, $1, $5, $4, $6 >long
	if ($6 != "pass")
		fails++
	row = $2 ":" $3
	if (!(row in seen)) { seen[row] = 1; order[++n] = row }
	cell[row, $1] = ($6 == "pass") ? $4 : "fail:" $4 "/" $5
}

END {
	m = split(ids, col, " ")
	printf "case"
	for (j = 1; j <= m; j++)
		printf "\t%s", (col[j] == "mainline" ? col[j] : "step-" col[j])
	printf "\n"
	for (i = 1; i <= n; i++) {
		printf "%s", order[i]
		for (j = 1; j <= m; j++) {
			c = ((order[i], col[j]) in cell) ? cell[order[i], col[j]] : "-"
			printf "\t%s", c
			if (c == "-" && order[i] !~ /^selftest:/)
				missing++
		}
		printf "\n"
	}
	printf "%d %d\n", fails, missing >summary
}
