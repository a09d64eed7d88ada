"""schemathesis hooks for scripts/schemathesis (loaded through SCHEMATHESIS_HOOKS).

Drops generated bodies that the spec cannot tell from valid ones, so a positive-data failure is
always a disagreement between the spec and the daemon.
"""
import json

import schemathesis


@schemathesis.hook
def filter_body(context, body):
    """Scene configurations with the same name: API.md answers 400 invalid-field, and JSON Schema
    cannot require items unique by one member."""
    info = body.get("info") if isinstance(body, dict) else None
    manifest = info.get("sceneManifest") if isinstance(info, dict) else None
    configurations = manifest.get("configurations") if isinstance(manifest, dict) else None
    if not isinstance(configurations, list):
        return True
    names = [json.dumps(item.get("name")) for item in configurations if isinstance(item, dict) and "name" in item]
    return len(names) == len(set(names))
