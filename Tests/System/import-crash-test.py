#!/usr/bin/env python3
"""Imports and seeds are whole or absent across SIGKILL and SIGTERM, against the real binary.

  1. An import of many devices, cut by SIGKILL at points spread over its run (measured first): after the
     restart its namespace holds none of it (not even the namespace) or all of it.
  2. The same cut by SIGTERM: the daemon drains; the import's answer and what the restart shows agree (200:
     all of it; anything else: none of it).
  3. A seed of many devices cut by SIGKILL, then by SIGTERM, while the daemon starts: the next start applies it
     again, whole.

Usage: import-crash-test.py --bin PATH      Prints 'N passed, N failed' last; exit 0 when all pass.
"""
import json
import os
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from lifecycled_daemon import Daemon  # noqa: E402
from lifecycled_support import Checks, request  # noqa: E402

checks = Checks()
check = checks.check
DEVICES = 800


def scenario(name="cut"):
    steps = []
    for i in range(DEVICES):
        steps.append({"do": "POST /v1/devices", "body": {"id": f"d{i}"}, "status": 201})
        steps.append({"do": "POST /v1/apps", "body": {"id": f"a{i}", "device": f"d{i}", "bundleId": "b"}, "status": 201})
        steps.append({"do": f"POST /v1/apps/a{i}/events", "body": {"type": "launch"}, "status": 200})
    return {"name": name, "source": "import-crash-test", "namespace": "seeded", "steps": steps}


def devices_in(base, namespace):
    status, _, body = request(f"{base}/v1/namespaces/{namespace}")
    if status == 404:
        return 0
    return body.get("devices") if status == 200 else f"status {status}"


def import_in_thread(base, namespace, answer):
    def run():
        answer.append(request(f"{base}/v1/namespaces/{namespace}/import", "POST", scenario(), timeout=120)[0])
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def start(binary, work, *args, name, seconds=60):
    return Daemon(binary, *args, log=os.path.join(work, name), ready_seconds=seconds).start()


def cut_imports(binary, work):
    data = os.path.join(work, "data")
    with start(binary, work, "--data-dir", data, "--access-log", "off", name="log-measure") as daemon:
        base = daemon.url
        started = time.monotonic()
        status = request(f"{base}/v1/namespaces/whole/import", "POST", scenario(), timeout=120)[0]
        took = time.monotonic() - started
        check(f"an import of {DEVICES} devices applies ({took:.2f} s)", status == 200 and
              devices_in(base, "whole") == DEVICES, status)
    outcomes = []
    for round_, fraction in enumerate((0.1, 0.3, 0.5, 0.7, 0.85, 0.95, 1.05)):
        namespace = f"cut-{round_}"
        daemon = start(binary, work, "--data-dir", data, "--access-log", "off", name=f"log-kill-{round_}")
        answer = []
        import_in_thread(daemon.url, namespace, answer)
        time.sleep(took * fraction)
        daemon.kill()
        with start(binary, work, "--data-dir", data, "--access-log", "off", name=f"log-after-{round_}") as daemon:
            base = daemon.url
            held = devices_in(base, namespace)
            outcomes.append(held)
            check(f"SIGKILL at {fraction:.0%} of an import: after the restart, {held} devices (none or all)",
                  held in (0, DEVICES), held)
            check("... and what was there before is whole", devices_in(base, "whole") == DEVICES)
    print(f"  devices after each SIGKILL: {outcomes}")
    for round_, fraction in enumerate((0.3, 0.8)):
        namespace = f"term-{round_}"
        daemon = start(binary, work, "--data-dir", data, "--access-log", "off", name=f"log-term-{round_}")
        answer = []
        thread = import_in_thread(daemon.url, namespace, answer)
        time.sleep(took * fraction)
        daemon.stop(60)
        thread.join(30)
        with start(binary, work, "--data-dir", data, "--access-log", "off", name=f"log-term-after-{round_}") as daemon:
            held = devices_in(daemon.url, namespace)
            said = answer[0] if answer else None
            check(f"SIGTERM at {fraction:.0%} of an import: it answered {said}, the restart holds {held} devices",
                  (said == 200 and held == DEVICES) or (said != 200 and held == 0), (said, held))


def cut_seed(binary, work):
    seed = os.path.join(work, "seed.json")
    with open(seed, "w") as f:
        json.dump(scenario("seed"), f)
    data = os.path.join(work, "seed-data")
    # How long a start with the seed takes, in a folder of its own.
    started = time.monotonic()
    start(binary, work, "--data-dir", os.path.join(work, "seed-measure"), "--seed", seed, "--access-log", "off",
          name="log-seed-measure", seconds=120).stop()
    took = time.monotonic() - started
    # Cut while it starts: launched, not waited for.
    for round_, (fraction, cut) in enumerate(((0.3, "kill"), (0.6, "kill"), (0.9, "kill"), (0.5, "stop"))):
        daemon = Daemon(binary, "--data-dir", data, "--seed", seed, "--access-log", "off",
                        log=os.path.join(work, f"log-seed-cut-{round_}")).launch()
        time.sleep(took * fraction)
        getattr(daemon, cut)()
    with start(binary, work, "--data-dir", data, "--seed", seed, "--access-log", "off", name="log-seed-after",
               seconds=120) as daemon:
        held = devices_in(daemon.url, "seeded")
        check(f"a seed cut by SIGKILL three times and SIGTERM once ({took:.2f} s a start) is applied whole at the next start: "
              f"{held} devices", held == DEVICES, held)


if __name__ == "__main__":
    checks.run("lifecycled-import-crash-", [cut_imports, cut_seed])
