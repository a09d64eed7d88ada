// Live updates: a namespace's devices and apps, and one device's timeline. Each reads the daemon's
// server-sent event stream where it has one (through fetch, so the token header goes along), and
// otherwise polls: the lists with ETags every second, the timeline with long polls. Neither retries
// faster than once a second, and a lasting failure backs off to ten seconds.
import { Problem } from "./api.js";

const sleep = (ms, signal) => new Promise((resolve) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
});

/** Splits server-sent event text into events; returns the unfinished rest. */
export function parseEvents(text, onEvent) {
  const blocks = text.replace(/\r\n?/g, "\n").split("\n\n");
  const rest = blocks.pop();
  for (const block of blocks) {
    let event = "message";
    let id = null;
    const data = [];
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
      else if (field === "id") id = value;
    }
    if (data.length) onEvent(event, data.join("\n"), id);
  }
  return rest;
}

/**
 * Opens a stream: the reader when the daemon answers `text/event-stream`; the answer itself otherwise
 * (a JSON page from a daemon without streams, or a problem), so the caller can fall back.
 */
async function openStream(client, path, signal) {
  const answer = await fetch(client.path(path), { headers: client.headers({ Accept: "text/event-stream" }), signal });
  const type = answer.headers.get("Content-Type") || "";
  if (answer.ok && type.startsWith("text/event-stream")) return { reader: answer.body.pipeThrough(new TextDecoderStream()).getReader() };
  return { answer };
}

async function readStream(reader, onEvent) {
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer = parseEvents(buffer + value, onEvent);
  }
}

const isAuthProblem = (error) => error instanceof Problem && (error.status === 401 || error.status === 403);

/**
 * A namespace's devices and apps, kept current. `handlers`: `lists(devices, apps)` with the whole
 * lists after every change, `missing()` when the namespace does not exist (yet), `status(text)` for the
 * connection, `problem(error)` for an error the user must act on (a token refused), after which it stops.
 */
export class NamespaceWatcher {
  constructor(client, handlers) {
    this.client = client;
    this.handlers = handlers;
    this.controller = new AbortController();
    this.devices = [];
    this.apps = [];
  }

  start() { this.run(); return this; }

  stop() { this.controller.abort(); }

  get signal() { return this.controller.signal; }

  publish() { this.handlers.lists(this.devices, this.apps); }

  async run() {
    while (!this.signal.aborted) {
      const outcome = await this.stream().catch((error) => (this.signal.aborted ? "stopped" : isAuthProblem(error) ? error : "unavailable"));
      if (this.signal.aborted) return;
      if (outcome instanceof Problem) { this.handlers.problem(outcome); return; }
      if (outcome === "unavailable") { await this.poll(); return; }
      // The stream ended (the namespace was deleted or reset, the daemon restarts): open it again.
      this.handlers.status("reconnecting…");
      await sleep(1000, this.signal);
    }
  }

  /** "ended" after a stream, "unavailable" when the daemon has none here; throws a refused token's problem. */
  async stream() {
    const { reader, answer } = await openStream(this.client, "/changes", this.signal);
    if (!reader) {
      if (answer.status === 401 || answer.status === 403) await this.client.read(answer);
      answer.body?.cancel();
      return "unavailable";
    }
    this.handlers.status("live (stream)");
    await readStream(reader, (event, data) => this.onEvent(event, JSON.parse(data)));
    return "ended";
  }

  onEvent(event, data) {
    if (event === "snapshot") {
      this.devices = data.devices || [];
      this.apps = data.apps || [];
    } else if (event === "app") {
      replace(this.apps, data);
    } else if (event === "device") {
      replace(this.devices, data);
    } else if (event === "deleted") {
      if (data.kind === "app") this.apps = this.apps.filter((a) => a.id !== data.id);
      else {
        this.devices = this.devices.filter((d) => d.id !== data.id);
        this.apps = this.apps.filter((a) => a.device !== data.id);
      }
    } else {
      return;
    }
    this.publish();
  }

  /** Polls both lists every second; a 304 costs the daemon nothing but the ETag comparison. */
  async poll() {
    this.handlers.status("live (polling every second)");
    let delay = 1000;
    let missing = false;
    while (!this.signal.aborted) {
      try {
        const [devices, apps] = await Promise.all([
          this.client.poll("/devices?limit=1000", { signal: this.signal }),
          this.client.poll("/apps?limit=1000", { signal: this.signal }),
        ]);
        if (devices) this.devices = devices.items;
        if (apps) this.apps = apps.items;
        if (devices || apps || missing || delay > 1000) {
          this.handlers.status("live (polling every second)");
          this.publish();
        }
        missing = false;
        delay = 1000;
      } catch (error) {
        if (this.signal.aborted) return;
        if (isAuthProblem(error)) { this.handlers.problem(error); return; }
        if (error instanceof Problem && error.status === 404) {
          // Not there yet: a write into it creates it. Keep looking, quietly.
          this.client.etags.clear();
          if (!missing) { this.devices = []; this.apps = []; this.handlers.missing(); }
          missing = true;
          delay = 2000;
        } else {
          delay = Math.min(delay * 2, 10000);
          this.handlers.status(`no answer from the daemon (${describeFailure(error)}); trying again in ${delay / 1000} s`);
        }
      }
      await sleep(delay, this.signal);
    }
  }
}

function replace(list, item) {
  const index = list.findIndex((x) => x.id === item.id);
  if (index >= 0) list[index] = item; else list.push(item);
}

function describeFailure(error) {
  if (error instanceof Problem) return `${error.status} ${error.document.title || ""}`.trim();
  return "network error";
}

/**
 * One device's timeline from its first retained entry on: the device timeline stream, or long polls.
 * `handlers`: `entries(list)` for new entries (possibly ones already seen), `gone()` when the device
 * was deleted, `problem(error)`, after which it stops.
 */
export class TimelineFollower {
  constructor(client, device, handlers) {
    this.client = client;
    this.device = device;
    this.handlers = handlers;
    this.controller = new AbortController();
    this.cursor = 0;
    /** Seconds a long poll is held, within the daemon's default --max-wait (60). */
    this.wait = 20;
  }

  start() { this.run(); return this; }

  stop() { this.controller.abort(); }

  get path() { return `/devices/${encodeURIComponent(this.device)}/timeline`; }

  async run() {
    const signal = this.controller.signal;
    let streams = true;
    let delay = 1000;
    while (!signal.aborted) {
      try {
        if (streams) {
          streams = await this.stream(signal);
          // A stream that ended (the daemon restarts): open it again, at most once a second.
          if (streams) await sleep(1000, signal);
        } else {
          const started = Date.now();
          const query = `?after=${this.cursor}&limit=1000&wait=${this.wait}`;
          const page = await this.client.request("GET", this.path + query, undefined, { signal });
          this.page(page);
          // A short wait (a daemon with a low --max-wait) must not turn into a request storm.
          if (page.items.length === 0) await sleep(1000 - (Date.now() - started), signal);
        }
        delay = 1000;
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof Problem && error.status === 410 && Number.isInteger(error.document.oldestSeq)) {
          // Older entries were dropped: go on from the oldest still held.
          this.cursor = Math.max(0, error.document.oldestSeq - 1);
          continue;
        }
        if (error instanceof Problem && error.status === 404) { this.handlers.gone(); return; }
        if (isAuthProblem(error)) { this.handlers.problem(error); return; }
        if (error instanceof Problem && error.status === 400 && error.document.field === "wait" && this.wait > 1) {
          // The daemon's --max-wait is below this wait: hold polls for a second instead.
          this.wait = 1;
          continue;
        }
        delay = Math.min(delay * 2, 10000);
        await sleep(delay, signal);
      }
    }
  }

  page(page) {
    if (page.items.length) this.handlers.entries(page.items);
    if (Number.isInteger(page.next)) this.cursor = Math.max(this.cursor, page.next);
  }

  /** Reads the stream; false once the daemon has shown it has none (its JSON page is used as one). */
  async stream(signal) {
    const { reader, answer } = await openStream(this.client, `${this.path}?after=${this.cursor}&limit=1000`, signal);
    if (!reader) {
      if (answer.status === 406) { answer.body?.cancel(); return false; }
      const value = await this.client.read(answer);
      if (value && Array.isArray(value.items)) this.page(value);
      return false;
    }
    await readStream(reader, (event, data) => {
      const value = JSON.parse(data);
      if (event === "entry") {
        this.cursor = Math.max(this.cursor, value.seq);
        this.handlers.entries([value]);
      } else if (event === "gone") {
        // The oldest seq still held, as a number or as a problem-like object.
        const oldest = typeof value === "number" ? value : value?.oldestSeq;
        if (Number.isInteger(oldest)) this.cursor = Math.max(0, oldest - 1);
      }
    });
    return true;
  }
}
