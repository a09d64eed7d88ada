-- Sends BENCH_COUNT POSTs to /v1/apps/{id}/events, each an array of BENCH_BATCH events (launch and
-- homeButton alternating), over apps a0 .. a(BENCH_APPS-1) in turn, then asks the caller to stop wrk. Once every batch
-- has been sent, idle connections ask GET /livez until the last batches are answered. BENCH_UNIQUE_URLS=1: every
-- launch opens a URL of its own (the entries that carry it are then unlike any before them).
local count = tonumber(os.getenv("BENCH_COUNT") or "1000")
local apps = tonumber(os.getenv("BENCH_APPS") or "1000")
local batch = tonumber(os.getenv("BENCH_BATCH") or "50")
local unique = os.getenv("BENCH_UNIQUE_URLS") == "1"
local headers = { ["Content-Type"] = "application/json" }
-- Formatted on first use: wrk sets wrk.headers.Host only after the script is loaded, and a request
-- without Host is refused.
local filler
local requests_ = {}
local next_, ok, failed, finished = 0, 0, 0, false
local statuses = {}

init = function(args)
  local events = {}
  for i = 1, batch do
    events[i] = (i % 2 == 1) and '{"type":"launch"}' or '{"type":"homeButton"}'
  end
  local body = "[" .. table.concat(events, ",") .. "]"
  for i = 0, apps - 1 do requests_[i] = wrk.format("POST", "/v1/apps/a" .. i .. "/events", headers, body) end
end

local verified = false
request = function()
  -- wrk calls request() once after init() only to check the request (script_verify_request) and
  -- never sends that one: answer it with the filler so that no id is lost.
  filler = filler or wrk.format("GET", "/livez")
  if not verified then verified = true; return filler end
  local k = next_
  if k >= count then return filler end
  next_ = k + 1
  if unique then
    local events = {}
    for i = 1, batch do
      events[i] = (i % 2 == 1) and ('{"type":"launch","url":"bench://u/' .. k .. '/' .. i .. '"}') or '{"type":"homeButton"}'
    end
    return wrk.format("POST", "/v1/apps/a" .. (k % apps) .. "/events", headers, "[" .. table.concat(events, ",") .. "]")
  end
  return requests_[k % apps]
end

response = function(status, headers, body)
  if status == 200 then
    -- an events answer carries "entries"; a /livez filler does not
    if body:find('"entries"', 1, true) then ok = ok + 1 end
  else
    failed = failed + 1
    statuses[status] = (statuses[status] or 0) + 1
    if failed <= 3 then io.write("SAMPLE " .. status .. " " .. body .. "\n") end
  end
  if ok + failed >= count and not finished then
    finished = true
    local parts = {}
    for code, n in pairs(statuses) do parts[#parts + 1] = code .. ":" .. n end
    io.write(string.format("POSTED posts=%d ok=%d failed=%d statuses=%s\n", count, ok, failed,
      table.concat(parts, ",")))
    io.flush()           -- the caller (run_wrk_until) watches for this line and stops wrk with SIGINT
    wrk.thread:stop()
  end
end
