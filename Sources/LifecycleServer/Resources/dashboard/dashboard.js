// The dashboard: one namespace's devices and apps with live state badges, one app's device timeline,
// and buttons for the events the app and its device accept. It uses only the public HTTP API.
import { Client, Problem } from "./api.js";
import { appEvents, deviceEvents, sceneEvents, label, eventFrom } from "./events.js";
import { drawTimeline, describe } from "./timeline.js";

const $ = (id) => document.getElementById(id);
const TOKEN_KEY = "lifecycled.token";

const view = {
  client: null,
  devices: [],
  apps: [],
  selected: null,
  entries: [],
  cursor: 0,
  watch: null,
  follow: null,
  pendingForm: null,
};

function element(name, attributes = {}, ...children) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== false && value !== undefined && value !== null) node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

// ---------------------------------------------------------------- errors

function showError(error) {
  const box = $("error");
  if (!error) { box.hidden = true; box.replaceChildren(); return; }
  if (error instanceof Problem) {
    const doc = error.document;
    const details = [];
    for (const key of ["state", "field", "allowed", "validTypes", "oldestSeq", "limit", "index"]) {
      if (doc[key] !== undefined) details.push(`${key}: ${Array.isArray(doc[key]) ? doc[key].join(", ") : doc[key]}`);
    }
    box.replaceChildren(
      element("strong", {}, `${doc.title || "Error"} (${error.status}${doc.code ? `, ${doc.code}` : ""})`),
      element("span", { class: "detail" }, doc.detail || ""),
      details.length ? element("div", { class: "extra" }, details.join(" · ")) : null);
    if (error.status === 401) $("token-form").hidden = false;
  } else {
    box.replaceChildren(element("strong", {}, "Error"), element("span", { class: "detail" }, String(error.message || error)));
  }
  box.hidden = false;
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

function renderApps() {
  const filter = $("state-filter").value;
  const byDevice = new Map(view.devices.map((d) => [d.id, []]));
  for (const app of view.apps) {
    if (!byDevice.has(app.device)) byDevice.set(app.device, []);
    byDevice.get(app.device).push(app);
  }
  const groups = [];
  for (const [device, apps] of byDevice) {
    const shown = apps.filter((app) => !filter || app.state === filter);
    if (filter && shown.length === 0) continue;
    const items = shown.map((app) => element("li", {},
      element("button", {
        class: "app-row", type: "button", "data-app": app.id, "aria-current": app.id === view.selected ? "true" : "false",
        onclick: () => select(app.id),
      }, element("span", {}, app.id), element("span", { class: `badge ${app.state}`, "data-state": app.state }, app.state))));
    groups.push(element("div", { class: "device" }, element("h3", {}, `Device ${device}`), element("ul", {}, ...items)));
  }
  if (groups.length === 0) groups.push(element("p", { class: "help" }, filter ? `No app is ${filter}.` : "No device or app yet: create an app below."));
  $("devices").replaceChildren(...groups);

  const chosen = $("new-app-device").value;
  $("new-app-device").replaceChildren(element("option", { value: "" }, "a new device"),
    ...view.devices.map((d) => element("option", { value: d.id, selected: d.id === chosen }, d.id)));
  renderSelected();
}

function applySnapshot(app) {
  const index = view.apps.findIndex((a) => a.id === app.id);
  if (index >= 0) view.apps[index] = app; else view.apps.push(app);
}

async function loadAll() {
  const [devices, apps] = await Promise.all([view.client.all("/devices"), view.client.all("/apps")]);
  view.devices = devices;
  view.apps = apps;
  renderApps();
}

/** Live changes: the namespace's `changes` stream where the daemon has one, else cheap polls with ETags. */
async function watchChanges() {
  view.watch?.abort();
  const controller = new AbortController();
  view.watch = controller;
  if (await streamChanges(controller.signal)) return;
  $("live").textContent = "live (polling every second)";
  while (!controller.signal.aborted) {
    try {
      const [devices, apps] = await Promise.all([view.client.poll("/devices?limit=1000", { signal: controller.signal }),
        view.client.poll("/apps?limit=1000", { signal: controller.signal })]);
      if (devices) view.devices = devices.items;
      if (apps) view.apps = apps.items;
      if (devices || apps) renderApps();
    } catch (error) {
      if (controller.signal.aborted) return;
      showError(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** Reads `/changes` as server-sent events through fetch (so the token header goes along); false if absent. */
async function streamChanges(signal) {
  let answer;
  try {
    answer = await fetch(view.client.path("/changes"), { headers: view.client.headers({ Accept: "text/event-stream" }), signal });
  } catch {
    return false;
  }
  if (!answer.ok || !(answer.headers.get("Content-Type") || "").startsWith("text/event-stream")) return false;
  $("live").textContent = "live (stream)";
  const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = "message";
        const data = [];
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) event = line.slice(6).trim();
          else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
        }
        if (data.length) onChange(event, JSON.parse(data.join("\n")));
      }
    }
  } catch {
    // The stream ended (namespace deleted, daemon stopping): fall through and poll.
  }
  return signal.aborted;
}

function onChange(event, data) {
  if (event === "snapshot") { view.devices = data.devices || []; view.apps = data.apps || []; }
  else if (event === "app") applySnapshot(data);
  else if (event === "device") {
    const index = view.devices.findIndex((d) => d.id === data.id);
    if (index >= 0) view.devices[index] = data; else view.devices.push(data);
  } else if (event === "deleted") {
    if (data.kind === "app") view.apps = view.apps.filter((a) => a.id !== data.id);
    else { view.devices = view.devices.filter((d) => d.id !== data.id); view.apps = view.apps.filter((a) => a.device !== data.id); }
  }
  renderApps();
}

// ---------------------------------------------------------------- the selected app

function selectedApp() {
  return view.apps.find((a) => a.id === view.selected) || null;
}

function renderSelected() {
  const app = selectedApp();
  if (!app) {
    $("app-heading").textContent = "No app selected";
    $("app-summary").textContent = "Pick an app on the left, or create one.";
    $("event-buttons").replaceChildren();
    return;
  }
  $("app-heading").replaceChildren(`App ${app.id} `, element("span", { class: `badge ${app.state}`, id: "app-state", "data-state": app.state }, app.state));
  const facts = [`device ${app.device}`, `iOS ${app.iosVersion}`, app.bundleId];
  if (app.lifecycle) facts.push(`${app.lifecycle} life cycle`);
  if (app.termination) facts.push(`last end: ${app.termination.reason}`);
  $("app-summary").textContent = facts.join(" · ");
  if (!$("event-buttons").dataset.app || $("event-buttons").dataset.app !== `${app.id}:${app.lifecycle}`) renderButtons(app);
  renderTimeline();
}

function renderButtons(app) {
  const container = $("event-buttons");
  container.dataset.app = `${app.id}:${app.lifecycle}`;
  const group = (title, definitions) => [element("div", { class: "group" }, title),
    ...definitions.map((definition) => element("button", {
      type: "button", "data-event": definition.type, onclick: () => startEvent(definition),
    }, label(definition.type)))];
  const parts = [...group("App", appEvents), ...group("Device", deviceEvents)];
  if (app.lifecycle === "scene") parts.push(...group("Scenes", sceneEvents));
  container.replaceChildren(...parts);
}

function startEvent(definition) {
  if (definition.fields.length === 0) { send(definition, {}); return; }
  const form = $("event-form");
  const inputs = definition.fields.map((field) => {
    const id = `field-${definition.type}-${field.name}`;
    let input;
    if (field.kind === "choice") input = element("select", { id, name: field.name }, ...field.options.map((o) => element("option", {}, o)));
    else if (field.kind === "flag") input = element("input", { id, name: field.name, type: "checkbox" });
    else input = element("input", { id, name: field.name, type: field.kind === "number" ? "number" : "text", step: "any", value: field.value || "" });
    return [element("label", { for: id }, field.label + (field.optional ? " (optional)" : "")), input];
  }).flat();
  form.replaceChildren(element("strong", {}, label(definition.type)), ...inputs,
    element("div", { class: "inline" }, element("button", { type: "submit" }, "Send"),
      element("button", { type: "button", onclick: () => { form.hidden = true; } }, "Cancel")));
  form.onsubmit = (submit) => {
    submit.preventDefault();
    const values = {};
    for (const field of definition.fields) {
      const input = form.elements[field.name];
      values[field.name] = field.kind === "flag" ? input.checked : input.value;
    }
    send(definition, values).then((ok) => { if (ok) form.hidden = true; });
  };
  form.hidden = false;
  form.querySelector("input, select")?.focus();
}

async function send(definition, values) {
  const app = selectedApp();
  if (!app) return false;
  const answer = await attempt(async () => {
    const event = eventFrom(definition, values);
    return view.client.request("POST", `/apps/${encodeURIComponent(app.id)}/events`, event);
  });
  if (!answer) return false;
  if (answer.app) applySnapshot(answer.app);
  mergeEntries(answer.entries || []);
  renderApps();
  return true;
}

function mergeEntries(entries) {
  let added = false;
  for (const entry of entries) {
    if (entry.seq > view.cursor || !view.entries.some((e) => e.seq === entry.seq)) {
      view.entries.push(entry);
      added = true;
    }
  }
  if (added) {
    view.entries.sort((a, b) => a.seq - b.seq);
    view.entries = view.entries.filter((e, i, all) => i === 0 || all[i - 1].seq !== e.seq).slice(-2000);
    view.cursor = Math.max(view.cursor, ...view.entries.map((e) => e.seq));
  }
  renderTimeline();
}

function renderTimeline() {
  const app = selectedApp();
  if (!app) return;
  const apps = view.apps.filter((a) => a.device === app.device);
  drawTimeline($("timeline-chart"), apps, view.entries, app.id);
  const callbacks = view.entries.filter((e) => e.kind === "callback" && e.app === app.id);
  $("callbacks").replaceChildren(...callbacks.map((entry) =>
    element("li", { "data-seq": entry.seq, "data-selector": entry.selector, title: describe(entry) },
      `${entry.selector}${entry.session ? ` [${entry.session}]` : ""} — ${entry.sceneState || entry.state}, t=${entry.time}`)));
  const list = $("callbacks");
  list.scrollTop = list.scrollHeight;
}

async function loadQueue(app) {
  const queue = await view.client.request("GET", `/apps/${encodeURIComponent(app)}/notifications`).catch(() => null);
  if (!queue || view.selected !== app) return;
  $("queue").replaceChildren(...(queue.items.length ? queue.items.map((n) =>
    element("li", {}, `${n.name}${n.coalesced > 1 ? ` ×${n.coalesced}` : ""} (queued at t=${n.queuedAt})`))
    : [element("li", { class: "help" }, "nothing queued")]));
}

/** Follows the selected app's device timeline with long polls, from the first entry still held. */
async function follow(app) {
  view.follow?.abort();
  const controller = new AbortController();
  view.follow = controller;
  const device = app.device;
  view.entries = [];
  view.cursor = 0;
  while (!controller.signal.aborted) {
    try {
      const page = await view.client.request("GET",
        `/devices/${encodeURIComponent(device)}/timeline?after=${view.cursor}&limit=1000&wait=20`, undefined, { signal: controller.signal });
      if (controller.signal.aborted) return;
      mergeEntries(page.items);
      if (page.next !== null && page.next !== undefined) view.cursor = Math.max(view.cursor, page.next);
      if (page.items.length) loadQueue(app.id);
    } catch (error) {
      if (controller.signal.aborted) return;
      if (error instanceof Problem && error.status === 410 && error.document.oldestSeq) {
        view.cursor = error.document.oldestSeq - 1;
        continue;
      }
      showError(error);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

function select(id) {
  view.selected = id;
  const app = selectedApp();
  $("event-form").hidden = true;
  $("event-buttons").dataset.app = "";
  $("queue").replaceChildren();
  location.hash = `ns=${encodeURIComponent(view.client.namespace)}&app=${encodeURIComponent(id)}`;
  renderApps();
  if (app) { follow(app); loadQueue(app.id); }
}

// ---------------------------------------------------------------- forms

async function createApp(submit) {
  submit.preventDefault();
  const form = $("new-app");
  const body = { bundleId: form.elements.bundleId.value.trim() };
  for (const key of ["id", "iosVersion", "device"]) {
    const value = form.elements[key].value.trim();
    if (value) body[key] = value;
  }
  const app = await attempt(() => view.client.request("POST", "/apps", body));
  if (!app) return;
  applySnapshot(app);
  if (!view.devices.some((d) => d.id === app.device)) view.devices.push({ id: app.device });
  form.elements.id.value = "";
  select(app.id);
}

function open(namespace) {
  const token = sessionStorage.getItem(TOKEN_KEY) || "";
  view.client = new Client(namespace, token);
  view.selected = null;
  view.follow?.abort();
  $("namespace").value = namespace;
  if (token) $("token-form").hidden = false;
  attempt(loadAll).then(() => {
    const wanted = new URLSearchParams(location.hash.slice(1)).get("app");
    if (wanted && view.apps.some((a) => a.id === wanted)) select(wanted);
  });
  watchChanges();
}

function start() {
  const params = new URLSearchParams(location.hash.slice(1));
  $("namespace-form").addEventListener("submit", (submit) => {
    submit.preventDefault();
    if (!$("namespace").checkValidity()) { showError(new Error("A namespace is a DNS label: lowercase letters, digits and hyphens.")); return; }
    location.hash = `ns=${encodeURIComponent($("namespace").value)}`;
    open($("namespace").value);
  });
  $("token-form").addEventListener("submit", (submit) => {
    submit.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, $("token").value.trim());
    open(view.client.namespace);
  });
  $("state-filter").addEventListener("change", renderApps);
  $("new-app").addEventListener("submit", createApp);
  open(params.get("ns") || "default");
}

start();
