#!/usr/bin/env python3
"""Crash test of lifecycled's durability promise: a 2xx answer describes durable state.

One run: start the daemon on a fresh data dir, create devices and apps, let client threads post
events as fast as they can, SIGKILL the daemon while they are still posting, restart it on the same
dir and check that every acknowledged timeline entry is there, unchanged, at its seq; that seqs run
1..N without gaps; that new entries continue at N+1; that every app is still listed; that an
Idempotency-Key retried after the restart replays instead of applying twice; and that SIGTERM stops
the daemon with exit status 0.

  crash-test.py --bin PATH [--seed N] [--duration S]    one crash run
  crash-test.py --bin PATH --corrupt                    a damaged data dir must be refused

Prints one verdict line (PASS/FAIL) and exits 0 on success, 1 on failure. Standard library only;
talks to 127.0.0.1 only.
"""

import argparse
import http.client
import json
import os
import random
import re
import shutil
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from lifecycled_daemon import Daemon, DaemonError, refused  # noqa: E402
from lifecycled_support import call  # noqa: E402

HOST = "127.0.0.1"


class Failure(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# Daemon process


def start_daemon(binary, data_dir, log_path, extra=()):
    """The daemon on `data_dir`, ready (its output appended to `log_path`); one that does not start fails the run."""
    daemon = Daemon(binary, "--host", HOST, "--data-dir", data_dir, *extra, log=log_path, ready_seconds=20)
    try:
        return daemon.start()
    except DaemonError as error:
        raise Failure(str(error))


def terminate(daemon, timeout=5.0):
    """SIGTERM: it must exit 0 within `timeout`; returns how long it took."""
    if not daemon.running():
        raise Failure("daemon had already exited with %s before SIGTERM" % daemon.process.returncode)
    started = time.monotonic()
    try:
        code = daemon.stop(timeout)
    except DaemonError:
        raise Failure("daemon did not exit within %.0fs of SIGTERM" % timeout)
    if code != 0:
        raise Failure("daemon exited with %s after SIGTERM (expected 0)" % code)
    return time.monotonic() - started


# ---------------------------------------------------------------------------------------------
# HTTP


def request(port, method, path, body=None, headers=None, timeout=5.0, conn=None):
    """One request to the daemon on `port`: (status, headers with lower-case names, raw body bytes)."""
    return call(HOST, port, method, path, body, headers, timeout, conn)


def request_json(port, method, path, body=None, headers=None, expect=(200,)):
    status, hdrs, raw = request(port, method, path, body, headers)
    if status not in expect:
        raise Failure("%s %s answered %d (expected %s): %s" % (method, path, status, expect, raw[:300]))
    try:
        return status, hdrs, json.loads(raw) if raw else None
    except ValueError:
        raise Failure("%s %s answered non-JSON: %r" % (method, path, raw[:300]))


# ---------------------------------------------------------------------------------------------
# Workload

# The events the clients post come from the catalogue the daemon serves (GET /v1/event-types), not from a
# copy of it: every type, posted on the path its scope takes (an app's path also takes device-level types;
# scene types only on the scene device), its fields filled from the catalogue's own description of them. A
# text field is given one of its suggestions; one without (a URL, a name) is left out, and a type that
# requires one (openURL) is not posted, since the catalogue gives no valid value for it.
# Two kinds of field cannot always be given a value that holds now, so a 400 naming one changes nothing and
# is accepted: a field that names something the app may not have now (`of`: a scene session, another app),
# and a `json` field (a `change`'s value depends on its kind, which the catalogue does not describe).


def field_value(field, r, apps):
    """A value for one catalogue field, from what the catalogue says of it (choices, range, suggestions)."""
    kind = field["kind"]
    if kind == "choice":
        return r.choice(field["options"])
    if kind == "flag":
        return r.random() < 0.5
    if kind == "identifier":
        return r.choice(apps) if field.get("of") == "app" else "s%d" % r.randrange(1, 4)
    if kind == "wholeNumber":
        low = max(field.get("minimum", 0), 1)
        return r.randrange(low, min(field.get("maximum", low + 5), low + 5) + 1)
    if kind == "number":
        return min(max(r.choice([0.5, 1, 3]), field.get("minimum", 0)), field.get("maximum", 3))
    if kind == "json":
        return {"n": r.randrange(10)}
    return r.choice(field["suggestions"])


def fillable(field):
    return field["kind"] != "text" or bool(field.get("suggestions"))


def event(kind, r, apps):
    """One event of catalogue type `kind`: its required fields and, half the time each, its optional ones."""
    body = {"type": kind["type"]}
    for field in filter(fillable, kind["fields"]):
        if field["required"] or r.random() < 0.5:
            body[field["name"]] = field_value(field, r, apps)
    return body


def problem_field(raw):
    try:
        return json.loads(raw).get("field")
    except (ValueError, AttributeError):
        return None


def unsure_fields(catalogue):
    """The fields whose 400 the workload accepts (see above)."""
    return {f["name"] for kind in catalogue for f in kind["fields"] if f.get("of") or f["kind"] == "json"}


class Record:
    """What the clients saw: acknowledged answers, per device, shared between threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.entries = {}  # device -> {seq: entry}
        self.keyed = {}  # device -> [(path, body bytes, key, parsed answer)]
        self.problems = []
        self.acked = 0
        self.statuses = {}
        self.conn_errors = 0

    def problem(self, text):
        with self.lock:
            if len(self.problems) < 20:
                self.problems.append(text)


def client(index, port, devices, record, stop, killed, seed, cycle, catalogue):
    rnd = random.Random(seed * 1000 + cycle * 100 + index)
    unsure = unsure_fields(catalogue)
    conn = None
    sent = 0
    while not stop.is_set() and sent < 200000:
        device = rnd.choice(list(devices))
        apps = devices[device]
        count = 1 if rnd.random() < 0.5 else rnd.randrange(2, 7)
        if rnd.random() < 0.6:
            app = rnd.choice(apps)
            path = "/v1/apps/%s/events" % app
            scopes = ("app", "device", "scene") if "13_0" in device else ("app", "device")
        else:
            path = "/v1/devices/%s/events" % device
            scopes = ("device",)
        pool = [kind for kind in catalogue if kind["scope"] in scopes
                and all(fillable(f) for f in kind["fields"] if f["required"])]
        events = [event(rnd.choice(pool), rnd, apps) for _ in range(count)]
        body = events[0] if count == 1 and rnd.random() < 0.5 else events
        data = json.dumps(body).encode()
        headers = {}
        key = None
        if rnd.random() < 0.25:
            key = "k-%d-%d-%d-%d" % (seed, cycle, index, sent)
            headers["Idempotency-Key"] = key
        sent += 1
        try:
            if conn is None:
                conn = http.client.HTTPConnection(HOST, port, timeout=5)
            status, _, raw = request(port, "POST", path, data, headers, conn=conn)
        except (OSError, http.client.HTTPException) as e:
            if conn is not None:
                conn.close()
                conn = None
            if killed.is_set():
                with record.lock:
                    record.conn_errors += 1
                return  # expected: the daemon is gone; this request is not acknowledged
            record.problem("client %d: connection error before the kill: %r" % (index, e))
            time.sleep(0.05)
            continue
        with record.lock:
            record.statuses[status] = record.statuses.get(status, 0) + 1
        if 200 <= status < 300:
            try:
                answer = json.loads(raw)
            except ValueError:
                record.problem("2xx answer is not JSON: %r" % raw[:200])
                continue
            entries = answer.get("entries")
            if not isinstance(entries, list):
                record.problem("2xx answer without entries: %r" % raw[:200])
                continue
            with record.lock:
                record.acked += 1
                seen = record.entries.setdefault(device, {})
                for entry in entries:
                    seq = entry.get("seq")
                    if not isinstance(seq, int):
                        record.problems.append("entry without integer seq: %r" % entry)
                        continue
                    if seq in seen and seen[seq] != entry:
                        record.problems.append(
                            "device %s seq %d acknowledged twice with different content: %r vs %r"
                            % (device, seq, seen[seq], entry))
                    seen[seq] = entry
                if key is not None:
                    record.keyed.setdefault(device, []).append((path, data, key, answer))
        elif status in (409,):
            pass  # an event that cannot happen now: fine, nothing changed
        elif status == 400 and problem_field(raw) in unsure:
            pass  # a field the catalogue cannot fill with a value that holds now (see above): nothing changed
        else:
            record.problem("%s %s answered %d: %s" % (path, data[:120], status, raw[:200]))
    if conn is not None:
        conn.close()


# ---------------------------------------------------------------------------------------------
# Checks after the restart


def read_timeline(port, device, kind="devices"):
    items = []
    after = 0
    for _ in range(100000):
        _, _, page = request_json(port, "GET", "/v1/%s/%s/timeline?after=%d&limit=1000" % (kind, device, after))
        batch = page.get("items")
        if not isinstance(batch, list):
            raise Failure("timeline page without items: %r" % page)
        if not batch:
            return items
        items.extend(batch)
        nxt = page.get("next")
        if not isinstance(nxt, int) or nxt <= after:
            raise Failure("timeline of %s: next %r does not advance past %d" % (device, nxt, after))
        after = nxt
    raise Failure("timeline of %s: too many pages" % device)


def list_apps(port, device):
    ids = []
    after = None
    for _ in range(1000):
        path = "/v1/apps?device=%s&limit=100" % device
        if after:
            path += "&after=%s" % after
        _, _, page = request_json(port, "GET", path)
        ids.extend(item["id"] for item in page.get("items", []))
        after = page.get("next")
        if not after:
            return ids
    raise Failure("app list of %s: too many pages" % device)


def check_timeline(device, items, acked):
    seqs = [item.get("seq") for item in items]
    n = len(items)
    if seqs != list(range(1, n + 1)):
        for i, s in enumerate(seqs):
            if s != i + 1:
                raise Failure("device %s: timeline seq at position %d is %r, expected %d (gap or duplicate; %d items)"
                              % (device, i, s, i + 1, n))
    by_seq = {item["seq"]: item for item in items}
    missing = [s for s in sorted(acked) if s not in by_seq]
    if missing:
        raise Failure("device %s: %d acknowledged entries lost after the restart (seqs %s%s; timeline ends at %d)"
                      % (device, len(missing), missing[:10], "..." if len(missing) > 10 else "", n))
    for s in sorted(acked):
        if by_seq[s] != acked[s]:
            raise Failure("device %s: entry %d differs after the restart:\n  acknowledged: %s\n  recovered:    %s"
                          % (device, s, json.dumps(acked[s], sort_keys=True), json.dumps(by_seq[s], sort_keys=True)))
    return n


def check_idempotent_retry(port, device, keyed, timeline_len):
    # The newest and one random older keyed request of the device (the cache keeps thousands).
    picks = [keyed[-1]]
    if len(keyed) > 1:
        picks.append(random.choice(keyed[:-1]))
    for path, data, key, answer in picks:
        status, hdrs, raw = request(port, "POST", path, data, {"Idempotency-Key": key})
        if status != 200:
            raise Failure("retry of %s with key %s after the restart answered %d: %s" % (path, key, status, raw[:300]))
        if hdrs.get("idempotent-replayed", "").lower() != "true":
            raise Failure("retry of %s with key %s after the restart lacks Idempotent-Replayed: true (headers %r)"
                          % (path, key, hdrs))
        replay = json.loads(raw)
        if replay != answer:
            raise Failure("retry of %s with key %s replays a different answer:\n  first:  %s\n  replay: %s"
                          % (path, key, json.dumps(answer, sort_keys=True)[:600],
                             json.dumps(replay, sort_keys=True)[:600]))
    _, _, page = request_json(port, "GET", "/v1/devices/%s/timeline?after=%d&limit=10" % (device, timeline_len))
    if page.get("items"):
        raise Failure("device %s: replayed retries added entries %r" % (device, page["items"][:3]))
    return len(picks)


def check_continues(port, device, apps, n):
    """Posts until an answer produces entries; they must start at n+1 and run on without gaps."""
    candidates = [
        ("/v1/apps/%s/events" % apps[0], {"type": "touch"}),
        ("/v1/devices/%s/events" % device, {"type": "unlock"}),
        ("/v1/apps/%s/events" % apps[0], {"type": "activate"}),
        ("/v1/apps/%s/events" % apps[1], {"type": "activate"}),
        ("/v1/devices/%s/events" % device, {"type": "homeButton"}),
        ("/v1/devices/%s/events" % device, {"type": "change", "kind": "orientation", "value": "landscapeLeft"}),
        ("/v1/devices/%s/events" % device, {"type": "change", "kind": "orientation", "value": "portrait"}),
    ]
    expected = n + 1
    for path, body in candidates:
        status, _, raw = request(port, "POST", path, body)
        if status == 409:
            continue
        if status != 200:
            raise Failure("POST %s %s after the restart answered %d: %s" % (path, body, status, raw[:300]))
        entries = json.loads(raw).get("entries", [])
        seqs = [e.get("seq") for e in entries]
        if seqs != list(range(expected, expected + len(seqs))):
            raise Failure("device %s: entries after the restart have seqs %s, expected to start at %d"
                          % (device, seqs, expected))
        if seqs:
            return entries
    raise Failure("device %s: no event after the restart produced an entry" % device)


# ---------------------------------------------------------------------------------------------
# Runs

DEVICE_SPECS = [("7.0", 3), ("4.0", 3), ("13.0", 3), ("3.0", 2), ("10.0", 4)]


def crash_run(args):
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rnd = random.Random(seed)
    started = time.monotonic()
    work = tempfile.mkdtemp(prefix="lifecycled-crash-")
    data_dir = os.path.join(work, "data")
    log_path = os.path.join(work, "daemon.log")
    # Every entry stays readable, so the check covers the whole timeline; small snapshot intervals make
    # start-up restore from a snapshot and replay only the tail (a quarter of the runs keep the default).
    extra = ["--history-limit", "1000000"]
    snapshot_every = args.snapshot_every
    if snapshot_every is None and rnd.random() < 0.75:
        snapshot_every = rnd.randrange(10, 150)
    if snapshot_every:
        extra += ["--snapshot-every", str(snapshot_every)]
    daemon = None
    summary = ""
    ok = False
    try:
        daemon = start_daemon(args.bin, data_dir, log_path, extra)
        port = daemon.port
        catalogue = request_json(port, "GET", "/v1/event-types")[2]["eventTypes"]

        devices = {}
        for i, (version, napps) in enumerate(DEVICE_SPECS):
            dev = "d%d-%s" % (i, version.replace(".", "_"))
            scenes = version == "13.0"
            body = {"id": dev, "iosVersion": version, "clock": {"mode": "manual"}}
            if scenes:
                body["idiom"] = "pad"
            request_json(port, "POST", "/v1/devices", body, expect=(201,))
            devices[dev] = []
            for j in range(napps):
                app = "%s-a%d" % (dev, j)
                body = {"id": app, "device": dev, "bundleId": "com.example.app%d" % j}
                if scenes:
                    body["info"] = {"sceneManifest": {"supportsMultipleScenes": True,
                                                      "configurations": [{"name": "Default"}]}}
                request_json(port, "POST", "/v1/apps", body, expect=(201,))
                devices[dev].append(app)

        record = Record()
        cycle_notes = []
        total_items = 0
        retries = 0
        for cycle in range(args.cycles):
            # Post from several clients, then SIGKILL the daemon while they are still at it.
            record.problems = []
            stop = threading.Event()
            killed = threading.Event()
            threads = [threading.Thread(target=client,
                                        args=(i, port, devices, record, stop, killed, seed, cycle, catalogue),
                                        daemon=True)
                       for i in range(args.clients)]
            acked_before = record.acked
            for t in threads:
                t.start()
            time.sleep(rnd.uniform(args.duration * 0.5, args.duration))
            killed.set()  # from here on, a failed request is expected and unacknowledged
            daemon.kill()
            stop.set()
            for t in threads:
                t.join(timeout=10)
            if any(t.is_alive() for t in threads):
                raise Failure("cycle %d: a client thread did not stop within 10s of the kill" % (cycle + 1))
            if record.problems:
                raise Failure("cycle %d, before the kill: %s" % (cycle + 1, "; ".join(record.problems[:5])))
            if record.acked == acked_before:
                raise Failure("cycle %d: no request was acknowledged before the kill" % (cycle + 1))

            # Restart on the same dir.
            restart_at = time.monotonic()
            try:
                port = daemon.start().port
            except DaemonError as error:
                raise Failure("cycle %d, the restart: %s" % (cycle + 1, error))
            recovery = time.monotonic() - restart_at

            # Everything acknowledged so far (all cycles) must be there.
            total_items = 0
            for dev, apps in devices.items():
                items = read_timeline(port, dev)
                acked = record.entries.setdefault(dev, {})
                n = check_timeline(dev, items, acked)
                total_items += n
                listed = list_apps(port, dev)
                lost = [a for a in apps if a not in listed]
                if lost:
                    raise Failure("device %s: apps %s missing from GET /v1/apps?device=%s (listed %s)"
                                  % (dev, lost, dev, listed))
                for app in apps:
                    own = [item for item in items if item.get("app") == app]
                    if read_timeline(port, app, "apps") != own:
                        raise Failure("app %s: its timeline after the restart is not its entries of the device "
                                      "timeline" % app)
                if record.keyed.get(dev):
                    retries += check_idempotent_retry(port, dev, record.keyed[dev], n)
                for entry in check_continues(port, dev, apps, n):
                    acked[entry["seq"]] = entry
                    total_items += 1
            replayed = re.findall(r"replayedRecords=(\d+)", daemon.log_text())
            cycle_notes.append("%.2fs/%s" % (recovery, replayed[-1] if replayed else "?"))
        if retries == 0:
            raise Failure("no keyed request was acknowledged, so the idempotent replay went untested")

        stop_time = terminate(daemon)
        acked_entries = sum(len(v) for v in record.entries.values())
        statuses = " ".join("%d:%d" % kv for kv in sorted(record.statuses.items()))
        summary = ("%d crash cycles, snapshot-every=%s, answers %s, %d acked requests, %d acked entries of %d "
                   "in the timelines, %d conn errors after kills, %d idempotent replays, recovery time/records replayed %s, "
                   "SIGTERM exit %.2fs"
                   % (args.cycles, snapshot_every or "default", statuses, record.acked, acked_entries, total_items,
                      record.conn_errors, retries, " ".join(cycle_notes), stop_time))
        ok = True
    except Failure as e:
        summary = str(e)
    except Exception as e:  # a harness error is a failure too, never a silent pass
        summary = "harness error: %r" % (e,)
    finally:
        if daemon is not None:
            daemon.kill()
    elapsed = time.monotonic() - started
    verdict = "PASS" if ok else "FAIL"
    print("%s crash run seed=%d in %.1fs: %s" % (verdict, seed, elapsed, summary), flush=True)
    if not ok:
        print("  data dir and daemon log kept in %s" % work, flush=True)
        tail = ""
        try:
            with open(log_path, "rb") as f:
                tail = f.read().decode("utf-8", "replace")[-3000:]
        except OSError:
            pass
        if tail:
            print("  daemon log tail:\n" + "\n".join("    " + l for l in tail.splitlines()[-30:]), flush=True)
    else:
        shutil.rmtree(work, ignore_errors=True)
    return ok


def expect_refused(args, data_dir, what, patterns):
    """Starts the daemon on data_dir; it must exit non-zero within a few seconds naming the problem."""
    code, text = refused(args.bin, "--host", HOST, "--port", "0", "--data-dir", data_dir, seconds=5)
    if code is None:
        raise Failure("%s: the daemon was still running after 5s instead of refusing the data dir" % what)
    if code == 0:
        raise Failure("%s: the daemon exited 0; stderr: %s" % (what, text[-500:]))
    if not any(re.search(p, text, re.IGNORECASE) for p in patterns):
        raise Failure("%s: exit %d but stderr does not name the problem (%s): %s"
                      % (what, code, " | ".join(patterns), text[-800:]))
    line = next((l for l in text.splitlines() if any(re.search(p, l, re.IGNORECASE) for p in patterns)), "")
    return code, line[line.find("error="):].strip() if "error=" in line else line.strip()


def corrupt_run(args):
    started = time.monotonic()
    work = tempfile.mkdtemp(prefix="lifecycled-corrupt-")
    ok = False
    details = []
    try:
        patterns = [r"lifecycled\.sqlite3", r"corrupt", r"not a (lifecycled )?database", r"malformed"]
        # 1. Pure garbage where the database should be.
        d1 = os.path.join(work, "garbage")
        os.makedirs(d1)
        with open(os.path.join(d1, "lifecycled.sqlite3"), "wb") as f:
            f.write(b"this is not a database\n" + os.urandom(8192))
        code, line = expect_refused(args, d1, "garbage file", patterns)
        details.append("garbage: exit %d" % code)

        # 2. A real store whose pages after the SQLite header were overwritten.
        d2 = os.path.join(work, "damaged")
        daemon = start_daemon(args.bin, d2, os.path.join(work, "daemon.log"))
        try:
            port = daemon.port
            request_json(port, "POST", "/v1/devices", {"id": "dx", "clock": {"mode": "manual"}}, expect=(201,))
            request_json(port, "POST", "/v1/apps", {"id": "ax", "device": "dx", "bundleId": "com.example.x"},
                         expect=(201,))
            terminate(daemon)
        finally:
            daemon.kill()
        db = os.path.join(d2, "lifecycled.sqlite3")
        size = os.path.getsize(db)
        if size < 1024:
            raise Failure("the store written by a clean stop is only %d bytes" % size)
        with open(db, "r+b") as f:
            f.seek(100)  # keep the 100-byte SQLite header, destroy everything after it
            f.write(os.urandom(size - 100))
        for extra in ("-wal", "-shm"):
            try:
                os.remove(db + extra)
            except FileNotFoundError:
                pass
        code, line2 = expect_refused(args, d2, "damaged pages", patterns)
        details.append("damaged pages: exit %d" % code)
        details.append("messages: %s | %s" % (line[:160], line2[:160]))
        ok = True
    except Failure as e:
        details.append(str(e))
    except Exception as e:
        details.append("harness error: %r" % (e,))
    verdict = "PASS" if ok else "FAIL"
    print("%s corrupt data dir refused in %.1fs: %s" % (verdict, time.monotonic() - started, "; ".join(details)),
          flush=True)
    if ok:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print("  data dirs kept in %s" % work, flush=True)
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True, help="the lifecycled binary")
    parser.add_argument("--seed", type=int, help="workload seed (random if omitted; printed in the verdict)")
    parser.add_argument("--duration", type=float, default=1.8,
                        help="longest posting time before the SIGKILL, seconds (the kill comes at 50-100%% of it)")
    parser.add_argument("--snapshot-every", type=int,
                        help="pass --snapshot-every N to the daemon (default: random per run, sometimes none)")
    parser.add_argument("--cycles", type=int, default=2,
                        help="post, SIGKILL, restart and check this many times on the same data dir")
    parser.add_argument("--clients", type=int, default=6, help="client threads")
    parser.add_argument("--corrupt", action="store_true", help="check that a damaged data dir is refused instead")
    args = parser.parse_args()
    if not os.access(args.bin, os.X_OK):
        print("FAIL: %s is not an executable" % args.bin)
        return 2
    args.duration = min(max(args.duration, 0.2), 5.0)
    args.clients = min(max(args.clients, 1), 32)
    args.cycles = min(max(args.cycles, 1), 10)
    ok = corrupt_run(args) if args.corrupt else crash_run(args)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
