#!/usr/bin/env python3
"""A journal of N MiB of payloads queued for suspended apps (no timeline entries, records only: the
tenant of the hostile reading), then a restart: the restart's peak resident memory (VmHWM) and time to
ready, against the journal's size. Each device gets just under the 16 MiB of records that bring a
snapshot, so the whole journal is replayed.
Usage: recovery.py BINARY MIB"""
import os, re, subprocess, sys, tempfile, threading, time  # noqa: E401

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Support"))
from lifecycled_daemon import Daemon, DaemonError  # noqa: E402
from lifecycled_support import request  # noqa: E402

PAYLOAD = "x" * 60_000
PER_DEVICE = 16 * 15  # requests of 15 payloads: 14.4 MB of records per device


def start(binary, data, work, name):
    """The daemon on `data`, ready; with the seconds from its start to ready."""
    started = time.monotonic()
    daemon = Daemon(binary, "--data-dir", data, "--snapshot-every", "100000000", log=os.path.join(work, name),
                    ready_seconds=3600)
    try:
        daemon.start()
    except DaemonError as error:
        sys.exit(str(error))
    return daemon, daemon.url, time.monotonic() - started


def status(pid, field):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(field + r":\s+(\d+)", f.read()).group(1)) << 10


def main():
    binary, mib = sys.argv[1], int(sys.argv[2])
    devices = max(1, (mib << 20) // (PER_DEVICE * 15 * 60_000 // 15))
    work = tempfile.mkdtemp(prefix="lifecycled-recovery-")
    data = os.path.join(work, "data")
    process, base, _ = start(binary, data, work, "log-writing")
    try:
        for d in range(devices):
            request(f"{base}/v1/devices", "POST", {"id": f"d{d}"})
            request(f"{base}/v1/apps", "POST", {"id": f"a{d}", "device": f"d{d}", "bundleId": "com.example.a",
                                                "iosVersion": "7.0"})
            request(f"{base}/v1/apps/a{d}/events", "POST", [{"type": "launch"}, {"type": "homeButton"}])
        batch = [{"type": "remoteNotification", "payload": {"p": PAYLOAD}}] * 15

        def fill(first):
            for d in range(first, devices, 4):
                for _ in range(PER_DEVICE // 15):
                    request(f"{base}/v1/apps/a{d}/events", "POST", batch, timeout=120)
        started = time.monotonic()
        threads = [threading.Thread(target=fill, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        filled = time.monotonic() - started
        writing_peak = status(process.pid, "VmHWM")
    finally:
        process.stop(120)
    size = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(data) for f in fs)
    print(f"journal: {size / 1048576:.0f} MiB on disk, {devices} devices, written in {filled:.0f} s "
          f"(peak resident while writing {writing_peak / 1048576:.0f} MiB)")
    process, base, ready = start(binary, data, work, "log-restart")
    try:
        peak, rss = status(process.pid, "VmHWM"), status(process.pid, "VmRSS")
        state = request(f"{base}/v1/apps/a{devices - 1}")[2].get("state")
        print(f"restart: ready in {ready:.1f} s; peak resident {peak / 1048576:.0f} MiB, resident at ready "
              f"{rss / 1048576:.0f} MiB; the last app {state}")
    finally:
        process.stop(120)
        subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
