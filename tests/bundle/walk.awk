# The commands a learner types from the bundle, read from steps/*/NOTES.md:
# every fenced block with the info string "bpftoken" in a "## Try it" or
# "## Exercise" section.  Prints the plan tests/bundle/walk.sh runs, one
# line each: "STEP<TAB>SECTION<TAB>KIND<TAB>TEXT", KIND one of
#
#   run    a ./bpftoken command other than vm (must exit 0)
#   vm     ./bpftoken vm ...: a VM shell the vm# lines after it go into
#   in-vm  a command for that shell (the text after "vm# ")
#   bad    a section without a bpftoken block, or a line that is neither
#          (TEXT says what)
#
#   awk -f tests/bundle/walk.awk steps/*/NOTES.md
function step_of(path,   n, part) {
	n = split(path, part, "/")
	return part[n - 1]
}
function section_end() {
	if (section != "" && !blocks)
		print step, section, "bad", "no bpftoken block in \"## " section "\""
	section = ""
}
BEGIN { OFS = "\t" }
FNR == 1 { section_end(); step = step_of(FILENAME); fence = 0; inblock = 0 }
/^```/ {
	if (!fence && section != "" && $0 ~ /^```bpftoken[ \t]*$/) { inblock = 1; blocks++; invm = 0 }
	else if (fence) inblock = 0
	fence = !fence
	next
}
!fence && /^##? / {
	section_end()
	if ($0 == "## Try it") section = "Try it"
	else if ($0 == "## Exercise") section = "Exercise"
	blocks = 0
	next
}
inblock && /^[ \t]*$/ { next }
inblock && /^\.\/bpftoken vm( |$)/ { print step, section, "vm", $0; invm = 1; next }
inblock && /^\.\/bpftoken / { print step, section, "run", $0; invm = 0; next }
inblock && /^vm# / {
	if (invm) print step, section, "in-vm", substr($0, 5)
	else print step, section, "bad", "a vm# line with no ./bpftoken vm before it in its block: " $0
	next
}
inblock { print step, section, "bad", "neither ./bpftoken nor vm#: " $0 }
END { section_end() }
