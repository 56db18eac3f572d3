"""A refused htmx request shows the server's message in the page's notice area (htmx follows the
429's HX-Retarget), whatever the form targeted."""

import pytest
from django.test import RequestFactory
from playwright.sync_api import Page, expect

from playground.ratelimit import too_many_requests
from tests.browser.test_board import open_gallery_copy

pytestmark = pytest.mark.browser


def test_a_refused_run_shows_the_message_and_leaves_the_run_panel(page: Page, server_url: str, screenshot_path):
    request = RequestFactory().post("/s/x/runs")
    request.htmx = True
    refused = too_many_requests(request, "run", 7.5)  # what the server answers once the bucket is empty
    assert refused.status_code == 429
    open_gallery_copy(page, server_url, "GPU node reserved with a taint")
    # The real limit is per address and the browser tests share one: answer this one POST as the
    # server would over its limit, without spending the other tests' tokens.
    page.route(
        "**/runs",
        lambda route: (
            route.fulfill(status=429, headers=dict(refused.items()), body=refused.content)
            if route.request.method == "POST"
            else route.continue_()
        ),
    )
    page.get_by_test_id("run").click()
    notice = page.locator("#notice")
    expect(notice.get_by_role("alert")).to_have_text(
        "Too many runs from your address (at most 10 at once, then 6 a minute). Try again in 8 s."
    )
    expect(page.get_by_test_id("run")).to_have_text("▶ Run")  # the run panel is as it was
    page.screenshot(path=screenshot_path)


def test_a_refused_validation_says_so_in_the_editor_instead_of_offline(page: Page, server_url: str):
    request = RequestFactory().post("/validate")
    refused = too_many_requests(request, "validate", 4.2)  # the JSON the server answers over its limit
    open_gallery_copy(page, server_url)
    page.route(
        "**/validate?*",  # the editor names its scenario: /validate?scenario=<slug>
        lambda route: route.fulfill(status=429, headers=dict(refused.items()), body=refused.content),
    )
    page.locator("#workload-form .cm-content").fill("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n")
    expect(page.locator("#validation")).to_have_text(
        "not validated: Too many validations from your address (at most 60 at once, then 60 a minute). "
        "Try again in 5 s."
    )
