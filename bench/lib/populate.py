"""populate.py URL DEVICES APPS [THREADS]: creates devices d0..d(D-1) (iOS 7.0) and apps a0..a(N-1)
through the API, app k on device d(k // (N/D)) (contiguous blocks, so a0..a999 sit on the same
devices whatever N is). Keep-alive connections, one per thread. Prints counts, rate and statuses."""
import http.client
import json
import os
import sys
import threading
import time
from collections import Counter
from urllib.parse import urlparse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Support"))
from lifecycled_support import call  # noqa: E402

url, devices, apps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
threads = int(sys.argv[4]) if len(sys.argv) > 4 else 16
target = urlparse(url)
per_device = max(1, apps // devices)
statuses = Counter()
lock = threading.Lock()


def worker(bodies, path, expected):
    conn = http.client.HTTPConnection(target.hostname, target.port, timeout=30)
    local = Counter()
    for body in bodies:
        status, _, data = call(target.hostname, target.port, "POST", path, body.encode(), conn=conn)
        local[status] += 1
        if status != expected and local[status] <= 3:
            sys.stderr.write(f"{path}: {status} {data[:200]!r}\n")
    conn.close()
    with lock:
        statuses.update(local)


def run(bodies, path, expected):
    chunks = [bodies[i::threads] for i in range(threads)]
    workers = [threading.Thread(target=worker, args=(c, path, expected)) for c in chunks]
    for w in workers:
        w.start()
    for w in workers:
        w.join()


start = time.monotonic()
run([json.dumps({"id": f"d{i}", "iosVersion": "7.0"}) for i in range(devices)], "/v1/devices", 201)
run([json.dumps({"id": f"a{k}", "device": f"d{min(k // per_device, devices - 1)}", "bundleId": f"com.example.app{k % 100}"})
     for k in range(apps)], "/v1/apps", 201)
elapsed = time.monotonic() - start
print(f"populate devices={devices} apps={apps} seconds={elapsed:.2f} rate={(devices + apps) / elapsed:.0f}/s statuses={dict(statuses)}")
sys.exit(0 if set(statuses) == {201} else 1)
