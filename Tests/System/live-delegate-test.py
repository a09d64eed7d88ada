#!/usr/bin/env python3
"""A live delegate answered over HTTP, as a team's code in another language answers it (docs/API.md, "Live
delegates over HTTP"; docs/LIFECYCLE.md §13), through the real binary: the events POST waits while a loop
long-polls `GET .../pending-callback` and answers each callback with one POST; what the answers say (a
duration, a background task begun) is in the timeline; an answer that takes longer than the watchdog allows
gets the app killed with `watchdog`; a callback left unanswered past --live-answer-timeout hangs until the
watchdog, and the late answer is refused with 409; the session exported with its answers passes `lifecycled check`
with nobody answering.

Usage: live-delegate-test.py --bin PATH      Prints 'N passed, N failed' last; exit 0 when all pass.
"""
import json
import os
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from lifecycled_daemon import Daemon  # noqa: E402
from lifecycled_support import Checks, request  # noqa: E402

checks = Checks()
check = checks.check
# Seconds a callback waits for its answer before it hangs: short, so the late answer comes quickly.
TIMEOUT = 1


class Posting(threading.Thread):
    """An events POST made in the background: it answers only once its callbacks are answered."""

    def __init__(self, url, body):
        super().__init__(daemon=True)
        self.url, self.body, self.result = url, body, None
        self.start()

    def run(self):
        self.result = request(self.url, "POST", self.body, timeout=30)


def answer_all(base, app, posting, answer=lambda pending: {}):
    """Answers each callback of `app` until `posting` completes: `answer(pending)` gives the answer's fields.
    Returns the selectors answered, in order."""
    answered = []
    while posting.is_alive():
        status, _, read = request(f"{base}/v1/apps/{app}/pending-callback?wait=0.5")
        if status != 200 or not read.get("pending"):
            continue
        pending = read["pending"]
        status, _, body = request(f"{base}/v1/apps/{app}/pending-callback", "POST",
                                  {"callback": pending["id"], **answer(pending)})
        check(f"{app}: {pending['selector']} answered", status == 200 and body == {"answered": pending["id"]},
              (status, body))
        answered.append(pending["selector"])
    posting.join()
    return answered


def live_app(base, app):
    status, _, body = request(f"{base}/v1/apps", "POST", {"id": app, "bundleId": f"com.example.{app}",
                                                        "iosVersion": "12.0", "delegate": {"live": True}})
    check(f"{app}: a live app is created", status == 201, (status, body))


def callbacks(base, app):
    return [entry["selector"] for entry in request(f"{base}/v1/apps/{app}/callbacks")[2]["items"]]


def termination(base, app):
    entries = [e for e in request(f"{base}/v1/apps/{app}/timeline")[2]["items"] if e["kind"] == "termination"]
    return entries[-1] if entries else None


def answered_in_time(base):
    live_app(base, "tracker")
    launch = Posting(f"{base}/v1/apps/tracker/events", {"type": "launch"})
    answered = answer_all(base, "tracker", launch)
    check("launch: the events POST completes once its callbacks are answered", launch.result[0] == 200,
          launch.result)
    check("launch: the launch callbacks were asked, in the timeline's order",
          "application:didFinishLaunchingWithOptions:" in answered and callbacks(base, "tracker") == answered,
          (answered, callbacks(base, "tracker")))

    def save_in_background(pending):
        if pending["selector"] != "applicationDidEnterBackground:":
            return {}
        return {"duration": 2.5, "actions": [{"do": "beginBackgroundTask", "name": "save"}]}

    home = Posting(f"{base}/v1/apps/tracker/events", {"type": "homeButton"})
    answer_all(base, "tracker", home, save_in_background)
    check("home: the events POST completes", home.result[0] == 200, home.result)
    timeline = request(f"{base}/v1/apps/tracker/timeline")[2]["items"]
    entered = [e for e in timeline if e.get("selector") == "applicationDidEnterBackground:"]
    check("home: applicationDidEnterBackground: took the 2.5 s it answered",
          entered and entered[-1]["duration"] == 2.5, entered)
    check("home: the task it began is in the timeline",
          any(e["kind"] == "backgroundTask" and e.get("name") == "save" for e in timeline), timeline[-5:])
    check("home: the app is in the background, its task running",
          request(f"{base}/v1/apps/tracker")[2]["state"] == "background")


def answered_too_slowly(base):
    live_app(base, "slow")
    launch = Posting(f"{base}/v1/apps/slow/events", {"type": "launch"})
    # didFinishLaunching takes 30 s: over the launch watchdog's 20.
    answer_all(base, "slow", launch, lambda pending: {"duration": 30} if pending["selector"]
               == "application:didFinishLaunchingWithOptions:" else {})
    ended = termination(base, "slow")
    check("a 30 s didFinishLaunching: the watchdog kills the app",
          ended is not None and ended["reason"] == "watchdog", ended)


def never_answered(base):
    live_app(base, "hung")
    started = time.monotonic()
    launch = Posting(f"{base}/v1/apps/hung/events", {"type": "launch"})
    status, _, read = request(f"{base}/v1/apps/hung/pending-callback?wait=5")
    pending = (read or {}).get("pending") or {}
    check("unanswered: the callback is pending, with a deadline",
          status == 200 and pending.get("deadline", 0) > time.time() - 1, read)
    # Other devices go on meanwhile.
    request(f"{base}/v1/apps", "POST", {"id": "other", "bundleId": "com.example.other"})
    before = time.monotonic()
    status, _, _ = request(f"{base}/v1/apps/other/events", "POST", {"type": "launch"})
    check("unanswered: another device's POST is not held up", status == 200 and time.monotonic() - before < 0.5,
          (status, time.monotonic() - before))
    launch.join()
    waited = time.monotonic() - started
    check("unanswered: the events POST completes after the timeout", launch.result[0] == 200
          and TIMEOUT <= waited < TIMEOUT + 5, (launch.result[0], waited))
    status, _, late = request(f"{base}/v1/apps/hung/pending-callback", "POST", {"callback": pending.get("id", 1)})
    check("unanswered: the late answer is refused, 409",
          status == 409 and late.get("code") == "invalid-transition", (status, late))
    ended = termination(base, "hung")
    check("unanswered: the callback hung, and the watchdog killed the app",
          ended is not None and ended["reason"] == "watchdog", ended)
    check("unanswered: the app is not running", request(f"{base}/v1/apps/hung")[2]["state"] == "notRunning")


def exported(base, binary, work):
    status, _, scenario = request(f"{base}/v1/export")
    check("export: the live session exports", status == 200, (status, scenario))
    if status != 200:
        return
    answered = [step for step in scenario["steps"] if isinstance(step.get("body"), dict) and "answers" in step["body"]]
    check("export: each events POST a delegate answered carries its answers", len(answered) == 4,
          [step["do"] for step in answered])
    check("export: the unanswered callback is recorded as hung",
          any(answer.get("hung") for step in answered for answer in step["body"]["answers"]))
    path = os.path.join(work, "live.scenario.json")
    with open(path, "w") as handle:
        json.dump(scenario, handle)
    # No daemon answers here: the answers in the scenario are all the live code there is.
    checked = subprocess.run([binary, "check", path], capture_output=True, text=True, timeout=120)
    check("export: `lifecycled check` passes it with no live code", checked.returncode == 0,
          checked.stdout[-600:] + checked.stderr[-600:])


def main(binary, work):
    with Daemon(binary, "--in-memory", "--live-answer-timeout", str(TIMEOUT),
                log=os.path.join(work, "log")) as daemon:
        for part in (answered_in_time, answered_too_slowly, never_answered):
            part(daemon.url)
        exported(daemon.url, binary, work)


if __name__ == "__main__":
    checks.run("lifecycled-live-", [main])
