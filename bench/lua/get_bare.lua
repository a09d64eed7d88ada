-- Plain GET of one path, for the bare server.
wrk.path = "/v1/apps/a1"
