"""fanout.py URL APP CLIENTS PID: parks CLIENTS long polls on GET /v1/apps/APP/callbacks?after=<its
current seq>&wait=30, reads the daemon's VmRSS and Threads (from /proc/PID/status) while they are
parked, then posts one event to APP (launch, or homeButton if the app is already active) and times
until every client has its answer. Prints one RESULT line."""
import asyncio
import json
import os
import statistics
import sys
import time
from collections import Counter
from urllib.parse import urlparse

from procstatus import rss_and_threads

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Support"))
import lifecycled_support  # noqa: E402

url, app, clients, pid = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
target = urlparse(url)
host, port = target.hostname, target.port


def call(method, path, body=None):
    status, _, data = lifecycled_support.call(host, port, method, path, body, timeout=30)
    return status, json.loads(data) if data else None


def proc_status():
    return rss_and_threads(pid)


async def main():
    status, snapshot = call("GET", f"/v1/apps/{app}")
    assert status == 200, (status, snapshot)
    status, page = call("GET", f"/v1/apps/{app}/callbacks?after=0&limit=1000")
    assert status == 200, (status, page)
    after = page["next"]
    rss_before, threads_before = proc_status()
    request = (f"GET /v1/apps/{app}/callbacks?after={after}&wait=30 HTTP/1.1\r\n"
               f"Host: {host}:{port}\r\n\r\n").encode()

    connections = []
    for start in range(0, clients, 250):  # connect in batches: keeps under the listen backlog
        batch = await asyncio.gather(*(asyncio.open_connection(host, port) for _ in range(start, min(clients, start + 250))))
        for reader, writer in batch:
            writer.write(request)
        connections.extend(batch)
    await asyncio.gather(*(writer.drain() for _, writer in connections))

    posted = [0.0]
    done_at = []
    statuses = Counter()

    async def read_one(reader):
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 45)
            code = int(head.split(b" ", 2)[1])
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            await asyncio.wait_for(reader.readexactly(length), 45)
            statuses[code] += 1
        except Exception as error:  # noqa: BLE001 — counted and reported
            statuses[type(error).__name__] += 1
        done_at.append(time.monotonic())

    readers = [asyncio.ensure_future(read_one(reader)) for reader, _ in connections]
    await asyncio.sleep(2)  # let the daemon park every request
    early = len(done_at)
    rss_parked, threads_parked = proc_status()

    event = {"type": "homeButton"} if snapshot.get("state") == "active" else {"type": "launch"}
    loop = asyncio.get_running_loop()
    posted[0] = time.monotonic()
    post_status, _ = await loop.run_in_executor(None, call, "POST", f"/v1/apps/{app}/events", event)
    post_done = time.monotonic()
    await asyncio.gather(*readers)
    for _, writer in connections:
        writer.close()
    late = sorted(t - posted[0] for t in done_at[early:])
    print(
        f"RESULT clients={clients} early_answers={early} event={event['type']} post_status={post_status} "
        f"post_ms={(post_done - posted[0]) * 1000:.1f} "
        f"first_ms={late[0] * 1000 if late else -1:.1f} median_ms={statistics.median(late) * 1000 if late else -1:.1f} "
        f"all_ms={late[-1] * 1000 if late else -1:.1f} "
        f"rss_idle_kib={rss_before} rss_parked_kib={rss_parked} threads_idle={threads_before} "
        f"threads_parked={threads_parked} statuses={','.join(f'{k}:{v}' for k, v in sorted(statuses.items(), key=str))}")


asyncio.run(main())
