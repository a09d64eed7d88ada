// The public HTTP API of lifecycled, as the dashboard uses it: nothing else is called.

/** An answer that is not 2xx, with the problem document (RFC 9457) the daemon sent. */
export class Problem extends Error {
  constructor(status, document) {
    super(document.detail || `HTTP ${status}`);
    this.status = status;
    this.document = document;
  }
}

/** fetch, with a readable error when the daemon cannot be reached at all. */
async function send(path, init) {
  try {
    return await fetch(path, init);
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new Problem(0, { title: "No answer", detail: `the daemon did not answer ${init.method || "GET"} ${path}: is it still running?` });
  }
}

/** A namespace's name: a DNS label (the daemon's rule; the page's namespace field takes its pattern from here). */
export const NAMESPACE_PATTERN = "[a-z0-9]([a-z0-9\\-]{0,61}[a-z0-9])?";

/** Whether `name` is a namespace name, so that it can be put in a path as it is. */
export function isNamespaceName(name) {
  return new RegExp(`^(?:${NAMESPACE_PATTERN})$`).test(name);
}

export class Client {
  constructor(namespace, token) {
    this.namespace = namespace || "default";
    // Never a path built from anything else: "../reset?" would make the next POST reset every namespace.
    if (!isNamespaceName(this.namespace)) throw new Error(`not a namespace name: ${JSON.stringify(this.namespace)}`);
    this.token = token || "";
    this.etags = new Map();
  }

  /** The path of a resource in this client's namespace; `default` uses the unprefixed paths. */
  path(rest) {
    return this.namespace === "default" ? `/v1${rest}` : `/v1/namespaces/${this.namespace}${rest}`;
  }

  headers(extra = {}) {
    const headers = { Accept: "application/json", ...extra };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    return headers;
  }

  /** A request; every one that changes something is JSON, labelled so (the daemon answers 415 otherwise). */
  async request(method, rest, body, { signal } = {}) {
    return this.read(await this.exchange(method, rest, body === undefined ? undefined : JSON.stringify(body), signal));
  }

  /** The answer to a request whose body, if any, is JSON text already written; not read yet. */
  exchange(method, rest, text, signal) {
    const init = { method, headers: this.headers(), signal };
    if (method !== "GET" && method !== "HEAD") {
      init.headers["Content-Type"] = "application/json";
      if (text !== undefined) init.body = text;
    }
    return send(this.path(rest), init);
  }

  /**
   * The scenario that replays this namespace, or one app's device with that app's expectations
   * (`GET /export`): `{ name, blob }`, with the file name the daemon gives in Content-Disposition.
   */
  async exportScenario(app) {
    const answer = await this.exchange("GET", app ? `/export?app=${encodeURIComponent(app)}` : "/export");
    if (!answer.ok) await this.read(answer);
    const given = /filename="([^"]+)"/.exec(answer.headers.get("Content-Disposition") || "");
    return { name: given ? given[1] : `${app || this.namespace}.scenario.json`, blob: await answer.blob() };
  }

  /**
   * Runs a scenario file's steps in this namespace, all or nothing (`POST /import`), sent as it was
   * written: `{ applied, devices, apps, expectations }`. `ignoreExpectations` skips its `expect` members.
   */
  async importScenario(text, { ignoreExpectations = false } = {}) {
    const query = `?expectations=${ignoreExpectations ? "ignore" : "check"}`;
    return this.read(await this.exchange("POST", `/import${query}`, text));
  }

  /** The catalogue of events (`GET /v1/event-types`): the same in every namespace, readable without a token. */
  async eventTypes() {
    return (await this.read(await send("/v1/event-types", { headers: { Accept: "application/json" } }))).eventTypes;
  }

  /**
   * The event types an app and its device would accept now (`GET .../apps/{id}/events`): `{ app, state,
   * eventTypes: [{ type, possible, changes, problem }] }`.
   */
  possibleEvents(app, { signal } = {}) {
    return this.request("GET", `/apps/${encodeURIComponent(app)}/events`, undefined, { signal });
  }

  /** What this namespace's apps exercised per OS band of the model (`GET .../coverage`). */
  coverage() {
    return this.request("GET", "/coverage");
  }

  /**
   * The app's recorded inputs replayed on other iOS versions, its callbacks side by side (`GET
   * .../apps/{id}/versions`); `versions`: a comma-separated list, or empty for one per band of the model.
   */
  versions(app, versions) {
    const query = versions ? `?versions=${encodeURIComponent(versions)}` : "";
    return this.request("GET", `/apps/${encodeURIComponent(app)}/versions${query}`);
  }

  /** Deletes an app (`DELETE .../apps/{id}`) or a device and its apps (`DELETE .../devices/{id}`). */
  async remove(kind, id) {
    if (kind !== "apps" && kind !== "devices") throw new Error(`nothing to delete of kind ${kind}`);
    return this.request("DELETE", `/${kind}/${encodeURIComponent(id)}`);
  }

  /**
   * Empties this namespace only (`POST /v1/namespaces/{ns}/reset`), `default` included: never `POST /v1/reset`,
   * which empties every namespace.
   */
  async resetNamespace() {
    return this.read(await send(`/v1/namespaces/${this.namespace}/reset`,
      { method: "POST", headers: this.headers({ "Content-Type": "application/json" }) }));
  }

  /** GET with the ETag of the previous answer: `null` when nothing changed (304). */
  async poll(rest, { signal } = {}) {
    const key = this.path(rest);
    const headers = this.headers();
    const etag = this.etags.get(key);
    if (etag) headers["If-None-Match"] = etag;
    const answer = await send(key, { headers, signal });
    if (answer.status === 304) return null;
    const value = await this.read(answer);
    const tag = answer.headers.get("ETag");
    if (tag) this.etags.set(key, tag);
    return value;
  }

  async read(answer) {
    const type = answer.headers.get("Content-Type") || "";
    const text = await answer.text();
    let value = null;
    if (text && (type.includes("json"))) {
      try { value = JSON.parse(text); } catch { value = null; }
    }
    if (!answer.ok) {
      throw new Problem(answer.status, value && typeof value === "object" ? value
        : { title: answer.statusText || "Error", status: answer.status, detail: text.slice(0, 300) });
    }
    return value;
  }
}
