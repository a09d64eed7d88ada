#!/usr/bin/env python3
"""Records a namespace, exports it, checks and imports the export: the recording feature as a user drives it.

Against a running daemon: every conformance scenario runs in the namespace `recorded` (`lifecycled check
--namespace recorded`); `GET /v1/namespaces/recorded/export` must be a valid scenario (docs/scenario.schema.json,
through `lifecycled check --validate-only`) that `lifecycled check` passes with no server; imported into the
namespace `copy`, it must rebuild every manual-clock device's timeline byte for byte and every app's callbacks.
Prints what it compared; exit 1 on the first difference.

Usage: export-roundtrip.py --base URL   (run from the repository; needs the built lifecycled)
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("LIFECYCLED_BIN", os.path.join(ROOT, ".build", "debug", "lifecycled"))


def request(base, method, path, body=None):
    data = None if body is None else body
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("Accept", "application/json")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=60) as reply:
        return reply.read()


def pages(base, path):
    """Every item of a paged list, as served (bytes of each item's JSON, in order)."""
    items, after = [], 0
    while True:
        page = json.loads(request(base, "GET", f"{path}?after={after}&limit=1000"))
        if not page["items"]:
            return items
        items += page["items"]
        after = page["next"]


def fail(message):
    print(f"export-roundtrip: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True)
    base = parser.parse_args().base.rstrip("/")
    suites = [os.path.join(ROOT, "Tests", "Conformance", d) for d in ("scenarios", "scenes")]
    run = subprocess.run([BIN, "check", "--url", base, "--namespace", "recorded", *suites], capture_output=True, text=True)
    if run.returncode != 0:
        fail(f"the scenarios did not pass in the namespace recorded:\n{run.stdout}{run.stderr}")
    exported = request(base, "GET", "/v1/namespaces/recorded/export")
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "01_recorded.json")
        with open(path, "wb") as f:
            f.write(exported)
        valid = subprocess.run([BIN, "check", "--validate-only", path], capture_output=True, text=True)
        if valid.returncode != 0:
            fail(f"the export is not a valid scenario:\n{valid.stdout}")
        checked = subprocess.run([BIN, "check", path], capture_output=True, text=True)
        if checked.returncode != 0:
            fail(f"lifecycled check did not pass the export:\n{checked.stdout}")
    answer = json.loads(request(base, "POST", "/v1/namespaces/copy/import", exported))
    devices = json.loads(request(base, "GET", "/v1/namespaces/recorded/devices?limit=1000"))["items"]
    if sorted(answer["devices"]) != sorted(d["id"] for d in devices):
        fail(f"the import created {answer['devices']}, the namespace holds {[d['id'] for d in devices]}")
    timelines = apps = 0
    for device in devices:
        if device["clock"]["mode"] == "manual":
            path = f"/devices/{device['id']}/timeline"
            if pages(base, "/v1/namespaces/recorded" + path) != pages(base, "/v1/namespaces/copy" + path):
                fail(f"the timeline of device {device['id']} differs in the copy")
            timelines += 1
        for app in device["apps"]:
            path = f"/apps/{app}/callbacks"
            original = [e["selector"] for e in pages(base, "/v1/namespaces/recorded" + path)]
            if original != [e["selector"] for e in pages(base, "/v1/namespaces/copy" + path)]:
                fail(f"the callbacks of app {app} differ in the copy")
            apps += 1
    steps = exported.count(b"\n{")
    print(f"export-roundtrip: {len(devices)} devices, {steps} steps exported; valid, checked, imported: "
          f"{timelines} timelines and {apps} apps' callbacks the same")


if __name__ == "__main__":
    main()
