"""The edit link in Chromium: /s/<slug>/edit#<key> opens a page whose script posts the fragment and
drops it from the address bar; without script, the key can be pasted. No request carries the key
in its URL or its Referer. (The page is Referrer-Policy same-origin, not no-referrer: Chromium then
sends "Origin: null" with the form and Django's CSRF check refuses it, 403; measured with this test.)"""

import re

import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser


def new_scenario_edit_link(page: Page, server_url: str) -> tuple[str, str]:
    page.goto(server_url + "/")
    page.get_by_role("button", name="Start with a blank cluster").click()
    expect(page).to_have_url(re.compile(r"/s/\w+$"))
    page.locator("details.share summary").click()
    return page.url, page.get_by_test_id("edit-link").input_value()


@pytest.mark.parametrize("javascript", [True, False], ids=["with-script", "without-script"])
def test_an_edit_link_grants_editing_in_another_browser_and_its_key_is_sent_nowhere(
    page: Page, browser: Browser, server_url: str, javascript: bool
):
    scenario_url, link = new_scenario_edit_link(page, server_url)
    key = link.split("#", 1)[1]
    assert link == scenario_url + "/edit#" + key

    context = browser.new_context(java_script_enabled=javascript)
    try:
        other = context.new_page()
        sent: list[str] = []
        other.on("request", lambda request: sent.append(f"{request.url} {request.headers.get('referer', '')}"))
        other.goto(link)
        if not javascript:  # the page asks for the key
            other.get_by_test_id("edit-key").fill(key)
            other.get_by_role("button", name="Open for editing").click()
        expect(other).to_have_url(scenario_url)  # the address holds no key any more
        expect(other.locator("#board")).to_have_attribute("data-can-edit", "true")
        assert sent and not [line for line in sent if key in line]
        if javascript:  # nor the history: the script dropped it (and Chromium replaces a page posting on load)
            other.go_back()
            assert key not in other.url
    finally:
        context.close()
