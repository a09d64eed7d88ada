#!/usr/bin/env bash
# How Tests/Fixtures/data-dir-1 was made (kept for the record; the fixture itself must never be regenerated:
# it is what a data directory of the first release looks like, and every later build must open it).
#   lifecycled --port 0 --data-dir DIR --snapshot-every 20, then this script with the port, then the reads
#   listed in expected.json saved with their status and body, then SIGTERM.
# d1 and d2 are restored from snapshots plus a few records; d3 from its records alone.
B=http://127.0.0.1:$1
p() { curl -sf -X POST "$B$1" -H 'Content-Type: application/json' ${3:+-H "Idempotency-Key: $3"} -d "$2" > /dev/null; }
p /v1/devices '{"id": "d1", "iosVersion": "7.0", "passcode": true, "memoryMB": 512, "settings": {"locale": "en_US"}}'
p /v1/devices '{"id": "d2", "iosVersion": "4.0", "suspendDelay": 2, "multitasking": true}'
p /v1/devices '{"id": "gone"}'
p /v1/apps '{"id": "mail", "device": "d1", "bundleId": "com.example.mail", "delegate": {"durations": {"applicationDidEnterBackground:": 3}}}'
p /v1/apps '{"id": "music", "device": "d1", "bundleId": "com.example.music", "info": {"backgroundModes": ["audio"]}}'
p /v1/apps '{"id": "nav", "device": "d2", "bundleId": "com.example.nav", "info": {"urlSchemes": ["nav"]}, "memoryMB": 200}'
p /v1/apps '{"id": "old", "device": "d2", "bundleId": "com.example.old", "iosVersion": "3.0"}'
p /v1/apps '{"id": "temp", "device": "d2", "bundleId": "com.example.temp"}'
curl -sf -X DELETE $B/v1/apps/temp
curl -sf -X DELETE $B/v1/devices/gone
p /v1/apps/mail/events '[{"type": "launch"}, {"type": "homeButton"}]' k1
p /v1/devices/d1/events '[{"type": "change", "kind": "orientation", "value": "landscapeLeft"}, {"type": "change", "kind": "locale", "value": "fr_FR"}]'
p /v1/apps/music/events '[{"type": "launch"}, {"type": "startBackgroundActivity", "mode": "audio"}]'
p /v1/devices/d1/events '[{"type": "lock"}, {"type": "advanceTime", "seconds": 30}]' k2
p /v1/devices/d1/events '{"type": "unlock"}'
p /v1/apps/mail/events '{"type": "launch"}'
p /v1/apps/mail/events '{"type": "remoteNotification", "payload": {"aps": {"alert": "hi"}}}'
p /v1/apps/nav/events '[{"type": "launch"}, {"type": "beginBackgroundTask", "name": "sync", "duration": 60}]'
p /v1/apps/nav/events '{"type": "homeButton"}'
p /v1/apps/nav/events '{"type": "openURL", "url": "nav://home", "sourceApplication": "com.example.mail"}'
p /v1/devices/d2/events '{"type": "advanceTime", "seconds": 20}' k3
p /v1/apps/old/events '[{"type": "launch"}, {"type": "interruptionBegan", "kind": "call"}, {"type": "interruptionEnded", "accepted": false}]'
p /v1/devices/d2/events '[{"type": "memoryPressure", "level": "critical"}, {"type": "advanceTime", "seconds": 100}]'
p /v1/apps/mail/events '[{"type": "memoryWarning"}, {"type": "homeButton"}, {"type": "backgroundFetch"}]' k4 || true
p /v1/devices '{"id": "d3", "iosVersion": "9.0", "clock": {"mode": "manual", "speed": 2}, "settings": {"locale": "de_DE"}}'
p /v1/apps '{"id": "cal", "device": "d3", "bundleId": "com.example.cal", "delegate": {"notImplemented": ["applicationWillResignActive:"]}}'
p /v1/apps '{"id": "tmp3", "device": "d3", "bundleId": "com.example.tmp"}'
curl -sf -X DELETE $B/v1/apps/tmp3
p /v1/apps/cal/events '{"type": "launch", "url": "cal://today"}' k5
p /v1/devices/d3/events '{"type": "advanceTime", "seconds": 1.5}'
