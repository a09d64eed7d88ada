#!/usr/bin/env bash
# Validates api/openapi.yaml:
#   1. it parses as YAML;
#   2. it is a valid OpenAPI 3.1 document (openapi-spec-validator);
#   3. every example in it validates against its schema (JSON Schema 2020-12);
#   4. the house rules hold: every operation lists 414 (any path answers it to a target over 4096 bytes)
#      and every other status any request may get (400, 421, 431 and 501 from the HTTP edge; 401 and 403
#      unless it needs no token; 503 on /v1 and on every change; 507 on every change but deletions, resets and
#      what stores nothing itself, `x-stores-nothing`),
#      every GET answers ETag and 304 (but one whose 200 is `x-streamed`: sent as it is written), every 201
#      carries Location,
#      every problem answer is application/problem+json, and every problem example (operations' and
#      components' alike) has a code of Problem.code, the type of its code, the status of the answer
#      it illustrates, and the same status as every other example of its code. Which codes there are,
#      and their statuses and titles, is the daemon's list (ProblemCode), which ProblemCatalogueTests
#      holds this spec to;
#   5. the conformance suite's scenarios (Tests/Conformance, or the conformance directory
#      $LIFECYCLED_CONFORMANCE_DIR names: its scenarios/ and, when present, scenes/) use only paths
#      and methods the spec has, and the request bodies they send are accepted by the spec when the
#      scenario expects success, and rejected when it expects 400 (unless the rule is one no schema can
#      state, between members or resources, and the description of the member the problem's field names
#      says when it answers 400).
# Usage: scripts/validate-openapi.sh [path/to/openapi.yaml]  (LIFECYCLED_PYTHON picks the interpreter; the
# default is the .venv that scripts/setup --tests fills)
# Exits non-zero on the first failing stage.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
spec="${1:-$repo/api/openapi.yaml}"
conformance="${LIFECYCLED_CONFORMANCE_DIR:-$repo/Tests/Conformance}"
python="${LIFECYCLED_PYTHON:-$repo/.venv/bin/python}"

if ! "$python" -c 'import openapi_spec_validator, yaml, jsonschema, referencing' 2>/dev/null; then
    echo "validate-openapi: $python lacks openapi-spec-validator; run scripts/setup --tests" >&2
    exit 2
fi

[ -f "$spec" ] || { echo "no such file: $spec" >&2; exit 2; }

PYTHONUNBUFFERED=1 "$python" - "$spec" "$conformance" <<'PY'
import json, os, re, sys

import yaml
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

spec_path, conformance_dir = sys.argv[1], sys.argv[2]
failures = []

def stage(ok_msg, since):
    """Prints the stage's verdict: ok, or how many failures it added."""
    added = len(failures) - since
    print(f"ok   {ok_msg}" if added == 0 else f"FAIL {added} failure(s): {ok_msg}")

def fail(msg):
    failures.append(msg)
    print(f"FAIL {msg}", file=sys.stderr)

# 1. YAML
try:
    with open(spec_path, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
except yaml.YAMLError as e:
    print(f"FAIL {spec_path} is not valid YAML: {e}", file=sys.stderr)
    sys.exit(1)
print(f"ok   {spec_path} parses as YAML")

# 2. OpenAPI
try:
    validate(doc)
except Exception as e:  # the validator raises several exception types
    message = getattr(e, "message", None) or str(e).splitlines()[0]
    where = "/".join(map(str, getattr(e, "absolute_path", []) or [])) or "(root)"
    print(f"FAIL not a valid OpenAPI document: {message} at {where}", file=sys.stderr)
    sys.exit(1)
print(f"ok   valid OpenAPI {doc.get('openapi')} ({len(doc['paths'])} paths, "
      f"{len(doc['components']['schemas'])} schemas)")

# Schemas are checked against the whole document, so '#/components/...' refs resolve.
BASE = "urn:lifecycled:openapi"
registry = Registry().with_resource(BASE, Resource(contents=doc, specification=DRAFT202012))

def resolve(node):
    """Follows a non-schema $ref (responses, parameters, ...) within the document."""
    while isinstance(node, dict) and "$ref" in node and node["$ref"].startswith("#/"):
        target = doc
        for part in node["$ref"][2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            target = target[int(part)] if isinstance(target, list) else target[part]
        node = target
    return node

def errors(schema_ptr, instance):
    v = Draft202012Validator({"$ref": BASE + "#" + schema_ptr}, registry=registry)
    return sorted(v.iter_errors(instance), key=lambda e: list(e.absolute_path))

def member_schema(schema, path):
    """The schema of a dotted member path (`iosVersion`, `info.launchImages`) under a request schema, or None;
    as the member is written, before its own $ref: its description is the member's, not its type's."""
    node = schema
    for key in path.split("."):
        node = resolve(node)
        found = None
        for part in [node] + [resolve(x) for x in node.get("allOf", [])]:
            if key in part.get("properties", {}):
                found = part["properties"][key]
        if found is None:
            return None
        node = found
    return node

def stated_in_words(content, step):
    """A 400 the schema cannot state (the app's iosVersion above its device's OS) is allowed when the step
    expects a problem naming a `field` whose description in the spec says it answers 400."""
    field = step.get("expect", {}).get("field") if isinstance(step.get("expect"), dict) else None
    if not isinstance(field, str):
        return False
    member = member_schema(content.get("schema", {}), field)
    return member is not None and "400" in member.get("description", "")

def esc(s):
    return str(s).replace("~", "~0").replace("/", "~1")

# 3. Examples. Walk the document and collect (schema pointer, example, where).
start = len(failures)
checks = []
def walk(node, ptr):
    if isinstance(node, dict):
        # A media type object or parameter: 'schema' next to 'example(s)'.
        if "schema" in node and ("example" in node or "examples" in node):
            sptr = ptr + "/schema"
            if "example" in node:
                checks.append((sptr, node["example"], ptr + "/example"))
            for name, ex in (node.get("examples") or {}).items():
                ex = resolve(ex)
                if "value" in ex:
                    checks.append((sptr, ex["value"], f"{ptr}/examples/{name}"))
        # A schema object with JSON Schema 'examples' (an array).
        if ptr.startswith("/components/schemas") and isinstance(node.get("examples"), list) \
                and not ptr.endswith("/properties"):
            for i, ex in enumerate(node["examples"]):
                checks.append((ptr, ex, f"{ptr}/examples/{i}"))
        for k, v in node.items():
            walk(v, f"{ptr}/{esc(k)}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            walk(v, f"{ptr}/{i}")

walk(doc, "")
for sptr, ex, where in checks:
    for e in errors(sptr, ex):
        fail(f"example {where}: {e.message} at {'/'.join(map(str, e.absolute_path)) or '(root)'}")
stage(f"{len(checks)} examples checked against their schemas", start)

# 4. House rules.
start = len(failures)
codes = set(doc["components"]["schemas"]["Problem"]["properties"]["code"]["anyOf"][0]["enum"])
code_status = {}  # code -> (status, where first seen)

def problem_examples(response):
    mt = response.get("content", {}).get("application/problem+json", {})
    return ([mt["example"]] if "example" in mt else []) + \
           [resolve(e)["value"] for e in (mt.get("examples") or {}).values()]

def check_problem_example(where, ex, status=None):
    code = ex.get("code")
    if code not in codes:
        fail(f"{where}: example code {code!r} is not in Problem.code")
    if ex.get("type") != f"https://lifecycled.dev/problems/{code}":
        fail(f"{where}: example type {ex.get('type')!r} does not match code {code!r}")
    if status is not None and ex.get("status") != int(status):
        fail(f"{where}: a {status} answer's example has status {ex.get('status')!r}")
    seen = code_status.setdefault(code, (ex.get("status"), where))
    if seen[0] != ex.get("status"):
        fail(f"{where}: {code} has status {ex.get('status')!r} here, {seen[0]!r} at {seen[1]}")

METHODS = ("get", "put", "post", "delete", "patch", "head", "options")
rules = 0
for path, item in doc["paths"].items():
    for method in METHODS:
        op = item.get(method)
        if op is None:
            continue
        where = f"{method.upper()} {path}"
        responses = {k: resolve(v) for k, v in op["responses"].items()}
        # The HTTP edge refuses a target over 4096 bytes on any path, before routing.
        rules += 1
        if "414" not in responses:
            fail(f"{where}: no 414 answer (a request target over 4096 bytes answers it on every path)")
        # What else any request may be answered, so that generated clients type every answer they can get:
        # the HTTP edge's refusals on any path, the tokens' unless the operation needs none, not-ready on
        # /v1 while the daemon recovers and on every change while it drains or after its store failed.
        can = {"400": "a refused request", "421": "a Host that does not name the daemon",
               "431": "header fields over their limit", "501": "a transfer coding other than chunked"}
        if op.get("security") != [{}]:
            can.update({"401": "no known token", "403": "a token that does not allow it"})
        if path.startswith("/v1/") or method in ("post", "put", "delete", "patch"):
            can["503"] = "the daemon not ready"
        # An operation that stores nothing itself (`x-stores-nothing`: a live delegate's answer, journaled with the
        # events POST that waits on it) is not refused by the data directory's bounds.
        if method in ("post", "put", "patch") and not path.endswith("/reset") and not op.get("x-stores-nothing"):
            can["507"] = "a data directory at --max-data-bytes, or a disk short of --min-free-disk-bytes"
        for status, why in can.items():
            rules += 1
            if status not in responses:
                fail(f"{where}: no {status} answer ({why} answers it)")
        # A body sent as it is written (`x-streamed`: an export) is not known before it is sent: no ETag.
        if method == "get" and not resolve(responses.get("200", {})).get("x-streamed"):
            rules += 1
            ok = resolve(responses.get("200", {})).get("headers", {}).get("ETag")
            if not ok:
                fail(f"{where}: 200 has no ETag header")
            if "304" not in responses:
                fail(f"{where}: no 304 answer")
            params = [resolve(p) for p in item.get("parameters", []) + op.get("parameters", [])]
            if not any(p.get("name") == "If-None-Match" for p in params):
                fail(f"{where}: no If-None-Match parameter")
        if "201" in responses:
            rules += 1
            if "Location" not in responses["201"].get("headers", {}):
                fail(f"{where}: 201 has no Location header")
        for status, resp in responses.items():
            if not status.startswith(("4", "5")):
                continue
            rules += 1
            content = resp.get("content", {})
            if list(content) != ["application/problem+json"]:
                fail(f"{where}: {status} is not application/problem+json")
                continue
            for ex in problem_examples(resp):
                check_problem_example(f"{where} {status}", ex, status)
for name, resp in doc["components"].get("responses", {}).items():
    for ex in problem_examples(resp):
        rules += 1
        check_problem_example(f"components/responses/{name}", ex)
stage(f"{rules} house rules checked (414 and the edge's refusals everywhere, ETag/304 on GET, Location on 201, "
      f"problem answers)", start)

# 5. Conformance scenarios' paths and request bodies (scenarios/, and scenes/ when present).
scen_dir = os.path.join(conformance_dir, "scenarios")
scen_files = [os.path.join(d, name)
              for d in (scen_dir, os.path.join(conformance_dir, "scenes")) if os.path.isdir(d)
              for name in sorted(os.listdir(d)) if name.endswith(".json")]
if os.path.isdir(scen_dir):
    routes = []
    for path, item in doc["paths"].items():
        rx = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/?]+", re.escape(path)) + r"(\?.*)?$"
        routes.append((re.compile(rx), path, item))
    bodies = 0
    start = len(failures)
    for scen_path in scen_files:
        name = os.path.basename(scen_path)
        with open(scen_path, encoding="utf-8") as f:
            scenario = json.load(f)
        for i, step in enumerate(scenario.get("steps", [])):
            if "do" not in step:  # {"sleep": seconds} sends nothing
                continue
            method, _, url = step["do"].partition(" ")
            url = url.replace("${run}", "run1")
            match = [(p, it) for rx, p, it in routes if rx.match(url)]
            if not match:
                fail(f"{name} step {i}: {method} {url} matches no path in the spec")
                continue
            path, item = match[0]
            op = item.get(method.lower())
            if op is None:
                fail(f"{name} step {i}: the spec has no {method} {path}")
                continue
            if "body" not in step:
                continue
            body = json.loads(json.dumps(step["body"]).replace("${run}", "run1"))
            rb = resolve(op.get("requestBody", {}))
            content = rb.get("content", {}).get("application/json")
            if content is None:
                fail(f"{name} step {i}: {method} {path} takes no JSON body")
                continue
            rb_ref = op.get("requestBody", {}).get("$ref", "")
            rb_ptr = rb_ref[1:] if rb_ref.startswith("#/") else f"/paths/{esc(path)}/{method.lower()}/requestBody"
            sptr = f"{rb_ptr}/content/application~1json/schema"
            errs = errors(sptr, body)
            status = step.get("status", 200)
            if not isinstance(status, int):  # a saved ${variable}: not known before the run
                continue
            bodies += 1
            if status < 300 and errs:
                fail(f"{name} step {i}: body rejected by the spec but the suite expects {status}: "
                     f"{errs[0].message}")
            if status == 400 and "rawBody" not in step and not errs and not stated_in_words(content, step):
                fail(f"{name} step {i}: body accepted by the spec but the suite expects 400 (a rule no schema "
                     f"can state, between members or resources, must be said on the member the answer's "
                     f"field names: its description says when it answers 400)")
    stage(f"{bodies} request bodies of {len(scen_files)} scenarios in {conformance_dir} agree with the spec", start)
else:
    print(f"skip no conformance scenarios at {scen_dir}")

if failures:
    print(f"{len(failures)} failure(s)", file=sys.stderr)
    sys.exit(1)
print("openapi.yaml is valid")
PY
