"""streams.py URL APP STREAMS EVENTS PID: opens STREAMS event streams on GET /v1/apps/APP/callbacks
(Accept: text/event-stream, from the app's current cursor), reads the daemon's VmRSS and Threads while
they are open and idle, then posts EVENTS events to APP one after another (launch and homeButton in
turn) and times, for each, the delay from the POST's answer to the moment the last stream has the
event's last callback. Meanwhile a bystander client on its own keep-alive connection keeps reading
another app; its latencies over the whole run give its p99. Then closes every stream and checks that
the daemon's open-streams gauge returns to 0. Last, opens STREAMS streams again and sends the daemon
SIGTERM: times until every stream has its `event: end` and its end, and until the process exits.
Prints one RESULT line."""
import asyncio
import http.client
import json
import os
import signal
import re
import statistics
import sys
import threading
import time
from urllib.parse import urlparse

from procstatus import rss_and_threads

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Support"))
import lifecycled_support  # noqa: E402

url, app, streams, events, pid = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
target = urlparse(url)
host, port = target.hostname, target.port
ID = re.compile(rb"id: (\d+)\n")


def call(method, path, body=None):
    status, _, data = lifecycled_support.call(host, port, method, path, body, timeout=30)
    return status, data


def proc_status():
    return rss_and_threads(pid)


def open_streams_gauge():
    _, text = call("GET", "/metrics")
    for line in text.decode().splitlines():
        if line.startswith("lifecycled_event_streams_open "):
            return int(float(line.split()[1]))
    return -1


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class Bystander(threading.Thread):
    """GET /v1/apps/OTHER in a loop on one keep-alive connection; every latency in ms."""

    def __init__(self, path):
        super().__init__(daemon=True)
        self.path, self.latencies, self.errors, self.stop = path, [], 0, threading.Event()

    def run(self):
        conn = http.client.HTTPConnection(host, port, timeout=10)
        while not self.stop.is_set():
            started = time.monotonic()
            try:
                conn.request("GET", self.path)
                answer = conn.getresponse()
                answer.read()
                if answer.status != 200:
                    self.errors += 1
            except Exception:  # noqa: BLE001 — counted and reported
                self.errors += 1
                conn = http.client.HTTPConnection(host, port, timeout=10)
            self.latencies.append((time.monotonic() - started) * 1000)
            time.sleep(0.002)


async def main():
    status, page = call("GET", f"/v1/apps/{app}/callbacks?limit=1000")
    assert status == 200, (status, page)
    after = json.loads(page)["next"]
    rss_idle, threads_idle = proc_status()
    bystander = Bystander(f"/v1/apps/{app}-bystander")
    bystander.start()

    request = (f"GET /v1/apps/{app}/callbacks?after={after} HTTP/1.1\r\nHost: {host}:{port}\r\n"
               f"Accept: text/event-stream\r\n\r\n").encode()
    connections = []
    opened_at = time.monotonic()
    for start in range(0, streams, 250):  # connect in batches: keeps under the listen backlog
        batch = await asyncio.gather(*(asyncio.open_connection(host, port, limit=1 << 20)
                                       for _ in range(start, min(streams, start + 250))))
        for _, writer in batch:
            writer.write(request)
        connections.extend(batch)
    await asyncio.gather(*(writer.drain() for _, writer in connections))
    heads = await asyncio.gather(*(asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 60) for reader, _ in connections))
    not_ok = sum(1 for head in heads if not head.startswith(b"HTTP/1.1 200"))
    open_seconds = time.monotonic() - opened_at

    goal = [0]          # the seq every stream must reach for the current event
    reached = [0]       # streams that reached it
    last_at = [0.0]
    first_at = [0.0]
    all_there = asyncio.Event()
    newest = [0] * len(connections)

    async def follow(index, reader):
        tail = b""
        while True:
            data = await reader.read(65536)
            if not data:
                return
            chunk = tail + data
            ids = ID.findall(chunk)
            tail = chunk[-32:]
            if ids:
                seen = max(int(i) for i in ids)
                if seen > newest[index]:
                    before = newest[index]
                    newest[index] = seen
                    if before < goal[0] <= seen:
                        reached[0] += 1
                        if reached[0] == 1:
                            first_at[0] = time.monotonic()
                        if reached[0] == len(connections):
                            last_at[0] = time.monotonic()
                            all_there.set()

    followers = [asyncio.ensure_future(follow(i, reader)) for i, (reader, _) in enumerate(connections)]
    await asyncio.sleep(2)  # every stream is idle (suspended) now
    rss_open, threads_open = proc_status()
    gauge_open = open_streams_gauge()

    loop = asyncio.get_running_loop()
    delays, firsts = [], []
    for index in range(events):
        body = json.dumps({"type": "launch" if index % 2 == 0 else "homeButton"})
        reached[0] = 0
        all_there.clear()
        status, answer = await loop.run_in_executor(None, call, "POST", f"/v1/apps/{app}/events", body)
        answered = time.monotonic()
        assert status == 200, (status, answer)
        callbacks = [e["seq"] for e in json.loads(answer)["entries"] if e.get("kind") == "callback"]
        goal[0] = max(callbacks)
        reached[0] = sum(1 for seen in newest if seen >= goal[0])
        if reached[0] > 0:
            first_at[0] = answered
        if reached[0] < len(connections):
            await asyncio.wait_for(all_there.wait(), 60)
        else:
            last_at[0] = answered
        delays.append(max(0.0, (last_at[0] - answered) * 1000))
        firsts.append(max(0.0, (first_at[0] - answered) * 1000))
        await asyncio.sleep(0.2)

    rss_events, threads_events = proc_status()
    for _, writer in connections:
        writer.close()
    for follower in followers:
        follower.cancel()
    closed_at = time.monotonic()
    gauge_closed = open_streams_gauge()
    while gauge_closed != 0 and time.monotonic() - closed_at < 30:
        await asyncio.sleep(0.05)
        gauge_closed = open_streams_gauge()
    freed_seconds = time.monotonic() - closed_at
    bystander.stop.set()
    bystander.join()
    rss_closed, threads_closed = proc_status()

    # Drain with every stream open: each must get `event: end` and the end of its body (the last chunk).
    connections = []
    for start in range(0, streams, 250):
        batch = await asyncio.gather(*(asyncio.open_connection(host, port, limit=1 << 20)
                                       for _ in range(start, min(streams, start + 250))))
        for _, writer in batch:
            writer.write(request)
        connections.extend(batch)
    await asyncio.gather(*(asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 60) for reader, _ in connections))
    while open_streams_gauge() < streams:
        await asyncio.sleep(0.05)

    async def until_end(reader):
        data = b""
        try:
            while not data.endswith(b"\r\n0\r\n\r\n"):
                more = await asyncio.wait_for(reader.read(65536), 30)
                if not more:
                    break
                data += more
        except Exception:  # noqa: BLE001 — counted as not ended
            return False
        return b"event: end" in data and b'"shutdown"' in data and data.endswith(b"\r\n0\r\n\r\n")

    signalled = time.monotonic()
    os.kill(pid, signal.SIGTERM)
    ended = await asyncio.gather(*(until_end(reader) for reader, _ in connections))
    drain_streams_s = time.monotonic() - signalled
    while time.monotonic() - signalled < 60:
        try:
            with open(f"/proc/{pid}/status") as f:
                if "\nState:\tZ" in f.read():
                    break
        except FileNotFoundError:
            break
        await asyncio.sleep(0.01)
    drain_exit_s = time.monotonic() - signalled
    for _, writer in connections:
        writer.close()
    lat = bystander.latencies
    print(f"RESULT streams={len(connections)} not_200={not_ok} open_s={open_seconds:.2f} "
          f"events={events} delay_median_ms={statistics.median(delays):.1f} "
          f"delay_p99_ms={percentile(delays, 0.99):.1f} delay_max_ms={max(delays):.1f} "
          f"first_stream_median_ms={statistics.median(firsts):.1f} "
          f"rss_idle_kib={rss_idle} rss_open_kib={rss_open} rss_after_events_kib={rss_events} "
          f"rss_closed_kib={rss_closed} threads_idle={threads_idle} threads_open={threads_open} "
          f"threads_after_events={threads_events} gauge_open={gauge_open} gauge_closed={gauge_closed} "
          f"freed_s={freed_seconds:.2f} bystander_requests={len(lat)} bystander_errors={bystander.errors} "
          f"bystander_p50_ms={percentile(lat, 0.5):.2f} bystander_p99_ms={percentile(lat, 0.99):.2f} "
          f"bystander_max_ms={max(lat):.2f} drain_ended_cleanly={sum(ended)} "
          f"drain_streams_s={drain_streams_s:.2f} drain_exit_s={drain_exit_s:.2f}")


asyncio.run(main())
