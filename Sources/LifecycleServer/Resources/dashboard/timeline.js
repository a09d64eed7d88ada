// Draws a device's timeline as a sequence over simulated time: one lane for the device, one per app,
// and one per scene session of scene apps. Entries are columns in seq order; simulated time is marked
// above wherever it moves. Every mark has a <title>, so a screen reader names it; callbacks,
// notifications and device events are labelled in words under their mark where their lane has room,
// and the mark hovered and the mark selected are named in a callout beside them whatever the room.

const SVG = "http://www.w3.org/2000/svg";
const STATE_COLORS = {
  notRunning: "#57606a", inactive: "#9a6700", active: "#1a7f37", background: "#0b5cad", suspended: "#6639ba",
  unattached: "#8c959f", foregroundInactive: "#9a6700", foregroundActive: "#1a7f37",
};
/** A column's width: at least this, wider (up to WIDEST) when the chart has room. */
const COLUMN = 15;
const WIDEST = 48;
const LANE = 64;
/** Where a lane's marks sit, from its top; labels go below them, under the state band, in two rows. */
const MARKS = 18;
const LABEL_ROWS = [45, 59];
/** About how wide a character of the labels is (11px system-ui), to tell whether a label has room. */
const CHAR = 6;
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
    case "wakeRefused": return `${entry.wake} refused: ${entry.reason} — ${at}`;
    case "transfer": return `${entry.task} ${entry.name} (${entry.urlSession}) ${entry.event} — ${at}`;
    case "scheduledTask":
      return `${entry.taskKind} task ${entry.identifier} ${entry.event}${entry.reason ? ` (${entry.reason})` : ""}${entry.progress != null ? ` ${Math.round(entry.progress * 100)}%` : ""} — ${at}`;
    case "snapshot": return `snapshot: ${entry.visible.length ? `showing ${entry.visible.join(", ")}` : "nothing sensitive showing"} — ${at}`;
    default: return `${entry.kind} — ${at}`;
  }
}

/**
 * A mark's label in a few words, for a callback, a notification or a device event (null for other entries,
 * whose lanes' bands and shapes say enough; the callout names them): the selector
 * or name without the prefix and suffix every one of them shares, and the time.
 * "applicationDidBecomeActive:" at t=3 → "didBecomeActive t=3"; its notification → "◇ DidBecomeActive t=3".
 */
export function shortLabel(entry) {
  let name;
  if (entry.kind === "callback") {
    // The first part of the selector, less what they all share: "application:didFinishLaunchingWithOptions:"
    // → "didFinishLaunching".
    name = entry.selector.replace(/^(application|windowScene|scene)(?=[A-Z:])/, "").replace(/^:/, "").split(":")[0]
      .replace(/With(Options|CompletionHandler)$/, "");
    name = name.charAt(0).toLowerCase() + name.slice(1);
  } else if (entry.kind === "notification") {
    // Marked as the legend marks notifications, so that "◇ DidBecomeActive" is not read as the callback.
    name = `◇ ${entry.name.replace(/^UI(Application|Scene)?(?=[A-Z])/, "").replace(/Notification$/, "")}`;
  } else if (entry.kind === "device") {
    name = entry.event || entry.type || "device";
  } else {
    return null;
  }
  return `${name || entry.selector || entry.name} t=${entry.time}`;
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
export function drawTimeline(container, apps, allEntries, selected, selectedSeq = null) {
  const entries = allEntries.slice(-400);
  const lanes = lanesFor(apps, entries);
  const index = new Map(lanes.map((lane, i) => [lane.key, i]));
  // Column positions: one per entry, plus a gap wherever simulated time moves; the columns widen to fill
  // the chart's width when it has room, so that more labels fit.
  const gaps = entries.filter((entry, i) => i > 0 && entry.time !== entries[i - 1].time).length;
  // (Less room for the last label, which reaches past the last column.)
  const room = (container.clientWidth || 0) - LABELS - 2 * PAD - 160 - gaps * GAP;
  const column = Math.max(COLUMN, Math.min(WIDEST, Math.floor(room / Math.max(1, entries.length))));
  const lefts = [];
  let left = PAD;
  entries.forEach((entry, i) => {
    if (i > 0 && entry.time !== entries[i - 1].time) left += GAP;
    lefts.push(left);
    left += column;
  });
  const x = (i) => (i < lefts.length ? lefts[i] : left) + column / 2;
  // Labels: a callback's or notification's under its mark, in the first row of its lane whose previous
  // label has ended by then; none where neither has (the callout names it on hover or selection).
  const labels = new Map();
  const labelEnds = new Map();
  let rightmost = left + 40;
  entries.forEach((entry, i) => {
    const words = shortLabel(entry);
    const lane = laneOf(entry);
    const start = x(i) - 5;
    const ends = labelEnds.get(lane) ?? LABEL_ROWS.map(() => -Infinity);
    const row = ends.findIndex((end) => start >= end);
    if (!words || row < 0) return;
    labels.set(i, { words, start, row });
    ends[row] = start + words.length * CHAR + 8;
    labelEnds.set(lane, ends);
    rightmost = Math.max(rightmost, ends[row]);
  });
  const width = rightmost;
  const height = TOP + lanes.length * LANE + 10;
  const y = (key) => TOP + (index.get(key) ?? 0) * LANE + MARKS;

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
    node("line", { x1: 0, x2: width, y1: top + MARKS, y2: top + MARKS, stroke: "#d0d7de" }, svg);
    const text = node("text", { x: lane.session ? 20 : 8, y: top + MARKS + 4, class: "lane-label" }, names);
    text.textContent = lane.label;
  });

  // State bands: from each state (or scene state) entry to the next one of the same lane.
  const open = new Map();
  const band = (key, from, to, state) => {
    if (!(index.has(key))) return;
    titled(node("rect", { x: x(from) - column / 2, y: y(key) + 8, width: Math.max(2, x(to) - x(from)),
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
    const rule = x(i) - column / 2 - (i > 0 ? GAP / 2 : 0);
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
        mark = node("line", { x1: cx - column / 2, x2: cx - column / 2, y1: cy - 12, y2: cy + 12, stroke: STATE_COLORS[entry.to] || "#444", "stroke-width": 3 }, svg);
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
    mark.setAttribute("class", "mark");
    titled(mark, describe(entry));
    const label = labels.get(i);
    if (label) {
      const text = node("text", { x: label.start, y: cy - MARKS + LABEL_ROWS[label.row], class: "mark-label", "aria-hidden": "true",
        "data-seq": entry.seq }, svg);
      text.textContent = label.words;
    }
  });

  // The selected mark: a ring, drawn last so that nothing covers it (its callout once the chart is shown).
  const chosen = entries.findIndex((entry) => entry.seq === selectedSeq);
  if (chosen >= 0) {
    node("circle", { cx: x(chosen), cy: y(laneOf(entries[chosen])), r: 10, fill: "none", stroke: "#0b5cad",
      "stroke-width": 2, class: "selected-ring" }, svg);
  }
  // The mark under the pointer: its callout while it is there.
  svg.addEventListener("mouseover", (over) => {
    const mark = over.target.closest?.(".mark");
    svg.querySelector(".callout.hover")?.remove();
    if (!mark) return;
    const i = entries.findIndex((entry) => String(entry.seq) === mark.dataset.seq);
    if (i >= 0) callout(svg, x(i), y(laneOf(entries[i])), describe(entries[i]), "callout hover", width);
  });
  svg.addEventListener("mouseleave", () => svg.querySelector(".callout.hover")?.remove());

  const scroll = container.querySelector(".chart-scroll");
  const follow = !scroll || scroll.scrollLeft + scroll.clientWidth >= scroll.scrollWidth - column;
  const region = scroll || Object.assign(document.createElement("div"), { className: "chart-scroll", tabIndex: 0 });
  region.setAttribute("aria-label", "Timeline marks; scroll sideways for older entries");
  region.replaceChildren(svg);
  if (scroll) container.querySelector(".lane-names").replaceWith(names);
  else container.replaceChildren(names, region);
  // Stay at the newest entries unless the reader scrolled back to older ones.
  if (follow) region.scrollLeft = region.scrollWidth;
  // Shown, its text can be measured: the selected mark's callout fits its words.
  if (chosen >= 0) {
    callout(svg, x(chosen), y(laneOf(entries[chosen])), describe(entries[chosen]), "callout selected", width);
  }
}

/**
 * A mark named in words beside it, on a white box over everything drawn before: above the mark, or below
 * it in the top lane; kept inside the chart's width. Not read out: the mark's title and the line below
 * the chart say the same.
 */
function callout(svg, cx, cy, text, className, width) {
  const group = node("g", { class: className, "aria-hidden": "true", "pointer-events": "none" }, svg);
  const box = node("rect", { rx: 3, fill: "#ffffff", stroke: "#0b5cad" }, group);
  const label = node("text", {}, group);
  label.textContent = text;
  // Measured where the chart is shown; estimated (bold text is wider) where it is not yet.
  const wide = (label.getComputedTextLength() || text.length * CHAR * 1.25) + 12;
  const left = Math.max(2, Math.min(cx - wide / 2, width - wide - 2));
  const top = cy - 34 >= 2 ? cy - 34 : cy + 12;
  Object.entries({ x: left, y: top, width: wide, height: 20 }).forEach(([key, value]) => box.setAttribute(key, value));
  label.setAttribute("x", left + 6);
  label.setAttribute("y", top + 14);
  return group;
}
