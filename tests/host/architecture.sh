#!/bin/sh
# ARCHITECTURE.md stays a map a maintainer reads in one sitting: at most
# 250 lines, and every path it names in backticks exists, in the
# checkout or in the kernel tree (build/linux), or is an output under
# build/.  A renamed or removed script shows up here, not months later.
. "$(dirname "$0")/lib.sh"

doc=$TOP/ARCHITECTURE.md
lines=$(wc -l <"$doc")
check "ARCHITECTURE.md has at most 250 lines ($lines)" [ "$lines" -le 250 ]

# `path` tokens with a slash, no spaces, no options or placeholders
paths=$(grep -o '`[^` ]*/[^` /][^` ]*`' "$doc" | tr -d '`' | sort -u |
	grep -v -e '^-' -e '[A-Z][A-Z]' -e '[*$=]' -e '^build/' -e '^/' -e '^\.\./' || true)
check "it names some paths" [ -n "$paths" ]
for path in $paths; do
	path=${path%:*}	# file:function
	path=${path%/}
	if [ -e "$TOP/$path" ] || [ -e "$LINUX/$path" ]; then
		continue
	fi
	check "the path ARCHITECTURE.md names exists: $path" false
done
done_testing
