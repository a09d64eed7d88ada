// Draws a device's timeline as a sequence over simulated time: one lane for the device, one per app,
// and one per scene session of scene apps. Entries are columns in seq order; simulated time is marked
// above wherever it moves. Every mark has a <title>, so hovering (or a screen reader) names it.

const SVG = "http://www.w3.org/2000/svg";
const STATE_COLORS = {
  notRunning: "#57606a", inactive: "#9a6700", active: "#1a7f37", background: "#0b5cad", suspended: "#6639ba",
  unattached: "#8c959f", foregroundInactive: "#9a6700", foregroundActive: "#1a7f37",
};
const COLUMN = 15;
const LANE = 34;
const LABELS = 130;
const PAD = 8;
const GAP = 14;
const TOP = 34;

function node(name, attributes = {}, parent) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (parent) parent.appendChild(element);
  return element;
}

function titled(element, text) {
  node("title", {}, element).textContent = text;
  return element;
}

/** What a mark says about an entry, in words. */
export function describe(entry) {
  const at = `seq ${entry.seq}, t=${entry.time}`;
  switch (entry.kind) {
    case "callback": return `${entry.selector} (${entry.sceneState || entry.state}) — ${at}`;
    case "notification": return `${entry.name} — ${at}`;
    case "state": return `${entry.app}: ${entry.from} → ${entry.to} — ${at}`;
    case "sceneState": return `${entry.session}: ${entry.from} → ${entry.to} — ${at}`;
    case "termination": return `terminated: ${entry.reason}${entry.notified ? " (notified)" : ""} — ${at}`;
    case "runloop": return `${entry.event} ${entry.delivered ? "delivered" : "dropped"} — ${at}`;
    case "backgroundTask": return `background task ${entry.task ?? ""} ${entry.event || ""} — ${at}`.replace(/ +/g, " ");
    case "device": return `device: ${entry.event || entry.type || "event"} — ${at}`;
    case "resource": return `${entry.resource} ${entry.event} — ${at}`;
    case "launchImage": return `launch image ${entry.image} — ${at}`;
    case "snapshot": return `snapshot: ${entry.visible.length ? `showing ${entry.visible.join(", ")}` : "nothing sensitive showing"} — ${at}`;
    default: return `${entry.kind} — ${at}`;
  }
}

/** The lanes of a device: the device itself, then each app, then each of its scene sessions. */
function lanesFor(apps, entries) {
  const lanes = [{ key: "device", label: "device" }];
  for (const app of apps) {
    lanes.push({ key: app.id, label: app.id, app: app.id });
    const sessions = new Set((app.sessions || []).map((s) => s.id));
    for (const entry of entries) if (entry.app === app.id && entry.session) sessions.add(entry.session);
    for (const session of sessions) lanes.push({ key: `${app.id}/${session}`, label: `scene ${session}`, app: app.id, session });
  }
  return lanes;
}

function laneOf(entry) {
  if (entry.kind === "device" || !entry.app) return "device";
  return entry.session ? `${entry.app}/${entry.session}` : entry.app;
}

/**
 * Draws `allEntries` (one device's, in seq order; the latest 400) into `container`: lane names in a
 * column that stays put, the marks beside it in a region that scrolls sideways, newest in view.
 * Each entry is a column; a gap and a rule mark each step of simulated time.
 */
export function drawTimeline(container, apps, allEntries, selected) {
  const entries = allEntries.slice(-400);
  const lanes = lanesFor(apps, entries);
  const index = new Map(lanes.map((lane, i) => [lane.key, i]));
  // Column positions: one per entry, plus a gap wherever simulated time moves.
  const lefts = [];
  let left = PAD;
  entries.forEach((entry, i) => {
    if (i > 0 && entry.time !== entries[i - 1].time) left += GAP;
    lefts.push(left);
    left += COLUMN;
  });
  const width = left + 40;
  const height = TOP + lanes.length * LANE + 10;
  const x = (i) => (i < lefts.length ? lefts[i] : left) + COLUMN / 2;
  const y = (key) => TOP + (index.get(key) ?? 0) * LANE + LANE / 2;

  const names = node("svg", { width: LABELS, height, "aria-hidden": "true", class: "lane-names" });
  const first = entries[0];
  const last = entries[entries.length - 1];
  const svg = node("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": entries.length ? `${entries.length} entries, seq ${first.seq} to ${last.seq}, t=${first.time} to t=${last.time}`
      : "no entries yet" });
  lanes.forEach((lane, i) => {
    const top = TOP + i * LANE;
    const fill = lane.app === selected ? "#eef4fb" : (i % 2 ? "#fafbfc" : "#fff");
    node("rect", { x: 0, y: top, width: LABELS, height: LANE, fill }, names);
    node("rect", { x: 0, y: top, width, height: LANE, fill }, svg);
    node("line", { x1: 0, x2: width, y1: top + LANE / 2, y2: top + LANE / 2, stroke: "#d0d7de" }, svg);
    const text = node("text", { x: lane.session ? 20 : 8, y: top + LANE / 2 + 4, class: "lane-label" }, names);
    text.textContent = lane.label;
  });

  // State bands: from each state (or scene state) entry to the next one of the same lane.
  const open = new Map();
  const band = (key, from, to, state) => {
    if (!(index.has(key))) return;
    titled(node("rect", { x: x(from) - COLUMN / 2, y: y(key) + 8, width: Math.max(2, x(to) - x(from)),
      height: 6, fill: STATE_COLORS[state] || "#8c959f", opacity: 0.85 }, svg), `${key}: ${state}`);
  };
  entries.forEach((entry, i) => {
    if (entry.kind !== "state" && entry.kind !== "sceneState") return;
    const key = entry.kind === "state" ? entry.app : `${entry.app}/${entry.session}`;
    const previous = open.get(key);
    if (previous) band(key, previous.i, i, previous.state);
    open.set(key, { i, state: entry.to });
  });
  for (const [key, { i, state }] of open) band(key, i, entries.length, state);

  // Simulated time: a rule where it moves, labelled unless the previous label is still too close.
  let labelEnd = -Infinity;
  entries.forEach((entry, i) => {
    if (i > 0 && entry.time === entries[i - 1].time) return;
    const rule = x(i) - COLUMN / 2 - (i > 0 ? GAP / 2 : 0);
    node("line", { x1: rule, x2: rule, y1: TOP - 6, y2: height, stroke: "#afb8c1", "stroke-dasharray": "3 3" }, svg);
    const text = `t=${entry.time}`;
    if (rule < labelEnd) return;
    const label = node("text", { x: rule + 2, y: 14, class: "time-label" }, svg);
    label.textContent = text;
    labelEnd = rule + 8 + text.length * 6.5;
  });

  entries.forEach((entry, i) => {
    const cx = x(i);
    const cy = y(laneOf(entry));
    let mark;
    switch (entry.kind) {
      case "callback":
        mark = node("circle", { cx, cy, r: 6, fill: STATE_COLORS[entry.sceneState || entry.state] || "#444", stroke: "#1b1f24" }, svg);
        break;
      case "notification":
        mark = node("path", { d: `M${cx} ${cy - 5} L${cx + 5} ${cy} L${cx} ${cy + 5} L${cx - 5} ${cy} Z`, fill: "#ffffff", stroke: "#57606a" }, svg);
        break;
      case "state":
      case "sceneState":
        mark = node("line", { x1: cx - COLUMN / 2, x2: cx - COLUMN / 2, y1: cy - 12, y2: cy + 12, stroke: STATE_COLORS[entry.to] || "#444", "stroke-width": 3 }, svg);
        break;
      case "termination":
        mark = node("path", { d: `M${cx - 6} ${cy - 6} L${cx + 6} ${cy + 6} M${cx + 6} ${cy - 6} L${cx - 6} ${cy + 6}`, stroke: "#cf222e", "stroke-width": 3 }, svg);
        break;
      case "runloop":
        mark = node("path", { d: `M${cx} ${cy - 6} L${cx + 6} ${cy + 5} L${cx - 6} ${cy + 5} Z`, fill: entry.delivered ? "#1a7f37" : "#fff", stroke: "#1a7f37" }, svg);
        break;
      case "backgroundTask":
        mark = node("rect", { x: cx - 5, y: cy - 5, width: 10, height: 10, fill: "#bf8700", stroke: "#1b1f24" }, svg);
        break;
      default:
        mark = node("rect", { x: cx - 4, y: cy - 8, width: 8, height: 16, fill: "#57606a" }, svg);
    }
    mark.setAttribute("data-seq", entry.seq);
    mark.setAttribute("data-kind", entry.kind);
    titled(mark, describe(entry));
  });

  const scroll = container.querySelector(".chart-scroll");
  const follow = !scroll || scroll.scrollLeft + scroll.clientWidth >= scroll.scrollWidth - COLUMN;
  const region = scroll || Object.assign(document.createElement("div"), { className: "chart-scroll", tabIndex: 0 });
  region.setAttribute("aria-label", "Timeline marks; scroll sideways for older entries");
  region.replaceChildren(svg);
  if (scroll) container.querySelector(".lane-names").replaceWith(names);
  else container.replaceChildren(names, region);
  // Stay at the newest entries unless the reader scrolled back to older ones.
  if (follow) region.scrollLeft = region.scrollWidth;
}
