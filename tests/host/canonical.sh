#!/bin/sh
# Every steps/NN-*/patch is exactly what `git format-patch` makes of its
# branch: a patch whose base moved (a fix in an earlier step) but that
# was not regenerated with make refresh would still apply, with stale
# index lines and line numbers.
. "$(dirname "$0")/lib.sh"
need_tree

for s in $(series_steps); do
	[ -f "$TOP/steps/$s/patch" ] || continue
	check "steps/$s/patch is canonical" sh -c \
		"git -C '$LINUX' format-patch -1 --stdout --no-signature --zero-commit $(branch_of "$s") |
		 cmp -s - '$TOP/steps/$s/patch'"
done
done_testing
