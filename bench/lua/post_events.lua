-- POST /v1/apps/{id}/events cycling over BENCH_APPS apps a0 .. a(N-1): each app gets launch, then
-- (on a later request) homeButton, which sends the device's foreground app to the background.
local apps = tonumber(os.getenv("BENCH_APPS") or "1000")
local headers = { ["Content-Type"] = "application/json" }
local launch, home = {}, {}
local next_ = 0
init = function(args)
  for i = 0, apps - 1 do
    local path = "/v1/apps/a" .. i .. "/events"
    launch[i] = wrk.format("POST", path, headers, '{"type":"launch"}')
    home[i] = wrk.format("POST", path, headers, '{"type":"homeButton"}')
  end
end
request = function()
  local k = next_
  next_ = next_ + 1
  local app = math.floor(k / 2) % apps
  if k % 2 == 0 then return launch[app] else return home[app] end
end
