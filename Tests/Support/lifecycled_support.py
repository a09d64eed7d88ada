"""What the system tests (Tests/System), the benchmarks (bench/) and the deploy checks (deploy/) share:
one HTTP request (and one over a kept-alive connection, for load), one free port, one `eventually`, one
list of checks. Standard library only, so every
script that imports it runs with plain python3. The daemon itself starts through lifecycled_daemon.py.

A script finds it from its own folder:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
    from lifecycled_support import Checks, eventually, free_port, request
"""
import http.client
import json
import os
import socket
import sys
import time
import urllib.error
import urllib.request


def request(url, method="GET", body=None, token=None, timeout=10, headers=None):
    """One request to `url`: (status, headers, parsed JSON or text); (None, {}, the error's text) when
    nothing answered. `body` (any JSON value) is sent as JSON; `token` as a bearer token."""
    sent = {"Accept": "application/json"}
    if body is not None:
        sent["Content-Type"] = "application/json"
    if token:
        sent["Authorization"] = f"Bearer {token}"
    sent.update(headers or {})
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers=sent)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as answer:
            status, head, raw = answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        status, head, raw = error.code, error.headers, error.read()
    except OSError as error:
        return None, {}, str(error)
    if not raw:
        return status, head, None
    try:
        return status, head, json.loads(raw)
    except ValueError:
        return status, head, raw.decode("utf-8", "replace")


def call(host, port, method, path, body=None, headers=None, timeout=5.0, conn=None):
    """One request over `conn` (an `http.client.HTTPConnection` the caller keeps alive between calls and
    replaces after an error), or over a connection of its own: (status, headers with lower-case names, raw
    body bytes). `body`: bytes as they are, or any JSON value. For clients that send many requests."""
    own = conn is None
    if own:
        conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        sent = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        sent.update(headers or {})
        conn.request(method, path, body=data, headers=sent)
        answer = conn.getresponse()
        raw = answer.read()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, raw
    finally:
        if own:
            conn.close()


def write_private(path, text):
    """Writes `text` to `path` readable and writable by its owner only (mode 600), as the daemon requires of
    a tokens file."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.chmod(path, 0o600)
    with os.fdopen(descriptor, "w") as f:
        f.write(text)


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def eventually(condition, seconds=5, every=0.05):
    """Calls `condition` until it returns something true or `seconds` have passed; returns its last value."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(every)


class Checks:
    """Named checks: each prints PASS or FAIL (with what was seen); `finish` prints the count and exits."""

    def __init__(self):
        self.passed = 0
        self.failed = []

    def check(self, name, ok, detail=""):
        print(f"{'PASS' if ok else 'FAIL'} {name}{'' if ok else ': ' + str(detail)[:600]}", flush=True)
        if ok:
            self.passed += 1
        else:
            self.failed.append(name)
        return ok

    def finish(self):
        """Prints `N passed, M failed` and exits: 0 only when every check passed."""
        print(f"{self.passed} passed, {len(self.failed)} failed", flush=True)
        sys.exit(1 if self.failed else 0)

    def run(self, prefix, parts):
        """A system test's main: `--bin PATH`, one temporary folder, each `part(binary, work)` in turn, the
        folder removed, then the verdict (`finish`)."""
        import argparse
        import shutil
        import tempfile
        parser = argparse.ArgumentParser()
        parser.add_argument("--bin", required=True)
        binary = os.path.abspath(parser.parse_args().bin)
        work = tempfile.mkdtemp(prefix=prefix)
        try:
            for part in parts:
                part(binary, work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        self.finish()
