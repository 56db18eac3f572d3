"""axe-core finds nothing on any page, light and dark (issue #13): WCAG 2.0-2.2 A and AA, with the
best-practice rules the issue names. Each case opens a page as a person would reach it, then asks
axe about the page as it is shown."""

import re
from collections.abc import Callable

import pytest
from django.db.utils import OperationalError
from django.template.loader import render_to_string
from django.test import RequestFactory
from playwright.sync_api import Page, expect

from playground.outage import unavailable_response
from playground.ratelimit import too_many_requests
from tests.browser import axe
from tests.browser.player import play_to_the_end
from tests.browser.test_board import open_gallery_copy

pytestmark = pytest.mark.browser

GALLERY = "GPU node reserved with a taint"
LONG_RUN = "Rolling update with maxSurge and maxUnavailable"
POD = "#board [data-pod], #board .pod[data-pod-key]"  # the redesign's attribute, or today's chips


def view_url(page: Page, server_url: str, title: str = GALLERY) -> str:
    """A gallery scenario's address, as the home page's View link gives it (no edit rights)."""
    page.goto(server_url + "/")
    href = page.locator(".gallery-card", has_text=title).get_by_role("link", name="View").get_attribute("href")
    return server_url + href


def permalink(page: Page, server_url: str) -> str:
    page.goto(view_url(page, server_url))
    return re.search(r"/(?:v|embed)/(\w+)", page.content()).group(1)


def home(page: Page, server_url: str) -> None:
    page.goto(server_url + "/")
    expect(page.locator("#status-badge")).to_be_attached()  # the footer's badge has come in


def my_scenarios(page: Page, server_url: str) -> None:
    open_gallery_copy(page, server_url)
    page.goto(server_url + "/mine")
    expect(page.locator(".mine-table tbody tr")).to_have_count(1)


def no_scenarios_yet(page: Page, server_url: str) -> None:
    page.goto(server_url + "/mine")
    expect(page.locator(".mine .empty")).to_be_visible()


def scenario_as_viewer(page: Page, server_url: str) -> None:
    page.goto(view_url(page, server_url))
    expect(page.locator("html")).to_have_attribute("data-board", "ready")


def scenario_as_editor(page: Page, server_url: str) -> None:
    open_gallery_copy(page, server_url, GALLERY)


def share_panel_open(page: Page, server_url: str) -> None:
    open_gallery_copy(page, server_url, GALLERY)
    page.locator("details.share > summary").click()
    expect(page.get_by_test_id("share-kubectl")).to_be_visible()


def kubectl_console_in_use(page: Page, server_url: str) -> None:
    """The console with a table, an error, a change's note, the candidates and the file box open."""
    open_gallery_copy(page, server_url, GALLERY)
    play_to_the_end(page)
    page.get_by_role("tab", name="kubectl").click()
    field = page.get_by_role("textbox", name="kubectl command")
    for line in ("kubectl get pods -o wide", "kubectl gett nodes", "kubectl label nodes worker2 disktype=ssd"):
        field.fill(line)
        field.press("Enter")
    expect(page.locator(".console-note")).to_be_visible()
    field.fill("kubectl describe pod ")
    field.press("Tab")
    expect(page.locator("[data-console-candidates]")).to_be_visible()
    field.fill("kubectl apply -f pod.yaml")
    field.press("Enter")
    expect(page.locator("[data-console-file]")).to_be_visible()


def explanation_open(page: Page, server_url: str) -> None:
    open_gallery_copy(page, server_url, GALLERY)
    play_to_the_end(page)
    page.locator(POD).first.click()
    expect(page.locator("#explain")).to_be_visible()


def pending_explanation(page: Page, server_url: str) -> None:
    """A Pending pod's panel: its fixes and when kube-scheduler tries it again."""
    open_gallery_copy(page, server_url, "When does a Pending pod get another try?")
    play_to_the_end(page)
    page.locator("[data-player='log'] tr", has_text="FailedScheduling").last.click()
    page.locator("[data-player='pending'] .pod", has_text="big").click()
    expect(page.locator("#explain [data-testid='retried-when']")).to_be_visible()


def preemption_waiting_with_counted_events(page: Page, server_url: str) -> None:
    """The log as kubectl events, and a preemptor's panel while its victims terminate (the
    waiting victims, kubectl describe with its conditions and events)."""
    open_gallery_copy(page, server_url, "Preemption: a high-priority pod makes room")
    play_to_the_end(page)
    page.get_by_label("Count repeats").check()
    page.locator("[data-player='log'] tr", has_text="Preempted").last.click()
    page.locator("[data-player='pending'] .pod", has_text="urgent").click()
    expect(page.locator("#explain [data-preemption-waiting]")).to_be_visible()
    expect(page.locator("#explain [data-describe]")).to_be_visible()


def during_a_run(page: Page, server_url: str) -> None:
    open_gallery_copy(page, server_url, LONG_RUN)
    page.get_by_test_id("run").click()
    status = page.locator("[data-player='status']")
    expect(status).to_contain_text(re.compile(r"event [1-9]"), timeout=15_000)
    page.get_by_role("button", name="Pause").click()  # the run shown mid-way, as it is while playing
    expect(page.get_by_role("button", name="Play")).to_be_visible()


def compact_tiles_with_a_node_open(page: Page, server_url: str) -> None:
    """The compact board (tiles, then dots) after a run, a tile opened into its node's card."""
    open_gallery_copy(page, server_url, GALLERY)
    expect(page.locator("html")).to_have_attribute("data-board-zoom", "ready")
    play_to_the_end(page)
    page.get_by_role("button", name="Zoom out: smaller nodes").click()
    expect(page.locator("#board")).to_have_attribute("data-density", "tiles")
    page.locator("#board .tile").first.click()
    expect(page.locator("#node-detail .node-card")).to_be_visible()


def dots_on_a_phone(page: Page, server_url: str) -> None:
    open_gallery_copy(page, server_url, GALLERY)
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("select[name='view']").select_option("dots")
    expect(page.locator("#board")).to_have_attribute("data-density", "dots")


def version(page: Page, server_url: str) -> None:
    page.goto(f"{server_url}/v/{permalink(page, server_url)}")
    expect(page.locator("h1")).to_have_text(GALLERY)


def embed(page: Page, server_url: str) -> None:
    page.goto(f"{server_url}/embed/{permalink(page, server_url)}")
    expect(page.locator("h1")).to_have_text(GALLERY)


def compare_result(page: Page, server_url: str) -> None:
    page.goto(view_url(page, server_url) + "/compare?config=bin-packing")
    expect(page.locator(".compare-column")).to_have_count(2, timeout=20_000)


def not_found(page: Page, server_url: str) -> None:
    response = page.goto(server_url + "/s/no-such-scenario")
    assert response is not None and response.status == 404


def claim_edit(page: Page, server_url: str) -> None:
    page.goto(view_url(page, server_url) + "/edit")  # no key in the fragment: the page asks for it
    expect(page.get_by_test_id("edit-key")).to_be_visible()


def claim_edit_wrong_key(page: Page, server_url: str) -> None:
    claim_edit(page, server_url)
    page.get_by_test_id("edit-key").fill("not-the-key")
    page.get_by_role("button", name="Open for editing").click()
    expect(page.get_by_test_id("wrong-edit-key")).to_be_visible()


def served_as(page: Page, server_url: str, status: int, body: bytes) -> None:
    """A page that the live server shows only when something fails, rendered here by the same
    templates and answered in the server's place; its stylesheet and scripts come from the server."""
    page.route(f"{server_url}/failing", lambda route: route.fulfill(status=status, body=body, content_type="text/html"))
    page.goto(f"{server_url}/failing")
    expect(page.locator("h1")).to_be_visible()
    assert page.evaluate("() => document.styleSheets[0].cssRules.length") > 0  # app.css applies


def rate_limited(page: Page, server_url: str) -> None:
    refused = too_many_requests(RequestFactory().post("/s/x/runs"), "run", 7.5)
    served_as(page, server_url, 429, refused.content)


def unavailable(page: Page, server_url: str) -> None:
    refused = unavailable_response(RequestFactory().get("/"), OperationalError("unable to open database file"))
    served_as(page, server_url, 503, refused.content)


def server_error(page: Page, server_url: str) -> None:
    served_as(page, server_url, 500, render_to_string("500.html", request=RequestFactory().get("/")).encode())


PAGES: list = [
    pytest.param(home, id="home"),
    pytest.param(my_scenarios, id="mine"),
    pytest.param(no_scenarios_yet, id="mine-empty"),
    pytest.param(scenario_as_viewer, id="scenario-viewer"),
    pytest.param(scenario_as_editor, id="scenario-editor"),
    pytest.param(share_panel_open, id="scenario-share-kubeconfig"),
    pytest.param(kubectl_console_in_use, id="scenario-kubectl-console"),
    pytest.param(explanation_open, id="scenario-explanation"),
    pytest.param(pending_explanation, id="scenario-pending-explanation"),
    pytest.param(preemption_waiting_with_counted_events, id="scenario-preemption-describe"),
    pytest.param(during_a_run, id="scenario-during-a-run"),
    pytest.param(compact_tiles_with_a_node_open, id="scenario-tiles-node-open"),
    pytest.param(dots_on_a_phone, id="scenario-dots-phone"),
    pytest.param(version, id="version"),
    pytest.param(embed, id="embed"),
    pytest.param(compare_result, id="compare"),
    pytest.param(not_found, id="404"),
    pytest.param(claim_edit, id="claim-edit"),
    pytest.param(claim_edit_wrong_key, id="claim-edit-wrong-key"),
    pytest.param(rate_limited, id="rate-limited"),
    pytest.param(unavailable, id="unavailable"),
    pytest.param(server_error, id="500"),
]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("open_page", PAGES)
def test_axe_finds_no_violation(page: Page, server_url: str, open_page: Callable[[Page, str], None], scheme: str):
    page.emulate_media(color_scheme=scheme)
    open_page(page, server_url)
    axe.assert_no_violations(page)


def test_the_check_runs_the_rules_the_issue_names_and_says_where_they_fail(page: Page):
    # Off the app (no CSP here): one element for each rule #13 names, and a contrast of 1.5:1.
    page.set_content(
        """<!doctype html><html lang="en"><title>t</title><main>
        <ul><li role="button" tabindex="0">pod</li><p>not an item</p></ul>
        <button id="tiny" style="width:10px;height:10px;padding:0;border:0">x</button>
        <button id="near" style="width:10px;height:10px;padding:0;border:0">y</button>
        <p style="color:#bbb;background:#fff">faint</p></main>"""
    )
    found = axe.violations(page)
    assert {violation["id"] for violation in found} >= {"list", "aria-allowed-role", "target-size", "color-contrast"}
    message = axe.report(found)
    assert re.search(r"- color-contrast \(serious\): .*\n +\[\"main > p\"\]: Fix any .* contrast of 1\.91", message)
    assert '["#tiny"]: Fix any of the following: Target has insufficient size (10px by 10px' in message
