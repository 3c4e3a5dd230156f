-- The book's navigation, for docs/template.html.  docs/gen.sh passes the
-- steps in series order (book-steps), the other pages a learner reads
-- (book-pages) and the file being made (book-page).  This marks that
-- file's entry as the current one and, on a step page, names the steps
-- before and after it (book-prev, book-next): the series order is the
-- list's, so the first step gets no previous and the last no next.
local stringify = pandoc.utils.stringify

-- mark_current LIST HERE: the index of HERE's entry in LIST, marked.
local function mark_current(list, here)
  for i, entry in ipairs(list or {}) do
    if stringify(entry.href) == here then
      entry.current = true
      return i
    end
  end
end

function Meta(meta)
  local here = stringify(meta["book-page"] or "")
  mark_current(meta["book-pages"], here)
  local steps = meta["book-steps"] or {}
  local i = mark_current(steps, here)
  if i then
    meta["book-step"] = true
    meta["book-prev"] = steps[i - 1]
    meta["book-next"] = steps[i + 1]
  end
  return meta
end
