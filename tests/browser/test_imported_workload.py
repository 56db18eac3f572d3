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

    checks: list[bytes] = []
    page.on("request", lambda request: checks.append(request.post_data_buffer) if "/validate" in request.url else None)
    page.locator("#workload-form .cm-content").click()
    page.keyboard.press("Control+End")
    page.keyboard.type("# reviewed before the upgrade\n")
    expect(workload).to_have_value(re.compile(r"# reviewed before the upgrade\n$"))
    expect(page.locator("#validation")).to_have_text("✓ valid", timeout=15_000)  # the edit, checked
    # Checked and saved as what changed against the saved text (text-patch.js), not the whole text.
    assert checks and all(b'name="workload_base"' in body and len(body) < 4096 for body in checks)
    with page.expect_request(lambda request: request.url.endswith("/workload") and request.method == "POST") as sent:
        save(page)
    # Multipart: a URL-encoded 25 MiB workload took the server a second of unquoting to read.
    assert sent.value.headers["content-type"].startswith("multipart/form-data")
    assert b'name="workload_insert"' in sent.value.post_data_buffer and len(sent.value.post_data_buffer) < 4096
    assert b'name="workload"' not in sent.value.post_data_buffer
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


TEXT_PATCH_CASES = r"""async () => {
  const { textPatch } = await import('/static/js/text-patch.js');
  const block = 'x'.repeat(70000);  // longer than the module's block: the block steps are taken
  const cases = [
    ['', ''], ['', 'abc'], ['abc', ''], ['abc', 'abc'], ['abc', 'abd'], ['aaa', 'aaaa'], ['aaaa', 'aaa'],
    ['abcabc', 'abc'], [block + 'a' + block, block + 'b' + block], [block, block + block], [block + 'z', 'z'],
  ];
  let seed = 7;
  const random = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  for (let i = 0; i < 300; i += 1) {
    const before = Array.from({ length: random(40) }, () => 'ab\n'[random(3)]).join('');
    const at = random(before.length + 1), cut = random(before.length - at + 1);
    const insert = Array.from({ length: random(5) }, () => 'ab\n'[random(3)]).join('');
    cases.push([before, before.slice(0, at) + insert + before.slice(at + cut)]);
  }
  return cases.map(([before, after]) => {
    const { from, to, insert } = textPatch(before, after);
    const applies = before.slice(0, from) + insert + before.slice(to) === after;
    // The longest common start, then the longest common end of what is left: the smallest replacement.
    const shorter = Math.min(before.length, after.length), suffix = before.length - to;
    const smallest = (from === shorter || before[from] !== after[from])
      && (suffix === shorter - from || before[to - 1] !== after[after.length - suffix - 1]);
    const bounded = 0 <= from && from <= to && to <= before.length;
    return applies && smallest && bounded && (before !== after || (from === to && insert === ''));
  });
}"""


def test_the_text_patch_turns_the_saved_text_into_the_edited_one(page: Page, server_url: str):
    page.goto(server_url)
    results = page.evaluate(TEXT_PATCH_CASES)
    assert len(results) == 311 and all(results)


def test_a_check_refused_as_a_patch_is_sent_again_whole(page: Page, server_url: str):
    """The server answers 409 when the patch's saved text is no longer its own: the editor then
    sends its whole text, and says what that text's check found."""
    import_big_cluster(page, server_url)
    page.reload()
    ready(page)
    expect(page.locator("#workload")).to_be_enabled()
    bodies: list[bytes] = []

    def first_refused(route):  # type: ignore[no-untyped-def]
        bodies.append(route.request.post_data_buffer)
        if len(bodies) == 1:
            route.fulfill(status=409, content_type="application/json", body='{"ok": null, "resend": true}')
        else:
            route.continue_()

    page.route("**/validate?*", first_refused)
    page.locator("#workload-form .cm-content").click()
    page.keyboard.press("Control+End")
    page.keyboard.type("--- {apiVersion: v1, kind: Pod, metadata: {name: broken}, spec: 3}\n")
    expect(page.locator("#validation")).to_contain_text("spec", timeout=15_000)
    assert len(bodies) == 2
    assert b'name="workload_base"' in bodies[0] and b'name="yaml"' in bodies[1]
