#!/bin/sh
# docs/workshop.md, the 90-minute track: its agenda adds up to exactly 90
# minutes, names only steps that exist, and every command in its code
# blocks works - run for real where that is quick, with `make -n` where
# it boots a VM or builds kernels; `./bpftoken` commands against the
# bundle's runner, vm/bpftoken.
. "$(dirname "$0")/lib.sh"

page=${WORKSHOP_MD:-$TOP/docs/workshop.md}	# another page: to see this test fail
check "docs/workshop.md exists" [ -f "$page" ]

# a trainer's page: the sections a trainer needs before the day
for h in "## Learning objectives" "## Prerequisites" "## Logistics" \
	"### The learners' path: the bundle" "### Pre-work, with a deadline" "### Supported systems" \
	"### Offline" "### The trainer's own build" "### Fallback" "## Agenda" "## When running late: what to cut"; do
	check "the page has \"$h\"" grep -qx "$h" "$page"
done
check "the pre-work is ./bpftoken check" grep -qx './bpftoken check' "$page"
# every system of the learners' README has its row here too
for sys in Debian Ubuntu Fedora macOS Windows; do
	check "the supported systems name $sys" grep -q "^| $sys" "$page"
done

# the agenda: "| min | block | steps | how |" rows
agenda=$(awk '/^## Agenda/ { on = 1; next } on && /^## / { exit } on && /^\| *[0-9]+ *\|/' "$page")
rows=$(printf '%s\n' "$agenda" | grep -c .)
total=$(printf '%s\n' "$agenda" | awk -F'|' '{ sum += $2 } END { print sum + 0 }')
check "the agenda has blocks ($rows)" [ "$rows" -gt 3 ]
check "the agenda's minutes add up to 90 ($total)" [ "$total" = 90 ]
# each block has its section, headed with the same minutes
printf '%s\n' "$agenda" | awk -F'|' '{ gsub(/^ +| +$/, "", $2); print $2 }' | sort >"$BUILD/workshop.agenda"
grep '^### [0-9]* min - ' "$page" | sed 's/^### \([0-9]*\) min.*/\1/' | sort >"$BUILD/workshop.blocks"
check "a '### N min - ...' section per agenda row, with the same minutes" \
	cmp -s "$BUILD/workshop.agenda" "$BUILD/workshop.blocks"
rm -f "$BUILD/workshop.agenda" "$BUILD/workshop.blocks"

# every step the agenda names exists (ids, "NN-MM" ranges, mainline, all, -)
ids=" $(series_ids) mainline "
for w in $(printf '%s\n' "$agenda" | awk -F'|' '{ print $4 }' | tr '-' ' '); do
	case $w in all) continue ;; esac
	check "the agenda's step '$w' exists" sh -c "case '$ids' in *' $w '*) ;; *) false ;; esac"
done
# every "Exercise of step NN" the page sets exists
for id in $(grep -o 'Exercise of step [0-9a-z]*' "$page" | awk '{ print $4 }'); do
	check "step $id has an exercise" grep -q '^## Exercise' "$TOP/steps/$(resolve_step "$id")/NOTES.md"
done

# the commands: every line of a ```sh block
cmds=$(awk '/^```sh$/ { on = 1; next } /^```/ { on = 0 } on && NF' "$page")
n=$(printf '%s\n' "$cmds" | grep -c .)
check "the page has commands ($n)" [ "$n" -gt 10 ]

# arg_ok WORD: a STEP=, CASES= or DELEGATE= argument names what exists
arg_ok() {
	case $1 in
	STEP=*)
		[ "${1#STEP=}" = mainline ] || (resolve_step "${1#STEP=}" >/dev/null)
		;;
	CASES=*)
		demo=${1#CASES=}
		demo=${demo%%:*}
		[ -f "$TOP/userspace-demo/$demo.c" ] || [ -f "$TOP/userspace-demo/suites/$demo.c" ]
		;;
	DELEGATE=*) [ -n "${1#DELEGATE=}" ] ;;
	*) echo "unknown argument $1"; false ;;
	esac
}

# make TARGET ARGS: real where quick (make help), else make -n (which fails on an
# unknown target), with MAKE=: so that a recipe's own $(MAKE) line, which
# make runs even under -n, does nothing: what is checked is the command,
# not the state of build/
check_make() {
	target=$1
	shift
	for a in "$@"; do arg_ok "$a" || return 1; done
	case $target in
	help) make -s -C "$TOP" "$target" "$@" >/dev/null ;;
	*) make -n -C "$TOP" MAKE=: "$target" "$@" >/dev/null ;;
	esac
}

# ./bpftoken SUB ARGS: SUB is one of vm/bpftoken's commands, STEP and
# DEMO arguments exist
check_bpftoken() {
	sub=$1
	shift
	grep -q "^$sub)\$" "$TOP/vm/bpftoken" || { echo "vm/bpftoken has no '$sub' command"; return 1; }
	case $sub in
	run | vm)
		step=$1
		shift
		[ "$step" = mainline ] || (resolve_step "$step" >/dev/null) || return 1
		for a in "$@"; do
			case $sub:$a in
			vm:DELEGATE=*) arg_ok "$a" || return 1 ;;
			run:*) arg_ok "CASES=$a" || { echo "no demo '$a'"; return 1; } ;;
			*) echo "vm takes DELEGATE=... only, not $a"; return 1 ;;
			esac
		done
		;;
	matrix | list) [ $# = 0 ] ;;
	esac
}

skipped=0
printf '%s\n' "$cmds" >"$BUILD/workshop.cmds"
while IFS= read -r line; do
	# the shell splits the words as a learner's shell would
	eval "set -- $line"
	case $1 in
	make)
		shift
		check "$line" check_make "$@"
		;;
	./bpftoken)
		shift
		if [ -f "$TOP/vm/bpftoken" ]; then
			check "$line" check_bpftoken "$@"
		else
			skipped=$((skipped + 1))
		fi
		;;
	*)
		check "'$line' is a make or ./bpftoken command" false
		;;
	esac
done <"$BUILD/workshop.cmds"
rm -f "$BUILD/workshop.cmds"
[ "$skipped" = 0 ] || echo "  SKIPPED: $skipped ./bpftoken command(s): vm/bpftoken is not in this checkout"

# the page is on the site and the deck's agenda
check "make docs builds workshop.html" [ -s "$BUILD/docs/workshop.html" ]
check "the landing page links the workshop" grep -q 'href="workshop.html"' "$BUILD/docs/index.html"
check "make slides puts the agenda in the deck" grep -q 'The 90 minutes' "$BUILD/slides/index.html"
done_testing
