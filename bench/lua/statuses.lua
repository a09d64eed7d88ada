
-- Diagnosis add-on: counts answers by status code (costs throughput; used only to name the codes
-- when a measured run saw errors). The counts live in the thread's Lua state, which done() cannot
-- see, so a STATUSES line is written every 1000 answers: the last one is the total so far.
local counts, answered = {}, 0
response = function(status, headers, body)
  counts[status] = (counts[status] or 0) + 1
  answered = answered + 1
  if status >= 400 and counts[status] <= 2 then io.write("SAMPLE " .. status .. " " .. body .. "\n") end
  if answered % 1000 == 0 then
    local parts = {}
    for code, n in pairs(counts) do parts[#parts + 1] = code .. ":" .. n end
    io.write("STATUSES " .. table.concat(parts, ",") .. "\n")
  end
end
