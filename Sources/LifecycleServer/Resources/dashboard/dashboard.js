// The dashboard: one namespace's devices and apps with live state badges, one app's device timeline,
// buttons for the events the app and its device accept (enabled only while the daemon says they are
// possible), a control that moves the app to a state, scenarios exported and imported as files, and apps,
// devices and the namespace deleted or reset after a confirmation. It uses only the public HTTP API.
import { Client, NAMESPACE_PATTERN, Problem, isNamespaceName } from "./api.js";
import { renderCoverage, renderVersions } from "./compare.js";
import { appEventsFor, definitionsFrom, label, eventFrom } from "./events.js";
import { NamespaceWatcher, TimelineFollower } from "./live.js";
import { drawTimeline, describe } from "./timeline.js";

const $ = (id) => document.getElementById(id);
const TOKEN_KEY = "lifecycled.token";
/** Entries kept in the page for the selected device; the chart draws the latest of them. */
const KEPT_ENTRIES = 2000;

const view = {
  client: null,
  watcher: null,
  follower: null,
  devices: [],
  apps: [],
  /** The namespace answered 404: it does not exist (yet), or the daemon has no namespaces. */
  missing: false,
  /** Listing it answered 401 or 403: nothing is shown until another token is given. */
  refused: false,
  loaded: false,
  selected: null,
  entries: [],
  /** The daemon's catalogue of events as form definitions (`definitionsFrom`), loaded once. */
  events: { app: [], scene: [], device: [], moveTo: null },
  /** The timeline mark selected (its seq), named under the chart and in a callout. */
  selectedSeq: null,
  /**
   * What the daemon said the selected app and its device would accept now (`GET .../apps/{id}/events`):
   * `{ app, byType: Map(type → { possible, changes, problem }) }`; null until it answered (all enabled).
   */
  possible: null,
  /** What the possible events were last asked for: the app's and its device's snapshots and last seq. */
  possibleAskedFor: "",
};

function element(name, attributes = {}, ...children) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== false && value !== undefined && value !== null) node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

const badge = (state, extra = {}) => element("span", { class: `badge ${state}`, "data-state": state, ...extra }, state);

/** "1 entry", "2 entries". */
const count = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

// ---------------------------------------------------------------- errors

/** Shows a problem document (or any error) in the alert box; `null` hides it. */
function showError(error) {
  const box = $("error");
  if (!error) { box.hidden = true; box.replaceChildren(); return; }
  if (error instanceof Problem) {
    const doc = error.document;
    const details = [];
    for (const key of ["state", "sceneState", "lifecycle", "field", "allowed", "validTypes", "oldestSeq", "limit", "index",
      "step", "devices"]) {
      if (doc[key] !== undefined) details.push(`${key}: ${Array.isArray(doc[key]) ? doc[key].join(", ") : doc[key]}`);
    }
    if (doc.lists && typeof doc.lists === "object") details.push(listsDiffer(doc.lists));
    const status = error.status ? ` (${error.status}${doc.code ? ` ${doc.code}` : ""})` : "";
    const hint = error.hint ? error.hint : error.status === 401 ? "Tokens are on: enter a token in the Token field above."
      : error.status === 403 ? "This token may not do that here: try another one." : null;
    box.replaceChildren(...[
      element("strong", {}, `${doc.title || "Error"}${status}`),
      element("span", { class: "detail" }, doc.detail || ""),
      details.length ? element("div", { class: "extra" }, details.join(" · ")) : null,
      hint ? element("div", { class: "extra" }, hint) : null,
    ].filter(Boolean));
    if (error.status === 401 || error.status === 403) $("token-form").hidden = false;
  } else {
    box.replaceChildren(element("strong", {}, "Error"), element("span", { class: "detail" }, String(error.message || error)));
  }
  box.hidden = false;
}

/** Where the two lists of a failed import's expectation part: `lists: {expected, actual, index}`. */
function listsDiffer({ expected, actual, index }) {
  const at = (list) => (Array.isArray(list) && index < list.length ? JSON.stringify(list[index]) : "nothing");
  return `lists differ at index ${index}: expected ${at(expected)}, got ${at(actual)}`;
}

async function attempt(work) {
  try {
    const value = await work();
    showError(null);
    return value;
  } catch (error) {
    if (error.name !== "AbortError") showError(error);
    return undefined;
  }
}

// ---------------------------------------------------------------- devices and apps

function deviceFacts(device) {
  const facts = [];
  if (device.iosVersion) facts.push(`iOS ${device.iosVersion}`);
  if (device.time !== undefined) facts.push(`t=${device.time}`);
  if (device.locked) facts.push("locked");
  if (device.interruption) facts.push(`${device.interruption} interruption`);
  if (device.notificationCenterOpen) facts.push("Notification Center open");
  if (device.appSwitcherOpen) facts.push("app switcher open");
  if (device.call) facts.push(`on a call since t=${device.call.since}`);
  return facts.join(" · ");
}

/** Re-renders the lists; the app button that had the keyboard focus has it again afterwards. */
function renderLists() {
  const focused = document.activeElement?.dataset?.app;
  const filter = $("state-filter").value;
  const byDevice = new Map(view.devices.map((d) => [d.id, { device: d, apps: [] }]));
  for (const app of view.apps) {
    if (!byDevice.has(app.device)) byDevice.set(app.device, { device: { id: app.device }, apps: [] });
    byDevice.get(app.device).apps.push(app);
  }
  const groups = [];
  for (const { device, apps } of byDevice.values()) {
    const shown = apps.filter((app) => !filter || app.state === filter);
    if (filter && shown.length === 0) continue;
    const items = shown.map((app) => element("li", {},
      element("button", {
        class: "app-row", type: "button", "data-app": app.id, "aria-current": app.id === view.selected ? "true" : "false",
        onclick: () => select(app.id),
      }, element("span", { class: "app-name" }, app.id), badge(app.state))));
    groups.push(element("section", { class: "device", "data-device": device.id, "aria-label": `Device ${device.id}` },
      element("div", { class: "device-head" },
        element("h3", {}, `Device ${device.id}`, element("span", { class: "facts" }, deviceFacts(device))),
        element("button", { type: "button", class: "danger", "data-delete-device": device.id,
          "aria-label": `Delete device ${device.id}`, title: `Delete device ${device.id} and its apps`,
          onclick: () => deleteDevice(device.id, apps.map((a) => a.id)) }, "Delete")),
      items.length ? element("ul", {}, ...items) : element("p", { class: "help" }, "no app")));
  }
  if (groups.length === 0) groups.push(element("p", { class: "help empty", id: "empty-state" }, emptyText(filter)));
  $("devices").replaceChildren(...groups);
  $("devices").setAttribute("aria-busy", view.loaded ? "false" : "true");
  if (focused) $("devices").querySelector(`button[data-app="${CSS.escape(focused)}"]`)?.focus();

  const chosen = $("new-app-device").value;
  $("new-app-device").replaceChildren(element("option", { value: "" }, "a new device"),
    ...view.devices.map((d) => element("option", { value: d.id, selected: d.id === chosen }, d.id)));
  renderSelected();
}

function emptyText(filter) {
  if (!view.loaded) return "Loading…";
  if (filter) return `No app is ${filter}.`;
  const ns = view.client.namespace;
  if (view.refused) return "Nothing to show: the daemon refused to list this namespace (see the error above).";
  if (view.missing && ns !== "default") {
    return `Namespace ${ns} does not exist yet: creating an app here creates it.`;
  }
  return `Namespace ${ns} has no device or app yet: create an app below.`;
}

function applySnapshot(app) {
  const index = view.apps.findIndex((a) => a.id === app.id);
  if (index >= 0) view.apps[index] = app; else view.apps.push(app);
}

// ---------------------------------------------------------------- the selected app

function selectedApp() {
  return view.apps.find((a) => a.id === view.selected) || null;
}

function renderSelected() {
  const app = selectedApp();
  if (!app) {
    $("app-heading").textContent = view.selected ? `App ${view.selected} is gone` : "No app selected";
    $("app-summary").textContent = view.selected ? "It was deleted. Pick another app, or create one."
      : "Pick an app on the left, or create one.";
    $("event-buttons").replaceChildren();
    $("event-buttons").dataset.app = "";
    $("event-form").hidden = true;
    $("app-details").hidden = true;
    return;
  }
  $("app-details").hidden = false;
  $("app-heading").replaceChildren(`App ${app.id} `, badge(app.state, { id: "app-state" }));
  const facts = [`device ${app.device}`, `target iOS ${app.iosVersion}`, app.bundleId, `since t=${app.stateSince}`];
  if (app.sdkVersion && app.sdkVersion !== app.iosVersion) facts.push(`SDK ${app.sdkVersion}`);
  if (app.lifecycle === "scene") facts.push(`scenes: ${(app.sessions || []).map((s) => `${s.id} ${s.state}`).join(", ") || "none"}`);
  if (app.backgroundTasks?.length) facts.push(`background tasks: ${app.backgroundTasks.map((t) => (t.name ? `${t.id} (${t.name})` : t.id)).join(", ")}`);
  if (app.pendingNotifications) facts.push(`${app.pendingNotifications} notifications queued`);
  if (app.resources?.length) facts.push(`holds: ${app.resources.join(", ")}`);
  if (app.preservedState) facts.push(`state preserved at t=${app.preservedState.savedAt}`);
  if (app.termination) facts.push(`last end: ${app.termination.reason} at t=${app.termination.time}`);
  $("app-summary").textContent = facts.join(" · ");
  if ($("event-buttons").dataset.app !== `${app.id}:${app.lifecycle}`) renderButtons(app);
  askPossibleIfChanged();
  renderTimeline();
}

function renderButtons(app) {
  const container = $("event-buttons");
  container.dataset.app = `${app.id}:${app.lifecycle}`;
  const group = (title, definitions) => element("div", { class: "group", role: "group", "aria-label": `${title} events` },
    element("span", { class: "group-title" }, title),
    ...definitions.map((definition) => element("button", {
      type: "button", "data-event": definition.type, title: definition.summary,
      onclick: (click) => startEvent(definition, click.currentTarget),
    }, label(definition.type) + (definition.fields.some((f) => !f.optional) ? "…" : ""))));
  const groups = [group("App", appEventsFor(view.events, app.lifecycle)), group("Device", view.events.device)];
  if (app.lifecycle === "scene") groups.push(group("Scenes", view.events.scene));
  container.replaceChildren(...groups);
  markPossible();
}

// ---------------------------------------------------------------- the events possible now

/** Why an event is not possible now, in words; null when it is (or the daemon has not said). */
function whyNot(type) {
  const app = selectedApp();
  const known = view.possible && app && view.possible.app === app.id ? view.possible.byType.get(type) : null;
  if (!known || known.possible) return null;
  return known.problem?.detail || "the daemon would refuse it now";
}

/**
 * Enables the buttons of the events the daemon would accept now, and disables the others with their reason
 * as their title (aria-disabled, not disabled: they stay focusable, so the reason can be read and heard).
 */
function markPossible() {
  const app = selectedApp();
  const known = view.possible && app && view.possible.app === app.id ? view.possible.byType : null;
  for (const button of $("event-buttons").querySelectorAll("button[data-event]")) {
    const type = button.dataset.event;
    const definition = [...view.events.app, ...view.events.device, ...view.events.scene].find((d) => d.type === type);
    const entry = known?.get(type);
    const reason = whyNot(type);
    button.setAttribute("aria-disabled", reason ? "true" : "false");
    button.title = reason ? `Not possible now: ${reason}`
      : `${definition?.summary ?? type}${entry && entry.changes === false ? " (accepted now, but it would change nothing)" : ""}`;
  }
}

let possibleTimer = null;
/** Asks the daemon again when the app, its device or its timeline moved since it was last asked. */
function askPossibleIfChanged() {
  const app = selectedApp();
  if (!app) return;
  const device = view.devices.find((d) => d.id === app.device) || null;
  const last = view.entries.length ? view.entries[view.entries.length - 1].seq : 0;
  const key = JSON.stringify([app, device, last]);
  if (key === view.possibleAskedFor) return;
  view.possibleAskedFor = key;
  clearTimeout(possibleTimer);
  possibleTimer = setTimeout(() => askPossible(app.id), 100);
}

let possibleAsked = 0;
async function askPossible(id) {
  const client = view.client;
  const ticket = ++possibleAsked;
  let answer;
  try {
    answer = await client.possibleEvents(id);
  } catch {
    // An app deleted meanwhile, or a daemon without the route: every button stays as it was, or enabled.
    if (view.client === client && view.selected === id && view.possible?.app !== id) view.possible = null;
    markPossible();
    return;
  }
  // Only the answer to the latest question counts: an earlier one that arrives late is older news.
  if (ticket !== possibleAsked || view.client !== client || view.selected !== id) return;
  view.possible = { app: id, byType: new Map(answer.eventTypes.map((entry) => [entry.type, entry])) };
  markPossible();
}

/** An event without fields is sent at once; one with fields opens its small form; one not possible says why. */
function startEvent(definition, button) {
  const reason = whyNot(definition.type);
  if (reason) { $("answer").textContent = `${label(definition.type)} is not possible now: ${reason}`; return; }
  if (definition.fields.length === 0) { send(definition, {}); return; }
  const app = selectedApp();
  const form = $("event-form");
  const inputs = definition.fields.map((field) => {
    const id = `field-${definition.type}-${field.name}`;
    let input;
    if (field.kind === "choice") {
      input = element("select", { id, name: field.name }, ...field.options.map((o) => element("option", {}, o)));
    } else if (field.kind === "app") {
      const others = view.apps.filter((a) => a.device === app.device && a.id !== app.id);
      input = element("select", { id, name: field.name }, ...others.map((a) => element("option", {}, a.id)));
    } else if (field.kind === "session") {
      const sessions = (app.sessions || []).map((s) => element("option", { value: s.id }, `${s.id} (${s.state})`));
      input = element("select", { id, name: field.name }, field.optional ? element("option", { value: "" }, "the system's choice") : null, ...sessions);
    } else if (field.kind === "flag") {
      input = element("input", { id, name: field.name, type: "checkbox" });
    } else {
      input = element("input", { id, name: field.name, type: field.kind === "number" ? "number" : "text", step: "any",
        value: field.value || "", spellcheck: "false" });
    }
    const text = field.label + (field.optional && field.kind !== "flag" ? " (optional)" : "");
    return field.kind === "flag" ? [element("label", { class: "check" }, input, ` ${text}`)]
      : [element("label", { for: id }, text), input];
  }).flat();
  const close = () => { form.hidden = true; button?.focus(); };
  form.replaceChildren(element("strong", { id: "event-form-title" }, label(definition.type)), ...inputs,
    element("div", { class: "inline" }, element("button", { type: "submit", id: "event-send" }, "Send"),
      element("button", { type: "button", onclick: close }, "Cancel")));
  form.setAttribute("aria-labelledby", "event-form-title");
  form.onkeydown = (key) => { if (key.key === "Escape") close(); };
  form.onsubmit = (submit) => {
    submit.preventDefault();
    const values = {};
    for (const field of definition.fields) {
      const input = form.elements[field.name];
      values[field.name] = field.kind === "flag" ? input.checked : input.value;
    }
    send(definition, values).then((ok) => { if (ok) close(); });
  };
  form.hidden = false;
  form.querySelector("input, select")?.focus();
}

/** Sends an event to the selected app; `name` is what the answer line calls it. */
async function send(definition, values, name = label(definition.type)) {
  const app = selectedApp();
  if (!app) return false;
  const answer = await attempt(async () => {
    const event = eventFrom(definition, values);
    return view.client.request("POST", `/apps/${encodeURIComponent(app.id)}/events`, event);
  });
  if (!answer) { $("answer").textContent = `${name}: refused (see the error above)`; return false; }
  if (answer.app) applySnapshot(answer.app);
  const entries = answer.entries || [];
  $("answer").textContent = answer.changed === false ? `${name}: changed nothing`
    : `${name}: ${count(entries.length, "entry", "entries")}`;
  mergeEntries(entries);
  renderLists();
  return true;
}

/** The moveTo control: the states the catalogue's moveTo offers, and Move, which sends it to the selected app. */
function setUpMove(definition) {
  const field = definition?.fields.find((f) => f.name === "state" && f.kind === "choice");
  if (!field) return;
  $("move-state").replaceChildren(...field.options.map((state) => element("option", { value: state }, state)));
  $("move-help").textContent = definition.summary;
  $("move-form").addEventListener("submit", (submit) => {
    submit.preventDefault();
    const state = $("move-state").value;
    send(definition, { state }, `Move to ${state}`);
  });
  $("move-form").hidden = false;
}

/** Adds entries (from an answer or from the follower) once each, in seq order. */
function mergeEntries(entries) {
  const known = new Set(view.entries.map((e) => e.seq));
  const fresh = entries.filter((e) => !known.has(e.seq) && (known.add(e.seq), true));
  if (fresh.length === 0) return;
  view.entries = view.entries.concat(fresh).sort((a, b) => a.seq - b.seq).slice(-KEPT_ENTRIES);
  renderTimeline();
  askPossibleIfChanged();
  scheduleQueue();
}

function renderTimeline() {
  const app = selectedApp();
  if (!app) return;
  const apps = view.apps.filter((a) => a.device === app.device);
  drawTimeline($("timeline-chart"), apps, view.entries, app.id, view.selectedSeq);
  const callbacks = view.entries.filter((e) => e.kind === "callback" && e.app === app.id);
  const list = $("callbacks");
  list.replaceChildren(...(callbacks.length ? callbacks.map((entry) =>
    element("li", { "data-seq": entry.seq, "data-selector": entry.selector, title: describe(entry) },
      element("span", { class: "seq" }, `${entry.seq}`), " ", element("code", {}, entry.selector),
      `${entry.session ? ` [${entry.session}]` : ""} — ${entry.sceneState || entry.state}, t=${entry.time}`))
    : [element("li", { class: "help" }, "no callback yet")]));
  list.scrollTop = list.scrollHeight;
}

let queueTimer = null;
function scheduleQueue() {
  clearTimeout(queueTimer);
  queueTimer = setTimeout(() => { if (view.selected) loadQueue(view.selected); }, 200);
}

async function loadQueue(app) {
  const queue = await view.client.request("GET", `/apps/${encodeURIComponent(app)}/notifications`).catch(() => null);
  if (!queue || view.selected !== app) return;
  $("queue").replaceChildren(...(queue.items.length ? queue.items.map((n) =>
    element("li", {}, `${n.name}${n.coalesced > 1 ? ` ×${n.coalesced}` : ""} (queued at t=${n.queuedAt})`))
    : [element("li", { class: "help" }, "nothing queued")]));
}

function select(id) {
  // Another app is a step of the tab's history, so Back returns to the one before; the same one is not.
  const hash = `#ns=${encodeURIComponent(view.client.namespace)}&app=${encodeURIComponent(id)}`;
  if (location.hash !== hash) history.pushState(null, "", hash);
  if (view.selected !== id) {
    Object.assign(view, { possible: null, possibleAskedFor: "", selectedSeq: null });
    $("versions").replaceChildren();
  }
  $("timeline-detail").textContent = "";
  view.selected = id;
  const app = selectedApp();
  $("event-form").hidden = true;
  $("event-buttons").dataset.app = "";
  $("queue").replaceChildren();
  $("answer").textContent = "";
  if (app && app.device !== view.follower?.device) {
    view.follower?.stop();
    view.entries = [];
    view.follower = new TimelineFollower(view.client, app.device, {
      entries: mergeEntries,
      gone: () => renderSelected(),
      problem: showError,
    }).start();
  }
  renderLists();
  if (app) loadQueue(app.id);
}

/** Selects the timeline mark of entry `seq` (null: none): named under the chart, ringed, and scrolled to. */
function selectMark(seq) {
  view.selectedSeq = seq;
  const entry = view.entries.find((e) => e.seq === seq);
  $("timeline-detail").textContent = entry ? describe(entry) : "";
  renderTimeline();
  $("timeline-chart").querySelector(".selected-ring")?.scrollIntoView({ block: "nearest", inline: "nearest" });
}

function stepThroughMarks(key) {
  const drawn = view.entries.slice(-400);
  if (!drawn.length || !["ArrowLeft", "ArrowRight", "Home", "End", "Escape"].includes(key.key)) return;
  key.preventDefault();
  if (key.key === "Escape") { selectMark(null); return; }
  const at = drawn.findIndex((e) => e.seq === view.selectedSeq);
  const next = key.key === "Home" ? 0 : key.key === "End" ? drawn.length - 1
    : at < 0 ? drawn.length - 1 : Math.max(0, Math.min(drawn.length - 1, at + (key.key === "ArrowLeft" ? -1 : 1)));
  selectMark(drawn[next].seq);
}

// ---------------------------------------------------------------- deleting and resetting

/** Asks in the page's dialog; true when the person confirmed. `yes` is the confirming button's words. */
function confirmAction(title, text, yes) {
  const dialog = $("confirm");
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  $("confirm-yes").textContent = yes;
  dialog.returnValue = "";
  const answered = new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
  });
  dialog.showModal();
  $("confirm-cancel").focus();
  return answered;
}

/** Forgets what the page held of deleted apps (and devices), and the selection if it was one of them. */
function forget(appIds, deviceId) {
  const gone = new Set(appIds);
  view.apps = view.apps.filter((a) => !gone.has(a.id) && a.device !== deviceId);
  if (deviceId) view.devices = view.devices.filter((d) => d.id !== deviceId);
  if (view.selected && !hasApp(view.selected)) {
    view.selected = null;
    view.follower?.stop();
    view.follower = null;
    view.entries = [];
    history.replaceState(null, "", `#ns=${encodeURIComponent(view.client.namespace)}`);
  }
  renderLists();
}

async function deleteApp() {
  const app = selectedApp();
  if (!app) return;
  const sure = await confirmAction(`Delete app ${app.id}?`,
    `App ${app.id} (${app.bundleId}) is deleted from device ${app.device}, with its timeline; this cannot be undone.`,
    `Delete app ${app.id}`);
  if (!sure) { $("answer").textContent = `Delete app ${app.id}: cancelled`; return; }
  const done = await attempt(() => view.client.remove("apps", app.id).then(() => true));
  if (!done) { $("answer").textContent = `Delete app ${app.id}: refused (see the error above)`; return; }
  forget([app.id], null);
  $("namespace-answer").textContent = `Deleted app ${app.id}`;
}

async function deleteDevice(id, appIds) {
  const apps = appIds.length ? `, and its ${count(appIds.length, "app")} (${appIds.join(", ")}) with it` : "";
  const sure = await confirmAction(`Delete device ${id}?`,
    `Device ${id} is deleted${apps}, timeline and all; this cannot be undone.`, `Delete device ${id}`);
  if (!sure) { $("namespace-answer").textContent = `Delete device ${id}: cancelled`; return; }
  const done = await attempt(() => view.client.remove("devices", id).then(() => true));
  if (!done) { $("namespace-answer").textContent = `Delete device ${id}: refused (see the error above)`; return; }
  forget(appIds, id);
  $("namespace-answer").textContent = `Deleted device ${id}${appIds.length ? ` and ${count(appIds.length, "app")}` : ""}`;
}

async function resetNamespace() {
  const ns = view.client.namespace;
  // Resetting a namespace that does not exist would make it: there is nothing to empty.
  if (view.missing) { $("namespace-answer").textContent = `Namespace ${ns} does not exist: nothing to reset`; return; }
  const sure = await confirmAction(`Reset namespace ${ns}?`,
    `Every device and app of namespace ${ns} is deleted (${count(view.devices.length, "device")}, `
      + `${count(view.apps.length, "app")}); other namespaces are not touched. This cannot be undone.`,
    `Reset namespace ${ns}`);
  if (!sure) { $("namespace-answer").textContent = `Reset namespace ${ns}: cancelled`; return; }
  const client = view.client;
  const done = await attempt(() => client.resetNamespace().then(() => true));
  if (!done) { $("namespace-answer").textContent = `Reset namespace ${ns}: refused (see the error above)`; return; }
  if (view.client !== client) return;
  forget(view.apps.map((a) => a.id), null);
  view.devices = [];
  renderLists();
  $("namespace-answer").textContent = `Reset namespace ${ns}: it is empty`;
}

// ---------------------------------------------------------------- scenarios

/** Downloads the scenario of one app (its device, its expectations) or, without `app`, of the namespace. */
async function exportScenario(app, status) {
  const file = await attempt(() => view.client.exportScenario(app));
  if (!file) { status.textContent = "Export: refused (see the error above)"; return; }
  save(file);
  status.textContent = `Exported ${file.name}`;
}

/** Saves a blob under a name, as a download. */
function save({ name, blob }) {
  const url = URL.createObjectURL(blob);
  const link = element("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/** Runs the chosen scenario file's steps in this namespace, as it was written; the lists follow by themselves. */
async function importScenario() {
  const input = $("import-file");
  const file = input.files[0];
  input.value = ""; // the same file chosen again is a change too
  if (!file) return;
  const status = $("scenario-answer");
  status.textContent = `Importing ${file.name}…`;
  const ignoreExpectations = $("import-ignore").checked;
  const client = view.client;
  const answer = await attempt(async () => client.importScenario(await file.text(), { ignoreExpectations }));
  if (!answer) { status.textContent = `Import of ${file.name}: refused (see the error above)`; return; }
  // A namespace that did not exist is watched quietly and slowly: watch it afresh now that it does.
  if (view.client === client && view.missing) open(client.namespace, view.selected);
  status.textContent = `Imported ${count(answer.applied, "step")}: ${count(answer.devices.length, "device")}, `
    + `${count(answer.apps.length, "app")}${answer.expectations === "ignored" ? " (expectations not checked)" : ""}`;
}

// ---------------------------------------------------------------- forms and the namespace

async function createApp(submit) {
  submit.preventDefault();
  const form = $("new-app");
  const body = { bundleId: form.elements.bundleId.value.trim() };
  for (const key of ["id", "iosVersion", "device"]) {
    const value = form.elements[key].value.trim();
    if (value) body[key] = value;
  }
  if (form.elements.scenes.checked) {
    body.info = { sceneManifest: { supportsMultipleScenes: true, configurations: [{ name: "Default Configuration" }] } };
  }
  // Any other member of the request, as the API takes it (api/openapi.yaml, AppCreate); the daemon checks it.
  const more = form.elements.more.value.trim();
  if (more) {
    let extra;
    try { extra = JSON.parse(more); } catch (error) { showError(new Error(`More of the app is not JSON: ${error.message}`)); return; }
    if (extra === null || typeof extra !== "object" || Array.isArray(extra)) { showError(new Error("More of the app must be a JSON object")); return; }
    for (const [key, value] of Object.entries(extra)) {
      body[key] = key === "info" && body.info ? { ...body.info, ...value } : value;
    }
  }
  const app = await attempt(() => view.client.request("POST", "/apps", body).catch((error) => {
    if (error instanceof Problem && error.status === 404 && view.client.namespace !== "default" && !body.device) {
      error.hint = "A daemon without namespaces has only the namespace default: open that one.";
    }
    throw error;
  }));
  if (!app) return;
  applySnapshot(app);
  if (!view.devices.some((d) => d.id === app.device)) view.devices.push({ id: app.device });
  view.missing = false;
  form.elements.id.value = "";
  select(app.id);
  $("app-heading").focus();
}

// ---------------------------------------------------------------- comparisons

/** The namespace's coverage, asked when the button is pressed; a namespace not made yet has none. */
async function showCoverage() {
  const client = view.client;
  $("coverage").replaceChildren(element("p", { class: "help" }, "Counting…"));
  try {
    const coverage = await client.coverage();
    if (client === view.client) renderCoverage($("coverage"), coverage);
    showError(null);
  } catch (error) {
    const missing = error instanceof Problem && error.status === 404;
    $("coverage").replaceChildren(element("p", { class: "help" }, missing
      ? `The namespace ${client.namespace} holds nothing yet: no coverage to show.` : "No coverage: see the error above."));
    if (!missing) showError(error);
  }
}

/** The selected app's callbacks on the versions the field names (or one per band), side by side. */
async function showVersions(submit) {
  submit.preventDefault();
  const app = view.selected;
  if (!selectedApp()) return;
  $("versions").replaceChildren(element("p", { class: "help" }, "Replaying…"));
  try {
    const comparison = await view.client.versions(app, $("versions-list").value.replace(/\s+/g, ""));
    if (app === view.selected) renderVersions($("versions"), comparison);
    showError(null);
  } catch (error) {
    $("versions").replaceChildren(element("p", { class: "help" }, "No comparison: see the error above."));
    showError(error);
  }
}

function open(namespace, wantedApp) {
  const token = sessionStorage.getItem(TOKEN_KEY) || "";
  view.watcher?.stop();
  view.follower?.stop();
  view.follower = null;
  view.client = new Client(namespace, token);
  Object.assign(view, {
    devices: [], apps: [], entries: [], missing: false, refused: false, loaded: false, selected: wantedApp || null,
    possible: null, possibleAskedFor: "", selectedSeq: null,
  });
  $("namespace-answer").textContent = "";
  $("namespace").value = namespace;
  $("scenario-answer").textContent = "";
  $("coverage").replaceChildren();
  $("versions").replaceChildren();
  $("token-form").hidden = !token;
  document.title = `lifecycled · ${namespace}`;
  showError(null);
  renderLists();
  view.watcher = new NamespaceWatcher(view.client, {
    lists: (devices, apps) => {
      Object.assign(view, { devices, apps, missing: false, loaded: true });
      if (view.selected && !view.follower && selectedApp()) select(view.selected);
      renderLists();
    },
    missing: () => { Object.assign(view, { devices: [], apps: [], missing: true, loaded: true }); renderLists(); },
    status: (text) => { $("live").textContent = text; },
    problem: (error) => {
      $("live").textContent = "stopped";
      Object.assign(view, { loaded: true, refused: true });
      showError(error);
      renderLists();
    },
  }).start();
}

/** Shows what the fragment names, if it is not shown already: another namespace, or another app of this one. */
function followFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  const namespace = params.get("ns") || "default";
  const app = params.get("app");
  if (!isNamespaceName(namespace)) return;
  if (namespace !== view.client?.namespace) return open(namespace, app);
  if (!app || app === view.selected) return;
  if (hasApp(app)) select(app);
  else {
    view.selected = app;
    renderLists();
  }
}

function hasApp(id) { return view.apps.some((app) => app.id === id); }

async function start() {
  // The event buttons come from the daemon's catalogue; without it the page still shows state.
  try {
    view.events = definitionsFrom(await new Client().eventTypes());
  } catch (error) {
    showError(error);
  }
  const params = new URLSearchParams(location.hash.slice(1));
  $("namespace").pattern = NAMESPACE_PATTERN;
  $("namespace-form").addEventListener("submit", (submit) => {
    submit.preventDefault();
    const namespace = $("namespace").value.trim() || "default";
    if (!$("namespace").checkValidity()) {
      showError(new Error("A namespace name is a DNS label: 1 to 63 lowercase letters, digits and hyphens, starting and ending with a letter or digit."));
      return;
    }
    history.replaceState(null, "", `#ns=${encodeURIComponent(namespace)}`);
    open(namespace);
  });
  $("token-form").addEventListener("submit", (submit) => {
    submit.preventDefault();
    const token = $("token").value.trim();
    if (token) sessionStorage.setItem(TOKEN_KEY, token); else sessionStorage.removeItem(TOKEN_KEY);
    $("token").value = "";
    $("token-state").textContent = token ? "a token is set for this tab" : "no token";
    open(view.client.namespace, view.selected);
  });
  $("state-filter").addEventListener("change", renderLists);
  // The fragment edited by hand, Back and Forward: the namespace and app it names.
  for (const name of ["hashchange", "popstate"]) window.addEventListener(name, followFragment);
  // A mark clicked or tapped is selected: named below the chart and in a callout beside it (hovering
  // names it too); with the chart focused, ← and → select the mark before or after, Escape none.
  $("timeline-chart").addEventListener("click", (click) => {
    const mark = click.target.closest?.("[data-seq]");
    if (mark) selectMark(Number(mark.dataset.seq));
  });
  $("timeline-chart").addEventListener("keydown", stepThroughMarks);
  $("new-app").addEventListener("submit", createApp);
  setUpMove(view.events.moveTo);
  $("export-app").addEventListener("click", () => { if (selectedApp()) exportScenario(view.selected, $("answer")); });
  $("delete-app").addEventListener("click", deleteApp);
  $("reset-namespace").addEventListener("click", resetNamespace);
  $("export-namespace").addEventListener("click", () => exportScenario(null, $("scenario-answer")));
  $("import-file").addEventListener("change", importScenario);
  $("coverage-show").addEventListener("click", showCoverage);
  $("versions-form").addEventListener("submit", showVersions);
  $("token-state").textContent = sessionStorage.getItem(TOKEN_KEY) ? "a token is set for this tab" : "no token";
  const wanted = params.get("ns") || "default";
  if (isNamespaceName(wanted)) {
    open(wanted, params.get("app"));
  } else {
    // A link's fragment is anyone's to write: a name that is not one opens nothing of its choosing.
    history.replaceState(null, "", "#ns=default");
    open("default");
    showError(new Error(`The link named the namespace ${JSON.stringify(wanted)}, which is not a namespace name (a DNS label: 1 to 63 lowercase letters, digits and hyphens); showing default instead.`));
  }
}

start();
