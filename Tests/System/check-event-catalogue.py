#!/usr/bin/env python3
"""Holds api/openapi.yaml's event schemas against the daemon's catalogue of events (GET /v1/event-types).

For every event type the catalogue lists: the spec's `Event` discriminator maps it, `DeviceEvent`'s maps it
exactly when its scope is `device`, and the schema it maps to has the same members (`type` aside), the same
required ones, and for each member a schema of the field's kind: a boolean for a flag, a number or an integer
with the same minimum and maximum, the same choices, the same default, an id for an identifier. And the spec
maps no type the catalogue lacks. Prints one line per disagreement; exit 1 if any.

Usage: check-event-catalogue.py --base URL [--spec api/openapi.yaml]   (needs PyYAML)
"""
import argparse
import json
import os
import sys
import urllib.request

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the daemon's URL")
    parser.add_argument("--spec", default=os.path.join(ROOT, "api", "openapi.yaml"))
    args = parser.parse_args()
    with urllib.request.urlopen(args.base.rstrip("/") + "/v1/event-types", timeout=10) as reply:
        catalogue = json.load(reply)["eventTypes"]
    with open(args.spec, encoding="utf-8") as f:
        spec = yaml.safe_load(f)
    problems = compare(catalogue, spec)
    for problem in problems:
        print("FAIL " + problem, file=sys.stderr)
    if problems:
        print(f"check-event-catalogue: {len(problems)} disagreement(s) between the spec and the catalogue",
              file=sys.stderr)
        sys.exit(1)
    print(f"check-event-catalogue: the spec's event schemas agree with the catalogue's {len(catalogue)} event types")


def compare(catalogue, spec):
    schemas = spec["components"]["schemas"]

    def resolve(node):
        while isinstance(node, dict) and "$ref" in node:
            node = schemas[node["$ref"].rsplit("/", 1)[1]]
        return node

    problems = []
    every = schemas["Event"]["discriminator"]["mapping"]
    device = schemas["DeviceEvent"]["discriminator"]["mapping"]
    listed = {entry["type"] for entry in catalogue}
    for extra in sorted(set(every) - listed):
        problems.append(f"{extra}: in the spec's Event mapping, not in the catalogue")
    for entry in catalogue:
        name = entry["type"]
        if name not in every:
            problems.append(f"{name}: not in the spec's Event mapping")
            continue
        if (name in device) != (entry["scope"] == "device"):
            problems.append(f"{name}: scope {entry['scope']}, but the DeviceEvent mapping "
                            f"{'has' if name in device else 'lacks'} it")
        schema = resolve({"$ref": every[name]})
        props = schema.get("properties", {})
        type_schema = props.get("type", {})
        if type_schema.get("const") != name and name not in type_schema.get("enum", []):
            problems.append(f"{name}: the schema's type does not take {name!r}")
        members = set(props) - {"type"}
        fields = {field["name"]: field for field in entry["fields"]}
        if members != set(fields):
            problems.append(f"{name}: members {sorted(members)} in the spec, fields {sorted(fields)} in the catalogue")
        required = set(schema.get("required", [])) - {"type"}
        wanted = {field["name"] for field in entry["fields"] if field["required"]}
        if required != wanted:
            problems.append(f"{name}: required {sorted(required)} in the spec, {sorted(wanted)} in the catalogue")
        for field_name, field in fields.items():
            if field_name in props:
                problems += [f"{name}.{field_name}: {p}" for p in compare_field(field, props[field_name], resolve)]
    return problems


def compare_field(field, prop, resolve):
    """What differs between one catalogue field and its member's schema."""
    problems = []
    schema = dict(resolve(prop))
    schema.update({k: v for k, v in prop.items() if k != "$ref"})
    kind = field["kind"]
    expected_type = {"flag": "boolean", "number": "number", "wholeNumber": "integer", "text": "string",
                     "identifier": "string", "choice": "string"}.get(kind)
    if schema.get("type") != expected_type:
        problems.append(f"a {kind} field, but the schema's type is {schema.get('type')!r}")
    if kind in ("number", "wholeNumber"):
        for bound in ("minimum", "maximum"):
            if schema.get(bound) != field[bound]:
                problems.append(f"{bound} {schema.get(bound)!r} in the spec, {field[bound]!r} in the catalogue")
    if kind == "choice" and sorted(schema.get("enum", [])) != sorted(field["options"]):
        problems.append(f"choices {schema.get('enum')} in the spec, {field['options']} in the catalogue")
    if kind == "identifier" and "pattern" not in schema:
        problems.append("an identifier, but the schema has no pattern")
    if kind == "text" and field.get("suggestions") and "enum" in schema \
            and not set(schema["enum"]) <= set(field["suggestions"]):
        problems.append(f"the spec allows {schema['enum']}, the catalogue suggests {field['suggestions']}")
    if schema.get("default") != field.get("default"):
        problems.append(f"default {schema.get('default')!r} in the spec, {field.get('default')!r} in the catalogue")
    return problems


if __name__ == "__main__":
    main()
