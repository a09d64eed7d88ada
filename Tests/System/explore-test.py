#!/usr/bin/env python3
"""`lifecycled explore --url` and `--aim` through the real binary (docs/EXPLORE.md, "Against a running daemon",
"Aiming at what a suite missed"): the same seed explored in process and on a running daemon gives the same
output and the same shrunk scenario, byte for byte, and that scenario fails `lifecycled check` against the
daemon; a namespace explore may not empty is refused with exit status 64. Walks aimed at what a scenario does
not cover write scenarios that pass `lifecycled check`, and the coverage explore prints after is the one
`lifecycled check --coverage` reports of the scenario with them.

Usage: explore-test.py --bin PATH      Prints 'N passed, N failed' last; exit 0 when all pass.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from lifecycled_daemon import Daemon  # noqa: E402
from lifecycled_support import Checks  # noqa: E402

checks = Checks()
check = checks.check
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
WORLD = os.path.join(ROOT, "examples", "explore", "background-task.json")


def explore(binary, out, *more):
    return subprocess.run(
        [binary, "explore", "--scenario", WORLD, "--versions", "9.0,17.0", "--walks", "50", "--out", out, *more],
        capture_output=True, text=True, timeout=600)


def main(binary, work):
    local = explore(binary, os.path.join(work, "local.json"))
    check("in process: a property found false (exit 1)", local.returncode == 1, local.stdout[-600:] + local.stderr)
    with Daemon(binary, "--in-memory", log=os.path.join(work, "log")) as daemon:
        remote = explore(binary, os.path.join(work, "remote.json"), "--url", daemon.url, "--namespace", "explore-ci")
        check("on the daemon: a property found false (exit 1)", remote.returncode == 1,
              remote.stdout[-600:] + remote.stderr)
        check("the same output, byte for byte",
              remote.stdout.replace("remote.json", "local.json") == local.stdout, remote.stdout[-600:])
        with open(os.path.join(work, "local.json"), "rb") as a, open(os.path.join(work, "remote.json"), "rb") as b:
            check("the same shrunk scenario, byte for byte", a.read() == b.read())
        checked = subprocess.run([binary, "check", "--url", daemon.url, os.path.join(work, "remote.json")],
                                 capture_output=True, text=True, timeout=120)
        check("the scenario fails `lifecycled check` on the daemon", checked.returncode == 1
              and "FAIL" in checked.stdout, checked.stdout[-600:])
        refused = explore(binary, os.path.join(work, "x.json"), "--url", daemon.url, "--namespace", "default")
        check("the default namespace is refused (exit 64), naming why", refused.returncode == 64
              and "other than default" in refused.stderr, refused.stderr[-600:])


def aimed(binary, work):
    suite = os.path.join(ROOT, "Tests", "Conformance", "scenarios", "03_home_suspends_ios4.json")
    out = os.path.join(work, "aimed")
    run = subprocess.run([binary, "explore", "--scenario", WORLD, "--aim", suite, "--walks", "6", "--steps", "20",
                          "--out", out], capture_output=True, text=True, timeout=600)
    check("--aim: exit 0, scenarios written", run.returncode == 0 and os.listdir(out), run.stdout[-600:] + run.stderr)
    band = "iOS 9.0-<13.0:"
    after = run.stdout.split("coverage after")[-1]
    before = run.stdout.split("coverage after")[0]
    check("--aim: the world's band is reported after, not before", band in after and band not in before,
          run.stdout[-1200:])
    checked = subprocess.run([binary, "check", "--coverage", suite, out], capture_output=True, text=True, timeout=600)
    check("--aim: the scenarios written pass `lifecycled check`", checked.returncode == 0, checked.stdout[-600:])
    section = lambda text: text[text.index(band):].split("\niOS ")[0]
    check("--aim: the coverage after is check --coverage's of the suite with them",
          band in checked.stdout and section(checked.stdout) == section(after),
          (section(after), checked.stdout[-1200:]))


if __name__ == "__main__":
    checks.run("lifecycled-explore-", [main, aimed])
