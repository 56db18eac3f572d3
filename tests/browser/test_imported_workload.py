"""An imported cluster's workload is not in the page (playground/views/common.py, workload_inline):
in Chromium the editor fetches it, edits and saves it, and another tab follows the save by fetching
the new text, as it follows a typed workload's."""

import gzip
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.axe import assert_no_violations
from tests.browser.test_board import open_gallery_copy
from tests.browser.test_editing_safety import ready, save
from tests.web.kubectl_output import nodes_yaml, pods_yaml

pytestmark = pytest.mark.browser


def import_big_cluster(page: Page, server_url: str) -> str:
    """A gallery copy with 20 nodes and 1,500 pods imported (a workload over 256 KiB): its address."""
    url = open_gallery_copy(page, server_url)
    page.locator("details.import > summary").click()
    for name, text in (("nodes", nodes_yaml(20)), ("pods", pods_yaml(1500, 20))):
        page.locator(f"input[type=file][name={name}_file]").set_input_files(
            {"name": f"{name}.yaml.gz", "mimeType": "application/gzip", "buffer": gzip.compress(text.encode())}
        )
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Import").click()
    expect(page.locator("#board")).to_have_attribute("data-version", "2", timeout=30_000)
    return url


def test_an_imported_workload_is_fetched_edited_saved_and_followed(page: Page, server_url: str):
    url = import_big_cluster(page, server_url)

    page.reload()
    ready(page)
    workload = page.locator("#workload")
    expect(workload).to_be_enabled()
    assert workload.input_value().startswith("--- {apiVersion: v1, kind: Pod, metadata: {name: app-1-")
    assert workload.input_value().count("\n") == 1485  # the bound, unfinished pods
    expect(page.locator("[data-workload-loading]")).to_have_count(0)
    expect(page.locator("#validation")).to_have_text("✓ valid (checked when saved)")  # not sent to be checked
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert_no_violations(page)
    assert page.locator("#workload-source").get_attribute("data-url")  # the page did not carry it

    other = page.context.new_page()
    fetched: list[str] = []
    other.on("request", lambda request: fetched.append(request.url) if "/workload.yaml" in request.url else None)
    other.goto(url)
    ready(other)
    expect(other.locator("#workload")).to_be_enabled()

    page.locator("#workload-form .cm-content").click()
    page.keyboard.press("Control+End")
    page.keyboard.type("# reviewed before the upgrade\n")
    expect(workload).to_have_value(re.compile(r"# reviewed before the upgrade\n$"))
    expect(page.locator("#validation")).to_have_text("✓ valid", timeout=15_000)  # the edit, checked
    with page.expect_request(lambda request: request.url.endswith("/workload") and request.method == "POST") as sent:
        save(page)
    # Multipart: a URL-encoded 25 MiB workload took the server a second of unquoting to read.
    assert sent.value.headers["content-type"].startswith("multipart/form-data")
    expect(page.locator("#board .version")).to_have_text("v3")
    expect(other.locator("#board .version")).to_have_text("v3")
    expect(other.locator("#workload")).to_have_value(re.compile(r"# reviewed before the upgrade\n$"))
    assert other.locator("#workload").input_value() == workload.input_value()
    assert len(fetched) == 2  # on opening, and for the new text

    # A cordon makes a new version with the same workload: the other tab follows it, fetching nothing.
    node_id = page.locator("#board [data-node-id]").first.get_attribute("data-node-id")
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    page.request.post(
        f"{url.split('?')[0]}/nodes/{node_id}/cordon",
        form={"version": "3"},
        headers={"X-CSRFToken": token, "HX-Request": "true", "Referer": url},
    )
    expect(other.locator("#board .version")).to_have_text("v4")
    other.wait_for_timeout(500)
    assert len(fetched) == 2 and other.locator("#workload").input_value() == workload.input_value()


def test_a_workload_that_cannot_be_fetched_leaves_an_editor_that_cannot_save_an_empty_text(page: Page, server_url: str):
    url = import_big_cluster(page, server_url)

    page.route("**/workload.yaml", lambda route: route.fulfill(status=503, body="busy"))
    page.goto(url)
    expect(page.locator("[data-workload-loading]")).to_contain_text(
        "The workload could not be loaded (the server answered 503): reload the page to edit it."
    )
    expect(page.locator("#workload")).to_be_disabled()
    expect(page.locator("#workload-form .cm-content")).to_have_attribute("aria-readonly", "true")
    page.locator("#workload-form").get_by_role("button", name="Save").click()
    expect(page.locator("#board .flash.error")).to_contain_text("No workload text was sent")
    expect(page.locator("#board .version")).to_have_text("v2")  # nothing was changed
    assert_no_violations(page)  # the note that says why, the read-only editor
