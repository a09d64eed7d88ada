#!/usr/bin/env python3
"""The dashboard (`GET /`) as a person uses it, in a real browser: Debian's chromium, headless, driven
by selenium through chromium-driver, against the built daemon.

- create an app from the page, press Launch and then Home: the badge says `suspended` and the timeline
  lists the callbacks in the order the API's /callbacks gives;
- a second window on the same namespace shows a change made with a plain HTTP request, without a reload;
- the state filter, a refused event shown as a readable error, a namespace that does not exist yet
  shown as an empty state (with no error and no storm of requests);
- with tokens on (a second daemon, `--tokens`), a wrong token shows the 401 as an error, a right one works;
- the moveTo control moves an app; Export scenario downloads the app's scenario, which `lifecycled check`
  passes; Import scenario replays it in another namespace with the same callbacks and the same device
  timeline, byte for byte; a failed import or export shows its problem;
- the timeline's callbacks and notifications are labelled in words (name and time) where their lane has room,
  never overlapping, and the mark hovered, clicked or stepped to with the arrow keys is named in a callout;
- an event button is disabled (saying why) while the daemon would refuse the event, and enabled once the
  state changes (GET /v1/apps/{id}/events);
- an app, a device and the namespace are deleted or reset from the page, each only after a confirmation;
- an app's callbacks on several iOS versions side by side (Compare), the first difference highlighted, as
  GET /v1/apps/{id}/versions answers, and a bad list's problem shown; the namespace's coverage (Show
  coverage) as a table of what GET /v1/coverage answers, and a namespace not made yet shown as empty.

Screenshots of each view go to .build/screenshots/. Every wait polls the page (WebDriverWait); none sleeps.

Usage: dashboard-test.py --base URL --bin PATH   (scripts/dashboard-test runs it against a fresh daemon)
Prints 'N passed, N failed' last; exit 0 when all pass.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from browser_support import browser, wait  # noqa: E402
from lifecycled_daemon import Daemon, DaemonError  # noqa: E402
from lifecycled_support import Checks, request, write_private  # noqa: E402

SCREENSHOTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".build", "screenshots")
checks = Checks()
check = checks.check


def screenshot(driver, name, element_id=None):
    """The viewport, scrolled to the top, without the keyboard focus ring; or only the element `element_id`."""
    driver.execute_script("document.activeElement?.blur(); window.scrollTo(0, 0)")
    os.makedirs(SCREENSHOTS, exist_ok=True)
    path = os.path.join(SCREENSHOTS, name + ".png")
    if element_id:
        driver.find_element(By.ID, element_id).screenshot(path)
    else:
        driver.save_screenshot(path)


# Reads go through one script each, so a re-render between two calls cannot leave a stale element.
def badge_state(driver, selector):
    return driver.execute_script("return document.querySelector(arguments[0])?.dataset.state ?? null", selector)


def listed_callbacks(driver):
    pairs = driver.execute_script("""return [...document.querySelectorAll('#callbacks li[data-seq]')]
        .map(li => [Number(li.dataset.seq), li.dataset.selector])""")
    return [tuple(pair) for pair in pairs]


def drawn_callbacks(driver):
    return driver.execute_script("""return [...document.querySelectorAll("#timeline-chart [data-kind='callback']")]
        .map(mark => Number(mark.dataset.seq))""")


def text_of(driver, element_id):
    return driver.execute_script("return document.getElementById(arguments[0]).innerText", element_id)


def error_text(driver):
    return driver.execute_script("const box = document.getElementById('error'); return box.hidden ? '' : box.innerText")


def act(driver, action):
    """Runs `action(driver)`, again if the page re-rendered the element meanwhile (a stale reference)."""
    wait(driver, lambda d: action(d) or True)


def button_state(driver, event):
    """An event button's [aria-disabled, title], or None while there is none."""
    return driver.execute_script("""const b = document.querySelector(`#event-buttons button[data-event='${arguments[0]}']`);
        return b ? [b.getAttribute('aria-disabled'), b.title] : null""", event)


def press(driver, event, fields=None):
    """Presses an event button once it is enabled; an event with fields opens its form, which is filled and sent."""
    wait(driver, lambda d: (button_state(d, event) or [None])[0] == "false")
    act(driver, lambda d: d.find_element(By.CSS_SELECTOR, f"#event-buttons button[data-event='{event}']").click())
    if fields is not None:
        form = wait(driver, lambda d: d.find_element(By.ID, "event-form").is_displayed())
        for name, value in fields.items():
            field = driver.find_element(By.CSS_SELECTOR, f"#event-form [name='{name}']")
            field.clear()
            field.send_keys(value)
        if form:
            driver.find_element(By.ID, "event-send").click()


def main_scenario(driver, base):
    driver.get(base + "/")
    check("the page loads from the daemon", "lifecycled" in driver.title, driver.title)
    check("an empty namespace says so, without an error",
          wait(driver, lambda d: "create an app" in text_of(d, "devices"))
          and error_text(driver) == "", text_of(driver, "devices"))

    # Create an app from the page.
    driver.find_element(By.ID, "new-app-bundle").clear()
    driver.find_element(By.ID, "new-app-bundle").send_keys("com.example.mail")
    driver.find_element(By.ID, "new-app-id").send_keys("mail")
    driver.find_element(By.ID, "create-app").click()
    check("Create app makes the app and selects it",
          wait(driver, lambda d: text_of(d, "app-heading").startswith("App mail")),
          text_of(driver, "app-heading"))
    status, _, app = request(base + "/v1/apps/mail", "GET")
    check("... the API has it", status == 200 and app["bundleId"] == "com.example.mail", app)
    check("... and its badge says notRunning", badge_state(driver, "#app-state") == "notRunning")

    # The buttons are the daemon's catalogue: every app and device event, no scene events for this app, and
    # no moveTo, which has a control of its own with the states the catalogue names.
    _, _, catalogue = request(base + "/v1/event-types", "GET")
    wanted = sorted(e["type"] for e in catalogue["eventTypes"]
                    if e["scope"] in ("app", "device") and e["type"] != "moveTo")
    offered = lambda d: sorted(d.execute_script(
        "return [...document.querySelectorAll('#event-buttons button')].map(b => b.dataset.event)"))
    check("the event buttons are the catalogue's app and device events but moveTo (GET /v1/event-types)",
          wait(driver, lambda d: offered(d) == wanted), (offered(driver), wanted))
    move_to = next(e for e in catalogue["eventTypes"] if e["type"] == "moveTo")
    states = driver.execute_script("return [...document.querySelectorAll('#move-state option')].map(o => o.value)")
    check("... and the moveTo control offers the states the catalogue names",
          driver.find_element(By.ID, "move-form").is_displayed() and states == move_to["fields"][0]["options"], states)

    press(driver, "launch", {})
    check("Launch: the badge says active",
          wait(driver, lambda d: badge_state(d, "#app-state") == "active"), badge_state(driver, "#app-state"))
    # Home, from the keyboard: focus the button and press Enter.
    act(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#event-buttons button[data-event='homeButton']")
        .send_keys(Keys.ENTER))
    check("Home (pressed with the keyboard): the badge says suspended",
          wait(driver, lambda d: badge_state(d, "#app-state") == "suspended"),
          badge_state(driver, "#app-state"))
    check("... in the list of apps too",
          wait(driver, lambda d: badge_state(d, "button[data-app='mail'] .badge") == "suspended"))

    _, _, callbacks = request(base + "/v1/apps/mail/callbacks", "GET")
    expected = [(item["seq"], item["selector"]) for item in callbacks["items"]]
    check("the API lists the callbacks of launch and Home",
          [s for _, s in expected] == ["application:willFinishLaunchingWithOptions:",
                                       "application:didFinishLaunchingWithOptions:", "applicationDidBecomeActive:",
                                       "applicationWillResignActive:", "applicationDidEnterBackground:"], expected)
    listed = wait(driver, lambda d: listed_callbacks(d) == expected and listed_callbacks(d))
    check("the timeline lists the same callbacks in the same order", listed, listed_callbacks(driver))
    drawn = drawn_callbacks(driver)
    check("... and draws one mark per callback, in seq order", drawn == [seq for seq, _ in expected], drawn)
    kinds = set(driver.execute_script(
        "return [...document.querySelectorAll('#timeline-chart [data-kind]')].map(mark => mark.dataset.kind)"))
    check("... with notifications and state changes beside them", {"callback", "notification", "state"} <= kinds,
          kinds)
    check("the page fits a 1366×768 screen without sideways scrolling",
          driver.execute_script("return document.documentElement.scrollWidth") <= 1366,
          driver.execute_script("return document.documentElement.scrollWidth"))
    screenshot(driver, "app-timeline")

    labels_scenario(driver)

    # An event the daemon would refuse now: its button says why, and pressing it sends nothing.
    state = wait(driver, lambda d: (button_state(d, "interruptionEnded") or [None])[0] == "true"
                 and button_state(d, "interruptionEnded"))
    check("an event not possible now has its button disabled, saying why in its title",
          state and "no interruption is in progress" in state[1], button_state(driver, "interruptionEnded"))
    act(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#event-buttons button[data-event='interruptionEnded']").click())
    said = wait(driver, lambda d: "not possible now" in text_of(d, "answer") and text_of(d, "answer"))
    check("... pressing it says why on the answer line, and shows no error", said and error_text(driver) == "",
          (text_of(driver, "answer"), error_text(driver)))
    # A refused event: a readable error from the problem document (a move to active on a locked device).
    _, _, mail = request(base + "/v1/apps/mail", "GET")
    device = mail["device"]
    request(base + f"/v1/devices/{device}/events", "POST", {"type": "lock"})
    Select(driver.find_element(By.ID, "move-state")).select_by_value("active")
    driver.find_element(By.ID, "move-send").click()
    shown = wait(driver, lambda d: error_text(d))
    check("a refused event shows the problem: title, status, code and detail",
          shown and "409" in shown and "invalid-transition" in shown and "suspended" in shown
          and "null" not in shown and "undefined" not in shown, shown)
    check("... in an alert that screen readers announce",
          driver.find_element(By.ID, "error").get_attribute("role") == "alert")
    screenshot(driver, "error")
    request(base + f"/v1/devices/{device}/events", "POST", {"type": "unlock"})

    # The device's facts follow it: a call the user answered shows until it hangs up.
    request(base + f"/v1/devices/{device}/events", "POST",
            [{"type": "interruptionBegan", "kind": "call"}, {"type": "interruptionEnded", "accepted": True}])
    facts = f"section[data-device='{device}'] .facts"
    on_call = wait(driver, lambda d: "on a call" in d.find_element(By.CSS_SELECTOR, facts).text
                   and d.find_element(By.CSS_SELECTOR, facts).text)
    check("a device on a call says so beside its name", on_call, on_call)
    request(base + f"/v1/devices/{device}/events", "POST", {"type": "callEnded"})
    check("... and stops saying it when the call ends",
          wait(driver, lambda d: "on a call" not in d.find_element(By.CSS_SELECTOR, facts).text))
    request(base + f"/v1/devices/{device}/events", "POST", {"type": "appSwitcherOpened"})
    check("an open app switcher shows beside the device's name too",
          wait(driver, lambda d: "app switcher open" in d.find_element(By.CSS_SELECTOR, facts).text))
    request(base + f"/v1/devices/{device}/events", "POST", {"type": "appSwitcherClosed"})

    # An app's facts: the state the system preserved for it (LIFECYCLE §4).
    request(base + "/v1/apps", "POST", {"id": "keep", "device": device, "bundleId": "com.example.keep",
                                        "restorableState": {"screen": "note-42"}})
    request(base + "/v1/apps/keep/events", "POST", [{"type": "launch"}, {"type": "homeButton"}])
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "button[data-app='keep']"))[0].click()
    preserved = wait(driver, lambda d: "state preserved" in d.find_element(By.ID, "app-summary").text
                     and d.find_element(By.ID, "app-summary").text)
    check("an app's preserved state shows among its facts", preserved, preserved)

    # Every form control has a label, and badges are readable.
    unlabelled = driver.execute_script("""
        return [...document.querySelectorAll('input, select, button')]
          .filter(e => e.offsetParent !== null)
          .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.textContent.trim())
          .map(e => e.id || e.name || e.outerHTML.slice(0, 60));""")
    check("every visible control has a label", unlabelled == [], unlabelled)
    low = driver.execute_script("""
        const lum = c => { const [r, g, b] = c.match(/\\d+/g).slice(0, 3).map(v => v / 255)
            .map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
          return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
        return [...document.querySelectorAll('.badge, .error, .help, .summary, button')]
          .filter(e => e.offsetParent !== null).map(e => {
            const s = getComputedStyle(e); let bg = s.backgroundColor, p = e;
            while (bg === 'rgba(0, 0, 0, 0)' && p.parentElement) { p = p.parentElement; bg = getComputedStyle(p).backgroundColor; }
            const [a, b] = [lum(s.color), lum(bg)];
            return [e.className || e.tagName, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)]; })
          .filter(([, ratio]) => ratio < 4.5);""")
    check("text contrast is at least 4.5:1 (badges, buttons, errors, help)", low == [], low)
    driver.find_element(By.TAG_NAME, "body").click()
    driver.switch_to.active_element.send_keys(Keys.TAB)
    outline = driver.execute_script("return getComputedStyle(document.activeElement).outlineStyle")
    check("the keyboard focus is visible", outline not in ("none", ""), outline)

    # A link whose fragment names no namespace but a path ("../reset?") opens default and says so; pressing
    # Create then makes an app there, and POST /v1/reset is never sent (every app would be gone).
    first = driver.current_window_handle
    driver.switch_to.new_window("window")
    driver.get(base + "/#ns=..%2Freset%3F")
    shown = wait(driver, lambda d: "not a namespace name" in error_text(d) and error_text(d))
    check("a link naming a path instead of a namespace opens default and says why", shown, error_text(driver))
    driver.find_element(By.ID, "new-app-bundle").clear()
    driver.find_element(By.ID, "new-app-bundle").send_keys("com.example.link")
    driver.find_element(By.ID, "new-app-id").send_keys("from-link")
    driver.find_element(By.ID, "create-app").click()
    wait(driver, lambda d: request(base + "/v1/apps/from-link", "GET")[0] == 200)
    check("... and Create makes the app in default, resetting nothing",
          request(base + "/v1/apps/from-link", "GET")[0] == 200 and request(base + "/v1/apps/mail", "GET")[0] == 200)
    request(base + "/v1/apps/from-link", "DELETE")
    driver.close()
    driver.switch_to.window(first)

    # A second window on the same namespace follows changes made elsewhere, without a reload.
    first = driver.current_window_handle
    driver.switch_to.new_window("window")
    driver.get(base + "/#ns=default&app=mail")
    check("a second window opens the same app",
          wait(driver, lambda d: badge_state(d, "#app-state") == "suspended"))
    driver.execute_script("window.notReloaded = true")
    act(driver, lambda d: d.find_element(By.CSS_SELECTOR, "button[data-app='mail']").send_keys(Keys.SHIFT))
    status, _, _ = request(base + "/v1/apps/mail/events", "POST", {"type": "activate"})
    check("an event posted with a plain HTTP request", status == 200, status)
    check("... shows in the second window: the badge says active",
          wait(driver, lambda d: badge_state(d, "#app-state") == "active"),
          badge_state(driver, "#app-state"))
    check("... and its timeline gets the new callbacks",
          wait(driver, lambda d: any(s == "applicationDidBecomeActive:" and seq > expected[-1][0]
                                     for seq, s in listed_callbacks(d))))
    request(base + "/v1/apps", "POST", {"id": "weather", "bundleId": "com.example.weather"})
    check("... an app made elsewhere appears in the list",
          wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "button[data-app='weather']")))
    check("... all without a reload", driver.execute_script("return window.notReloaded === true"))
    check("... and the app that had the keyboard focus keeps it as the list changes",
          driver.execute_script("return document.activeElement.dataset.app") == "mail",
          driver.execute_script("return document.activeElement.outerHTML.slice(0, 80)"))
    screenshot(driver, "second-window")

    Select(driver.find_element(By.ID, "state-filter")).select_by_value("notRunning")
    shown_apps = driver.execute_script("return [...document.querySelectorAll('button[data-app]')].map(b => b.dataset.app)")
    check("the state filter keeps only the apps in that state", shown_apps == ["weather"], shown_apps)
    screenshot(driver, "filtered")
    driver.close()
    driver.switch_to.window(first)

    # A namespace that does not exist yet: a friendly empty state, no error, no storm of requests.
    driver.execute_script("performance.clearResourceTimings()")
    field = driver.find_element(By.ID, "namespace")
    field.clear()
    field.send_keys("nowhere", Keys.ENTER)
    check("a namespace that does not exist yet shows an empty state",
          wait(driver, lambda d: "nowhere" in text_of(d, "devices")),
          text_of(driver, "devices"))
    polls = wait(driver, lambda d: d.execute_script(
        "return performance.getEntriesByType('resource').filter(e => e.name.includes('/devices')).length") >= 3
        and d.execute_script("return performance.getEntriesByType('resource').map(e => e.name)"))
    # Only this namespace's stream counts: the default namespace's stream, ended by the switch, is listed
    # when it ends, which can be after the timings were cleared.
    changes = [name for name in polls or [] if name.endswith("/namespaces/nowhere/changes")]
    check("... polls quietly: no error shown", error_text(driver) == "", error_text(driver))
    check("... and asks for the changes stream once, not on every poll", len(changes) <= 1, changes)
    screenshot(driver, "empty-namespace")
    driver.find_element(By.ID, "reset-namespace").click()
    check("Reset namespace on one that does not exist says there is nothing to reset, and makes nothing",
          wait(driver, lambda d: "nothing to reset" in text_of(d, "namespace-answer"))
          and not driver.execute_script("return document.getElementById('confirm').open")
          and request(base + "/v1/namespaces/nowhere", "GET")[0] == 404, text_of(driver, "namespace-answer"))
    # Creating an app there makes the namespace on a daemon that has them; one without them says so.
    driver.find_element(By.ID, "new-app-id").send_keys("first")
    driver.find_element(By.ID, "create-app").click()
    outcome = wait(driver, lambda d: ("created" if text_of(d, "app-heading").startswith("App first") else None)
                   or ("refused" if error_text(d) else None))
    check("... creating an app there either creates the namespace or says the daemon has none",
          outcome == "created" or (outcome == "refused" and "namespace default" in error_text(driver)),
          f"{outcome}: {error_text(driver)}")


def navigation_scenario(driver, base):
    """Long callback lists show every seq in full, a timeline mark is named by a click, and the fragment
    (edited, Back, Forward) chooses the app shown."""
    ns = base + "/v1/namespaces/nav"
    for app in ["one", "two"]:
        request(ns + "/apps", "POST", {"id": app, "bundleId": f"com.example.{app}"})
    for _ in range(30):
        request(ns + "/apps/one/events", "POST", [{"type": "launch"}, {"type": "homeButton"}])
    driver.get(base + "/#ns=nav&app=one")
    check("a link to an app opens it", wait(driver, lambda d: text_of(d, "app-heading").startswith("App one")),
          text_of(driver, "app-heading"))
    shown = wait(driver, lambda d: (pairs := d.execute_script("""return [...document.querySelectorAll('#callbacks li[data-seq]')]
        .map(li => [Number(li.dataset.seq), li.querySelector('.seq')?.textContent ?? ''])""")) and len(pairs) > 100 and pairs)
    check("the callbacks list shows each entry's seq in full, past 99 too",
          bool(shown) and all(str(seq) == text for seq, text in shown) and shown[-1][0] > 99,
          (shown or [])[-3:])
    act(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#timeline-chart [data-kind='callback']")[-1].click())
    detail = text_of(driver, "timeline-detail")
    check("a timeline mark clicked is named below the chart, without hovering", "seq" in detail, detail)
    labels = mark_labels(driver)
    callbacks = len(drawn_callbacks(driver))
    check("a long timeline labels only the marks that have room: none over another, fewer than the callbacks",
          labels and overlapping(labels) == [] and len(labels) < callbacks, (len(labels or []), callbacks))
    act(driver, lambda d: d.find_element(By.CSS_SELECTOR, "button[data-app='two']").click())
    check("another app chosen from the list is shown",
          wait(driver, lambda d: text_of(d, "app-heading").startswith("App two")), text_of(driver, "app-heading"))
    driver.back()
    check("Back shows the app shown before", wait(driver, lambda d: text_of(d, "app-heading").startswith("App one")),
          text_of(driver, "app-heading"))
    driver.forward()
    check("Forward shows it again", wait(driver, lambda d: text_of(d, "app-heading").startswith("App two")),
          text_of(driver, "app-heading"))
    driver.execute_script("location.hash = '#ns=nav&app=one'")
    check("editing the fragment's app in the same tab shows that app",
          wait(driver, lambda d: text_of(d, "app-heading").startswith("App one")), text_of(driver, "app-heading"))
    screenshot(driver, "navigation")


def mark_labels(driver):
    """The labels drawn under the marks: [text, x, y, width, height] each, as the browser laid them out."""
    return driver.execute_script("""return [...document.querySelectorAll('#timeline-chart .mark-label')].map(t => {
        const b = t.getBBox(); return [t.textContent, b.x, b.y, b.width, b.height]; })""")


def overlapping(labels):
    """The pairs of labels whose boxes overlap."""
    return [(a[0], b[0]) for i, a in enumerate(labels) for b in labels[i + 1:]
            if a[1] < b[1] + b[3] and b[1] < a[1] + a[3] and a[2] < b[2] + b[4] and b[2] < a[2] + a[4]]


def labels_scenario(driver):
    """The selected app's marks labelled in words, the mark hovered and the one selected named in a callout."""
    labels = wait(driver, lambda d: (found := mark_labels(d)) and len(found) >= 4 and found)
    texts = [t for t, *_ in labels or []]
    check("the timeline labels callbacks and notifications in words, with their time",
          "willFinishLaunching t=0" in texts and any(t.startswith("◇ DidEnterBackground") for t in texts)
          and all(re.fullmatch(r"(◇ )?[A-Za-z]+ t=[\d.]+", t) for t in texts), texts)
    check("... visibly, and none over another", all(w > 0 and h > 0 for *_, w, h in labels or [])
          and overlapping(labels or []) == [], overlapping(labels or []))
    marks = driver.find_elements(By.CSS_SELECTOR, "#timeline-chart [data-kind='callback']")
    ActionChains(driver).move_to_element(marks[0]).perform()
    hovered = wait(driver, lambda d: d.execute_script(
        "return document.querySelector('#timeline-chart .callout.hover text')?.textContent ?? null"))
    check("hovering a mark names it in a callout", hovered and "application:willFinishLaunchingWithOptions:" in hovered,
          hovered)
    act(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#timeline-chart [data-kind='callback']")[-1].click())
    selected = wait(driver, lambda d: d.execute_script(
        "return document.querySelector('#timeline-chart .callout.selected text')?.textContent ?? null"))
    check("a mark clicked stays named in a callout, ringed, and under the chart",
          selected and "applicationDidEnterBackground:" in selected
          and driver.find_elements(By.CSS_SELECTOR, "#timeline-chart .selected-ring")
          and "applicationDidEnterBackground:" in text_of(driver, "timeline-detail"), selected)
    ActionChains(driver).move_to_element(driver.find_element(By.ID, "timeline-heading")).perform()
    driver.find_element(By.CSS_SELECTOR, "#timeline-chart .chart-scroll").send_keys(Keys.ARROW_LEFT)
    stepped = wait(driver, lambda d: "applicationDidEnterBackground:" not in text_of(d, "timeline-detail")
                   and text_of(d, "timeline-detail"))
    check("... and the left arrow key, on the chart, selects the mark before it", stepped and "seq" in stepped, stepped)
    driver.find_element(By.CSS_SELECTOR, "#timeline-chart .chart-scroll").send_keys(Keys.ESCAPE)
    check("... Escape selects none", wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "#timeline-chart .callout")))


def possible_events_scenario(driver, base):
    """The event buttons follow GET /v1/apps/{id}/events: disabled with the reason while the daemon would refuse
    the event, enabled once a change made anywhere makes it possible."""
    ns = base + "/v1/namespaces/gates"
    request(ns + "/apps", "POST", {"id": "gate", "bundleId": "com.example.gate"})
    driver.get(base + "/#ns=gates&app=gate")
    wait(driver, lambda d: text_of(d, "app-heading").startswith("App gate"))
    state = wait(driver, lambda d: (button_state(d, "unlock") or [None])[0] == "true" and button_state(d, "unlock"))
    check("Unlock is disabled while the device is not locked, saying so",
          state and "the device is not locked" in state[1], button_state(driver, "unlock"))
    state = button_state(driver, "endBackgroundTask")
    check("... End background task too, while the app has no task", state and state[0] == "true" and "task" in state[1],
          state)
    check("... and Launch is enabled", button_state(driver, "launch")[0] == "false", button_state(driver, "launch"))
    _, _, gate = request(ns + "/apps/gate", "GET")
    request(f"{ns}/devices/{gate['device']}/events", "POST", {"type": "lock"})
    check("once the device is locked (by a plain HTTP request), Unlock is enabled",
          wait(driver, lambda d: (button_state(d, "unlock") or [None])[0] == "false"), button_state(driver, "unlock"))
    screenshot(driver, "possible-events")
    press(driver, "unlock")
    check("... pressed, it unlocks the device and is disabled again",
          wait(driver, lambda d: (button_state(d, "unlock") or [None])[0] == "true"), button_state(driver, "unlock"))
    press(driver, "launch", {})
    press(driver, "beginBackgroundTask", {})
    check("a background task begun from the page enables End background task",
          wait(driver, lambda d: (button_state(d, "endBackgroundTask") or [None])[0] == "false"),
          button_state(driver, "endBackgroundTask"))


def confirm_dialog(driver):
    """The page's confirmation dialog once it is open: [title, text]."""
    return wait(driver, lambda d: d.execute_script("""const dialog = document.getElementById('confirm');
        return dialog.open ? [dialog.querySelector('#confirm-title').textContent,
                              dialog.querySelector('#confirm-text').textContent] : null"""))


def deletion_scenario(driver, base):
    """Delete app, Delete (a device) and Reset namespace, each after a confirmation; Cancel and Escape keep all."""
    ns = base + "/v1/namespaces/cleanup"
    request(ns + "/devices", "POST", {"id": "dx", "iosVersion": "17.0"})
    for app, device in [("x1", "dx"), ("x2", "dx"), ("y1", None)]:
        request(ns + "/apps", "POST", {"id": app, "bundleId": f"com.example.{app}", **({"device": device} if device else {})})
    driver.get(base + "/#ns=cleanup&app=x1")
    wait(driver, lambda d: text_of(d, "app-heading").startswith("App x1"))

    driver.find_element(By.ID, "delete-app").click()
    asked = confirm_dialog(driver)
    check("Delete app asks first, naming the app", asked and "x1" in asked[0], asked)
    driver.find_element(By.ID, "confirm-cancel").click()
    # The dialog closes at once; its close event, which says what was chosen, follows: wait for what it says.
    check("... Cancel keeps it", wait(driver, lambda d: "cancelled" in text_of(d, "answer"))
          and not driver.execute_script("return document.getElementById('confirm').open")
          and request(ns + "/apps/x1", "GET")[0] == 200, text_of(driver, "answer"))
    driver.find_element(By.ID, "delete-app").click()
    confirm_dialog(driver)
    screenshot(driver, "confirm-delete")
    driver.find_element(By.ID, "confirm-yes").click()
    check("... confirmed, it deletes the app (the API answers 404 for it)",
          wait(driver, lambda d: request(ns + "/apps/x1", "GET")[0] == 404))
    check("... and the page lets it go",
          wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "button[data-app='x1']")
               and text_of(d, "app-heading") == "No app selected"), text_of(driver, "app-heading"))

    act(driver, lambda d: d.find_element(By.CSS_SELECTOR, "button[data-delete-device='dx']").click())
    asked = confirm_dialog(driver)
    check("Delete of a device asks first, naming the device and its apps", asked and "dx" in asked[0]
          and "x2" in asked[1], asked)
    driver.find_element(By.ID, "confirm-yes").click()
    check("... confirmed, it deletes the device and its apps",
          wait(driver, lambda d: request(ns + "/devices/dx", "GET")[0] == 404 and request(ns + "/apps/x2", "GET")[0] == 404))
    check("... and the list no longer shows them",
          wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "section[data-device='dx']")))

    driver.find_element(By.ID, "reset-namespace").click()
    asked = confirm_dialog(driver)
    check("Reset namespace asks first, naming the namespace", asked and "cleanup" in asked[0], asked)
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    check("... Escape keeps everything",
          wait(driver, lambda d: "cancelled" in text_of(d, "namespace-answer"))
          and not driver.execute_script("return document.getElementById('confirm').open")
          and request(ns + "/apps/y1", "GET")[0] == 200, text_of(driver, "namespace-answer"))
    driver.find_element(By.ID, "reset-namespace").click()
    confirm_dialog(driver)
    driver.find_element(By.ID, "confirm-yes").click()
    check("... confirmed, it empties the namespace",
          wait(driver, lambda d: request(ns + "/apps", "GET")[2]["items"] == [] and request(ns + "/devices", "GET")[2]["items"] == []))
    check("... and that namespace only", request(base + "/v1/apps/mail", "GET")[0] == 200)
    check("... and the page says it is empty",
          wait(driver, lambda d: "has no device or app" in text_of(d, "devices")), text_of(driver, "devices"))


def open_namespace(driver, name):
    """Opens a namespace with the page's namespace form."""
    field = driver.find_element(By.ID, "namespace")
    field.clear()
    field.send_keys(name, Keys.ENTER)


def downloaded(folder, name):
    """The JSON of the file `name` once chromium has finished writing it to `folder`; None until then."""
    path = os.path.join(folder, name)
    if not os.path.exists(path) or any(f.endswith(".crdownload") for f in os.listdir(folder)):
        return None
    try:
        with open(path) as f:
            return json.load(f)
    except ValueError:
        return None


def raw(url):
    """The body of a GET, as the daemon sent it."""
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.read()


def selectors(base, namespace, app):
    _, _, callbacks = request(f"{base}/v1/namespaces/{namespace}/apps/{app}/callbacks?limit=1000", "GET")
    return [item["selector"] for item in callbacks["items"]]


def scenario_files_scenario(driver, base, binary):
    """An app made and driven from the page (its moveTo control too), exported to a file with Export scenario,
    and that file imported into another namespace with Import scenario: the same callbacks there. A second
    import of it, an import whose expectation fails, and an export the daemon refuses show their problems."""
    downloads = tempfile.mkdtemp(prefix="lifecycled-downloads-")
    try:
        driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
        open_namespace(driver, "export-from")
        wait(driver, lambda d: "export-from" in text_of(d, "devices"))
        driver.find_element(By.ID, "new-app-bundle").clear()
        driver.find_element(By.ID, "new-app-bundle").send_keys("com.example.trip")
        driver.find_element(By.ID, "new-app-id").clear()
        driver.find_element(By.ID, "new-app-id").send_keys("trip")
        if driver.find_element(By.ID, "new-app-scenes").is_selected():
            driver.find_element(By.ID, "new-app-scenes").click()
        driver.find_element(By.ID, "create-app").click()
        check("an app made from the page in namespace export-from",
              wait(driver, lambda d: text_of(d, "app-heading").startswith("App trip")), text_of(driver, "app-heading"))
        press(driver, "launch", {})
        wait(driver, lambda d: badge_state(d, "#app-state") == "active")
        check("... moveTo is not among the event buttons",
              not driver.find_elements(By.CSS_SELECTOR, "#event-buttons button[data-event='moveTo']"))

        Select(driver.find_element(By.ID, "move-state")).select_by_value("background")
        driver.find_element(By.ID, "move-send").click()
        check("Move to background: the badge says background",
              wait(driver, lambda d: badge_state(d, "#app-state") == "background"), badge_state(driver, "#app-state"))
        _, _, trip = request(base + "/v1/namespaces/export-from/apps/trip", "GET")
        check("... the API says so, with the background task moveTo begins",
              trip["state"] == "background" and [t["name"] for t in trip["backgroundTasks"]] == ["moveTo"], trip)
        check("... and the answer line names the move",
              wait(driver, lambda d: "Move to background: " in text_of(d, "answer")), text_of(driver, "answer"))
        # A move the daemon refuses (to active on a locked device) is shown as every refused event is.
        device = trip["device"]
        request(f"{base}/v1/namespaces/export-from/devices/{device}/events", "POST", {"type": "lock"})
        Select(driver.find_element(By.ID, "move-state")).select_by_value("active")
        driver.find_element(By.ID, "move-send").click()
        shown = wait(driver, lambda d: error_text(d))
        check("a move the daemon refuses shows the problem (409 invalid-transition)",
              shown and "409" in shown and "invalid-transition" in shown, shown)
        check("... and the answer line says it was refused",
              "Move to active: refused" in text_of(driver, "answer"), text_of(driver, "answer"))
        request(f"{base}/v1/namespaces/export-from/devices/{device}/events", "POST", {"type": "unlock"})
        Select(driver.find_element(By.ID, "move-state")).select_by_value("suspended")
        driver.find_element(By.ID, "move-send").click()
        check("Move to suspended: the badge says suspended, the error is gone",
              wait(driver, lambda d: badge_state(d, "#app-state") == "suspended" and error_text(d) == ""),
              (badge_state(driver, "#app-state"), error_text(driver)))
        check("... in the API too",
              request(base + "/v1/namespaces/export-from/apps/trip", "GET")[2]["state"] == "suspended")

        # Export scenario: the file the daemon names, holding the app's creation and its events.
        driver.find_element(By.ID, "export-app").click()
        scenario = wait(driver, lambda d: downloaded(downloads, "trip.scenario.json"))
        check("Export scenario downloads trip.scenario.json", scenario is not None, os.listdir(downloads))
        steps = (scenario or {}).get("steps", [])
        made = [s for s in steps if s["do"].endswith("/apps") and s.get("body", {}).get("id") == "trip"]
        sent = [e for s in steps if s["do"].endswith("/apps/trip/events")
                for e in (s["body"] if isinstance(s["body"], list) else [s["body"]])]
        check("... its steps create the app and send its events, the moves included",
              len(made) == 1 and [e["type"] for e in sent] == ["launch", "moveTo", "moveTo"]
              and [e.get("state") for e in sent[1:]] == ["background", "suspended"], steps)
        check("... and the page says what it saved",
              "Exported trip.scenario.json" in text_of(driver, "answer"), text_of(driver, "answer"))
        driver.find_element(By.ID, "export-namespace").click()
        whole = wait(driver, lambda d: downloaded(downloads, "export-from.scenario.json"))
        check("Export namespace downloads export-from.scenario.json, with the app in it",
              whole is not None and any(s.get("body", {}).get("id") == "trip" for s in whole["steps"]),
              os.listdir(downloads))

        # Import scenario into another namespace: the same app, the same callbacks.
        open_namespace(driver, "export-to")
        wait(driver, lambda d: "export-to" in text_of(d, "devices"))
        path = os.path.join(downloads, "trip.scenario.json")
        driver.find_element(By.ID, "import-file").send_keys(path)
        message = wait(driver, lambda d: "Imported" in text_of(d, "scenario-answer") and text_of(d, "scenario-answer"))
        check("Import scenario into export-to says what it did",
              message and re.match(r"Imported \d+ steps: 1 device, 1 app$", message), text_of(driver, "scenario-answer"))
        check("... the app shows in the list, suspended",
              wait(driver, lambda d: badge_state(d, "button[data-app='trip'] .badge") == "suspended"))
        original, imported = selectors(base, "export-from", "trip"), selectors(base, "export-to", "trip")
        check("... with the same callbacks as the app exported", imported == original and len(original) >= 5,
              (imported, original))
        timelines = [raw(f"{base}/v1/namespaces/{space}/devices/{device}/timeline?limit=1000")
                     for space in ("export-from", "export-to")]
        check("... and its device's timeline the same, byte for byte", timelines[0] == timelines[1] and timelines[0],
              [len(t or b"") for t in timelines])
        checked = subprocess.run([binary, "check", path], capture_output=True, text=True)
        check("lifecycled check passes the file the page exported", checked.returncode == 0,
              (checked.stdout + checked.stderr)[-400:])
        screenshot(driver, "imported")

        # The same file again: its device exists, so the import fails, and says so.
        driver.find_element(By.ID, "import-file").send_keys(path)
        shown = wait(driver, lambda d: "import-failed" in error_text(d) and error_text(d))
        check("importing it twice shows the problem: 409 import-failed, its step and why",
              shown and "409" in shown and "step: 1" in shown and "already exists" in shown, error_text(driver))
        check("... and says the import was refused",
              "refused" in text_of(driver, "scenario-answer"), text_of(driver, "scenario-answer"))
        screenshot(driver, "import-failed")

        # An expectation that fails shows where the lists part; without checking expectations it imports.
        scenario["steps"][-1]["expect"][2] = "applicationDidReceiveMemoryWarning:"
        changed = os.path.join(downloads, "changed.scenario.json")
        with open(changed, "w") as f:
            json.dump(scenario, f)
        open_namespace(driver, "export-alt")
        wait(driver, lambda d: "export-alt" in text_of(d, "devices"))
        driver.find_element(By.ID, "import-file").send_keys(changed)
        shown = wait(driver, lambda d: "lists differ" in error_text(d) and error_text(d))
        check("an import whose callbacks differ shows where the lists part",
              shown and 'lists differ at index 2: expected "applicationDidReceiveMemoryWarning:"' in shown, shown)
        driver.find_element(By.ID, "import-ignore").click()
        driver.find_element(By.ID, "import-file").send_keys(changed)
        message = wait(driver, lambda d: "Imported" in text_of(d, "scenario-answer") and text_of(d, "scenario-answer"))
        check("... and imports when its expectations are not checked (expectations=ignore)",
              message and "expectations not checked" in message and error_text(driver) == ""
              and selectors(base, "export-alt", "trip") == original, (message, error_text(driver)))
        driver.find_element(By.ID, "import-ignore").click()

        # A daemon that records no inputs cannot export: the 409 not-exportable is shown, naming the device.
        work = tempfile.mkdtemp(prefix="lifecycled-dashboard-")
        daemon = Daemon(binary, "--in-memory", "--recording-bytes", "0", log=os.path.join(work, "log")).start()
        other = daemon.url
        try:
            _, _, app = request(other + "/v1/apps", "POST", {"id": "kept", "bundleId": "com.example.kept"})
            driver.get(other + "/#ns=default&app=kept")
            wait(driver, lambda d: text_of(d, "app-heading").startswith("App kept"))
            driver.find_element(By.ID, "export-app").click()
            shown = wait(driver, lambda d: "not-exportable" in error_text(d) and error_text(d))
            check("an export the daemon refuses shows the problem: 409 not-exportable and the device",
                  shown and "409" in shown and f"devices: {app['device']}" in shown, error_text(driver))
        finally:
            driver.get(base + "/")  # before the daemon stops, so the page's requests do not fail meanwhile
            daemon.stop()
            shutil.rmtree(work, ignore_errors=True)
    finally:
        driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "default"})
        shutil.rmtree(downloads, ignore_errors=True)


def comparisons_scenario(driver, base):
    """Every version side by side and coverage, from the page, against what the API answers for them."""
    ns = f"{base}/v1/namespaces/cmp"
    request(f"{ns}/devices", "POST", {"id": "d1", "iosVersion": "9.0"})
    request(f"{ns}/apps", "POST", {"id": "a1", "device": "d1", "bundleId": "com.example.cmp"})
    for event in [{"type": "launch"}, {"type": "homeButton"}]:
        request(f"{ns}/apps/a1/events", "POST", event)
    # The first such read of the process derives the model's bands: asked here, so the page's waits are short.
    status, _, coverage = request(f"{ns}/coverage", "GET", timeout=300)
    check("GET .../coverage answers 200", status == 200, status)
    listed = "4.0,9.0,17.0"
    status, _, compared = request(f"{ns}/apps/a1/versions?versions={listed}", "GET", timeout=120)
    check("GET .../apps/a1/versions answers 200", status == 200, status)
    expected = compared["apps"][0]
    check("... and iOS 4.0 differs from 9.0 at the first callback (willFinishLaunching came with iOS 6)",
          expected["firstDifference"] == 0, expected)

    open_namespace(driver, "cmp")
    act(driver, lambda d: d.find_element(By.CSS_SELECTOR, "button[data-app='a1']").click())
    wait(driver, lambda d: text_of(d, "app-heading").startswith("App a1"))
    field = driver.find_element(By.ID, "versions-list")
    field.clear()
    field.send_keys(listed, Keys.ENTER)
    table = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#versions table.versions"))
    check("Compare shows the callbacks side by side", table)
    heads = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "#versions thead th")]
    check("... a column per version, in the order typed", heads == ["#", "iOS 4.0", "iOS 9.0", "iOS 17.0"], heads)
    rows = driver.find_elements(By.CSS_SELECTOR, "#versions tbody tr")
    shown = [[td.text for td in row.find_elements(By.TAG_NAME, "td")] for row in rows]
    lists = [expected["callbacks"][v] for v in listed.split(",")]
    want = [[lst[i] if i < len(lst) else "—" for lst in lists] for i in range(max(map(len, lists)))]
    check("... each cell the callback the API gives there", shown == want, (shown, want))
    differs = driver.find_elements(By.CSS_SELECTOR, "#versions tbody tr.differs")
    check("... one row marked, the first difference's",
          len(differs) == 1 and differs[0].get_attribute("data-row") == "0" and differs[0].text.startswith("≠ 1"),
          [row.get_attribute("data-row") for row in differs])
    background = differs[0].find_element(By.TAG_NAME, "td").value_of_css_property("background-color") if differs else ""
    plain = rows[1].find_element(By.TAG_NAME, "td").value_of_css_property("background-color") if len(rows) > 1 else ""
    check("... highlighted: its background is not the other rows'", background and background != plain,
          (background, plain))
    check("... and the verdict names it", text_of(driver, "versions").startswith("Callback 1 differs"),
          text_of(driver, "versions"))
    screenshot(driver, "versions", "versions")

    same = "17.0,17.1"
    _, _, alike = request(f"{ns}/apps/a1/versions?versions={same}", "GET", timeout=120)
    field.clear()
    field.send_keys(same, Keys.ENTER)
    wait(driver, lambda d: "iOS 17.1" in text_of(d, "versions"))
    marked = driver.find_elements(By.CSS_SELECTOR, "#versions tbody tr.differs")
    if alike["apps"][0]["firstDifference"] is None:
        check("versions alike: no row marked, and the verdict says so",
              not marked and text_of(driver, "versions").startswith("The callbacks are the same"), text_of(driver, "versions"))
    else:
        check("versions apart: the row the API names is marked",
              [row.get_attribute("data-row") for row in marked] == [str(alike["apps"][0]["firstDifference"])])

    field.clear()
    field.send_keys("4.0,banana", Keys.ENTER)
    shown = wait(driver, lambda d: error_text(d))
    check("a bad list of versions shows the problem, naming the item and what is allowed",
          shown and "invalid-field" in shown and "banana" in shown and "9.0,13.0,17.0" in shown, shown)
    check("... and no table", not driver.find_elements(By.CSS_SELECTOR, "#versions table"))

    act(driver, lambda d: d.find_element(By.ID, "coverage-show").click())
    table = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#coverage table.coverage"))
    check("Show coverage draws a table", table)
    bands = [row.get_attribute("data-band") for row in driver.find_elements(By.CSS_SELECTOR, "#coverage tbody tr")]
    label = lambda band: f"{band['from']}-<{band['until']}" if band["until"] else f"{band['from']}+"
    check("... a row per band the apps ran on, as the API gives them", bands == [label(b) for b in coverage["bands"]],
          (bands, coverage["bands"]))
    cells = [td.text for td in driver.find_elements(By.CSS_SELECTOR, "#coverage tbody tr:first-child td")]
    first = coverage["bands"][0] if coverage["bands"] else {}
    want = [f"{first[k]['covered']} of {first[k]['total']} ({first[k]['covered'] * 100 // first[k]['total'] if first[k]['total'] else 100}%)"
            for k in ["states", "transitions", "events", "callbacks", "sceneStates"]] if first else []
    check("... each cell covered of total, as the API counts", cells == want, (cells, want))
    missing = text_of(driver, "coverage")
    check("... with what is not exercised listed",
          all(name in missing for name in first.get("callbacks", {}).get("missing", [])[:3]), missing[:300])
    screenshot(driver, "coverage", "coverage-panel")

    open_namespace(driver, "not-made-yet")
    wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "#coverage table"))
    act(driver, lambda d: d.find_element(By.ID, "coverage-show").click())
    shown = wait(driver, lambda d: "holds nothing yet" in text_of(d, "coverage"))
    check("coverage of a namespace not made yet is empty, with no error", shown and not error_text(driver),
          (text_of(driver, "coverage"), error_text(driver)))


def scene_scenario(driver, base):
    """A scene app made from the page: its scene session gets a lane of its own."""
    field = driver.find_element(By.ID, "namespace")
    field.clear()
    field.send_keys("default", Keys.ENTER)
    check("back in namespace default, its apps show again",
          wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "button[data-app='mail']")))
    driver.find_element(By.ID, "new-app-bundle").clear()
    driver.find_element(By.ID, "new-app-bundle").send_keys("com.example.notes")
    driver.find_element(By.ID, "new-app-id").clear()
    driver.find_element(By.ID, "new-app-id").send_keys("notes")
    driver.find_element(By.ID, "new-app-scenes").click()
    more = driver.find_element(By.ID, "new-app-more")
    more.send_keys("{not json")
    driver.find_element(By.ID, "create-app").click()
    shown = wait(driver, lambda d: error_text(d))
    check("more of the app that is not JSON is refused in the page", shown and "not JSON" in shown, shown)
    more.clear()
    more.send_keys('{"info": {"externalAccessoryProtocols": ["com.example.dock"]}, "delegate": {"actions": '
                   '{"sceneDidEnterBackground:": [{"do": "acquire", "resource": "bonjourService"}]}}}')
    driver.find_element(By.ID, "create-app").click()
    check("a scene app made from the page",
          wait(driver, lambda d: text_of(d, "app-heading").startswith("App notes")), text_of(driver, "app-heading"))
    _, _, notes = request(base + "/v1/apps/notes", "GET")
    check("... with the scene manifest and the JSON's info and delegate merged",
          notes["lifecycle"] == "scene" and notes["info"]["externalAccessoryProtocols"] == ["com.example.dock"]
          and notes["delegate"]["actions"]["sceneDidEnterBackground:"][0]["do"] == "acquire", notes)
    more.clear()
    press(driver, "launch", {})
    wait(driver, lambda d: badge_state(d, "#app-state") == "active")
    press(driver, "homeButton")
    wait(driver, lambda d: badge_state(d, "#app-state") == "suspended")
    press(driver, "advanceTime", {"seconds": "30"})
    wait(driver, lambda d: "Advance time: " in text_of(d, "answer"))
    press(driver, "activate", {})
    check("... launched, sent Home, 30 s later activated again",
          wait(driver, lambda d: badge_state(d, "#app-state") == "active"), badge_state(driver, "#app-state"))
    lanes = driver.execute_script(
        "return [...document.querySelectorAll('#timeline-chart .lane-label')].map(t => t.textContent.trim())")
    check("... has a lane for its scene session s1", "scene s1" in lanes, lanes)
    scene_marks = driver.execute_script("""return [...document.querySelectorAll("#timeline-chart [data-kind='sceneState']")]
        .length""")
    check("... with its scene state changes drawn", scene_marks >= 4, scene_marks)
    times = driver.execute_script(
        "return [...document.querySelectorAll('#timeline-chart .time-label')].map(t => t.textContent)")
    check("... over simulated time", "t=0" in times and "t=30" in times, times)
    screenshot(driver, "scene-app")


# The daemon has no `changes` stream yet on every branch: this script, run in the page before its own,
# answers the page's stream request with a stream the test writes to, as API.md describes the stream.
SCRIPTED_STREAM = """
const realFetch = window.fetch.bind(window);
window.scripted = { streams: 0, controller: null };
window.fetch = (input, init = {}) => {
  const accept = (init.headers && init.headers.Accept) || "";
  if (String(input).endsWith("/v1/changes") && accept === "text/event-stream") {
    window.scripted.streams += 1;
    const body = new ReadableStream({ start(controller) { window.scripted.controller = controller; } });
    return Promise.resolve(new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } }));
  }
  return realFetch(input, init);
};
window.scripted.send = (text) => window.scripted.controller.enqueue(new TextEncoder().encode(text));
window.scripted.end = () => window.scripted.controller.close();
// A device timeline stream: window.scripted.timeline.send(text), and the URLs asked for.
window.scripted.timeline = { urls: [], controller: null };
const timelineFetch = window.fetch;
window.fetch = (input, init = {}) => {
  const accept = (init.headers && init.headers.Accept) || "";
  if (String(input).includes("/timeline") && accept === "text/event-stream") {
    window.scripted.timeline.urls.push(String(input));
    const body = new ReadableStream({ start(controller) { window.scripted.timeline.controller = controller; } });
    return Promise.resolve(new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } }));
  }
  return timelineFetch(input, init);
};
window.scripted.timeline.send = (text) => window.scripted.timeline.controller.enqueue(new TextEncoder().encode(text));
window.scripted.timeline.end = () => window.scripted.timeline.controller.close();
"""


def stream_client_scenario(driver, base):
    """The page's reader of the `changes` stream: snapshot, app changes, deletions, comments, split chunks."""
    first = driver.current_window_handle
    driver.switch_to.new_window("window")
    added = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SCRIPTED_STREAM})
    try:
        driver.get(base + "/")
        check("with a changes stream, the page reads it instead of polling",
              wait(driver, lambda d: text_of(d, "live") == "live (stream)"), text_of(driver, "live"))
        app = {"id": "streamed", "device": "d9", "bundleId": "com.example.s", "iosVersion": "17.0",
               "state": "suspended", "stateSince": 0, "lifecycle": "appDelegate", "sessions": []}
        snapshot = json.dumps({"devices": [{"id": "d9", "iosVersion": "17.0", "time": 0}], "apps": [app]})
        # The snapshot arrives in two chunks, split inside its data line, after a comment.
        text = f": keep-alive\n\nevent: snapshot\ndata: {snapshot}\n\n"
        driver.execute_script("window.scripted.send(arguments[0])", text[:40])
        driver.execute_script("window.scripted.send(arguments[0])", text[40:])
        check("... its snapshot (sent in two pieces) fills the list",
              wait(driver, lambda d: badge_state(d, "button[data-app='streamed'] .badge") == "suspended"))
        changed = json.dumps({**app, "state": "active"})
        driver.execute_script("window.scripted.send(arguments[0])", f"id: 7\r\nevent: app\r\ndata: {changed}\r\n\r\n")
        check("... an app event changes its badge",
              wait(driver, lambda d: badge_state(d, "button[data-app='streamed'] .badge") == "active"))
        # The app's device timeline, from its stream: entries as they come, a resumption after `gone`.
        act(driver, lambda d: d.find_element(By.CSS_SELECTOR, "button[data-app='streamed']").click())
        wait(driver, lambda d: d.execute_script("return window.scripted.timeline.urls.length") == 1)
        entries = "".join(
            f"id: {seq}\nevent: entry\ndata: " + json.dumps({
                "seq": seq, "time": 0, "app": "streamed", "kind": "callback", "selector": selector,
                "state": "inactive", "args": {}, "duration": 0}) + "\n\n"
            for seq, selector in [(41, "application:willFinishLaunchingWithOptions:"),
                                  (42, "application:didFinishLaunchingWithOptions:")])
        driver.execute_script("window.scripted.timeline.send(arguments[0])", entries)
        check("... the device timeline stream's entries are listed in order",
              wait(driver, lambda d: [seq for seq, _ in listed_callbacks(d)] == [41, 42]), listed_callbacks(driver))
        driver.execute_script("window.scripted.timeline.send(arguments[0])", 'event: gone\ndata: {"oldestSeq": 60}\n\n')
        driver.execute_script("window.scripted.timeline.end()")
        urls = wait(driver, lambda d: len(d.execute_script("return window.scripted.timeline.urls")) == 2
                    and d.execute_script("return window.scripted.timeline.urls"))
        check("... after gone and the end of the stream, it resumes from the oldest entry held",
              urls and urls[1].endswith("/v1/devices/d9/timeline?after=59&limit=1000"), urls)
        driver.execute_script("window.scripted.send(arguments[0])",
                              'event: deleted\ndata: {"kind": "app", "id": "streamed"}\n\n')
        check("... a deleted event removes the app",
              wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "button[data-app='streamed']")))
        driver.execute_script("window.scripted.end()")
        check("... and when the stream ends, the page opens it again",
              wait(driver, lambda d: d.execute_script("return window.scripted.streams") == 2))
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})
        driver.close()
        driver.switch_to.window(first)


def tokens_scenario(driver, binary):
    work = tempfile.mkdtemp(prefix="lifecycled-dashboard-")
    out = subprocess.run([binary, "token", "new", "--name", "dash", "--role", "write", "--namespace", "default"],
                         check=True, capture_output=True, text=True).stdout
    secret, line = out.strip().split("\n")
    write_private(os.path.join(work, "tokens.json"), json.dumps({"tokens": [json.loads(line)]}))
    # A --max-wait below the page's long polls (20 s): the page must fall back to shorter ones.
    daemon = Daemon(binary, "--in-memory", "--max-wait", "5", "--tokens", os.path.join(work, "tokens.json"),
                    log=os.path.join(work, "log"), ready_seconds=20)
    try:
        try:
            base = daemon.start().url
        except DaemonError as error:
            check("a daemon with --tokens starts", False, error)
            return
        request(base + "/v1/apps", "POST", {"id": "mail", "bundleId": "com.example.mail"}, token=secret)

        driver.get(base + "/")
        shown = wait(driver, lambda d: error_text(d))
        check("with tokens on and no token: the 401 is shown and the token field appears",
              shown and "401" in shown and driver.find_element(By.ID, "token").is_displayed(), shown)
        # The box is emptied first, so what shows next is the answer to the wrong token.
        driver.execute_script("const box = document.getElementById('error'); box.hidden = true; box.replaceChildren()")
        driver.find_element(By.ID, "token").send_keys("lcd_not-a-token", Keys.ENTER)
        check("a wrong token shows the 401 as a readable error",
              wait(driver, lambda d: "Unauthorized (401" in error_text(d) and "Token" in error_text(d)),
              error_text(driver))
        check("... and the lists say why they are empty",
              "refused" in text_of(driver, "devices"), text_of(driver, "devices"))
        screenshot(driver, "token-refused")
        driver.find_element(By.ID, "token").send_keys(secret, Keys.ENTER)
        check("the right token clears the error and shows the apps",
              wait(driver, lambda d: error_text(d) == ""
                   and d.find_elements(By.CSS_SELECTOR, "button[data-app='mail']")), error_text(driver))
        act(driver, lambda d: d.find_element(By.CSS_SELECTOR, "button[data-app='mail']").click())
        wait(driver, lambda d: text_of(d, "app-heading").startswith("App mail"))
        request(base + "/v1/apps/mail/events", "POST", {"type": "launch"}, token=secret)
        check("... the timeline follows with the token, within the daemon's --max-wait",
              wait(driver, lambda d: len(listed_callbacks(d)) == 3), listed_callbacks(driver))
        check("... and no error is shown meanwhile", error_text(driver) == "", error_text(driver))
        stored = driver.execute_script("return [sessionStorage.length, localStorage.length]")
        check("... kept in session storage only", stored == [1, 0], stored)
        check("... and never in the page's address", secret not in driver.current_url)
    finally:
        daemon.stop(10)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", default=os.environ.get("LIFECYCLED_URL"), help="a running daemon, empty")
    parser.add_argument("--bin", required=True, help="the daemon binary, for the run with --tokens")
    args = parser.parse_args()
    driver = browser()
    try:
        for name, scenario in [("main", lambda: main_scenario(driver, args.base)),
                               ("navigation", lambda: navigation_scenario(driver, args.base)),
                               ("scenes", lambda: scene_scenario(driver, args.base)),
                               ("possible events", lambda: possible_events_scenario(driver, args.base)),
                               ("deletion", lambda: deletion_scenario(driver, args.base)),
                               ("scenario files", lambda: scenario_files_scenario(driver, args.base,
                                                                                  os.path.abspath(args.bin))),
                               ("stream client", lambda: stream_client_scenario(driver, args.base)),
                               ("comparisons", lambda: comparisons_scenario(driver, args.base)),
                               ("tokens", lambda: tokens_scenario(driver, os.path.abspath(args.bin)))]:
            try:
                scenario()
            except Exception as error:  # a missing element and the like: the scenario fails, the others run
                check(f"the {name} scenario runs to its end", False, f"{type(error).__name__}: {error}".split("\n")[0])
                screenshot(driver, f"failed-{name}")
        # The answers the scenarios provoke on purpose (a refused token, a refused event, a namespace not
        # there, a wait above --max-wait) are logged by the browser too; anything else is a fault.
        logs = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
                and "401" not in entry["message"] and "409" not in entry["message"]
                and "404" not in entry["message"]
                and not ("wait=20" in entry["message"] and "(Bad Request)" in entry["message"])
                and not ("versions=4.0%2Cbanana" in entry["message"] and "(Bad Request)" in entry["message"])]
        check("the browser console has no other errors (script errors, CSP refusals)", logs == [], logs)
    finally:
        driver.quit()
    checks.finish()


if __name__ == "__main__":
    main()
