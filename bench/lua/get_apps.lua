-- GET /v1/apps/{id} cycling over BENCH_APPS apps named a0 .. a(N-1).
local apps = tonumber(os.getenv("BENCH_APPS") or "1000")
local requests_ = {}
local next_ = 0
init = function(args)
  for i = 0, apps - 1 do requests_[i] = wrk.format("GET", "/v1/apps/a" .. i) end
end
request = function()
  local r = requests_[next_]
  next_ = (next_ + 1) % apps
  return r
end
