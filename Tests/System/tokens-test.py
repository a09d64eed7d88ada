#!/usr/bin/env python3
"""The daemon's access tokens as an operator uses them, through the real binary:
`lifecycled token new`, `--tokens FILE`, reload on SIGHUP (a file that does not parse keeps the old
tokens and the log says why), a start refused on a non-loopback --host without tokens, a token file
with a mistake refused at start.

Usage: tokens-test.py --bin PATH      Prints 'N passed, N failed' last; exit 0 when all pass.
"""
import argparse
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from lifecycled_daemon import Daemon, refused  # noqa: E402
from lifecycled_support import Checks, eventually, request, write_private  # noqa: E402

checks = Checks()
check = checks.check


def mint(binary, *args):
    out = subprocess.run([binary, "token", "new", *args], check=True, capture_output=True, text=True).stdout
    secret, line = out.strip().split("\n")
    return secret, json.loads(line)


def start(binary, work, *args):
    return Daemon(binary, "--in-memory", *args, log=os.path.join(work, "log")).start()


def wait_for_log(daemon, pattern, seconds=5):
    return bool(eventually(lambda: re.search(pattern, daemon.log_text()), seconds))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    binary = os.path.abspath(parser.parse_args().bin)
    work = tempfile.mkdtemp(prefix="lifecycled-tokens-")
    tokens_file = os.path.join(work, "tokens.json")

    writer, writer_line = mint(binary, "--name", "ci", "--role", "write", "--namespace", "default")
    admin, admin_line = mint(binary, "--name", "ops", "--role", "admin")
    check("token new prints a secret and a line with its SHA-256, never the secret",
          writer.startswith("lcd_") and len(writer_line["sha256"]) == 64 and writer not in json.dumps(writer_line))
    minted = [mint(binary, "--name", f"n{index}", "--role", "read", "--namespace", "default") for index in range(20)]
    check("... that SHA-256 is hashlib's of the secret, for 22 fresh secrets, and no secret comes twice",
          all(line["sha256"] == hashlib.sha256(secret.encode()).hexdigest()
              for secret, line in [(writer, writer_line), (admin, admin_line), *minted])
          and len({secret for secret, _ in minted} | {writer, admin}) == 22)
    write_private(tokens_file, json.dumps({"tokens": [writer_line, admin_line]}))

    daemon = start(binary, work, "--tokens", tokens_file)
    base = daemon.url
    try:
        check("without a token: 401", request(base + "/v1/apps", "GET")[0] == 401)
        check("with the write token: 200", request(base + "/v1/apps", "GET", token=writer)[0] == 200)
        status, _, _ = request(base + "/v1/reset", "POST", token=writer)
        check("a write token may not reset everything: 403", status == 403)
        check("the refusal logs the token's name, never its secret",
              wait_for_log(daemon, r"token=ci") and writer not in daemon.log_text())
        # A path is the client's to write: a decoded %0A must not start a log line of its choosing.
        forged = "/v1/apps/x%0A2026-11-24T06:45:00+0000%20critical%20lifecycled:%20FORGED"
        check("a path with a line break is refused like any: 401", request(base + forged, "GET")[0] == 401)
        check("... and logged escaped, on its own line, never as a forged line",
              wait_for_log(daemon, r"path=/v1/apps/x%0A2026") and not re.search(r"^\S* critical lifecycled: FORGED",
                                                                             daemon.log_text(), re.M))

        # A file that does not parse: the old tokens stay, and the log says why.
        with open(tokens_file, "w") as f:
            f.write('{"tokens": [{"name": "x"')
        daemon.send_signal(signal.SIGHUP)
        check("a broken file on SIGHUP is logged", wait_for_log(daemon, r"tokens file not reloaded"))
        check("... and the old tokens stay in force", request(base + "/v1/apps", "GET", token=writer)[0] == 200)

        reader, reader_line = mint(binary, "--name", "dash", "--role", "read", "--namespace", "*")
        with open(tokens_file, "w") as f:
            json.dump({"tokens": [reader_line]}, f)
        daemon.send_signal(signal.SIGHUP)
        check("a good file on SIGHUP is loaded", wait_for_log(daemon, r"tokens reloaded"))
        check("... the new token works", request(base + "/v1/apps", "GET", token=reader)[0] == 200)
        check("... and a token no longer listed answers 401", request(base + "/v1/apps", "GET", token=writer)[0] == 401)
        check("SIGTERM still stops it with 0", daemon.stop(10) == 0)
    finally:
        daemon.kill()

    status, stderr = refused(binary, "--port", "0", "--in-memory", "--host", "0.0.0.0", seconds=10)
    check("a non-loopback --host without --tokens is refused and says why",
          status not in (0, None) and "--tokens" in stderr and "--allow-unauthenticated" in stderr, stderr)

    with start(binary, work, "--host", "0.0.0.0", "--allow-unauthenticated") as daemon:
        check("... unless --allow-unauthenticated is given", request(daemon.url + "/livez", "GET")[0] == 200)

    with open(tokens_file, "w") as f:
        json.dump({"tokens": [{"name": "x", "sha256": "abc", "role": "read", "namespaces": ["a"]}]}, f)
    status, stderr = refused(binary, "--port", "0", "--in-memory", "--tokens", tokens_file, seconds=10)
    check("a tokens file with a mistake stops the start, naming the mistake",
          status == 2 and "tokens[0].sha256" in stderr, stderr)

    # A file its group or every user may write lets them give themselves a token; one every user may read shows
    # every token's name, role and hash. Each stops the start, saying how to fix it.
    write_private(tokens_file, json.dumps({"tokens": [writer_line]}))
    for mode, said in ((0o666, "written by its group, and read and written by every user"),
                       (0o644, "read by every user"), (0o620, "written by its group")):
        os.chmod(tokens_file, mode)
        status, stderr = refused(binary, "--port", "0", "--in-memory", "--tokens", tokens_file, seconds=10)
        check(f"a tokens file of mode {mode:o} stops the start (2), saying how to fix it",
              status == 2 and f"may be {said} (mode {mode:o})" in stderr and "chmod 600" in stderr, stderr)

    # ... and at reload: the tokens in force stay, and the log says why.
    os.chmod(tokens_file, 0o600)
    with start(binary, work, "--tokens", tokens_file) as daemon:
        os.chmod(tokens_file, 0o644)
        daemon.send_signal(signal.SIGHUP)
        check("a reload of a tokens file others may read is refused, and the log says why",
              wait_for_log(daemon, r"(?m)^(?=.*tokens file not reloaded)(?=.*read by every user)"),
              daemon.log_text()[-600:])
        check("... and the tokens in force stay", request(daemon.url + "/v1/apps", "GET", token=writer)[0] == 200)

    checks.finish()


if __name__ == "__main__":
    main()
