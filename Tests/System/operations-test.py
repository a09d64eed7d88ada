#!/usr/bin/env python3
"""Running the daemon as an operator does, through the real binary: which build answers (--version, the
probes, the build-info metric, the first log line); the systemd unit (systemd-analyze verify; Type=notify
readiness sent once /readyz is ready, RELOADING on SIGHUP, STOPPING on SIGTERM; the start-up refusals exit
with a status the unit does not restart); /metrics (a # HELP line for every metric, the process, store and
connection metrics, docs/OPERATING.md's table listing exactly what it shows, an admin token with --tokens); settings
from the command line, the environment and a file, each checked; JSON logs and the access log.

Usage: operations-test.py --bin PATH      Prints 'N passed, N failed' last; exit 0 when all pass.
"""
import json
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(HERE, "..", "Support"))
from lifecycled_daemon import Daemon, DaemonError, refused  # noqa: E402
from lifecycled_support import Checks, eventually, free_port, request, write_private  # noqa: E402

checks = Checks()
check = checks.check


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
    daemon = start(binary, work, "--in-memory")
    base = daemon.url
    try:
        for path in ("/livez", "/readyz"):
            _, _, body = request(base + path)
            check(f"{path} names the build", body.get("version") == release and body.get("revision") == revision, body)
        check("lifecycled_build_info carries the build", re.search(
            rf'^lifecycled_build_info\{{version="{re.escape(release)}",revision="{re.escape(revision)}"\}} 1(\.0)?$',
            metrics_text(base), re.M))
        first = (daemon.log_text().splitlines() or [""])[0]
        check("the first log line says which build starts",
              "starting" in first and f"version={release}" in first and f"revision={revision}" in first, first)
    finally:
        daemon.stop()


def metrics(binary, work):
    data = os.path.join(work, "data")
    daemon = start(binary, work, "--data-dir", data, "--max-connections", "8", "--threads", "2")
    base = daemon.url
    try:
        request(base + "/v1/devices", "POST", {"id": "d1"})
        request(base + "/v1/apps", "POST", {"id": "a1", "device": "d1", "bundleId": "com.example.a"})
        request(base + "/v1/apps/a1/events", "POST", {"type": "launch"})
        request(base + "/v1/namespaces/team-a/devices")
        # Past --max-connections: a connection is refused at accept and counted. Two loops accepting at the same
        # instant may each admit one past the limit (ClientConnections), so ten connections, of which eight
        # are admitted and a ninth may be: at least one of them is closed at once. Which one depends on which
        # loop accepts first. The others stay open while the count is read (over one more connection, once they
        # are gone).
        port = int(base.rsplit(":", 1)[1])
        held = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(10)]
        refused = r'^lifecycled_http_connections_refused_total\{reason="max-connections"\} [1-9]'
        readable, _, _ = select.select(held, [], [], 10)
        seen = any(s.recv(1) == b"" for s in readable)
        for s in held:
            s.close()
        eventually(lambda: re.search(refused, metrics_text(base), re.M), 5)
        text = metrics_text(base)
        check("of ten connections, past --max-connections 8 (two loops), one is closed at once", seen)
    finally:
        daemon.stop()
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
    check("the default namespace's requests and events are counted under its label, a named one's under its name",
          re.search(r'^lifecycled_namespace_requests_total\{namespace="default"\} ([3-9]|\d\d+)$', text, re.M)
          and re.search(r'^lifecycled_namespace_events_total\{namespace="default"\} 1$', text, re.M)
          and re.search(r'^lifecycled_namespace_requests_total\{namespace="team-a"\} 1$', text, re.M))
    check("a group commit was timed", re.search(r"^lifecycled_store_commit_duration_seconds_count [1-9]", text, re.M))
    check("a connection past --max-connections was refused and counted",
          re.search(r'^lifecycled_http_connections_refused_total\{reason="max-connections"\} [1-9]', text, re.M))
    guide = open(os.path.join(ROOT, "docs", "OPERATING.md")).read()
    table = set(re.findall(r"^\| `((?:lifecycled|process)_[a-z_]+)` \|", guide, re.M))
    check("docs/OPERATING.md's metrics table lists exactly the metrics shown", table == names,
          {"not in docs/OPERATING.md": sorted(names - table), "not shown": sorted(table - names)})


def metrics_token(binary, work):
    admin_out = subprocess.run([binary, "token", "new", "--name", "ops", "--role", "admin"],
                               check=True, capture_output=True, text=True).stdout.split("\n")
    reader_out = subprocess.run([binary, "token", "new", "--name", "dash", "--role", "read", "--namespace", "*"],
                                check=True, capture_output=True, text=True).stdout.split("\n")
    tokens = os.path.join(work, "tokens.json")
    write_private(tokens, json.dumps({"tokens": [json.loads(admin_out[1]), json.loads(reader_out[1])]}))
    daemon = start(binary, work, "--in-memory", "--tokens", tokens, name="log-tokens")
    base = daemon.url
    try:
        check("with --tokens, /metrics without a token: 401", request(base + "/metrics")[0] == 401)
        check("... with a read token: 403", request(base + "/metrics", token=reader_out[0])[0] == 403)
        check("... with an admin token: 200", request(base + "/metrics", token=admin_out[0])[0] == 200)
        check("... and the probes need none", request(base + "/readyz")[0] == 200)
    finally:
        daemon.stop()


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
    status, _ = refused(binary, "--port", "not-a-port", seconds=10)
    check("a bad setting exits with a status the unit does not restart", str(status) in prevented,
          (status, prevented))
    data = os.path.join(work, "locked")
    with start(binary, work, "--data-dir", data, name="log-holder"):
        status, stderr = refused(binary, "--port", "0", "--data-dir", data, seconds=20)
        check("a data directory held by another daemon exits with a status the unit does not restart",
              status not in (0, None) and str(status) in prevented, (status, stderr[-300:]))


def health_check(binary, work):
    """The image's HEALTHCHECK command, as written in the Containerfile, run by sh with the image's
    environment: it must follow LIFECYCLED_PORT."""
    containerfile = open(os.path.join(ROOT, "deploy", "container", "Containerfile")).read()
    match = re.search(r"^HEALTHCHECK [^\n]*\\\n\s+CMD (.+)$", containerfile, re.M)
    check("the Containerfile has a HEALTHCHECK in shell form", match, "")
    if not match:
        return
    command = match.group(1)
    daemon = start(binary, work, "--in-memory", name="log-health")
    port = str(daemon.port)
    try:
        def run(port):
            return subprocess.run(["sh", "-c", command], env={"PATH": os.environ["PATH"], "LIFECYCLED_PORT": port},
                                  capture_output=True, timeout=10).returncode
        check(f"the health check passes on the daemon's port ({port}, from LIFECYCLED_PORT)", run(port) == 0)
        check("... and fails on a port where nothing answers", run(str(free_port())) != 0)
    finally:
        daemon.stop()


def start(binary, work, *args, name="log", env=None):
    return Daemon(binary, *args, env=env, log=os.path.join(work, name)).start()


def refused_here(binary, work, args=(), env=None):
    """Starts the daemon with only PATH and `env` in its environment, in `work` (so a start that is not
    refused writes nothing elsewhere), and stops it if it was not refused."""
    return refused(binary, *args, env=env, clean_env=True, cwd=work)


# Misspelt variables, each with the one meant: close to it, or the flag's name for a key that is not the flag's.
MISSPELT_VARIABLES = {"LIFECYCLED_PROT": "LIFECYCLED_PORT", "LIFECYCLED_LOGLEVEL": "LIFECYCLED_LOG_LEVEL",
                      "LIFECYCLED_TOKENS": "LIFECYCLED_TOKENS_FILE", "LIFECYCLED_SEED": "LIFECYCLED_SEEDS",
                      "LIFECYCLED_CONFG": "LIFECYCLED_CONFIG"}


def project_variables():
    """Every LIFECYCLED_ name the project's scripts, tests, deployment files, benchmarks and docs mention."""
    names = set()
    for top in ("scripts", "Tests", "deploy", "bench", ".ci", "docs", "README.md", "BENCHMARKS.md"):
        for folder, _, files in os.walk(os.path.join(ROOT, top)) if os.path.isdir(os.path.join(ROOT, top)) \
                else [(ROOT, [], [top])]:
            for file in files:
                try:
                    names |= set(re.findall(r"\bLIFECYCLED_[A-Z0-9_]*[A-Z0-9]\b", open(os.path.join(folder, file)).read()))
                except (OSError, UnicodeDecodeError):
                    pass
    return names


def configuration(binary, work):
    """Settings from the command line, the environment and a JSON file: each value checked, a bad one refused
    with exit 64 naming the setting, its source and value and what is allowed; the command line wins over
    the environment, which wins over the file."""
    for env, said in ((({"LIFECYCLED_PORT": "18424abc"}), "LIFECYCLED_PORT=18424abc: port must be an integer"),
                      ({"LIFECYCLED_IN_MEMORY": "maybe"}, "LIFECYCLED_IN_MEMORY=maybe: in-memory must be true or false"),
                      ({"LIFECYCLED_THREADS": "0"}, "LIFECYCLED_THREADS=0: threads must be from 1 to 64"),
                      ({"LIFECYCLED_LOG_FORMAT": "xml"}, "LIFECYCLED_LOG_FORMAT=xml: log-format must be one of text, json")):
        status, stderr = refused_here(binary, work, env=env)
        check(f"{said.split(':')[0]} is refused (64), saying why", status == 64 and said in stderr, (status, stderr))
    # A variable of the daemon's prefix close to a setting's (or spelling a flag that is not its key) is a typo:
    # refused, naming the variable meant, as an unknown key in the file is.
    for name, meant in MISSPELT_VARIABLES.items():
        status, stderr = refused_here(binary, work, env={name: "8080"})
        said = f"{name}=8080: not a setting's variable; did you mean {meant}?"
        check(f"{name} is refused (64), naming {meant}", status == 64 and said in stderr, (status, stderr))
    # The daemon's settings are the daemon's: its subcommands run whatever the variables say.
    made = subprocess.run([binary, "token", "new", "--name", "ci", "--role", "admin"], capture_output=True, text=True,
                          timeout=10, env={"PATH": os.environ["PATH"], "LIFECYCLED_PROT": "8080", "LIFECYCLED_PORT": "x"})
    check("lifecycled token new runs whatever the daemon's variables say", made.returncode == 0 and made.stdout,
          (made.returncode, made.stderr))
    # A misspelt flag, likewise (ArgumentParser's own "did you mean").
    status, stderr = refused_here(binary, work, ["--in-memory", "--max-wiat", "9"])
    check("--max-wiat is refused (64), naming --max-wait",
          status == 64 and "Unknown option '--max-wiat'. Did you mean '--max-wait'?" in stderr, (status, stderr))
    # The prefix is also the clients' and the scripts' (LIFECYCLED_URL, LIFECYCLED_TOKEN, LIFECYCLED_BIN, ...):
    # every one the project names, set at once, leaves the daemon starting.
    settings_variables = set(re.findall(r"\((LIFECYCLED_[A-Z_]+)\)", subprocess.run(
        [binary, "--help"], capture_output=True, text=True, timeout=10, env={"PATH": os.environ["PATH"]}).stdout))
    others = sorted(project_variables() - settings_variables - {"LIFECYCLED_CONFIG"} - set(MISSPELT_VARIABLES))
    start(binary, work, "--in-memory", env={name: "1" for name in others}, name="log-others").stop()
    check(f"the project's other LIFECYCLED_ variables leave the daemon starting ({len(others)})",
          len(others) > 10 and "LIFECYCLED_URL" in others and "LIFECYCLED_TOKEN" in others, others)
    path = os.path.join(work, "settings.json")
    for content, said in (('{"port": "8080"}', f'"port": "8080" in {path}: port must be an integer'),
                          ('{"prot": 8080}', f'"prot" in {path} is not a setting; did you mean "port"?'),
                          ('{"tokens": "t.json"}', f'"tokens" in {path} is not a setting; did you mean "tokens-file"?'),
                          ('{"listen": 8080}', f'"listen" in {path} is not a setting; the keys are host, port'),
                          ('{"max-wait": 7200}', f'"max-wait": 7200 in {path}: max-wait must be from 0 to 3600'),
                          ('[1]', f"--config {path}: not a JSON object of settings (it holds an array)"),
                          # Not JSON: what is wrong, where, and what was expected, in one line, with no list of keys.
                          ('{\n  "port": 8080,\n}\n', f"--config {path} is not JSON: line 3, column 1: "
                                                     "unexpected character '}'; expected a key in double quotes"),
                          ('{"port": 8080 "host": "0.0.0.0"}', f"--config {path} is not JSON: line 1, column 15: "
                                                               "unexpected character '\"'; expected ',' or '}'"),
                          ('# settings\nport: 8080\n', f"--config {path} is not JSON: line 1, column 1: "
                                                      "unexpected character '#'; expected a value"),
                          ('{"port": 8080', f"--config {path} is not JSON: line 1, column 14: "
                                            "unexpected end of input; expected ',' or '}'"),
                          # Each value of another type than its setting's, naming the type found and the one expected.
                          ('{"port": true}', f'"port": true in {path}: port must be an integer, not a boolean'),
                          ('{"port": 8080.5}', f'"port": 8080.5 in {path}: port must be an integer, not a fraction'),
                          ('{"threads": null}', f'"threads": null in {path}: threads must be an integer, not null'),
                          ('{"max-wait": "5"}', f'"max-wait": "5" in {path}: max-wait must be a number, not a string'),
                          ('{"max-wait": false}', f'"max-wait": false in {path}: max-wait must be a number, not a boolean'),
                          ('{"in-memory": 1}', f'"in-memory": 1 in {path}: in-memory must be true or false, not a number'),
                          ('{"host": 127}', f'"host": 127 in {path}: host must be text, not a number'),
                          ('{"log-format": ["json"]}', f'"log-format": ["json"] in {path}: log-format must be one of text, json, not an array'),
                          ('{"allowed-hosts": "a.example"}',
                           f'"allowed-hosts": "a.example" in {path}: allowed-hosts must be a list of text (comma-separated in a variable), not a string'),
                          ('{"allowed-hosts": ["a.example", 1]}',
                           f'"allowed-hosts": ["a.example",1] in {path}: allowed-hosts must be a list of text (comma-separated in a variable), not an array holding a number')):
        with open(path, "w") as f:
            f.write(content)
        os.chmod(path, 0o644)
        status, stderr = refused_here(binary, work, ["--in-memory", "--config", path])
        check(f"a file with {content!r} is refused (64), saying why", status == 64 and said in stderr, (status, stderr))
        if "did you mean" in said or "not JSON" in said:
            check(f"... in one line, without the list of keys", stderr.count("\n", 0, stderr.find("Usage:")) == 1
                  and "max-apps" not in stderr, stderr)
    # Whoever may write the file can name any tokens file and allow unauthenticated access.
    with open(path, "w") as f:
        f.write('{"max-wait": 5}')
    for mode, said in ((0o664, "written by its group"), (0o646, "written by every user")):
        os.chmod(path, mode)
        status, stderr = refused_here(binary, work, ["--in-memory", "--config", path])
        check(f"a --config file of mode {mode:o} is refused (64), saying why",
              status == 64 and f"--config {path} may be {said} (mode {mode:o})" in stderr
              and "tokens file" in stderr and "chmod 644" in stderr, (status, stderr))
    os.chmod(path, 0o644)
    for origin, said in (("null", "sandboxed"), ("*", "any web page")):
        status, stderr = refused_here(binary, work, ["--in-memory", "--allowed-origin", "http://localhost:3000",
                                                "--allowed-origin", origin])
        check(f"--allowed-origin {origin} is refused (64), saying why",
              status == 64 and f"allowed-origins may not hold {origin}" in stderr and said in stderr, (status, stderr))
    status, stderr = refused_here(binary, work, ["--in-memory", "--config", os.path.join(work, "missing.json")])
    check("a --config file that is not there is refused (64)", status == 64 and "cannot read the file" in stderr, stderr)

    # Precedence, seen in what the daemon does: the file says a max-wait of 5, the environment 7, the flag 9;
    # a wait of 8 is refused unless the flag is there.
    with open(path, "w") as f:
        json.dump({"max-wait": 5, "allowed-hosts": ["lifecycled.example"]}, f)
    os.chmod(path, 0o644)

    def max_wait_allows(wait, *args, env=None):
        daemon = start(binary, work, "--in-memory", "--config", path, *args, env=env, name="log-config")
        base = daemon.url
        try:
            request(base + "/v1/apps", "POST", {"id": "a", "bundleId": "com.example.a"})
            return request(f"{base}/v1/apps/a/timeline?after=0&wait={wait}", timeout=30)[0] == 200
        finally:
            daemon.stop()
    check("the file's value applies (max-wait 5: a wait of 4 is taken, 6 refused)",
          max_wait_allows(0.1) and not max_wait_allows(6))
    check("the environment wins over the file (7: a wait of 6.5 is taken)",
          max_wait_allows(0.2, env={"LIFECYCLED_MAX_WAIT": "7"}) and not max_wait_allows(8, env={"LIFECYCLED_MAX_WAIT": "7"}))
    check("the command line wins over both (9: a wait of 8 is taken)",
          not max_wait_allows(9.5, "--max-wait", "9", env={"LIFECYCLED_MAX_WAIT": "7"}))
    daemon = start(binary, work, "--in-memory", "--config", path, name="log-config")
    base = daemon.url
    try:
        port = base.rsplit(":", 1)[1]
        answers = [request(base + "/livez", headers={"Host": f"{host}:{port}"})[0]
                   for host in ("lifecycled.example", "other.example")]
    finally:
        daemon.stop()
    check("a list from the file applies (allowed-hosts: one host answered, another 421)", answers == [200, 421], answers)


def settings_listed(binary):
    """docs/CLI.md's table of settings lists exactly the keys --help lists (both from one table in the code)."""
    help_text = " ".join(subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=10,
                                        env={"PATH": os.environ["PATH"]}).stdout.split())
    listed = set(re.findall(r"([a-z][a-z-]*) \(LIFECYCLED_[A-Z_]+\)", help_text))
    guide = open(os.path.join(ROOT, "docs", "CLI.md")).read()
    table = set(re.findall(r"^\| `([a-z-]+)` \| [^|]* \| `LIFECYCLED_[A-Z_]+` \|", guide, re.M))
    check("docs/CLI.md's settings table lists exactly the keys of --help", listed and table == listed,
          {"only in --help": sorted(listed - table), "only in docs/CLI.md": sorted(table - listed)})


def logs(binary, work):
    """--log-format json: every line one object with the fixed fields; the access log at info with the
    client, route, status, bytes, token name and the request id, which the answer echoes; --access-log off."""
    admin_out = subprocess.run([binary, "token", "new", "--name", "ops", "--role", "admin"],
                               check=True, capture_output=True, text=True).stdout.split("\n")
    tokens = os.path.join(work, "tokens-logs.json")
    write_private(tokens, json.dumps({"tokens": [json.loads(admin_out[1])]}))
    daemon = start(binary, work, "--in-memory", "--log-format", "json", "--tokens", tokens, name="log-json")
    base = daemon.url
    try:
        status, headers, _ = request(base + "/v1/apps", token=admin_out[0], headers={"X-Request-Id": "trace-42"})
        check("a given X-Request-Id is echoed", headers.get("x-request-id") == "trace-42", headers)
        _, made, _ = request(base + "/v1/apps", token=admin_out[0])
        check("... and one is made when none is given", re.fullmatch(r"[0-9a-f]+-[0-9a-f]+", made.get("x-request-id", "")),
              made)
        _, bad, _ = request(base + "/v1/apps", token=admin_out[0], headers={"X-Request-Id": "x" * 200})
        check("... or when the given one is too long (made instead)", bad.get("x-request-id", "x" * 200) != "x" * 200)
        request(base + "/v1/apps%0Aforged")
    finally:
        daemon.stop()
    lines = daemon.log_text().splitlines()
    try:
        objects = [json.loads(line) for line in lines]
    except ValueError:
        objects = []
    check("every log line is one JSON object", objects and len(objects) == len(lines), lines[:3])
    check("... with time, level, label, source and message",
          objects and all({"time", "level", "label", "source", "message"} <= set(o) for o in objects))
    access = [o for o in objects if o.get("message") == "request" and o.get("requestId") == "trace-42"]
    check("the access log has the request: client, method, route, status, micros, bytes (numbers), token name, id",
          len(access) == 1 and access[0].get("client") == "127.0.0.1" and access[0].get("route") == "apps"
          and access[0].get("status") == 200 and access[0].get("token") == "ops" and access[0].get("method") == "GET"
          and type(access[0].get("micros")) is int and type(access[0].get("bytes")) is int, access)
    ready = [o for o in objects if o.get("message") == "ready"]
    check("... and other counts are numbers too", ready and type(ready[0].get("replayedRecords")) is int, ready)
    check("... never the token itself", admin_out[0] not in daemon.log_text())
    check("... and a path's line break stays inside its line, escaped",
          any(o.get("path") == "/v1/apps%0Aforged" for o in objects))
    daemon = start(binary, work, "--in-memory", "--access-log", "off", name="log-quiet")
    base = daemon.url
    try:
        request(base + "/v1/apps")
    finally:
        daemon.stop()
    check("--access-log off: no request lines", not re.search(r"\] request$", daemon.log_text(), re.M))


def image_example(binary, work):
    """The Containerfile's own example, as written: its `podman run` arguments to lifecycled, under the
    image's ENV (0.0.0.0, so tokens are required), with a tokens file where the example mounts one. It must
    start (an example that exits 64 is a broken promise)."""
    containerfile = open(os.path.join(ROOT, "deploy", "container", "Containerfile")).read()
    run = re.search(r"^#\s+podman run .*\\\n#\s+lifecycled (.*)$", containerfile, re.M)
    env_block = re.search(r"^ENV ((?:.*\\\n)*.*)$", containerfile, re.M)
    check("the Containerfile has a podman run example and an ENV", run and env_block, "")
    if not (run and env_block):
        return
    env = dict(re.findall(r"(LIFECYCLED_[A-Z_]+)=(\S+)", env_block.group(1)))
    check("the image listens on every address", env.get("LIFECYCLED_HOST") == "0.0.0.0", env)
    args = run.group(1).split()
    tokens = os.path.join(work, "image-tokens.json")
    minted = subprocess.run([binary, "token", "new", "--name", "ops", "--role", "admin"], check=True,
                            capture_output=True, text=True).stdout.split("\n")
    write_private(tokens, json.dumps({"tokens": [json.loads(minted[1])]}))
    args = [tokens if a == "/etc/lifecycled/tokens.json" else a for a in args]
    env.update({"LIFECYCLED_PORT": "0", "LIFECYCLED_DATA_DIR": os.path.join(work, "image-data")})
    # Its port and the rest from the image's environment alone: no --port of the test's.
    daemon = Daemon(binary, *args, port=None, env=env, clean_env=True, log=os.path.join(work, "log-image"),
                    ready_seconds=20)
    try:
        daemon.start()
        check("the image's example command starts as written (tokens given, 0.0.0.0)", daemon.running())
    except DaemonError as error:
        check("the image's example command starts as written (tokens given, 0.0.0.0)", False, error)
    finally:
        daemon.close()


def notify(binary, work):
    """What systemd's notify protocol is told, on a socket file as systemd's is (the Daemon that starts it
    waits for its READY=1 and keeps the messages that follow)."""
    daemon = Daemon(binary, "--in-memory", log=os.path.join(work, "log-notify"),
                    notify_path=os.path.join(work, "notify.sock"))
    messages = []

    def receive():
        message = daemon.notification(20)
        messages.append(message)
        return message

    with daemon.start():
        ready = daemon.ready_message
        messages.append(ready)
        check("READY=1 is sent once the daemon is ready, with its pid",
              "READY=1" in ready.split("\n") and f"MAINPID={daemon.process.pid}" in ready, ready)
        check("... and /readyz answers 200 by then", request(daemon.url + "/readyz")[0] == 200)
        daemon.send_signal(signal.SIGHUP)
        reloading, again = receive(), receive()
        check("SIGHUP: RELOADING=1, then READY=1", reloading == "RELOADING=1" and "READY=1" in (again or ""),
              messages)
        daemon.process.terminate()
        check("SIGTERM: STOPPING=1", receive() == "STOPPING=1", messages)
        check("... and a drained exit 0", daemon.process.wait(20) == 0)


def systemd_unit(binary, work):
    if shutil.which("systemd-analyze"):
        unit_file(binary, work)
    else:
        check("systemd-analyze is installed (scripts/setup --tests)", False)


if __name__ == "__main__":
    checks.run("lifecycled-operations-", [
        which_build, metrics, metrics_token, systemd_unit, notify, health_check, image_example, configuration,
        lambda binary, _: settings_listed(binary), logs])
