#!/usr/bin/env python3
"""Makes a data-directory fixture: Tests/Fixtures/make-data-dir.py DAEMON FOLDER, from the repository's root
with a built daemon (.build/debug/lifecycled). It starts the daemon on a fresh directory with
--snapshot-every 20, sends Tests/Fixtures/data-dir-requests.txt (devices, apps, scenes, a namespace,
idempotency keys, deletions), saves the reads listed below with their status and body in FOLDER/expected.json,
stops the daemon with SIGTERM and copies its database to FOLDER. d1, d2 and the namespace's device are
restored from snapshots plus a few records; d3 from its records alone.

A fixture is made once, in the formats of its day, and never regenerated: every later build must open it
(DataDirectoryFixtureTests). data-dir-2, data-dir-3 and data-dir-4 were made with these requests and reads.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "Support"))
from lifecycled_support import call, eventually  # noqa: E402

READS = [
    "/v1/devices", "/v1/apps", "/v1/namespaces/team", "/v1/namespaces/team/devices", "/v1/namespaces/team/apps",
    "/v1/namespaces/team/apps/shop", "/v1/namespaces/team/apps/shop/timeline?limit=1000",
]
for device in ["d1", "d2", "d3", "gone"]:
    READS += [f"/v1/devices/{device}", f"/v1/devices/{device}/timeline?limit=1000"]
for app in ["mail", "music", "notes", "cal", "temp", "tmp3"]:
    READS += [
        f"/v1/apps/{app}", f"/v1/apps/{app}/timeline?limit=1000", f"/v1/apps/{app}/callbacks?limit=1000",
        f"/v1/apps/{app}/notifications", f"/v1/apps/{app}/notifications?delivered=true",
    ]


def requests():
    """(method, path, key or None, body bytes or None, may be refused) for each line of the list."""
    with open(os.path.join(here, "data-dir-requests.txt")) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            method, path, key, body = line.rstrip("\n").split(" ", 3)
            refusable = body.endswith(" ?")
            body = body[:-2] if refusable else body
            yield method, path, None if key == "-" else key, None if body == "-" else body.encode(), refusable


def main(daemon, folder):
    os.makedirs(folder, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        log = open(os.path.join(work, "log"), "w+")
        process = subprocess.Popen(
            [daemon, "--port", "0", "--data-dir", os.path.join(work, "data"), "--snapshot-every", "20"],
            stderr=log)
        try:
            def port():
                log.seek(0)
                found = re.search(r"url=http://127\.0\.0\.1:(\d+)", log.read())
                return found and int(found.group(1))
            number = eventually(port, seconds=30)
            if not number:
                sys.exit("make-data-dir: the daemon did not say where it listens")
            for method, path, key, body, refusable in requests():
                headers = {"Idempotency-Key": key} if key else {}
                status, _, answer = call("127.0.0.1", number, method, path, body, headers)
                if status >= 300 and not refusable:
                    sys.exit(f"make-data-dir: {method} {path} answered {status}: {answer.decode()}")
            answers = {}
            for path in READS:
                status, _, body = call("127.0.0.1", number, "GET", path)
                answers[path] = {"status": status, "body": body.decode()}
            with open(os.path.join(folder, "expected.json"), "w") as f:
                json.dump(answers, f, indent=1, sort_keys=True)
                f.write("\n")
        finally:
            process.terminate()
            process.wait()
        # The store and, from schema 2 on, its snapshots' file (SQLiteJournal.databaseFileNames).
        for name in ("lifecycled.sqlite3", "lifecycled-snapshots.sqlite3"):
            if os.path.exists(os.path.join(work, "data", name)):
                shutil.copy(os.path.join(work, "data", name), os.path.join(folder, name))
    print(f"{os.path.basename(folder.rstrip('/'))}: {len(answers)} reads saved")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: Tests/Fixtures/make-data-dir.py DAEMON FOLDER")
    main(sys.argv[1], sys.argv[2])
