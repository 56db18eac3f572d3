"""Text over what one request may carry is not sent (static/js/form-limits.js): the form says why and
the pasted text stays where it was, instead of the server's refusal replacing the board."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_board import node_card, open_gallery_copy

pytestmark = pytest.mark.browser

PASTE = "(area, text) => { area.value = text; area.dispatchEvent(new Event('input', {bubbles: true})); }"
LIMIT = 2_621_440  # Django's default DATA_UPLOAD_MAX_MEMORY_SIZE, as the session server runs (conftest.py)
FILE_LIMIT = 4 << 20  # IMPORT_MAX_UPLOAD_BYTES as the session server runs


def test_an_import_too_large_to_send_keeps_the_pasted_text_and_says_why(page: Page, server_url: str):
    open_gallery_copy(page, server_url)
    assert int(page.locator("body").get_attribute("data-max-request-bytes")) == LIMIT
    pasted = "apiVersion: v1\nkind: List\nitems:\n" + "- {kind: Node, metadata: {name: imported}}\n" * 70_000
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url) if "/import" in request.url else None)
    page.locator("details.import > summary").click()
    nodes = page.locator("textarea[name=nodes_yaml]")
    # As a paste arrives: the value at once (typing 3 MB through the protocol takes minutes).
    nodes.evaluate(PASTE, pasted)
    page.get_by_role("button", name="Import").click()
    notice = page.locator(".import-form .form-limit[role=alert]")
    expect(notice).to_contain_text("the most one request may carry is 2,621,440 bytes (2.5 MiB). Nothing was sent.")
    expect(notice).to_contain_text("managedFields")
    assert nodes.input_value() == pasted  # nothing lost
    expect(node_card(page, "worker1")).to_be_visible()  # the board as it was
    assert requests == []


def test_the_refusal_fits_a_phone(page: Page, server_url: str, screenshot_path):
    open_gallery_copy(page, server_url)
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("details.import > summary").click()
    page.locator("textarea[name=nodes_yaml]").evaluate(PASTE, "x" * (LIMIT + 10))
    page.get_by_role("button", name="Import").click()
    notice = page.locator(".import-form .form-limit[role=alert]")
    expect(notice).to_be_visible()
    notice.scroll_into_view_if_needed()
    page.screenshot(path=screenshot_path)
    width, window = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert width <= window, f"{width}px wide in a {window}px window"
    box = notice.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= window


def test_an_import_file_over_its_limit_is_not_sent_and_the_form_says_why(page: Page, server_url: str):
    open_gallery_copy(page, server_url)
    file_input = page.locator("input[type=file][name=nodes_file]")
    assert int(file_input.get_attribute("data-max-bytes")) == FILE_LIMIT
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url) if "/import" in request.url else None)
    page.locator("details.import > summary").click()
    big = b"apiVersion: v1\nkind: List\nitems:\n" + b"- {kind: Node, metadata: {name: n}}\n" * 130_000
    assert len(big) > FILE_LIMIT
    file_input.set_input_files({"name": "nodes.yaml", "mimeType": "application/yaml", "buffer": big})
    page.get_by_role("button", name="Import").click()
    notice = page.locator(".import-form .form-limit[role=alert]")
    expect(notice).to_contain_text("nodes.yaml is 4.5 MiB; an import takes files of at most 4.0 MiB. Nothing was sent.")
    expect(node_card(page, "worker1")).to_be_visible()  # the board as it was
    assert requests == []
    # A file within the limit goes (and the notice goes with it).
    file_input.set_input_files(
        {"name": "small.yaml", "mimeType": "application/yaml", "buffer": b"apiVersion: v1\nkind: List\nitems: []\n"}
    )
    page.once("dialog", lambda dialog: dialog.accept())  # "Replace this board with the imported nodes?"
    page.get_by_role("button", name="Import").click()
    expect(notice).to_have_count(0)
    page.wait_for_timeout(500)
    assert any("/import" in url for url in requests)
