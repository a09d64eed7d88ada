// The events an app and its device accept (docs/API.md), with the fields their forms ask for.

const text = (name, label, extra = {}) => ({ name, label, kind: "text", ...extra });
const number = (name, label, extra = {}) => ({ name, label, kind: "number", ...extra });
const choice = (name, label, options, extra = {}) => ({ name, label, kind: "choice", options, ...extra });
const flag = (name, label) => ({ name, label, kind: "flag" });
// Filled when the form opens: the other apps of the device, the app's scene sessions.
const app = (name, label) => ({ name, label, kind: "app" });
const session = (name, label, extra = {}) => ({ name, label, kind: "session", ...extra });
const MODES = ["audio", "location", "voip", "external-accessory", "bluetooth-central", "bluetooth-peripheral"];

export const appEvents = [
  { type: "launch", fields: [flag("background", "In the background"), text("url", "URL", { optional: true })] },
  { type: "activate", fields: [] },
  { type: "openURL", fields: [text("url", "URL", { value: "app://open" })] },
  { type: "terminate", fields: [] },
  { type: "forceQuit", fields: [] },
  { type: "crash", fields: [] },
  { type: "beginBackgroundTask", fields: [text("name", "Name", { optional: true }),
    number("duration", "Ends itself after (s)", { optional: true })] },
  { type: "endBackgroundTask", fields: [number("task", "Task id", { value: "1" })] },
  { type: "startBackgroundActivity", fields: [choice("mode", "Mode", MODES)] },
  { type: "stopBackgroundActivity", fields: [choice("mode", "Mode", MODES)] },
  { type: "remoteNotification", fields: [flag("contentAvailable", "content-available")] },
  { type: "backgroundFetch", fields: [] },
  { type: "memoryWarning", fields: [] },
  { type: "touch", fields: [] },
  { type: "shake", fields: [] },
  { type: "motion", fields: [] },
  { type: "remoteControl", fields: [] },
  { type: "location", fields: [] },
  { type: "redraw", fields: [] },
];

export const deviceEvents = [
  { type: "homeButton", fields: [] },
  { type: "switchApp", fields: [app("to", "Switch to")] },
  { type: "lock", fields: [] },
  { type: "unlock", fields: [] },
  { type: "interruptionBegan", fields: [choice("kind", "Kind", ["call", "sms", "alarm", "alert"])] },
  { type: "interruptionEnded", fields: [flag("accepted", "Accepted")] },
  { type: "bannerNotification", fields: [text("title", "Title", { optional: true })] },
  { type: "notificationCenterOpened", fields: [] },
  { type: "notificationCenterClosed", fields: [] },
  { type: "memoryPressure", fields: [choice("level", "Level", ["warning", "critical"])] },
  { type: "advanceTime", fields: [number("seconds", "Seconds", { value: "10" })] },
  { type: "change", fields: [choice("kind", "Kind", ["orientation", "locale", "significantTime", "batteryLevel",
    "batteryState", "proximity", "accessory", "screen", "screenMode", "settings", "ubiquityIdentity",
    "statusBarFrame"]), text("value", "Value (JSON)", { optional: true, json: true })] },
  { type: "reboot", fields: [] },
];

export const sceneEvents = [
  { type: "openScene", fields: [text("session", "New session id", { optional: true }),
    choice("placement", "Placement", ["split", "fullScreen"]), text("url", "URL", { optional: true })] },
  { type: "closeScene", fields: [session("session", "Session")] },
  { type: "disconnectScene", fields: [session("session", "Session")] },
];

/** The app events of a scene app: activate and openURL may pick the scene. */
export function appEventsFor(lifecycle) {
  if (lifecycle !== "scene") return appEvents;
  return appEvents.map((definition) => definition.type === "activate" || definition.type === "openURL"
    ? { ...definition, fields: [...definition.fields, session("session", "Session", { optional: true })] }
    : definition);
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
