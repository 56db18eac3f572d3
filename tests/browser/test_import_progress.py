"""The import form's bar (static/js/import-progress.js) in Chromium: a cluster's file is sent, the bar
says which part of the import is under way and how far it has come, and the imported board replaces
the old one."""

import gzip

import pytest
from playwright.sync_api import Page, expect

from tests.browser.axe import assert_no_violations
from tests.browser.test_board import open_gallery_copy
from tests.web.kubectl_output import node_name, nodes_yaml

pytestmark = pytest.mark.browser

SAMPLE = """() => {
  const box = document.querySelector('.import-progress');
  if (!box) return null;
  const bar = box.querySelector('progress');
  return [box.querySelector('.import-stage').textContent, bar.hasAttribute('value') ? bar.value : null];
}"""

STAGES = (
    "Sending the files (1 of 4)…",
    "Reading the nodes (2 of 4)…",
    "Reading the pods (3 of 4)…",
    "Saving the board (4 of 4)…",
)


def test_the_bar_follows_an_import_to_its_board(page: Page, server_url: str, screenshot_path):
    open_gallery_copy(page, server_url)
    page.locator("details.import > summary").click()
    packed = gzip.compress(nodes_yaml(2500).encode())  # 15 MB of YAML: seconds of reading
    assert len(packed) < 4 << 20  # the session server's file limit
    page.locator("input[type=file][name=nodes_file]").set_input_files(
        {"name": "nodes.yaml.gz", "mimeType": "application/gzip", "buffer": packed}
    )
    headers: list[str | None] = []
    page.on("request", lambda r: headers.append(r.headers.get("x-import-progress")) if "/import" in r.url else None)
    page.once("dialog", lambda dialog: dialog.accept())  # "Replace this board with the imported nodes?"
    page.get_by_role("button", name="Import").click()

    box = page.locator(".import-progress")
    expect(box).to_be_visible()
    expect(box.locator(".import-stage")).to_have_attribute("role", "status")
    samples: list[tuple[str, float | None]] = []
    shot = False
    while box.count() and box.is_visible():
        sample = page.evaluate(SAMPLE)
        if sample is None:
            break
        samples.append((sample[0], sample[1]))
        if not shot and sample[0] == "Reading the nodes (2 of 4)…" and (sample[1] or 0) > 30:
            page.screenshot(path=screenshot_path)  # mid-import, for a person to look at
            assert_no_violations(page)  # the bar and its words, as they are shown
            shot = True
        page.wait_for_timeout(100)

    assert shot, samples  # the bar was seen, and checked by axe, while the nodes were read
    assert headers and headers[0] and len(headers[0]) == 32  # the import named itself
    stages = [text for text, _ in samples]
    assert "Reading the nodes (2 of 4)…" in stages, samples
    assert set(stages) <= {*STAGES, "Sending the files…", "Importing… a large cluster takes a few seconds."}
    values = [value for _, value in samples if value is not None]
    assert values and values == sorted(values) and 25 <= max(values) <= 100  # forwards, past the upload
    board = page.locator("#board")
    expect(board).to_have_attribute("data-version", "2", timeout=30_000)
    assert node_name(2499) in page.content()  # the imported board (dots: its nodes in the canvas' data)
