-- A small POST like an event, for the bare server (which discards the body).
wrk.method = "POST"
wrk.path = "/v1/apps/a1/events"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"type":"launch"}'
