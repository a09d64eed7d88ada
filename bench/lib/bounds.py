#!/usr/bin/env python3
"""The hostile runs of issue 9 against one daemon, with its RSS after each: events of 1 MB (refused by
--max-event-bytes), events just under the event limit until one device passes --history-bytes, and
the biggest pages a client can ask for (capped by --max-answer-bytes).
Usage: bounds.py BINARY [DAEMON ARGS...]"""
import http.client, json, os, re, shutil, sys, tempfile, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Support"))
import lifecycled_support  # noqa: E402
from lifecycled_daemon import Daemon, DaemonError  # noqa: E402


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1)) / 1024


def main():
    binary, extra = sys.argv[1], sys.argv[2:]
    work = tempfile.mkdtemp(prefix="lifecycled-bounds-")
    daemon = Daemon(binary, *extra, log=os.path.join(work, "log"))
    try:
        try:
            port = daemon.start().port
        except DaemonError as error:
            sys.exit(str(error))
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

        def call(method, path, body=None):
            status, _, data = lifecycled_support.call("127.0.0.1", port, method, path, body, conn=conn)
            return status, data

        print(f"args: {' '.join(extra) or '(defaults)'}")
        print(f"rss at start: {rss_mib(daemon.pid):.0f} MiB")
        call("POST", "/v1/devices", {"id": "d1"})
        call("POST", "/v1/apps", {"id": "a1", "device": "d1", "bundleId": "com.example.a"})
        call("POST", "/v1/apps/a1/events", {"type": "launch"})

        megabyte = json.dumps({"type": "remoteNotification", "payload": {"p": "x" * 1_000_000}}).encode()
        statuses = {}
        started = time.time()
        for _ in range(200):
            status, _ = call("POST", "/v1/apps/a1/events", megabyte)
            statuses[status] = statuses.get(status, 0) + 1
        print(f"200 events of 1 MB: answers {statuses} in {time.time() - started:.1f}s; rss {rss_mib(daemon.pid):.0f} MiB")

        near_limit = json.dumps({"type": "remoteNotification", "payload": {"p": "y" * 60_000}}).encode()
        statuses = {}
        started = time.time()
        for _ in range(1000):
            status, _ = call("POST", "/v1/apps/a1/events", near_limit)
            statuses[status] = statuses.get(status, 0) + 1
        print(f"1000 events of 60 KB on one device (60 MB posted): answers {statuses} in "
              f"{time.time() - started:.1f}s; rss {rss_mib(daemon.pid):.0f} MiB")

        for path in ["/v1/apps/a1/timeline?limit=1000", "/v1/devices/d1/timeline?limit=1000",
                     "/v1/apps/a1/notifications?delivered=true&limit=1000"]:
            started = time.time()
            status, body = call("GET", path)
            page = json.loads(body)
            print(f"GET {path}: {status}, {len(body) / 1048576:.2f} MiB, {len(page['items'])} items, "
                  f"next {page['next']}, {1000 * (time.time() - started):.0f} ms")
        total, after, pages = 0, 0, 0
        while True:
            status, body = call("GET", f"/v1/devices/d1/timeline?limit=1000&after={after}")
            if status == 410:
                after = json.loads(body)["oldestSeq"] - 1
                continue
            page = json.loads(body)
            if not page["items"]:
                break
            total += len(body)
            after = page["next"]
            pages += 1
        print(f"the device's retained timeline: {total / 1048576:.1f} MiB in {pages} pages; rss {rss_mib(daemon.pid):.0f} MiB")
    finally:
        daemon.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
