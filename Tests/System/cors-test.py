#!/usr/bin/env python3
"""CORS as a team building its own page uses it, in a real browser (Debian's chromium, headless): the daemon
runs with `--allowed-origin` naming one origin, and a page served from that origin (another port) creates an
app, posts an event with an `Idempotency-Key` (a preflighted request), reads an exposed header and follows
the app's timeline as a live stream (`EventSource`). The same page served from an origin not allowed
can read nothing, and its POST is never sent (the preflight gets no CORS answer), so no app is made.

Usage: cors-test.py --bin PATH   Prints 'N passed, N failed' last; exit 0 when all pass.
"""
import argparse
import functools
import http.server
import os
import sys
import tempfile
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from browser_support import browser, wait  # noqa: E402
from lifecycled_daemon import Daemon  # noqa: E402
from lifecycled_support import Checks, free_port, request  # noqa: E402

checks = Checks()
check = checks.check

# The page: every step's outcome in window.result, every streamed entry's kind/selector in window.seen.
PAGE = """<!doctype html><meta charset="utf-8"><title>our own page</title><link rel="icon" href="data:,"><script>
const api = new URLSearchParams(location.search).get("api");
const app = new URLSearchParams(location.search).get("app");
window.result = {}; window.seen = [];
(async () => {
  try {
    const created = await fetch(`${api}/v1/apps`, {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({id: app, bundleId: "com.example.page"})});
    window.result.created = created.status;
    window.result.location = created.headers.get("Location");
    const stream = new EventSource(`${api}/v1/apps/${app}/timeline`);
    stream.addEventListener("entry", (e) => { const x = JSON.parse(e.data); window.seen.push(x.selector || x.kind); });
    stream.onopen = async () => {
      const posted = await fetch(`${api}/v1/apps/${app}/events`, {method: "POST",
        headers: {"Content-Type": "application/json", "Idempotency-Key": "page-launch"},
        body: JSON.stringify({type: "launch"})});
      window.result.posted = posted.status;
      const read = await fetch(`${api}/v1/apps/${app}`);
      window.result.etag = read.headers.get("ETag");
      window.result.state = (await read.json()).state;
    };
  } catch (error) { window.result.error = String(error); }
})();
</script>"""


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(directory):
    """A static server for `directory` on a free port, in a thread; returns its origin."""
    handler = functools.partial(QuietHandler, directory=directory)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    binary = os.path.abspath(parser.parse_args().bin)
    work = tempfile.mkdtemp(prefix="lifecycled-cors-")
    with open(os.path.join(work, "page.html"), "w") as f:
        f.write(PAGE)
    allowed, foreign = serve(work), serve(work)
    daemon = Daemon(binary, "--in-memory", "--allowed-origin", allowed, log=os.path.join(work, "log"),
                    ready_seconds=10).start()
    driver = None
    try:
        api = daemon.url
        driver = browser()

        driver.get(f"{allowed}/page.html?api={api}&app=ours")
        result = wait(driver, lambda d: d.execute_script("return window.result.state && window.result"))
        check("a page of the allowed origin creates an app (201) and reads its Location",
              result and result.get("created") == 201 and result.get("location") == "/v1/apps/ours", result)
        check("... posts an event with an Idempotency-Key after a preflight (200)",
              result and result.get("posted") == 200, result)
        check("... reads the exposed ETag and the app's state",
              result and result.get("etag") and result.get("state") == "active", result)
        seen = wait(driver, lambda d: (lambda s: "applicationDidBecomeActive:" in s and s)(
            d.execute_script("return window.seen")))
        check("... and follows the app's timeline as a live stream (EventSource)", seen, driver.execute_script(
            "return window.seen"))

        console = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
        check("the allowed page logs no error in the console", not console, console)

        driver.get(f"{foreign}/page.html?api={api}&app=theirs")
        refused = wait(driver, lambda d: d.execute_script("return window.result.error"))
        check("a page of another origin reads nothing: its fetch fails", refused, refused)
        status, _, _ = request(f"{api}/v1/apps/theirs")
        check("... and its POST never reached the daemon: no app was made", status == 404, status)
        status, headers, _ = request(f"{api}/v1/apps", "OPTIONS", headers={
            "Origin": foreign, "Access-Control-Request-Method": "POST"})
        check("... its preflight gets no CORS header (405, as any OPTIONS)",
              status == 405 and "access-control-allow-origin" not in headers, (status, headers))
    finally:
        if driver:
            driver.quit()
        daemon.stop(10)
    checks.finish()


if __name__ == "__main__":
    main()
