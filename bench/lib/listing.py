"""listing.py URL DEVICES APPS ROUNDS REQUESTS: launches the first app of each device, then times
filtered and unfiltered `GET /v1/apps` listings, interleaved by round; prints medians and ratios."""
import http.client
import os
import statistics
import sys
import time
from urllib.parse import urlparse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Support"))
import lifecycled_support  # noqa: E402

url, devices, apps, rounds, requests = sys.argv[1], *map(int, sys.argv[2:6])
target = urlparse(url)
conn = http.client.HTTPConnection(target.hostname, target.port, timeout=60)


def call(method, path, body=None):
    status, _, data = lifecycled_support.call(
        target.hostname, target.port, method, path, None if body is None else body.encode(), conn=conn)
    if status != 200:
        sys.exit(f"{method} {path}: {status} {data[:200]!r}")
    return data


per_device = max(1, apps // devices)
for device in range(devices):
    call("POST", f"/v1/apps/a{device * per_device}/events", '{"type":"launch"}')

queries = [
    ("unfiltered, first 100", "/v1/apps?limit=100"),
    ("state=active, all 1,000" if devices == 1000 else f"state=active, all {devices}", "/v1/apps?state=active&limit=1000"),
    ("state=suspended, none", "/v1/apps?state=suspended"),
    ("state=notRunning, first 100", "/v1/apps?state=notRunning&limit=100"),
]
for _, path in queries:  # warm-up: builds caches and the state index
    call("GET", path)
times = {name: [] for name, _ in queries}
for _ in range(rounds):
    for name, path in queries:
        for _ in range(requests):
            start = time.perf_counter()
            call("GET", path)
            times[name].append(time.perf_counter() - start)
base = statistics.median(times[queries[0][0]])
print(f"listings over {apps:,} apps on {devices:,} devices ({devices:,} active), {rounds} rounds x {requests} requests")
print(f"{'query':<32} {'median ms':>10} {'vs unfiltered':>14}")
for name, _ in queries:
    median = statistics.median(times[name])
    print(f"{name:<32} {median * 1000:>10.2f} {median / base:>13.2f}x")
