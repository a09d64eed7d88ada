-- Creates BENCH_COUNT devices (BENCH_KIND=devices: d0 ..) or apps (BENCH_KIND=apps: a0 .., app k on
-- device d(k // BENCH_PER_DEVICE)) through the API, one POST each, then asks the caller to stop wrk. Once every id has
-- been sent, idle connections ask GET /livez until the last creations are answered.
local kind = os.getenv("BENCH_KIND") or "apps"
local count = tonumber(os.getenv("BENCH_COUNT") or "1000")
local per_device = tonumber(os.getenv("BENCH_PER_DEVICE") or "100")
local devices = tonumber(os.getenv("BENCH_DEVICES") or "10")
local headers = { ["Content-Type"] = "application/json" }
-- Formatted on first use: wrk sets wrk.headers.Host only after the script is loaded, and a request
-- without Host is refused.
local filler
local next_, created, failed = 0, 0, 0
local statuses = {}
local finished = false

local verified = false
request = function()
  -- wrk calls request() once after init() only to check the request (script_verify_request) and
  -- never sends that one: answer it with the filler so that no id is lost.
  filler = filler or wrk.format("GET", "/livez")
  if not verified then verified = true; return filler end
  local k = next_
  if k >= count then return filler end
  next_ = k + 1
  if kind == "devices" then
    return wrk.format("POST", "/v1/devices", headers, '{"id":"d' .. k .. '","iosVersion":"7.0"}')
  end
  local device = math.min(math.floor(k / per_device), devices - 1)
  return wrk.format("POST", "/v1/apps", headers,
    '{"id":"a' .. k .. '","device":"d' .. device .. '","bundleId":"com.example.app' .. (k % 100) .. '"}')
end

response = function(status, headers, body)
  if status == 201 then
    created = created + 1
  elseif status ~= 200 then
    failed = failed + 1
    statuses[status] = (statuses[status] or 0) + 1
    if failed <= 3 then io.write("SAMPLE " .. status .. " " .. body .. "\n") end
  end
  if created + failed >= count and not finished then
    -- Printed from the thread's own Lua state (done() runs in another one and cannot see counters).
    finished = true
    local parts = {}
    for code, n in pairs(statuses) do parts[#parts + 1] = code .. ":" .. n end
    io.write(string.format("CREATED kind=%s created=%d failed=%d statuses=%s\n", kind, created, failed,
      table.concat(parts, ",")))
    io.flush()           -- the caller (run_wrk_until) watches for this line and stops wrk with SIGINT
    wrk.thread:stop()
  end
end

