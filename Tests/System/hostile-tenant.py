#!/usr/bin/env python3
"""A tenant who means harm, against the real binary: each probe of the hostile reading repeated, and the
bound that answers it checked.

  1. Payloads queued for suspended apps produce no timeline entry but cost journal bytes: the journal is
     snapshotted by bytes, and a restart reads it one device at a time, so its peak memory stays far
     below the journal's size.
  2. Many devices filling their histories: --memory-bytes holds the daemon's retained entries
     (the metric stays under it, the resident memory with it), whatever the number of devices.
  3. A disk filled through the API: past --max-data-bytes changes answer 507 and a deletion frees room.
  4. One ci-* token making namespaces without end: --max-namespaces-per-token answers 403 quota-exceeded.
  5. Devices without end: --max-devices answers 403 quota-exceeded.
  6. A scene app's sessions without end: the 33rd openScene answers 409.
  7. Revoking a token (tokens file rewritten, SIGHUP) ends the streams it opened (event: end, revoked).
  8. Request smuggling: Transfer-Encoding with a space before the colon, or a folded header, beside
     Content-Length answers 400 and closes; the bytes after it are never served as a request.
  9. /metrics takes an admin token; a path with %0A writes no line of the client's choosing.
 10. One write token and one read token flooding, for a fixed time, imports with substitutions, idempotent
     posts against apps with 60 KB descriptions, more such apps and exports: the daemon's peak resident
     memory stays under --memory-bytes plus a documented constant (docs/MEMORY.md), another tenant's
     requests are all answered, and the restart after a SIGKILL stays under the same bound.
The dashboard's paths built from the URL fragment and a world-writable tokens file have their probes in
dashboard-test.py and tokens-test.py.

Usage: hostile-tenant.py --bin PATH      Prints 'N passed, N failed' last; exit 0 when all pass.
"""
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from lifecycled_daemon import Daemon  # noqa: E402
from lifecycled_support import Checks, eventually, request, write_private  # noqa: E402

checks = Checks()
check = checks.check
PAYLOAD = "x" * 60_000


def status_kib(pid, field):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def directory_bytes(path):
    return sum(os.path.getsize(os.path.join(root, f)) for root, _, files in os.walk(path) for f in files)


def in_parallel(count, work):
    """Runs work(0) ... work(count - 1) on threads of their own and waits for all."""
    threads = [threading.Thread(target=work, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def suspended_app(base, device, app, token=None, prefix="/v1"):
    request(f"{base}{prefix}/devices", "POST", {"id": device}, token)
    request(f"{base}{prefix}/apps", "POST", {"id": app, "device": device, "bundleId": "com.example.a",
                                              "iosVersion": "7.0"}, token)
    request(f"{base}{prefix}/apps/{app}/events", "POST", [{"type": "launch"}, {"type": "homeButton"}], token)


def start(binary, work, *args, name, seconds=60):
    return Daemon(binary, *args, log=os.path.join(work, name), ready_seconds=seconds).start()


def journal_and_recovery(binary, work):
    data = os.path.join(work, "journal")
    daemon = start(binary, work, "--data-dir", data, "--snapshot-every", "100000000", name="log-journal")
    base = daemon.url
    devices = 12
    try:
        for d in range(devices):
            suspended_app(base, f"d{d}", f"a{d}")
        check("an app launched and sent Home is suspended", request(base + "/v1/apps/a0")[2].get("state") == "suspended")
        # 15 MB of queued payloads per device: just under the 16 MiB that brings a snapshot.
        notification = [{"type": "remoteNotification", "payload": {"p": PAYLOAD}}] * 15
        in_parallel(3, lambda first: [request(f"{base}/v1/apps/a{d}/events", "POST", notification, timeout=60)
                                       for d in range(first, devices, 3) for _ in range(16)])
        timeline = request(base + "/v1/apps/a0/timeline?after=0&limit=1000")[2]
        check("queued payloads produced no timeline entry", len(timeline.get("items", [])) < 20,
              len(timeline.get("items", [])))
    finally:
        daemon.stop()
    journal = directory_bytes(data)
    check(f"the journal holds the payloads ({journal >> 20} MiB)", journal > 150 << 20, journal)
    daemon = start(binary, work, "--data-dir", data, name="log-recovery")
    base = daemon.url
    try:
        peak = status_kib(daemon.pid, "VmHWM") << 10
        check(f"a restart reads it one device at a time: peak memory {peak >> 20} MiB, under half the journal "
              f"({journal >> 20} MiB)", peak < journal // 2, (peak, journal))
        check("... and every app is back, suspended, its payloads queued",
              request(base + "/v1/apps/a11")[2].get("state") == "suspended")
    finally:
        daemon.stop()
    # Past 16 MiB of records a device is snapshotted and the records it covers go: the journal stays bounded.
    daemon = start(binary, work, "--data-dir", data, "--snapshot-every", "100000000", name="log-journal2")
    base = daemon.url
    try:
        for _ in range(40):
            request(f"{base}/v1/apps/a0/events", "POST", notification, timeout=60)
    finally:
        daemon.stop()
    grown = directory_bytes(data)
    check(f"36 MB more for one device grow the journal by less ({(grown - journal) >> 20} MiB): snapshots by bytes",
          grown - journal < 30 << 20, (journal, grown))


def history_budget(binary, work):
    budget = 48 << 20
    daemon = start(binary, work, "--in-memory", "--memory-bytes", str(budget), name="log-history")
    base = daemon.url
    devices = 12
    try:
        base_rss = status_kib(daemon.pid, "VmRSS") << 10
        for d in range(devices):
            request(f"{base}/v1/devices", "POST", {"id": f"h{d}"})
            request(f"{base}/v1/apps", "POST", {"id": f"h{d}", "device": f"h{d}", "bundleId": "com.example.a"})
            request(f"{base}/v1/apps/h{d}/events", "POST", {"type": "launch"})
        # Each device alone may keep 32 MiB (--history-bytes): 12 of them 384 MiB without the daemon's budget.
        batch = [{"type": "remoteNotification", "payload": {"p": PAYLOAD}}] * 15
        in_parallel(3, lambda first: [request(f"{base}/v1/apps/h{d}/events", "POST", batch, timeout=60)
                                       for d in range(first, devices, 3) for _ in range(40)])
        text = str(request(base + "/metrics")[2])
        total = eventually(lambda: (lambda m: int(float(m.group(1))) if m and float(m.group(1)) <= budget else None)(
            re.search(r"^lifecycled_history_bytes (\S+)", str(request(base + "/metrics")[2]), re.M)), 10)
        check(f"12 devices of full histories keep at most --memory-bytes ({budget >> 20} MiB) together",
              total is not None and total <= budget, text[-300:])
        rss = status_kib(daemon.pid, "VmRSS") << 10
        check(f"... and the daemon's memory follows the budget, not the devices: {rss >> 20} MiB resident",
              rss - base_rss < 4 * budget, (base_rss, rss))
        check("... the largest devices gave up their oldest entries (410 behind them)",
              request(f"{base}/v1/apps/h0/timeline?after=1")[0] == 410)
    finally:
        daemon.stop()


def disk_cap(binary, work):
    data = os.path.join(work, "disk")
    daemon = start(binary, work, "--data-dir", data, "--max-data-bytes", str(8 << 20), name="log-disk")
    base = daemon.url
    try:
        suspended_app(base, "d", "a")
        statuses = []
        for _ in range(40):
            statuses.append(request(f"{base}/v1/apps/a/events", "POST",
                                    [{"type": "remoteNotification", "payload": {"p": PAYLOAD}}] * 10, timeout=60)[0])
            if statuses[-1] != 200:
                break
        status, _, body = request(f"{base}/v1/devices", "POST", {})
        check("past --max-data-bytes a change answers 507 insufficient-storage naming the setting",
              statuses[-1] == 507 and status == 507 and "--max-data-bytes" in body.get("detail", ""), (statuses, body))
        check("... reads go on", request(base + "/v1/apps/a")[0] == 200)
        check("... a deletion goes on", request(base + "/v1/devices/d", "DELETE")[0] == 204)
        check("... and frees room", request(f"{base}/v1/devices", "POST", {"id": "after"})[0] == 201)
    finally:
        daemon.stop()
    check(f"the data directory stayed near its cap ({directory_bytes(data) >> 20} MiB)",
          directory_bytes(data) < (8 << 20) + (80 << 20))


def tokens_and_quotas(binary, work):
    lines = {}
    secrets = {}
    for name, role, namespaces in (("ci", "write", ["ci-*"]), ("ops", "admin", []), ("gone", "read", ["*"])):
        args = ["token", "new", "--name", name, "--role", role]
        for ns in namespaces:
            args += ["--namespace", ns]
        out = subprocess.run([binary, *args], check=True, capture_output=True, text=True).stdout.split("\n")
        secrets[name], lines[name] = out[0], json.loads(out[1])
    tokens = os.path.join(work, "tokens.json")
    write_private(tokens, json.dumps({"tokens": list(lines.values())}))
    daemon = start(binary, work, "--in-memory", "--tokens", tokens, "--max-namespaces-per-token", "20",
                   "--max-devices", "60", name="log-tokens")
    base = daemon.url
    try:
        statuses = [request(f"{base}/v1/namespaces/ci-{i}/devices", "POST", {}, secrets["ci"])[0] for i in range(30)]
        check("one ci-* token makes 20 namespaces, then 403 quota-exceeded (--max-namespaces-per-token)",
              statuses[:20] == [201] * 20 and set(statuses[20:]) == {403}, statuses)
        listed = request(f"{base}/v1/namespaces?limit=1000", token=secrets["ops"])[2]
        check("... and no namespace was made past it",
              sum(1 for n in listed.get("items", []) if n["id"].startswith("ci-")) == 20)
        # A scene app's sessions are bounded.
        request(f"{base}/v1/namespaces/ci-0/apps", "POST", {
            "id": "s", "bundleId": "com.example.s", "iosVersion": "13.0",
            "info": {"sceneManifest": {"supportsMultipleScenes": True,
                                       "configurations": [{"name": "Default Configuration"}]}}}, secrets["ci"])
        opened = [request(f"{base}/v1/namespaces/ci-0/apps/s/events", "POST", {"type": "openScene"},
                          secrets["ci"])[0] for _ in range(34)]
        check("a scene app's 33rd openScene answers 409 (32 sessions at most)",
              409 in opened[30:] and opened.count(200) <= 33, opened)

        # A stream opened with a token ends once the token is revoked.
        request(f"{base}/v1/apps", "POST", {"id": "watched", "bundleId": "com.example.w"}, secrets["ops"])
        port = int(base.rsplit(":", 1)[1])
        stream = socket.create_connection(("127.0.0.1", port), timeout=15)
        stream.sendall((f"GET /v1/apps/watched/timeline HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                        f"Accept: text/event-stream\r\nAuthorization: Bearer {secrets['gone']}\r\n\r\n").encode())
        head = stream.recv(4096).decode(errors="replace")
        check("a read token opens a stream", head.startswith("HTTP/1.1 200"), head[:200])
        write_private(tokens, json.dumps({"tokens": [lines["ci"], lines["ops"]]}))
        daemon.send_signal(signal.SIGHUP)
        received = ""
        deadline = time.monotonic() + 10
        while "revoked" not in received and time.monotonic() < deadline:
            try:
                chunk = stream.recv(4096).decode(errors="replace")
            except socket.timeout:
                break
            if not chunk:
                break
            received += chunk
        stream.close()
        check("revoking its token ends the stream: event end, reason revoked",
              "event: end" in received and "revoked" in received, received[-300:])

        made = [request(f"{base}/v1/namespaces/ops-{i % 5}/devices", "POST", {}, secrets["ops"])[0] for i in range(50)]
        check("devices over every namespace stop at --max-devices (60: 22 made, 38 more)",
              made.count(201) == 38 and set(made[38:]) == {403}, made)

        # Smuggling: a second request hidden after a framing the daemon must refuse.
        for name, header in (("a space before the colon", "Transfer-Encoding : chunked\r\n"),
                             ("a folded header", "X-Fold: a\r\n Transfer-Encoding: chunked\r\n")):
            raw = socket.create_connection(("127.0.0.1", port), timeout=5)
            smuggled = f"GET /v1/reset HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
            raw.sendall((f"POST /v1/devices HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                         f"{header}Content-Length: {len(smuggled)}\r\n\r\n{smuggled}").encode())
            answer = b""
            try:
                while True:
                    chunk = raw.recv(65536)
                    if not chunk:
                        break
                    answer += chunk
            except socket.timeout:
                pass
            raw.close()
            text = answer.decode(errors="replace")
            check(f"smuggling with {name}: 400, the connection closed, one answer only",
                  text.startswith("HTTP/1.1 400") and text.count("HTTP/1.1 ") == 1, text[:300])

        check("/metrics without a token: 401", request(base + "/metrics")[0] == 401)
        check("/metrics with a write token: 403", request(base + "/metrics", token=secrets["ci"])[0] == 403)
        request(base + "/v1/apps/x%0A2026-11-24T06:45:00+0000%20critical%20lifecycled:%20FORGED")
        time.sleep(0.2)
        check("a path with %0A writes no forged line", not re.search(r"^\S* critical lifecycled: FORGED",
                                                                  daemon.log_text(), re.M))
    finally:
        daemon.stop()


FLOOD_SECONDS = 12
MEMORY_BUDGET = 96 << 20
# What the daemon may hold beside its budget (docs/MEMORY.md, "Bounded apart"): its own code and runtime,
# the exports' and imports' work in flight, request bodies, the allocator's slack.
MEMORY_CONSTANT = 160 << 20


def memory_flood(binary, work):
    lines, secrets = {}, {}
    for name, role, namespace in (("flood", "write", "flood-*"), ("peek", "read", "flood-*"), ("calm", "write", "calm")):
        out = subprocess.run([binary, "token", "new", "--name", name, "--role", role, "--namespace", namespace],
                             check=True, capture_output=True, text=True).stdout.split("\n")
        secrets[name], lines[name] = out[0], json.loads(out[1])
    tokens = os.path.join(work, "flood-tokens.json")
    write_private(tokens, json.dumps({"tokens": list(lines.values())}))
    data = os.path.join(work, "flood-data")
    args = ["--data-dir", data, "--tokens", tokens, "--memory-bytes", str(MEMORY_BUDGET),
            "--namespace-memory-bytes", str(MEMORY_BUDGET // 2), "--access-log", "off"]
    daemon = start(binary, work, *args, name="log-flood")
    base = daemon.url
    flood, peek, calm = secrets["flood"], secrets["peek"], secrets["calm"]
    big = "d" * 60_000
    stop_at = time.monotonic() + FLOOD_SECONDS
    counts = {"imports": 0, "keyed": 0, "apps": 0, "exports": 0, "507": 0, "429": 0}
    calm_answers = []

    def imports(i):
        # A saved 60 KB value used 8,000 times: refused before it is built, whatever the daemon holds.
        steps = [{"do": "POST /v1/apps", "body": {"id": f"i{i}", "bundleId": "b", "restorableState": {"s": big}},
                  "status": 201, "save": {"b": "restorableState.s"}},
                 {"do": "POST /v1/apps/i%d/events" % i, "body": {"type": "openURL", "url": "x://" + "${b}" * 8000}}]
        while time.monotonic() < stop_at:
            status = request(f"{base}/v1/namespaces/flood-imports-{i}/import", "POST",
                             {"name": "flood", "source": "hostile-tenant", "steps": steps}, flood, timeout=60)[0]
            counts["imports"] += 1
            counts["429"] += status == 429

    def keyed(i):
        request(f"{base}/v1/namespaces/flood-keys/apps", "POST",
                {"id": f"k{i}", "bundleId": "b", "restorableState": {"s": big}}, flood)
        n = 0
        while time.monotonic() < stop_at:
            request(f"{base}/v1/namespaces/flood-keys/apps/k{i}/events", "POST", {"type": "memoryWarning"}, flood,
                    headers={"Idempotency-Key": f"{i}-{n}"})
            n += 1
            counts["keyed"] += 1

    def apps(i):
        # Apps of 60 KB until the flood ends and, however slowly this machine creates them, until this thread has
        # met the budget (a refusal), which ~820 of them in one namespace must reach (--namespace-memory-bytes
        # 48 MiB): the check below then depends on the daemon, not on how many fit in the flood's seconds.
        n, refused = 0, False
        hard_stop = stop_at + 120
        while time.monotonic() < stop_at or (not refused and time.monotonic() < hard_stop):
            status = request(f"{base}/v1/namespaces/flood-apps-{i % 2}/apps", "POST",
                             {"id": f"a{i}-{n}", "bundleId": "b", "restorableState": {"s": big}}, flood)[0]
            n += 1
            counts["apps"] += 1
            counts["507"] += status == 507
            if status not in (201, 507):  # named in the failure's detail: what refused instead
                counts[f"apps {status}"] = counts.get(f"apps {status}", 0) + 1
            refused |= status == 507

    def exports(i):
        while time.monotonic() < stop_at:
            status = request(f"{base}/v1/namespaces/flood-keys/export", token=peek, timeout=60)[0]
            counts["exports"] += 1
            counts["429"] += status == 429

    def calm_tenant(_):
        request(f"{base}/v1/namespaces/calm/apps", "POST", {"id": "c", "bundleId": "b"}, calm)
        request(f"{base}/v1/namespaces/calm/apps/c/events", "POST", {"type": "launch"}, calm)
        while time.monotonic() < stop_at:
            started = time.monotonic()
            status = request(f"{base}/v1/namespaces/calm/apps/c/events", "POST", {"type": "memoryWarning"}, calm,
                             timeout=30)[0]
            calm_answers.append((status, time.monotonic() - started))
            time.sleep(0.05)

    try:
        base_rss = status_kib(daemon.pid, "VmRSS") << 10
        work_items = [(imports, 2), (keyed, 4), (apps, 4), (exports, 3), (calm_tenant, 1)]
        threads = [threading.Thread(target=fn, args=(i,)) for fn, n in work_items for i in range(n)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        peak = status_kib(daemon.pid, "VmHWM") << 10
        print(f"  flood: {counts}; base {base_rss >> 20} MiB, peak {peak >> 20} MiB resident")
        check(f"a {FLOOD_SECONDS} s flood of imports, keyed posts, 60 KB apps and exports: peak resident "
              f"{peak >> 20} MiB, under --memory-bytes ({MEMORY_BUDGET >> 20} MiB) + {MEMORY_CONSTANT >> 20} MiB",
              peak <= MEMORY_BUDGET + MEMORY_CONSTANT, (base_rss, peak, counts))
        check("... the flood met the budget: descriptions refused with 507 memory-budget-exceeded",
              counts["507"] > 0, counts)
        answered = [status for status, _ in calm_answers]
        slowest = max((seconds for _, seconds in calm_answers), default=0)
        check(f"... another tenant's {len(answered)} requests were all answered 200 (slowest {slowest:.2f} s)",
              len(answered) > 20 and set(answered) == {200}, sorted(set(answered)))
    finally:
        daemon.kill()
    daemon = start(binary, work, *args, name="log-flood-restart", seconds=120)
    base = daemon.url
    try:
        peak = status_kib(daemon.pid, "VmHWM") << 10
        check(f"the restart after a SIGKILL: peak resident {peak >> 20} MiB, under the same bound",
              peak <= MEMORY_BUDGET + MEMORY_CONSTANT, peak)
        check("... and it serves the other tenant's app",
              request(f"{base}/v1/namespaces/calm/apps/c", token=calm)[0] == 200)
    finally:
        daemon.stop()


if __name__ == "__main__":
    checks.run("lifecycled-hostile-tenant-",
               [tokens_and_quotas, disk_cap, history_budget, journal_and_recovery, memory_flood])
