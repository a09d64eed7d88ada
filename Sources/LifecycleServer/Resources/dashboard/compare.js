// The two comparisons the dashboard shows: what the namespace's apps exercised per OS band of the model
// (`GET .../coverage`), and one app's recorded inputs replayed on other iOS versions, its callbacks side by
// side with the first difference marked (`GET .../apps/{id}/versions`). Each renders the daemon's answer as
// it is, into a container given, with plain DOM elements.

const KINDS = [["states", "App states"], ["transitions", "State transitions"], ["events", "Events"],
  ["callbacks", "Callbacks"], ["sceneStates", "Scene states"]];

function cell(name, text, attributes = {}) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  node.textContent = text;
  return node;
}

/** A band's label as the command line writes it: `13.0-<15.0`, or `17.0+` for the last. */
export function bandLabel(band) {
  return band.until ? `${band.from}-<${band.until}` : `${band.from}+`;
}

/**
 * The coverage answer as a table: a row per band the apps ran on, a column per kind, each cell
 * `covered of total (percent)`, with what is not exercised listed under the table.
 */
export function renderCoverage(container, coverage) {
  const parts = [];
  if (!coverage.bands.length) {
    parts.push(cell("p", "No device of this namespace ran on a band the model knows: nothing to count yet.", { class: "help" }));
  } else {
    const table = document.createElement("table");
    table.className = "coverage";
    table.append(cell("caption", "Exercised out of what the model produces on each band"));
    const head = document.createElement("tr");
    head.append(cell("th", "iOS band", { scope: "col" }), ...KINDS.map(([, name]) => cell("th", name, { scope: "col" })));
    table.append(document.createElement("thead"));
    table.tHead.append(head);
    const body = document.createElement("tbody");
    const missing = document.createElement("ul");
    missing.className = "missing";
    for (const band of coverage.bands) {
      const row = document.createElement("tr");
      row.dataset.band = bandLabel(band);
      row.append(cell("th", bandLabel(band), { scope: "row" }));
      for (const [key, name] of KINDS) {
        const { covered, total } = band[key];
        const percent = total ? Math.floor((covered * 100) / total) : 100;
        row.append(cell("td", `${covered} of ${total} (${percent}%)`, { "data-kind": key }));
        if (band[key].missing.length) {
          missing.append(cell("li", `iOS ${bandLabel(band)}, ${name.toLowerCase()} not exercised: ${band[key].missing.join(", ")}`));
        }
      }
      body.append(row);
    }
    table.append(body);
    parts.push(table);
    if (missing.children.length) parts.push(missing);
  }
  parts.push(cell("p", `Bands of the model: ${coverage.modelBands.join(", ")}. Universe: ${coverage.universe}.`
    + (coverage.unplaced ? ` ${coverage.unplaced} device(s) had no iOS version the model knows.` : ""), { class: "help" }));
  container.replaceChildren(...parts);
}

/**
 * The versions answer as a table: a column per version, a row per callback in order; the row of the first
 * difference is marked (class `differs`, and `≠` before its number), and each version's run says whether it
 * stopped.
 */
export function renderVersions(container, comparison) {
  const parts = [];
  const app = comparison.apps.find((item) => item.app === comparison.app) || { callbacks: {}, firstDifference: null };
  const first = app.firstDifference;
  parts.push(cell("p", first === null ? "The callbacks are the same on every version."
    : `Callback ${first + 1} differs (marked ≠).`, { class: "verdict", role: "status" }));
  const stops = comparison.versions
    .map((version, index) => (comparison.stopped[index] ? `iOS ${version} stopped at ${comparison.stopped[index]}` : null))
    .filter(Boolean);
  if (stops.length) parts.push(cell("p", stops.join("; "), { class: "help stopped" }));
  const table = document.createElement("table");
  table.className = "versions";
  table.append(cell("caption", "Callbacks of the app on each version, in order"));
  const head = document.createElement("tr");
  head.append(cell("th", "#", { scope: "col" }), ...comparison.versions.map((version) => cell("th", `iOS ${version}`, { scope: "col" })));
  table.append(document.createElement("thead"));
  table.tHead.append(head);
  const body = document.createElement("tbody");
  const lists = comparison.versions.map((version) => app.callbacks[version] || []);
  const rows = Math.max(0, ...lists.map((list) => list.length));
  for (let index = 0; index < rows; index++) {
    const row = document.createElement("tr");
    row.dataset.row = String(index);
    const marked = index === first;
    if (marked) row.className = "differs";
    row.append(cell("th", marked ? `≠ ${index + 1}` : String(index + 1), { scope: "row" }));
    for (const list of lists) row.append(cell("td", index < list.length ? list[index] : "—"));
    body.append(row);
  }
  table.append(body);
  parts.push(table);
  container.replaceChildren(...parts);
}
