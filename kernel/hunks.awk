# Name the hunks of a patch the way git diff shows them: the file, then
# the function from the "@@ ... @@ context" line, e.g.
#   kernel/bpf/syscall.c: map_create()
# Contexts without a call keep their text ("struct bpf_mount_opts");
# hunks of a new file are "(new file)", hunks without context "(top)".
#
#   awk -f kernel/hunks.awk PATCH                 every hunk's name, in order
#   awk -v want=NAME -f kernel/hunks.awk PATCH    the hunks of that name, as diff
#
# One place for the rule: tests/annotations.sh checks NOTES.md headings
# against these names, docs/gen.sh puts the named hunks under them.
function hunk_name(line,    ctx, name, n, w) {
	ctx = line
	sub(/^@@ [^@]* @@ ?/, "", ctx)
	if (newfile)
		return "(new file)"
	if (ctx == "")
		return "(top)"
	if (match(ctx, /[A-Za-z0-9_]\(/)) {
		name = substr(ctx, 1, RSTART)
		n = split(name, w, /[ \t*]+/)
		return w[n] "()"
	}
	name = ctx
	while (sub(/[ \t]*[{};=][ \t]*$/, "", name))
		;
	return name
}
function flush() {
	if (keep && hunk != "")
		printf "%s", hunk
	hunk = ""
}
/^diff --git / { flush(); keep = 0; newfile = 0; header = ""; next }
/^--- \/dev\/null/ { newfile = 1 }
/^--- / { header = $0 "\n"; next }
/^\+\+\+ b\// { file = substr($0, 7); header = header $0 "\n"; next }
/^@@ / {
	flush()
	name = file ": " hunk_name($0)
	if (want == "") {
		print name
		next
	}
	keep = (name == want)
	hunk = (keep ? header : "") $0 "\n"
	header = ""
	next
}
/^-- $/ { flush(); keep = 0; next }
{ if (hunk != "") hunk = hunk $0 "\n" }
END { flush() }
