#!/usr/bin/env python3
"""Checks conformance scenario files against the scenario format, without a daemon.

  validate.py [--schema FILE] [DIR_OR_FILE...]

Each DIR contributes its *.json files (as `lifecycled check` reads a folder); with no argument, the scenarios/ and
scenes/ folders beside this script. Every file must
  - be JSON without duplicate keys (the runner would silently keep the last one),
  - validate against docs/scenario.schema.json (JSON Schema 2020-12; the schema itself is checked first),
  - be named NN_something.json (two digits and an underscore: the order the runner runs them in),
  - have a `name` no other file of the set has.
Prints one line per failure, `FAIL FILE JSON_PATH: message`, and last `N passed, N failed` (files).
Exit status 1 when a file fails, a path does not exist, or a directory holds no scenario file; 2 when the
schema itself is invalid. Needs the jsonschema package (scripts/setup --fast-tests puts it in .venv).
"""
import argparse
import json
import os
import re
import sys

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError, best_match

HERE = os.path.dirname(os.path.abspath(__file__))
FILE_NAME = re.compile(r"^\d\d_")


class DuplicateKey(ValueError):
    pass


def no_duplicates(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise DuplicateKey(f"duplicate key {key!r} in one object (the runner would keep only the last)")
        seen[key] = value
    return seen


def json_path(path):
    """$.steps[3].expect in the style of jsonschema's json_path, for a deque of keys and indices."""
    out = "$"
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", part):
            out += f".{part}"
        else:
            out += f"[{json.dumps(part)}]"
    return out


def deepest(error):
    """The most specific reason: for anyOf/oneOf/if-then failures, the best matching sub-error."""
    while error.context:
        error = best_match(error.context)
    return error


def messages(validator, document):
    lines = []
    for error in sorted(validator.iter_errors(document), key=lambda e: [(0, p) if isinstance(p, int) else (1, p) for p in e.absolute_path]):
        error = deepest(error)
        message = error.message
        if error.validator == "not" and isinstance(error.validator_value, dict) \
                and error.validator_value.get("description"):
            message = error.validator_value["description"]
        lines.append((json_path(error.absolute_path), message))
    return lines


def collect(paths):
    """([files], [problems]) from the command line's directories and files."""
    files, problems = [], []
    for path in paths:
        if os.path.isdir(path):
            found = sorted(os.path.join(path, f) for f in os.listdir(path) if f.endswith(".json"))
            if not found:
                problems.append(f"FAIL {path}: no scenario files (*.json) in this directory")
            files += found
        elif os.path.isfile(path):
            files.append(path)
        else:
            problems.append(f"FAIL {path}: no such file or directory")
    return files, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--schema", default=os.path.join(HERE, "..", "..", "docs", "scenario.schema.json"))
    parser.add_argument("paths", nargs="*")
    args = parser.parse_args()
    paths = args.paths or [os.path.join(HERE, "scenarios"), os.path.join(HERE, "scenes")]

    with open(args.schema, encoding="utf-8") as fh:
        schema = json.load(fh)
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as err:
        print(f"FAIL {args.schema} {json_path(err.absolute_path)}: not a valid JSON Schema 2020-12: {err.message}")
        sys.exit(2)
    validator = Draft202012Validator(schema)

    files, problems = collect(paths)
    for line in problems:
        print(line)
    passed = failed = 0
    names = {}
    for path in files:
        failures = []
        try:
            with open(path, encoding="utf-8") as fh:
                document = json.load(fh, object_pairs_hook=no_duplicates)
        except (ValueError, OSError) as err:
            failures.append(("$", f"not a scenario file: {err}"))
            document = None
        if document is not None:
            failures += messages(validator, document)
        base = os.path.basename(path)
        if not FILE_NAME.match(base):
            failures.append(("(file name)", f"{base!r} must start with two digits and an underscore (NN_name.json)"))
        name = document.get("name") if isinstance(document, dict) else None
        if isinstance(name, str):
            if name in names:
                failures.append(("$.name", f"{name!r} is also the name of {names[name]}"))
            else:
                names[name] = path
        for where, message in failures:
            print(f"FAIL {path} {where}: {message}")
        if failures:
            failed += 1
        else:
            passed += 1
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or problems else 0)


if __name__ == "__main__":
    main()
