#!/usr/bin/env python3
"""Checks that the daemon's answers agree with api/openapi.yaml.

Drives a running daemon through every resource, event type and entry kind, and validates each
answer's status, Content-Type and body against the schema the spec gives for that path, method
and status. Exits non-zero on the first disagreement.

Usage: check-responses.py --base http://127.0.0.1:PORT [--spec api/openapi.yaml]
"""
import argparse
import json
import re
import sys
import threading
import urllib.error
import urllib.request

import yaml
from openapi_schema_validator import OAS31Validator


def load_spec(path):
    with open(path) as handle:
        return yaml.safe_load(handle)


def resolve(spec, node):
    while isinstance(node, dict) and "$ref" in node:
        pointer = node["$ref"].lstrip("#/").split("/")
        node = spec
        for part in pointer:
            node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def template_for(spec, path):
    for template in spec["paths"]:
        pattern = "^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$"
        if re.match(pattern, path):
            return template
    return None


class Checker:
    def __init__(self, base, spec):
        self.base = base
        self.spec = spec
        self.checked = 0
        self.posted = set()  # the event types posted so far

    def call(self, method, path, body=None, headers=None, raw=None, timeout=30):
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        if method == "POST" and path.endswith("/events"):
            self.posted |= {event.get("type") for event in (body if isinstance(body, list) else [body])
                            if isinstance(event, dict)}
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers or {})
        if data is not None and "Content-Type" not in (headers or {}):
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                status, got_headers, payload = answer.status, dict(answer.headers), answer.read()
        except urllib.error.HTTPError as error:
            status, got_headers, payload = error.code, dict(error.headers), error.read()
        self.validate(method, path, status, got_headers, payload)
        return status, (json.loads(payload) if payload and got_headers.get("Content-Type", "").endswith("json") else None)

    def validate(self, method, path, status, headers, payload):
        where = f"{method} {path} -> {status}"
        template = template_for(self.spec, path.split("?")[0])
        if template is None or self.spec["paths"][template].get(method.lower()) is None:
            # Unknown paths and methods answer the spec's shared 404 and 405 problems.
            expected = {None: "404", **({} if template is None else {template: "405"})}[template]
            if str(status) != expected:
                fail(f"{where}: expected {expected} for a path or method the spec does not have")
            response = resolve(self.spec, self.spec["components"]["responses"][{"404": "NotFound", "405": "MethodNotAllowed"}[expected]])
            self.check_body(where, response, headers, payload)
            return
        operation = self.spec["paths"][template][method.lower()]
        responses = operation["responses"]
        response = responses.get(str(status)) or responses.get(f"{str(status)[0]}XX") or responses.get("default")
        if response is None:
            fail(f"{where}: the spec lists no {status} answer for {method} {template}")
        self.check_body(where, resolve(self.spec, response), headers, payload)

    def check_body(self, where, response, headers, payload):
        content = response.get("content")
        if not content:
            if payload:
                fail(f"{where}: the spec says no body, got {payload[:200]!r}")
            self.checked += 1
            return
        media = headers.get("Content-Type", "").split(";")[0].strip()
        if media not in content:
            fail(f"{where}: Content-Type {media!r} is not among {list(content)}")
        schema = content[media].get("schema")
        if schema is None or not media.endswith("json"):
            self.checked += 1
            return
        document = json.loads(payload)
        root = dict(self.spec)
        root["$ref"] = "#/__answer"
        root["__answer"] = schema
        errors = sorted(OAS31Validator(root).iter_errors(document), key=lambda e: list(e.absolute_path))
        if errors:
            error = errors[0]
            location = "/".join(str(p) for p in error.absolute_path)
            fail(f"{where}: the body disagrees with the spec at /{location}: {error.message[:400]}")
        self.checked += 1


def fail(message):
    print(f"FAIL {message}")
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", required=True)
    parser.add_argument("--spec", default="api/openapi.yaml")
    args = parser.parse_args()
    c = Checker(args.base.rstrip("/"), load_spec(args.spec))

    c.call("GET", "/livez")
    c.call("GET", "/readyz")
    c.call("GET", "/metrics")
    c.call("GET", "/v1/openapi.yaml")
    c.call("GET", "/v1/event-types")
    c.call("POST", "/v1/reset")
    c.call("POST", "/v1/devices", {"id": "d1", "iosVersion": "7.0", "passcode": True, "suspendDelay": 0,
                                    "clock": {"mode": "manual", "speed": 1}, "settings": {"orientation": "portrait"}})
    c.call("POST", "/v1/devices", {"id": "d4", "iosVersion": "4.3", "multitasking": True, "memoryMB": 300})
    c.call("POST", "/v1/devices", {"id": "d-rt", "clock": {"mode": "realtime", "speed": 2}})
    c.call("POST", "/v1/devices", {})
    c.call("POST", "/v1/apps", {"bundleId": "com.example.nodevice"})
    c.call("POST", "/v1/apps", {"id": "a1", "device": "d1", "bundleId": "com.example.a",
                                 "info": {"backgroundModes": ["audio", "fetch", "remote-notification", "location"],
                                          "urlSchemes": ["ex"]},
                                 "delegate": {"durations": {"applicationWillEnterForeground:": 1.5},
                                              "returns": {"application:didFinishLaunchingWithOptions:": True},
                                              "notImplemented": ["applicationDidReceiveMemoryWarning:"]}})
    c.call("POST", "/v1/apps", {"id": "a2", "device": "d1", "bundleId": "com.example.b", "memoryMB": 200})
    c.call("POST", "/v1/apps", {"id": "b1", "device": "d4", "bundleId": "com.example.c", "memoryMB": 150})
    c.call("POST", "/v1/apps", {"id": "b2", "device": "d4", "bundleId": "com.example.d", "memoryMB": 150})

    app_events = [
        {"type": "launch"}, {"type": "touch"}, {"type": "shake"}, {"type": "motion"}, {"type": "location"},
        {"type": "remoteControl"}, {"type": "redraw"}, {"type": "memoryWarning"},
        {"type": "beginBackgroundTask", "name": "upload", "duration": 20},
        {"type": "startBackgroundActivity", "mode": "audio"}, {"type": "stopBackgroundActivity", "mode": "audio"},
        {"type": "remoteNotification", "payload": {"aps": {"alert": "hi"}}},
        {"type": "homeButton"}, {"type": "redraw"}, {"type": "advanceTime", "seconds": 30},
        {"type": "backgroundFetch"}, {"type": "remoteNotification", "contentAvailable": True},
        {"type": "openURL", "url": "ex://inbox", "sourceApplication": "com.apple.mobilesafari", "annotation": {"k": 1}},
        {"type": "activate"}, {"type": "forceQuit"}, {"type": "launch", "url": "ex://x"}, {"type": "terminate"},
        {"type": "launch", "background": True}, {"type": "crash"},
        {"type": "tapNotification", "payload": {"aps": {"alert": "hi"}}},
    ]
    for event in app_events:
        c.call("POST", "/v1/apps/a1/events", event)
    c.call("POST", "/v1/apps/a1/events", [{"type": "launch"}, {"type": "homeButton"}],
           headers={"Idempotency-Key": "k1", "Content-Type": "application/json"})
    c.call("POST", "/v1/apps/a1/events", [{"type": "launch"}, {"type": "homeButton"}],
           headers={"Idempotency-Key": "k1", "Content-Type": "application/json"})
    c.call("POST", "/v1/apps/a1/events", {"type": "launch"}, headers={"Idempotency-Key": "k1", "Content-Type": "application/json"})
    device_events = [
        {"type": "change", "kind": "orientation", "value": "landscapeLeft"},
        {"type": "change", "kind": "significantTime"}, {"type": "change", "kind": "batteryLevel", "value": 0.5},
        {"type": "change", "kind": "accessory", "value": "connected"},
        {"type": "change", "kind": "settings", "value": {"volume": 3}},
        {"type": "switchApp", "to": "a2"}, {"type": "change", "kind": "statusBarFrame", "value": {"height": 40}},
        {"type": "interruptionBegan", "kind": "call"}, {"type": "interruptionEnded", "accepted": False},
        {"type": "interruptionBegan", "kind": "call"}, {"type": "interruptionEnded", "accepted": True},
        {"type": "callEnded"}, {"type": "appSwitcherOpened"}, {"type": "appSwitcherClosed"},
        {"type": "bannerNotification", "title": "hello"}, {"type": "notificationCenterOpened"},
        {"type": "notificationCenterClosed"}, {"type": "lock"}, {"type": "unlock"},
        {"type": "memoryPressure", "level": "warning"}, {"type": "memoryPressure", "level": "critical"},
        {"type": "homeButton"}, {"type": "advanceTime", "seconds": 1}, {"type": "reboot"},
    ]
    c.call("POST", "/v1/apps/a2/events", {"type": "launch"})
    c.call("POST", "/v1/apps/a1/events", {"type": "launch"})
    c.call("POST", "/v1/apps/a1/events", {"type": "homeButton"})
    for event in device_events:
        c.call("POST", "/v1/devices/d1/events", event)
    c.call("POST", "/v1/apps/b1/events", {"type": "launch"})
    c.call("POST", "/v1/apps/b1/events", {"type": "beginBackgroundTask"})
    c.call("POST", "/v1/apps/b2/events", {"type": "launch"})
    c.call("POST", "/v1/devices/d4/events", {"type": "advanceTime", "seconds": 700})
    c.call("POST", "/v1/apps/b1/events", {"type": "launch"})

    # Callback actions and accessories (LIFECYCLE.md §6): every resource entry, a refused task, both kills.
    c.call("POST", "/v1/devices", {"id": "acts", "iosVersion": "7.0", "settings": {"accessory": "connected"}})
    c.call("POST", "/v1/apps", {"id": "act1", "device": "acts", "bundleId": "com.example.act",
                                 "info": {"externalAccessoryProtocols": ["com.example.dock"]},
                                 "delegate": {"actions": {
                                     "applicationDidBecomeActive:": [{"do": "acquire", "resource": "bonjourService"},
                                                                     {"do": "acquire", "resource": "calendar"}],
                                     "applicationWillResignActive:": [{"do": "release", "resource": "calendar"}],
                                     "applicationDidEnterBackground:": [{"do": "beginBackgroundTask", "name": "save",
                                                                         "duration": 2}],
                                     "applicationWillTerminate:": [{"do": "beginBackgroundTask"}]}}})
    c.call("POST", "/v1/apps", {"id": "act3", "device": "acts", "bundleId": "com.example.bank",
                                 "sensitiveViews": ["balance"],
                                 "delegate": {"actions": {"applicationDidEnterBackground:": [{"do": "hideViews"}],
                                                          "applicationWillEnterForeground:": [
                                                              {"do": "showViews", "views": ["balance"]}]}}})
    c.call("POST", "/v1/apps/act3/events", [{"type": "launch"}, {"type": "homeButton"}, {"type": "activate"}])
    c.call("GET", "/v1/apps/act3/timeline")
    c.call("POST", "/v1/apps", {"id": "img", "device": "acts", "bundleId": "com.example.img",
                                 "info": {"urlSchemes": ["img"], "launchImages": ["Default", "Default-img"]}})
    c.call("POST", "/v1/apps/img/events", {"type": "launch", "url": "img://x"})
    c.call("GET", "/v1/apps/img/timeline")
    c.call("POST", "/v1/apps", {"id": "keep", "device": "acts", "bundleId": "com.example.keep",
                                 "restorableState": {"screen": "note-42"}})
    c.call("POST", "/v1/apps/keep/events", [{"type": "launch"}, {"type": "homeButton"}])
    c.call("GET", "/v1/apps/keep")
    c.call("POST", "/v1/apps", {"id": "alerts", "device": "acts", "bundleId": "com.example.alerts",
                                 "delegate": {"actions": {"applicationDidBecomeActive:": [
                                     {"do": "showAlert", "style": "actionSheet", "title": "Share"},
                                     {"do": "showAlert"}],
                                     "applicationWillEnterForeground:": [{"do": "dismissAlerts"}]}}})
    c.call("POST", "/v1/apps/alerts/events", [{"type": "launch"}, {"type": "homeButton"}])
    c.call("GET", "/v1/apps/alerts")
    c.call("POST", "/v1/apps", {"id": "act2", "device": "acts", "bundleId": "com.example.gpu",
                                 "delegate": {"actions": {"applicationDidEnterBackground:": [{"do": "useGPU"}],
                                                          "applicationDidBecomeActive:": [
                                                              {"do": "acquire", "resource": "addressBook"}]}}})
    for app, events in [("act1", [{"type": "launch"}, {"type": "homeButton"}]),
                        ("acts", [{"type": "advanceTime", "seconds": 3}]),
                        ("act1", [{"type": "activate"}, {"type": "terminate"}]),
                        ("act2", [{"type": "launch"}, {"type": "homeButton"}])]:
        c.call("POST", f"/v1/{'devices' if app == 'acts' else 'apps'}/{app}/events", events)
    c.call("GET", "/v1/apps/act1")
    c.call("GET", "/v1/apps/act1/timeline")
    c.call("GET", "/v1/apps/act2")
    c.call("POST", "/v1/apps", {"bundleId": "x", "delegate": {"actions": {"applicationDidEnterBackground:": [{"do": "x"}]}}})

    # Scenes (LIFECYCLE.md §11): an iPad, a scene app with two windows, and every scene event and entry.
    c.call("POST", "/v1/devices", {"id": "pad", "iosVersion": "17.0", "idiom": "pad", "sceneDisconnectDelay": 60})
    c.call("POST", "/v1/apps", {"id": "s1", "device": "pad", "bundleId": "com.example.notes", "sdkVersion": "17.0",
                                 "info": {"urlSchemes": ["notes"], "sceneManifest": {
                                     "supportsMultipleScenes": True,
                                     "configurations": [{"name": "Default Configuration",
                                                         "role": "UIWindowSceneSessionRoleApplication",
                                                         "delegateClass": "SceneDelegate"}]}},
                                 "delegate": {"returns": {
                                     "application:configurationForConnectingSceneSession:options:": "Default Configuration"},
                                     "durations": {"sceneDidBecomeActive:": 0.5}}})
    c.call("POST", "/v1/apps", {"id": "gated", "device": "pad", "bundleId": "com.example.old", "iosVersion": "27.0"})
    scene_events = [
        {"type": "launch"}, {"type": "openScene", "session": "side", "url": "notes://n", "sourceApplication": "x"},
        {"type": "openURL", "url": "notes://a", "session": "side"}, {"type": "activate", "session": "s1"},
        {"type": "openScene", "placement": "fullScreen"}, {"type": "homeButton"},
        {"type": "disconnectScene", "session": "side"}, {"type": "closeScene", "session": "s1"},
        {"type": "advanceTime", "seconds": 61}, {"type": "activate"}, {"type": "forceQuit"},
    ]
    for event in scene_events:
        c.call("POST", "/v1/apps/s1/events", event)
    c.call("POST", "/v1/apps/gated/events", {"type": "launch"})
    for path in ["/v1/devices/pad", "/v1/apps/s1", "/v1/apps/gated", "/v1/apps/s1/callbacks?session=side",
                 "/v1/apps/s1/timeline?session=side&limit=1000", "/v1/apps/s1/notifications?delivered=true&limit=1000"]:
        c.call("GET", path)
    c.call("POST", "/v1/apps/s1/events", {"type": "activate", "session": "nope"})
    c.call("POST", "/v1/apps/a1/events", {"type": "openScene"})
    c.call("POST", "/v1/apps/s1/events", {"type": "openScene", "session": "s4"})
    c.call("POST", "/v1/apps/s1/events", {"type": "disconnectScene", "session": "s4"})
    c.call("POST", "/v1/apps/s1/events", [{"type": "homeButton"}, {"type": "closeScene"}])
    c.call("GET", "/v1/apps/s1/timeline?session=bad%20id")

    # moveTo (API.md "Moving an app to a state"): every target, the answer's `applied`, a blocked one, a bad state.
    c.call("POST", "/v1/devices", {"id": "mv", "iosVersion": "17.0", "suspendDelay": 2})
    c.call("POST", "/v1/apps", {"id": "m1", "device": "mv", "bundleId": "com.example.move"})
    for state, applied in [("suspended", ["launch", "advanceTime"]), ("background", ["activate", "beginBackgroundTask", "homeButton"]),
                           ("inactive", ["activate", "interruptionBegan"]), ("active", ["interruptionEnded"]),
                           ("active", []), ("notRunning", ["terminate"])]:
        status, answer = c.call("POST", "/v1/apps/m1/events", {"type": "moveTo", "state": state})
        if status != 200 or [event["type"] for event in answer["applied"]] != applied or answer["app"]["state"] != state:
            fail(f"moveTo {state}: expected 200 with the path {applied}, got {status} {answer}")
    c.call("POST", "/v1/apps/m1/events", [{"type": "launch"}, {"type": "moveTo", "state": "background"}])
    c.call("POST", "/v1/devices/mv/events", {"type": "lock"})
    status, problem = c.call("POST", "/v1/apps/m1/events", {"type": "moveTo", "state": "active"})
    if status != 409 or problem.get("blockedBy") != {"type": "activate"} or problem.get("allowed") != ["unlock"]:
        fail(f"moveTo active on a locked device: expected 409 blocked by activate, got {status} {problem}")
    status, problem = c.call("POST", "/v1/apps/m1/events", {"type": "moveTo", "state": "asleep"})
    if status != 400 or problem.get("field") != "state" or "suspended" not in problem.get("allowed", []):
        fail(f"moveTo asleep: expected 400 invalid-field naming the states, got {status} {problem}")

    for path in ["/v1/devices", "/v1/devices?limit=1", "/v1/devices/d1", "/v1/apps", "/v1/apps?device=d1&state=suspended",
                 "/v1/apps?limit=1&after=a1", "/v1/apps/a1", "/v1/apps/a1/callbacks", "/v1/apps/a1/callbacks?after=3&limit=2",
                 "/v1/apps/a1/timeline", "/v1/apps/a1/notifications", "/v1/apps/a1/notifications?delivered=true",
                 "/v1/devices/d1/timeline?limit=1000", "/v1/devices/d4/timeline?limit=1000", "/v1/apps/b1/timeline",
                 "/v1/apps/a1/callbacks?after=100000&wait=0.2", "/v1/apps/a1/events", "/v1/apps/b1/events",
                 "/v1/apps/s1/events"]:
        c.call("GET", path)

    # Errors: every one must be a problem document the spec lists for that operation.
    c.call("GET", "/v1/apps/nope")
    c.call("GET", "/v1/apps/nope/events")
    c.call("GET", "/v1/devices/nope")
    c.call("GET", "/v1/apps?device=nope")
    c.call("GET", "/nowhere")
    c.call("POST", "/v1/apps/a1/events", raw=b"{not json")
    c.call("POST", "/v1/apps/a1/events", {"type": "teleport"})
    c.call("POST", "/v1/devices/d1/events", {"type": "launch"})
    c.call("POST", "/v1/devices/d1/events", {"type": "interruptionEnded", "accepted": True})
    c.call("POST", "/v1/apps", {"id": "a1", "device": "d1", "bundleId": "x"})
    c.call("POST", "/v1/apps", {"id": "bad id!", "bundleId": "x"})
    c.call("POST", "/v1/apps", {"bundleId": "x", "colour": "red"})
    c.call("POST", "/v1/devices", {"iosVersion": "1.0"})
    c.call("POST", "/v1/apps/a1/events", {"type": "launch"}, headers={"Content-Type": "text/plain"})
    c.call("GET", "/v1/apps/a1/callbacks?limit=0")
    # verify: holding (200), not holding (409 verification-failed), a bad expectation (400), a missing app (404).
    status, _ = c.call("POST", "/v1/apps/a1/verify", {"callbacks": ["application:didFinishLaunchingWithOptions:"],
                                                       "match": "subsequence"})
    if status != 200:
        fail(f"verify of a callback a1 had: expected 200, got {status}")
    status, problem = c.call("POST", "/v1/apps/a1/verify", {"callbacks": ["applicationWillTerminate:"]})
    if status != 409 or problem.get("code") != "verification-failed":
        fail(f"verify of a callback a1 never had: expected 409 verification-failed, got {status}")
    c.call("POST", "/v1/apps/a1/verify", {"callbacks": [], "match": "all"})
    c.call("POST", "/v1/apps/nope/verify", {"callbacks": ["applicationDidBecomeActive:"]})
    # A live app's pending callback: none (200 null), answered over HTTP while its launch waits (200), then a
    # late or stray answer (409), a bad answer (400), a scripted app (409) and a missing one (404).
    c.call("POST", "/v1/apps", {"id": "live1", "device": "d1", "bundleId": "com.example.live",
                                "delegate": {"live": True}})
    c.call("GET", "/v1/apps/live1/pending-callback")
    launching = threading.Thread(target=lambda: c.call("POST", "/v1/apps/live1/events", {"type": "launch"}))
    launching.start()
    while launching.is_alive():
        status, read = c.call("GET", "/v1/apps/live1/pending-callback?wait=1")
        if status == 200 and read and read.get("pending"):
            callback = read["pending"]["id"]
            c.call("POST", "/v1/apps/live1/pending-callback", {"callback": callback, "duration": "slow"})
            status, _ = c.call("POST", "/v1/apps/live1/pending-callback", {"callback": callback, "returns": True})
            if status != 200:
                fail(f"answering a pending callback: expected 200, got {status}")
    launching.join()
    c.call("POST", "/v1/apps/live1/pending-callback", {"callback": 1})
    # Events with the answers given (a recorded session replayed): 200, and a bad answer 400.
    c.call("POST", "/v1/apps/live1/events", {"events": [{"type": "homeButton"}], "answers": [{}, {}, {}, {}]})
    c.call("POST", "/v1/apps/live1/events", {"events": [{"type": "activate"}], "answers": [{"duration": -1}]})
    c.call("POST", "/v1/apps/live1/pending-callback", {"callback": 1, "actions": [{"do": "fly"}]})
    c.call("GET", "/v1/apps/a1/pending-callback")
    c.call("POST", "/v1/apps/nope/pending-callback", {"callback": 1})
    # Query bounds: after beyond 2^63-1, empty values, wait above --max-wait, limit above 1000 on every path.
    for path in ["/v1/apps/a1/timeline?after=9223372036854775808", "/v1/devices/d1/timeline?after=",
                 "/v1/apps/a1/callbacks?wait=", "/v1/apps/a1/callbacks?wait=3601", "/v1/apps?after=",
                 "/v1/apps/a1/notifications?limit=1001", "/v1/devices?limit="]:
        status, problem = c.call("GET", path)
        if status != 400 or problem.get("code") != "invalid-field":
            fail(f"GET {path}: expected 400 invalid-field, got {status}")
    c.call("GET", "/v1/apps/a1/timeline?after=9223372036854775807")
    # Coverage and versions side by side: answered, and a bad list of versions 400 invalid-field. The first such
    # read of a process derives the model's bands from the core: some seconds in a debug build, more when busy.
    status, _ = c.call("GET", "/v1/coverage", timeout=300)
    if status != 200:
        fail(f"GET /v1/coverage: expected 200, got {status}")
    for path in ["/v1/apps/b1/versions", "/v1/apps/b1/versions?versions=4.3,9.0,17.0"]:
        status, _ = c.call("GET", path)
        if status != 200:
            fail(f"GET {path}: expected 200, got {status}")
    for path in ["/v1/apps/b1/versions?versions=", "/v1/apps/b1/versions?versions=1.0",
                 "/v1/apps/b1/versions?versions=9.0,,17.0", "/v1/apps/b1/versions?versions=" + ",".join(["9.0"] * 17)]:
        status, problem = c.call("GET", path)
        if status != 400 or problem.get("code") != "invalid-field":
            fail(f"GET {path}: expected 400 invalid-field, got {status}")
    c.call("GET", "/v1/apps/nope/versions")
    # One event over --max-event-bytes (64 KiB by default), alone and in a batch: 413 with limit (and index).
    big = {"type": "remoteNotification", "payload": {"p": "x" * 70000}}
    for body in [big, [{"type": "memoryWarning"}, big]]:
        status, problem = c.call("POST", "/v1/apps/a1/events", body)
        if status != 413 or problem.get("limit") != 65536:
            fail(f"an event over 64 KiB: expected 413 with limit 65536, got {status} {problem}")
    post_every_catalogued_type(c)
    c.call("POST", "/v1/devices", {"settings": None})
    c.call("DELETE", "/v1/apps")
    c.call("POST", "/v1/apps/a1/events", {"type": "homeButton"}, headers={"Idempotency-Key": "k1", "Content-Type": "application/json"})
    c.call("DELETE", "/v1/apps/a2")
    c.call("DELETE", "/v1/devices/d4")
    check_namespaces(c)
    print(f"ok: {c.checked} answers agree with {args.spec}")


def post_every_catalogued_type(c):
    """Posts one event of each type in the daemon's catalogue (GET /v1/event-types) that nothing above posted, made
    from its entry (its example, then the first option or the lower bound of each required field), to a1 or its
    device d1: a new event's answer is checked against the spec with no list here to update."""
    _, catalogue = c.call("GET", "/v1/event-types")
    for entry in catalogue["eventTypes"]:
        if entry["type"] in c.posted:
            continue
        event = {"type": entry["type"], **entry.get("example", {})}
        for field in entry["fields"]:
            if field["required"] and field["name"] not in event:
                event[field["name"]] = sample_value(field)
        c.call("POST", "/v1/devices/d1/events" if entry["scope"] == "device" else "/v1/apps/a1/events", event)
    missing = {entry["type"] for entry in catalogue["eventTypes"]} - c.posted
    if missing:
        fail(f"event types of the catalogue never posted: {sorted(missing)}")


def sample_value(field):
    """A value of a catalogue field's kind (GET /v1/event-types' `EventFieldDescription`)."""
    kind = field["kind"]
    if kind == "choice":
        return field["options"][0]
    if kind in ("number", "wholeNumber"):
        return field["minimum"]
    if kind == "identifier":
        return "a2" if field.get("of") == "app" else "s1"
    if kind == "text":
        return (field.get("suggestions") or ["x"])[0]
    return {"flag": False, "json": None}[kind]


def check_namespaces(c):
    """The namespace resources, the namespaced forms of the resource paths, and their errors."""
    c.call("PUT", "/v1/namespaces/ns-a", {"ttlSeconds": 3600, "labels": {"team": "mail"}})
    c.call("PUT", "/v1/namespaces/ns-a", {"ttlSeconds": None})
    c.call("PUT", "/v1/namespaces/ns-a", raw=b"")
    for path in ["/v1/namespaces", "/v1/namespaces?limit=1", "/v1/namespaces?after=default", "/v1/namespaces/ns-a",
                 "/v1/namespaces/default"]:
        c.call("GET", path)
    ns = "/v1/namespaces/ns-b"
    c.call("POST", f"{ns}/devices", {"id": "d1", "iosVersion": "7.0"})
    c.call("POST", f"{ns}/apps", {"id": "a1", "device": "d1", "bundleId": "com.example.a"})
    c.call("POST", f"{ns}/apps", {"id": "a2", "bundleId": "com.example.b"})
    c.call("POST", f"{ns}/apps/a1/events", {"type": "launch"})
    c.call("POST", f"{ns}/apps/a1/events", [{"type": "homeButton"}, {"type": "activate"}],
           headers={"Idempotency-Key": "k1", "Content-Type": "application/json"})
    c.call("POST", f"{ns}/devices/d1/events", {"type": "lock"})
    c.call("POST", f"{ns}/apps/a1/verify", {"callbacks": ["applicationDidBecomeActive:"], "match": "subsequence"})
    c.call("GET", f"{ns}/apps/a1/pending-callback?wait=0.1")
    for path in ["/devices", "/devices/d1", "/devices/d1/timeline", "/apps", "/apps?device=d1", "/apps/a1",
                 "/apps/a1/callbacks", "/apps/a1/timeline?limit=2", "/apps/a1/notifications",
                 "/apps/a1/notifications?delivered=true", "/apps/a1/callbacks?after=100000&wait=0.2", "/coverage",
                 "/apps/a1/versions?versions=7.0,13.0"]:
        c.call("GET", ns + path)
    # Errors: a bad name, a missing namespace, settings out of range, an unknown member.
    for method, path in [("GET", "/v1/namespaces/Bad_Name"), ("POST", "/v1/namespaces/-x/apps"),
                         ("GET", "/v1/namespaces/nowhere"), ("GET", "/v1/namespaces/nowhere/apps"),
                         ("GET", "/v1/namespaces/nowhere/coverage"), ("GET", f"{ns}/apps/nope/versions"),
                         ("DELETE", "/v1/namespaces/nowhere"), ("GET", f"{ns}/apps/nope"),
                         ("PATCH", "/v1/namespaces/ns-a"), ("GET", "/v1/namespaces?limit=0")]:
        c.call(method, path, {"bundleId": "x"} if method == "POST" else None)
    for body in [{"ttlSeconds": 0}, {"ttlSeconds": "1"}, {"labels": {"a": 1}}, {"colour": "red"}, [1]]:
        status, problem = c.call("PUT", "/v1/namespaces/ns-a", body)
        if status != 400 or problem.get("code") != "invalid-field":
            fail(f"PUT /v1/namespaces/ns-a {body}: expected 400 invalid-field, got {status}")
    c.call("PUT", "/v1/namespaces/default", {"ttlSeconds": 60})
    c.call("DELETE", "/v1/namespaces/default")
    c.call("POST", f"{ns}/apps", {"id": "a1", "bundleId": "x"})
    # Over the quota (scripts/test runs the daemon with a small --max-devices-per-namespace): 403
    # quota-exceeded with limit, for a device and for an app that would need one.
    _, document = c.call("GET", "/v1/namespaces/default")
    limit = document["limits"]["devices"]
    if limit <= 50:
        for index in range(limit):
            c.call("POST", "/v1/namespaces/ns-q/devices", {"id": f"q{index}"})
        status, problem = c.call("POST", "/v1/namespaces/ns-q/devices", {"id": "over"})
        if status != 403 or problem.get("code") != "quota-exceeded" or problem.get("limit") != limit:
            fail(f"a device over the quota: expected 403 quota-exceeded with limit {limit}, got {status} {problem}")
        c.call("POST", "/v1/namespaces/ns-q/apps", {"bundleId": "com.example.q"})
    c.call("POST", f"{ns}/reset")
    c.call("DELETE", f"{ns}")
    c.call("DELETE", "/v1/namespaces/ns-q")


if __name__ == "__main__":
    main()
