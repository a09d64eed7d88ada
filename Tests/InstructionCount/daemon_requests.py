"""daemon_requests.py PORT WORKLOAD N: asks a running daemon N times, one request at a time on one
keep-alive connection, so that `scripts/instruction-budget` can count what one request costs the daemon
(two runs, N1 and N2 requests; the difference is N2 - N1 requests, start-up and set-up excluded).

Workloads: daemon-livez (GET /livez: no resource, the fixed cost of every request), daemon-get-app
(GET /v1/apps/mail, an active app whose answer is kept between changes).
"""
import http.client
import json
import sys

port, workload, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
connection = http.client.HTTPConnection("127.0.0.1", port)


def ask(method, path, body=None):
    headers = {"Content-Type": "application/json"} if body is not None else {}
    connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    response = connection.getresponse()
    payload = response.read()
    if response.status >= 300:
        sys.exit(f"daemon_requests: {method} {path}: {response.status} {payload[:200]!r}")


paths = {"daemon-livez": "/livez", "daemon-get-app": "/v1/apps/mail"}
if workload not in paths:
    sys.exit(f"daemon_requests: unknown workload {workload}; known: {', '.join(paths)}")
if workload == "daemon-get-app":
    ask("POST", "/v1/apps", {"id": "mail", "bundleId": "com.example.mail", "iosVersion": "17.0"})
    ask("POST", "/v1/apps/mail/events", {"type": "launch"})
for _ in range(count):
    ask("GET", paths[workload])
