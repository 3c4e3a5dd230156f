# NOTES.md as a learner sees it: every "## Answer" section left out, up
# to the next heading of level 1 or 2 outside a code block.  The answers
# go to the instructor page only (docs/gen.sh).
#
#   awk -f docs/learner.awk steps/NN-*/NOTES.md
/^```/ { fence = !fence }
!fence && /^## Answer[ \t]*$/ { skip = 1; next }
!fence && skip && /^##? / { skip = 0 }
!skip
