"""A Python client generated from api/openapi.yaml, used as another team would use it: in a namespace,
with a token, to create an app, launch it, press Home, read its callbacks, and read a refused event as a
problem. scripts/python-client generates the client and runs this against the built daemon."""
import contextlib
import io
import os
import re
import threading

from lifecycled_client import AuthenticatedClient
from lifecycled_client.api.apps import create_app_in_namespace, get_app_in_namespace
from lifecycled_client.api.events import post_app_events_in_namespace
from lifecycled_client.api.timeline import get_app_callbacks_in_namespace, get_app_timeline_in_namespace
from lifecycled_client.models import (
    App, AppCreate, AppEventResult, AppState, DeviceActionEvent, DeviceActionEventType, InterruptionEndedEvent,
    LaunchEvent, Problem,
)

NS = os.environ["LIFECYCLED_NAMESPACE"]


def client():
    return AuthenticatedClient(base_url=os.environ["LIFECYCLED_URL"], token=os.environ["LIFECYCLED_TOKEN"],
                               raise_on_unexpected_status=True)


def test_create_launch_home_and_read_the_callbacks():
    with client() as c:
        created = create_app_in_namespace.sync(NS, client=c, body=AppCreate(bundle_id="com.example.mail", id="mail"))
        assert isinstance(created, App) and created.state == AppState.NOTRUNNING

        result = post_app_events_in_namespace.sync(NS, "mail", client=c, body=[
            LaunchEvent(type_="launch"), DeviceActionEvent(type_=DeviceActionEventType.HOMEBUTTON)])
        assert isinstance(result, AppEventResult) and result.changed
        assert result.app.state == AppState.SUSPENDED

        page = get_app_callbacks_in_namespace.sync(NS, "mail", client=c)
        assert [entry.selector for entry in page.items] == [
            "application:willFinishLaunchingWithOptions:", "application:didFinishLaunchingWithOptions:",
            "applicationDidBecomeActive:", "applicationWillResignActive:", "applicationDidEnterBackground:"]
        assert get_app_in_namespace.sync(NS, "mail", client=c).state == AppState.SUSPENDED


def test_a_refused_event_reads_as_a_problem():
    with client() as c:
        create_app_in_namespace.sync(NS, client=c, body=AppCreate(bundle_id="com.example.notes", id="notes"))
        refused = post_app_events_in_namespace.sync_detailed(
            NS, "notes", client=c, body=InterruptionEndedEvent(type_="interruptionEnded", accepted=False))
        assert refused.status_code == 409
        problem = refused.parsed
        assert isinstance(problem, Problem)
        assert problem.code == "invalid-transition" and problem.status == 409 and problem.detail
        # It prints as its status, code and detail, not as every member the schema has.
        assert str(problem) == f"409 invalid-transition: {problem.detail}"
        assert "Unset" not in repr(problem)


def test_without_the_token_the_answer_is_401():
    with AuthenticatedClient(base_url=os.environ["LIFECYCLED_URL"], token="lcd_not-a-token") as c:
        answer = get_app_in_namespace.sync_detailed(NS, "mail", client=c)
        assert answer.status_code == 401


def test_the_guides_example_runs_as_written():
    """docs/CLIENTS.md's Python block, run with this daemon's URL, namespace and token in place of its own."""
    guide = open(os.path.join(os.path.dirname(__file__), "..", "..", "..", "docs", "CLIENTS.md"), encoding="utf-8").read()
    section = guide[guide.index("## Python: a client generated from the spec"):]
    block = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert 'base_url="http://127.0.0.1:8080"' in block and '"ci-42"' in block
    code = block.replace("http://127.0.0.1:8080", os.environ["LIFECYCLED_URL"]).replace('"ci-42"', repr(NS))
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(code, {"TOKEN": os.environ["LIFECYCLED_TOKEN"]})
    assert printed.getvalue().strip() == str([
        "application:willFinishLaunchingWithOptions:", "application:didFinishLaunchingWithOptions:",
        "applicationDidBecomeActive:", "applicationWillResignActive:", "applicationDidEnterBackground:"])


def test_the_readmes_live_delegate_loop_runs_as_written():
    """README.md's Python loop, run with this daemon's URL, namespace and token in place of its own: it answers
    the launch's callbacks, in order, and the launch's POST then returns."""
    readme = open(os.path.join(os.path.dirname(__file__), "..", "..", "..", "README.md"), encoding="utf-8").read()
    block = re.search(r"```python\n(.*?)```", readme, re.S).group(1)
    assert 'Client(base_url="http://127.0.0.1:8080")' in block and '"ci-42"' in block
    code = (block.replace("import Client", "import AuthenticatedClient")
            .replace('Client(base_url="http://127.0.0.1:8080")',
                     f'AuthenticatedClient(base_url={os.environ["LIFECYCLED_URL"]!r}, token=TOKEN)')
            .replace('"ci-42"', repr(NS)).replace('"tracker"', '"readme-tracker"'))
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(code, {"TOKEN": os.environ["LIFECYCLED_TOKEN"]})
    assert printed.getvalue().split() == [
        "application:willFinishLaunchingWithOptions:", "application:didFinishLaunchingWithOptions:",
        "applicationDidBecomeActive:"]
    with client() as c:
        assert get_app_in_namespace.sync(NS, "readme-tracker", client=c).state == AppState.ACTIVE


def test_a_live_delegate_answered_over_http_and_one_too_slow_killed_by_the_watchdog():
    """The app's delegate is this test's code: each callback is read with a long poll and answered with one POST
    while the events POST waits (docs/API.md, "Live delegates over HTTP"). The answer to
    applicationDidEnterBackground: takes longer than its watchdog allows: the app is killed with `watchdog`."""
    from lifecycled_client.api.apps import answer_pending_callback_in_namespace, get_pending_callback_in_namespace
    from lifecycled_client.models import AppDelegate, CallbackAnswerRequest

    def answer_until_done(c, app, posting, answer):
        answered = []
        while posting.is_alive():
            read = get_pending_callback_in_namespace.sync(NS, app, client=c, wait=0.5)
            if read.pending is None:
                continue
            body = CallbackAnswerRequest(callback=read.pending.id, **answer(read.pending))
            assert answer_pending_callback_in_namespace.sync(NS, app, client=c, body=body).answered == read.pending.id
            answered.append(read.pending.selector)
        posting.join()
        return answered

    def post_in_background(event):
        def post():
            with client() as c:
                post_app_events_in_namespace.sync(NS, "tracker", client=c, body=event)
        thread = threading.Thread(target=post)
        thread.start()
        return thread

    with client() as c:
        create_app_in_namespace.sync(NS, client=c, body=AppCreate(
            bundle_id="com.example.tracker", id="tracker", delegate=AppDelegate(live=True)))
        launched = answer_until_done(c, "tracker", post_in_background(LaunchEvent(type_="launch")),
                                     lambda pending: {"returns": True})
        assert "application:didFinishLaunchingWithOptions:" in launched
        assert get_app_in_namespace.sync(NS, "tracker", client=c).state == AppState.ACTIVE

        def too_slow(pending):
            if pending.selector == "applicationDidEnterBackground:":
                return {"duration": pending.limit + 1}
            return {}

        home = post_in_background(DeviceActionEvent(type_=DeviceActionEventType.HOMEBUTTON))
        assert "applicationDidEnterBackground:" in answer_until_done(c, "tracker", home, too_slow)
        assert get_app_in_namespace.sync(NS, "tracker", client=c).state == AppState.NOTRUNNING
        page = get_app_timeline_in_namespace.sync(NS, "tracker", client=c, limit=1000)
        ended = [entry for entry in page.items if entry.kind == "termination"]
        assert ended and ended[-1].reason == "watchdog"
