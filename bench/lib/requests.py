#!/usr/bin/env python3
"""Raw HTTP/1.1 requests for bench/openloop/openloop, separated by NUL bytes, as bench/lua's scripts send them.

  requests.py KIND APPS HOST:PORT > FILE

KIND: get (GET /v1/apps/a0 .. a(APPS-1) in turn), post (each app launch, then homeButton, as
post_events.lua), get-bare and post-bare (the bare server's one path, as get_bare.lua and post_bare.lua).
"""
import sys


def request(method, path, host, body=None):
    head = f"{method} {path} HTTP/1.1\r\nHost: {host}\r\n"
    if body is None:
        return (head + "\r\n").encode()
    data = body.encode()
    return (head + f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n").encode() + data


def main():
    kind, apps, host = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if kind == "get":
        requests = [request("GET", f"/v1/apps/a{i}", host) for i in range(apps)]
    elif kind == "post":
        requests = [request("POST", f"/v1/apps/a{i}/events", host, '{"type":"%s"}' % event)
                    for i in range(apps) for event in ("launch", "homeButton")]
    elif kind == "get-bare":
        requests = [request("GET", "/v1/apps/a1", host)]
    elif kind == "post-bare":
        requests = [request("POST", "/v1/apps/a1/events", host, '{"type":"launch"}')]
    else:
        sys.exit(f"requests.py: unknown kind {kind}: get, post, get-bare or post-bare")
    sys.stdout.buffer.write(b"\0".join(requests) + b"\0")


if __name__ == "__main__":
    main()
