#!/usr/bin/env python3
"""Running the daemon as an operator does, through the real binary: which build answers (--version, the
probes, the build-info metric, the first log line); the systemd unit (systemd-analyze verify; Type=notify
readiness sent once /readyz is ready, RELOADING on SIGHUP, STOPPING on SIGTERM; the start-up refusals exit
with a status the unit does not restart); /metrics (a # HELP line for every metric, the process, store and
connection metrics, the README's table listing exactly what it shows, an admin token with --tokens).

Usage: operations-test.py --bin PATH      Prints 'N passed, N failed' last; exit 0 when all pass.
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(HERE, "..", "Support"))
from lifecycled_support import Checks, eventually, free_port, request, write_private  # noqa: E402

checks = Checks()
check = checks.check


def start(binary, work, *args, env=None, name="log"):
    log_path = os.path.join(work, name)
    log = open(log_path, "w+")
    process = subprocess.Popen([binary, "--port", "0", *args], stderr=log, stdout=log,
                               env={**os.environ, **(env or {})})
    for _ in range(300):
        match = re.search(r"url=http://[^ ]*:(\d+)", open(log_path).read())
        if match:
            return process, f"http://127.0.0.1:{match.group(1)}", log_path
        if process.poll() is not None:
            break
        time.sleep(0.05)
    raise SystemExit(f"the daemon did not start: {open(log_path).read()}")


def stop(process):
    process.terminate()
    return process.wait(20)


def metrics_text(base, token=None):
    body = request(base + "/metrics", token=token)[2]
    return body.decode() if isinstance(body, bytes) else str(body)


def metric_names(text):
    return {m.group(1) for m in re.finditer(r"^# TYPE (\S+) ", text, re.M)}


def which_build(binary, work):
    version = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=10)
    match = re.fullmatch(r"lifecycled (\d+\.\d+\.\d+) \(revision (\S+)\)\n", version.stdout)
    check("--version prints the release and the revision, exit 0", version.returncode == 0 and match, version)
    release, revision = match.groups() if match else ("?", "?")
    spec = open(os.path.join(ROOT, "api", "openapi.yaml")).read()
    check("... the release is the OpenAPI document's info.version", f"\n  version: {release}\n" in spec)
    process, base, log = start(binary, work, "--in-memory")
    try:
        for path in ("/livez", "/readyz"):
            _, _, body = request(base + path)
            check(f"{path} names the build", body.get("version") == release and body.get("revision") == revision, body)
        check("lifecycled_build_info carries the build", re.search(
            rf'^lifecycled_build_info\{{version="{re.escape(release)}",revision="{re.escape(revision)}"\}} 1(\.0)?$',
            metrics_text(base), re.M))
        first = open(log).readline()
        check("the first log line says which build starts",
              "starting" in first and f"version={release}" in first and f"revision={revision}" in first, first)
    finally:
        stop(process)


def metrics(binary, work):
    data = os.path.join(work, "data")
    process, base, _ = start(binary, work, "--data-dir", data, "--max-connections", "8")
    try:
        request(base + "/v1/devices", "POST", {"id": "d1"})
        request(base + "/v1/apps", "POST", {"id": "a1", "device": "d1", "bundleId": "com.example.a"})
        request(base + "/v1/apps/a1/events", "POST", {"type": "launch"})
        # Past --max-connections: the ninth connection is refused at accept and counted.
        port = int(base.rsplit(":", 1)[1])
        held = [socket.create_connection(("127.0.0.1", port)) for _ in range(9)]
        time.sleep(0.3)
        for s in held:
            s.close()
        refused = r'^lifecycled_http_connections_refused_total\{reason="max-connections"\} [1-9]'
        eventually(lambda: re.search(refused, metrics_text(base), re.M), 5)
        text = metrics_text(base)
    finally:
        stop(process)
    names = metric_names(text)
    helped = {m.group(1) for m in re.finditer(r"^# HELP (\S+) \S", text, re.M)}
    check("every metric has a # HELP line", names and names == helped, sorted(names - helped))
    for name in ("process_resident_memory_bytes", "process_open_fds", "process_max_fds", "process_cpu_seconds_total",
                 "process_start_time_seconds", "lifecycled_store_commit_duration_seconds",
                 "lifecycled_store_snapshot_bytes_total", "lifecycled_store_wal_bytes", "lifecycled_recovery_seconds",
                 "lifecycled_http_connections_open", "lifecycled_http_connections_refused_total"):
        check(f"{name} is shown", name in names)
    rss = re.search(r"^process_resident_memory_bytes (\d+)", text, re.M)
    check("the resident memory is a plausible figure (1 MiB to 4 GiB)",
          rss and (1 << 20) < int(rss.group(1)) < (4 << 30), rss and rss.group(0))
    started = re.search(r"^process_start_time_seconds (\S+)", text, re.M)
    check("the start time is within the last ten minutes",
          started and time.time() - 600 < float(started.group(1)) <= time.time() + 1, started and started.group(0))
    check("a group commit was timed", re.search(r"^lifecycled_store_commit_duration_seconds_count [1-9]", text, re.M))
    check("a connection past --max-connections was refused and counted",
          re.search(r'^lifecycled_http_connections_refused_total\{reason="max-connections"\} [1-9]', text, re.M))
    readme = open(os.path.join(ROOT, "README.md")).read()
    table = set(re.findall(r"^\| `((?:lifecycled|process)_[a-z_]+)` \|", readme, re.M))
    check("the README's metrics table lists exactly the metrics shown", table == names,
          {"not in the README": sorted(names - table), "not shown": sorted(table - names)})


def metrics_token(binary, work):
    admin_out = subprocess.run([binary, "token", "new", "--name", "ops", "--role", "admin"],
                               check=True, capture_output=True, text=True).stdout.split("\n")
    reader_out = subprocess.run([binary, "token", "new", "--name", "dash", "--role", "read", "--namespace", "*"],
                                check=True, capture_output=True, text=True).stdout.split("\n")
    tokens = os.path.join(work, "tokens.json")
    write_private(tokens, json.dumps({"tokens": [json.loads(admin_out[1]), json.loads(reader_out[1])]}))
    process, base, _ = start(binary, work, "--in-memory", "--tokens", tokens, name="log-tokens")
    try:
        check("with --tokens, /metrics without a token: 401", request(base + "/metrics")[0] == 401)
        check("... with a read token: 403", request(base + "/metrics", token=reader_out[0])[0] == 403)
        check("... with an admin token: 200", request(base + "/metrics", token=admin_out[0])[0] == 200)
        check("... and the probes need none", request(base + "/readyz")[0] == 200)
    finally:
        stop(process)


def unit_file(binary, work):
    unit = open(os.path.join(ROOT, "deploy", "lifecycled.service")).read()
    # systemd-analyze verify needs ExecStart's binary to exist: the built one stands in for /usr/local/bin's.
    copy = os.path.join(work, "lifecycled.service")
    with open(copy, "w") as f:
        f.write(unit.replace("/usr/local/bin/lifecycled", binary))
    verify = subprocess.run(["systemd-analyze", "verify", copy], capture_output=True, text=True, timeout=60)
    check("systemd-analyze verify accepts the unit, without a warning",
          verify.returncode == 0 and not verify.stderr.strip() and not verify.stdout.strip(), verify.stderr)
    for line in ("Type=notify", "ExecReload=/bin/kill -HUP $MAINPID"):
        check(f"the unit has {line}", f"\n{line}\n" in unit)
    prevented = re.search(r"^RestartPreventExitStatus=(.*)$", unit, re.M)
    prevented = set(prevented.group(1).split()) if prevented else set()
    bad = subprocess.run([binary, "--port", "not-a-port"], capture_output=True, text=True, timeout=10)
    check("a bad setting exits with a status the unit does not restart", str(bad.returncode) in prevented,
          (bad.returncode, prevented))
    data = os.path.join(work, "locked")
    holder, _, _ = start(binary, work, "--data-dir", data, name="log-holder")
    try:
        second = subprocess.run([binary, "--port", "0", "--data-dir", data], capture_output=True, text=True,
                                timeout=20)
        check("a data directory held by another daemon exits with a status the unit does not restart",
              second.returncode != 0 and str(second.returncode) in prevented, (second.returncode, second.stderr[-300:]))
    finally:
        stop(holder)


def health_check(binary, work):
    """The image's HEALTHCHECK command, as written in the Containerfile, run by sh with the image's
    environment: it must follow LIFECYCLED_PORT."""
    containerfile = open(os.path.join(ROOT, "deploy", "container", "Containerfile")).read()
    match = re.search(r"^HEALTHCHECK [^\n]*\\\n\s+CMD (.+)$", containerfile, re.M)
    check("the Containerfile has a HEALTHCHECK in shell form", match, "")
    if not match:
        return
    command = match.group(1)
    process, base, _ = start(binary, work, "--in-memory", name="log-health")
    port = base.rsplit(":", 1)[1]
    try:
        def run(port):
            return subprocess.run(["sh", "-c", command], env={"PATH": os.environ["PATH"], "LIFECYCLED_PORT": port},
                                  capture_output=True, timeout=10).returncode
        check(f"the health check passes on the daemon's port ({port}, from LIFECYCLED_PORT)", run(port) == 0)
        check("... and fails on a port where nothing answers", run(str(free_port())) != 0)
    finally:
        stop(process)


def notify(binary, work):
    address = os.path.join(work, "notify.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(address)
    listener.settimeout(20)
    messages = []

    def receive():
        message = listener.recv(4096).decode()
        messages.append(message)
        return message

    process, base, _ = start(binary, work, "--in-memory", env={"NOTIFY_SOCKET": address}, name="log-notify")
    try:
        ready = receive()
        check("READY=1 is sent once the daemon is ready, with its pid",
              "READY=1" in ready.split("\n") and f"MAINPID={process.pid}" in ready, ready)
        check("... and /readyz answers 200 by then", request(base + "/readyz")[0] == 200)
        process.send_signal(signal.SIGHUP)
        reloading, again = receive(), receive()
        check("SIGHUP: RELOADING=1, then READY=1", reloading == "RELOADING=1" and "READY=1" in again, messages)
        process.terminate()
        check("SIGTERM: STOPPING=1", receive() == "STOPPING=1", messages)
        check("... and a drained exit 0", process.wait(20) == 0)
    finally:
        if process.poll() is None:
            stop(process)
        listener.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    binary = os.path.abspath(parser.parse_args().bin)
    work = tempfile.mkdtemp(prefix="lifecycled-operations-")
    try:
        which_build(binary, work)
        metrics(binary, work)
        metrics_token(binary, work)
        if shutil.which("systemd-analyze"):
            unit_file(binary, work)
        else:
            check("systemd-analyze is installed (scripts/setup --tests)", False)
        notify(binary, work)
        health_check(binary, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    checks.finish()


if __name__ == "__main__":
    main()
