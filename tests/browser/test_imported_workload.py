"""An imported cluster's workload is not in the page (playground/views/common.py, workload_inline):
in Chromium the editor fetches it, edits and saves it, and another tab follows the save by fetching
the new text, as it follows a typed workload's."""

import gzip
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_board import open_gallery_copy
from tests.browser.test_editing_safety import ready, save
from tests.web.kubectl_output import nodes_yaml, pods_yaml

pytestmark = pytest.mark.browser


def test_an_imported_workload_is_fetched_edited_saved_and_followed(page: Page, server_url: str):
    url = open_gallery_copy(page, server_url)
    page.locator("details.import > summary").click()
    for name, text in (("nodes", nodes_yaml(20)), ("pods", pods_yaml(1500, 20))):
        page.locator(f"input[type=file][name={name}_file]").set_input_files(
            {"name": f"{name}.yaml.gz", "mimeType": "application/gzip", "buffer": gzip.compress(text.encode())}
        )
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Import").click()
    expect(page.locator("#board")).to_have_attribute("data-version", "2", timeout=30_000)

    page.reload()
    ready(page)
    workload = page.locator("#workload")
    expect(workload).to_be_enabled()
    assert workload.input_value().startswith("--- {apiVersion: v1, kind: Pod, metadata: {name: app-1-")
    assert workload.input_value().count("\n") == 1485  # the bound, unfinished pods
    expect(page.locator("[data-workload-loading]")).to_have_count(0)
    expect(page.locator("#validation")).to_have_text("✓ valid (checked when saved)")  # not sent to be checked
    assert page.locator("#workload-source").get_attribute("data-url")  # the page did not carry it

    other = page.context.new_page()
    other.goto(url)
    ready(other)
    expect(other.locator("#workload")).to_be_enabled()

    page.locator("#workload-form .cm-content").click()
    page.keyboard.press("Control+End")
    page.keyboard.type("# reviewed before the upgrade\n")
    expect(workload).to_have_value(re.compile(r"# reviewed before the upgrade\n$"))
    expect(page.locator("#validation")).to_have_text("✓ valid", timeout=15_000)  # the edit, checked
    save(page)
    expect(page.locator("#board .version")).to_have_text("v3")
    expect(other.locator("#board .version")).to_have_text("v3")
    expect(other.locator("#workload")).to_have_value(re.compile(r"# reviewed before the upgrade\n$"))
    assert other.locator("#workload").input_value() == workload.input_value()
