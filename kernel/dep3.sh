#!/bin/sh
# Check the DEP-3 header of each patch (https://dep-team.pages.debian.net/deps/dep3/),
# as kernel/debian-patches.sh writes them and a Debian kernel's
# debian/patches/ carries them.
#
#   kernel/dep3.sh PATCH...
#
# The header is the lines before the first "---" line or diff; a field
# is "Name: value" at the start of a line, continued on lines that start
# with a space.  Every patch must have:
#   Description (or its alias Subject), with a summary on its first line;
#   Origin, "KEYWORD, WHERE" with KEYWORD upstream, backport, vendor or
#          other (DEP-3 makes the keyword optional; a queue that says
#          where each patch came from should not);
#   Forwarded, "no", "not-needed" or where it was sent;
#   Last-Update, a date as YYYY-MM-DD;
# and Applied-Upstream, "RELEASE, commit:ID", when the Origin is an
# upstream or backported commit: that is the release to drop it at.
# Prints one line per problem, naming the file and the field; exits 1 if
# there is any, 2 on bad usage.
set -eu

[ $# -gt 0 ] || { echo "usage: kernel/dep3.sh PATCH..." >&2; exit 2; }

status=0
for patch in "$@"; do
	[ -f "$patch" ] || { echo "$patch: no such file" >&2; status=1; continue; }
	awk -v file="$patch" '
	function problem(what) { print file ": " what; bad = 1 }
	/^---$/ || /^diff / || /^Index: / || /^--- / { exit }
	/^[A-Za-z-]+:/ {
		name = tolower(substr($0, 1, index($0, ":") - 1))
		value = substr($0, index($0, ":") + 1)
		sub(/^[ \t]+/, "", value)
		sub(/[ \t]+$/, "", value)
		if (name == "subject")
			name = "description"
		if (name in field)
			problem("DEP-3 field " name " given twice")
		field[name] = value
		next
	}
	/^[ \t]/ && name != "" { next }	# a continuation line
	{ name = "" }			# free text between fields ends one
	END {
		if (field["description"] == "")
			problem("missing DEP-3 field Description (a one-line summary)")
		if (!("origin" in field))
			problem("missing DEP-3 field Origin")
		else if (field["origin"] !~ /^(upstream|backport|vendor|other), [^ ]/)
			problem("DEP-3 Origin \"" field["origin"] "\" is not \"upstream|backport|vendor|other, WHERE\"")
		if (!("forwarded" in field))
			problem("missing DEP-3 field Forwarded (no, not-needed, or where it was sent)")
		else if (field["forwarded"] == "")
			problem("DEP-3 Forwarded is empty")
		if (!("last-update" in field))
			problem("missing DEP-3 field Last-Update")
		else if (field["last-update"] !~ /^20[0-9][0-9]-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$/)
			problem("DEP-3 Last-Update \"" field["last-update"] "\" is not a YYYY-MM-DD date")
		if (field["origin"] ~ /^(upstream|backport), commit:/ && !("applied-upstream" in field))
			problem("missing DEP-3 field Applied-Upstream (the Origin is an upstream commit)")
		if (("applied-upstream" in field) &&
		    field["applied-upstream"] !~ /^[0-9]+\.[0-9]+(\.[0-9]+)?, (commit:[0-9a-f]+|https?:\/\/[^ ]+)$/)
			problem("DEP-3 Applied-Upstream \"" field["applied-upstream"] "\" is not \"RELEASE, commit:ID\"")
		exit bad
	}' "$patch" || status=1
done
exit $status
