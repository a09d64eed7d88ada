"""A Python client generated from api/openapi.yaml, used as another team would use it: in a namespace,
with a token, to create an app, launch it, press Home, read its callbacks, and read a refused event as a
problem. scripts/python-client generates the client and runs this against the built daemon."""
import contextlib
import io
import os
import re

from lifecycled_client import AuthenticatedClient
from lifecycled_client.api.apps import create_app_in_namespace, get_app_in_namespace
from lifecycled_client.api.events import post_app_events_in_namespace
from lifecycled_client.api.timeline import get_app_callbacks_in_namespace
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
