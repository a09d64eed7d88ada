"""schemathesis hooks for scripts/schemathesis (loaded through SCHEMATHESIS_HOOKS).

Drops generated bodies that the spec cannot tell from valid ones, so a positive-data failure is
always a disagreement between the spec and the daemon.
"""
import json

import schemathesis


@schemathesis.hook
def filter_body(context, body):
    """Bodies the spec cannot tell from valid ones: see each check."""
    return unique_scene_configurations(body) and views_are_declared(body) and scenario_steps_check_something(body)


def scenario_steps_check_something(body):
    """A scenario step with both body and rawBody, an expect that is an empty object, or a variable named run:
    the scenario format (docs/scenario.schema.json) refuses them with `not`, which the spec leaves out (the
    Swift client's generator does not take it), so the spec alone cannot tell them from valid steps."""
    steps = body.get("steps") if isinstance(body, dict) else None
    for step in steps if isinstance(steps, list) else []:
        if not isinstance(step, dict):
            continue
        if "body" in step and "rawBody" in step:
            return False
        if step.get("expect") == {}:
            return False
        for saved in ("save", "saveHeaders"):
            if isinstance(step.get(saved), dict) and "run" in step[saved]:
                return False
        # The format's patterns (pluck paths, names) are read by two regular-expression engines, Python's here
        # and ICU's in the daemon, which disagree on control and non-ASCII characters: such strings are not sent.
        texts = [step.get("pluck"), step.get("do")]
        for member in ("save", "saveHeaders", "headers", "expectHeaders"):
            if isinstance(step.get(member), dict):
                texts += [*step[member].keys(), *step[member].values()]
        if any(isinstance(text, str) and not all(0x20 < ord(c) < 0x7f or c == " " for c in text) for text in texts):
            return False
    return True


def views_are_declared(body):
    """A hideViews or showViews action naming a view that sensitiveViews does not list: API.md answers 400
    invalid-field, and JSON Schema cannot tie one member's items to another's."""
    if not isinstance(body, dict):
        return True
    declared = body.get("sensitiveViews") if isinstance(body.get("sensitiveViews"), list) else []
    delegate = body.get("delegate") if isinstance(body.get("delegate"), dict) else {}
    actions = delegate.get("actions") if isinstance(delegate.get("actions"), dict) else {}
    for listed in actions.values():
        for action in listed if isinstance(listed, list) else []:
            views = action.get("views") if isinstance(action, dict) else None
            if isinstance(views, list) and any(view not in declared for view in views):
                return False
    return True


def unique_scene_configurations(body):
    """Scene configurations with the same name: API.md answers 400 invalid-field, and JSON Schema
    cannot require items unique by one member."""
    info = body.get("info") if isinstance(body, dict) else None
    manifest = info.get("sceneManifest") if isinstance(info, dict) else None
    configurations = manifest.get("configurations") if isinstance(manifest, dict) else None
    if not isinstance(configurations, list):
        return True
    names = [json.dumps(item.get("name")) for item in configurations if isinstance(item, dict) and "name" in item]
    return len(names) == len(set(names))
