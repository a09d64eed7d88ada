// The events an app and its device accept, as the daemon's catalogue describes them (GET /v1/event-types,
// docs/API.md "Driving the simulation"), turned into the fields of the dashboard's small forms.

/** The form field of one catalogue field: an input, a choice, a checkbox, or a pick of an app or a session. */
function formField(field, example) {
  const words = field.summary.charAt(0).toUpperCase() + field.summary.slice(1);
  const base = { name: field.name, label: words, optional: !field.required };
  if (example !== undefined) base.value = typeof example === "string" ? example : JSON.stringify(example);
  switch (field.kind) {
    case "flag": return { ...base, kind: "flag" };
    case "number": case "wholeNumber": return { ...base, kind: "number" };
    case "choice": return { ...base, kind: "choice", options: field.options };
    // Filled when the form opens: the other apps of the device, the app's scene sessions; a transfer's name
    // is typed (the app's snapshot lists its transfers).
    case "identifier":
      if (field.of === "transfer") return { ...base, kind: "text" };
      return { ...base, kind: field.of === "app" ? "app" : "session" };
    case "json": return { ...base, kind: "text", json: true };
    default:
      return field.suggestions ? { ...base, kind: "choice", options: field.suggestions } : { ...base, kind: "text" };
  }
}

/**
 * The catalogue's entries as form definitions, grouped by whom they target: `{ app, scene, device, moveTo }`.
 * `moveTo` has a control of its own (a state and Move), so it is not among the app's buttons; `null` when
 * the daemon has no such event.
 */
export function definitionsFrom(catalogue) {
  const groups = { app: [], scene: [], device: [], moveTo: null };
  for (const entry of catalogue) {
    const fields = entry.fields.map((field) => formField(field, entry.example?.[field.name]));
    const definition = { type: entry.type, summary: entry.summary, fields };
    if (entry.type === "moveTo") groups.moveTo = definition;
    else (groups[entry.scope] || groups.app).push(definition);
  }
  return groups;
}

/** The app events of an app: only a scene app's activate and openURL may pick the scene. */
export function appEventsFor(definitions, lifecycle) {
  if (lifecycle === "scene") return definitions.app;
  return definitions.app.map((definition) => ({
    ...definition, fields: definition.fields.filter((field) => field.kind !== "session"),
  }));
}

/** Human words for an event type: "homeButton" → "Home button". */
export function label(type) {
  const words = type.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/URL/, " URL").trim().toLowerCase();
  const fixed = words.replace(/^home button$/, "Home").replace(/\burl\b/, "URL");
  return fixed.charAt(0).toUpperCase() + fixed.slice(1);
}

/** The event object a form's values describe; throws with a readable message on a bad value. */
export function eventFrom(definition, values) {
  const event = { type: definition.type };
  for (const field of definition.fields) {
    const raw = values[field.name];
    if (field.kind === "flag") { event[field.name] = Boolean(raw); continue; }
    if (raw === undefined || raw === "") {
      if (field.optional) continue;
      throw new Error(`${field.label} is needed for ${definition.type}`);
    }
    if (field.kind === "number") {
      const value = Number(raw);
      if (!Number.isFinite(value)) throw new Error(`${field.label} must be a number`);
      event[field.name] = value;
    } else if (field.json) {
      try { event[field.name] = JSON.parse(raw); } catch { event[field.name] = raw; }
    } else {
      event[field.name] = raw;
    }
  }
  return event;
}
