#!/usr/bin/env bash
# How Tests/Fixtures/data-dir-2 was made (kept for the record; the fixture itself must never be regenerated:
# it is a data directory in the formats of its day, journal records of version 2 and snapshots of version 2,
# and every later build must open it). Run from the repository's root with a built daemon:
#   Tests/Fixtures/data-dir-2/make-fixture.sh .build/debug/lifecycled
# It starts the daemon on a fresh directory with --snapshot-every 20, posts what follows (namespaces, scenes,
# idempotency keys, deletions), saves the reads listed at the end with their status and body in expected.json,
# and stops the daemon with SIGTERM. d1, d2 and the namespace's device are restored from snapshots plus a few
# records; d3 from its records alone.
set -euo pipefail
daemon="$1"
out="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
"$daemon" --port 0 --data-dir "$work/data" --snapshot-every 20 2> "$work/log" &
pid=$!
for _ in $(seq 100); do grep -q '"ready"\|ready' "$work/log" 2>/dev/null && break; sleep 0.1; done
port=$(sed -n 's/.*url=http:\/\/127.0.0.1:\([0-9]*\).*/\1/p' "$work/log" | head -1)
B=http://127.0.0.1:$port
p() { curl -sf -X POST "$B$1" -H 'Content-Type: application/json' ${3:+-H "Idempotency-Key: $3"} -d "$2" > /dev/null; }
p /v1/devices '{"id": "d1", "iosVersion": "7.0", "passcode": true, "memoryMB": 512, "settings": {"locale": "en_US"}}'
p /v1/devices '{"id": "d2", "iosVersion": "15.0", "idiom": "pad", "suspendDelay": 2}'
p /v1/devices '{"id": "gone"}'
p /v1/apps '{"id": "mail", "device": "d1", "bundleId": "com.example.mail", "delegate": {"durations": {"applicationDidEnterBackground:": 3}}}'
p /v1/apps '{"id": "music", "device": "d1", "bundleId": "com.example.music", "info": {"backgroundModes": ["audio"]}}'
p /v1/apps '{"id": "notes", "device": "d2", "bundleId": "com.example.notes", "info": {"sceneManifest": {"supportsMultipleScenes": true, "configurations": [{"name": "Default Configuration"}]}}}'
p /v1/apps '{"id": "temp", "device": "d2", "bundleId": "com.example.temp"}'
curl -sf -X DELETE $B/v1/apps/temp > /dev/null
curl -sf -X DELETE $B/v1/devices/gone > /dev/null
p /v1/apps/mail/events '[{"type": "launch"}, {"type": "homeButton"}]' k1
p /v1/devices/d1/events '[{"type": "change", "kind": "orientation", "value": "landscapeLeft"}, {"type": "change", "kind": "locale", "value": "fr_FR"}]'
p /v1/apps/music/events '[{"type": "launch"}, {"type": "startBackgroundActivity", "mode": "audio"}]'
p /v1/devices/d1/events '[{"type": "lock"}, {"type": "advanceTime", "seconds": 30}]' k2
p /v1/devices/d1/events '{"type": "unlock"}'
p /v1/apps/mail/events '{"type": "launch"}'
p /v1/apps/mail/events '{"type": "remoteNotification", "payload": {"aps": {"alert": "hi"}}}'
p /v1/apps/notes/events '[{"type": "launch"}, {"type": "openScene"}]' k3
p /v1/apps/notes/events '[{"type": "closeScene", "session": "s2"}, {"type": "beginBackgroundTask", "name": "sync", "duration": 60}]'
p /v1/apps/notes/events '{"type": "moveTo", "state": "background"}'
p /v1/devices/d2/events '[{"type": "memoryPressure", "level": "critical"}, {"type": "advanceTime", "seconds": 100}]'
p /v1/apps/mail/events '[{"type": "memoryWarning"}, {"type": "homeButton"}, {"type": "backgroundFetch"}]' k4 || true
curl -sf -X PUT "$B/v1/namespaces/team" -H 'Content-Type: application/json' -d '{"labels": {"owner": "qa"}}' > /dev/null
p /v1/namespaces/team/devices '{"id": "t1", "iosVersion": "17.0"}'
p /v1/namespaces/team/apps '{"id": "shop", "device": "t1", "bundleId": "com.example.shop"}'
p /v1/namespaces/team/apps/shop/events '[{"type": "launch"}, {"type": "homeButton"}, {"type": "activate"}]' t-k1
for i in $(seq 6); do p /v1/namespaces/team/apps/shop/events '[{"type": "homeButton"}, {"type": "activate"}]'; done
p /v1/devices '{"id": "d3", "iosVersion": "9.0", "clock": {"mode": "manual", "speed": 2}, "settings": {"locale": "de_DE"}}'
p /v1/apps '{"id": "cal", "device": "d3", "bundleId": "com.example.cal", "delegate": {"notImplemented": ["applicationWillResignActive:"]}}'
p /v1/apps '{"id": "tmp3", "device": "d3", "bundleId": "com.example.tmp"}'
curl -sf -X DELETE $B/v1/apps/tmp3 > /dev/null
p /v1/apps/cal/events '{"type": "launch", "url": "cal://today"}' k5
p /v1/devices/d3/events '{"type": "advanceTime", "seconds": 1.5}'
reads=(
    /v1/devices /v1/apps /v1/namespaces/team /v1/namespaces/team/devices /v1/namespaces/team/apps
    /v1/namespaces/team/apps/shop "/v1/namespaces/team/apps/shop/timeline?limit=1000"
)
for id in d1 d2 d3 gone; do reads+=("/v1/devices/$id" "/v1/devices/$id/timeline?limit=1000"); done
for id in mail music notes cal temp tmp3; do
    reads+=("/v1/apps/$id" "/v1/apps/$id/timeline?limit=1000" "/v1/apps/$id/callbacks?limit=1000"
        "/v1/apps/$id/notifications" "/v1/apps/$id/notifications?delivered=true")
done
python3 - "$B" "$out/expected.json" "${reads[@]}" <<'PY'
import json, sys, urllib.error, urllib.request
base, target, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
answers = {}
for path in paths:
    try:
        with urllib.request.urlopen(base + path) as reply:
            answers[path] = {"status": reply.status, "body": reply.read().decode()}
    except urllib.error.HTTPError as error:
        answers[path] = {"status": error.code, "body": error.read().decode()}
with open(target, "w") as f:
    json.dump(answers, f, indent=1, sort_keys=True)
    f.write("\n")
PY
kill -TERM "$pid"
wait "$pid" || true
cp "$work/data/lifecycled.sqlite3" "$out/lifecycled.sqlite3"
echo "data-dir-2: $(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))))" "$out/expected.json") reads saved"
