import re

import pytest
from playwright.sync_api import Browser, Page, expect

from playground.scenarios import validate_workload

BAD_CPU = (
    "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n"
    "    resources: {requests: {cpu: lots}}\n"
)

pytestmark = pytest.mark.browser


def open_gallery_copy(page: Page, server_url: str, title: str = "Node affinity with weights") -> str:
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(server_url + "/")
    card = page.locator(".gallery-card", has_text=title)
    card.get_by_role("button", name="Open a copy to edit").click()
    expect(page.locator("h1.scenario-title")).to_have_text(title)
    # The page's modules (drag and drop, keyboard, run player) are loaded before the test acts.
    # (expect, not wait_for_function: that evaluates a string, which the page's CSP refuses)
    expect(page.locator("html")).to_have_attribute("data-board", "ready")
    expect(page.locator("html")).to_have_attribute("data-run-player", "ready")
    return page.url


def node_card(page: Page, name: str):
    return page.locator(f".node-card[data-node-name='{name}']")


def test_drag_a_taint_onto_a_node_and_it_stays_after_reload(page: Page, server_url: str, screenshot_path):
    open_gallery_copy(page, server_url)
    taint = page.locator(".palette .chip.taint", has_text="dedicated=infra:NoSchedule")
    taint.drag_to(node_card(page, "worker1"))
    expect(node_card(page, "worker1").locator(".node-taints")).to_contain_text("dedicated=infra:NoSchedule")
    expect(page.locator("#board .version")).to_have_text("v2")
    page.reload()
    expect(node_card(page, "worker1").locator(".node-taints")).to_contain_text("dedicated=infra:NoSchedule")
    page.screenshot(path=screenshot_path, full_page=True)


def test_keyboard_can_do_what_drag_does(page: Page, server_url: str):
    open_gallery_copy(page, server_url)
    page.locator(".palette .chip.label", has_text="disktype=ssd").focus()
    page.keyboard.press("Enter")
    node_card(page, "worker3").focus()
    page.keyboard.press("Enter")
    expect(node_card(page, "worker3").locator(".node-labels")).to_contain_text("disktype=ssd")


def test_removing_a_label_with_its_cross(page: Page, server_url: str):
    open_gallery_copy(page, server_url)
    node_card(page, "worker1").get_by_role("button", name="Remove label ec2.hw").click()
    expect(node_card(page, "worker1").locator(".node-labels")).not_to_contain_text("ec2.hw")


def test_invalid_yaml_is_flagged_at_its_line_as_you_type(page: Page, server_url: str, screenshot_path):
    open_gallery_copy(page, server_url)
    (problem,) = validate_workload(BAD_CPU)
    expected = f"line 7: Pod default/p spec.containers[0].resources.requests.cpu: {problem.message}"
    textarea = page.locator("#workload")
    expect(textarea).to_be_hidden()  # CodeMirror took over; the textarea stays in the form
    editor = page.locator("#workload-form .cm-content")
    editor.fill(BAD_CPU)
    expect(textarea).to_have_value(BAD_CPU)  # what Save posts follows the editor
    status = page.locator("#validation")
    expect(status).to_have_text(expected)
    # The lint diagnostic sits on line 7 and nowhere else: the underline inside that line, the gutter
    # marker level with its number, and the marker's tooltip says line, document, field path and message.
    lines = page.locator("#workload-form .cm-line")
    expect(lines.nth(6).locator(".cm-lintRange-error")).to_have_count(1)
    expect(page.locator("#workload-form .cm-lintRange-error")).to_have_count(1)
    marker = page.locator("#workload-form .cm-gutter-lint .cm-lint-marker-error")
    expect(marker).to_have_count(1)
    number = page.locator("#workload-form .cm-lineNumbers .cm-gutterElement").filter(has_text=re.compile(r"^7$"))
    marker_box, number_box = marker.bounding_box(), number.last.bounding_box()
    assert marker_box and number_box
    assert number_box["y"] <= marker_box["y"] + marker_box["height"] / 2 <= number_box["y"] + number_box["height"]
    marker.hover()
    expect(page.locator(".cm-tooltip-lint")).to_have_text(expected)
    page.screenshot(path=screenshot_path, full_page=True)
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#board .flash.error")).to_contain_text("line 7")


def test_a_second_viewer_sees_edits_arrive_live(page: Page, browser: Browser, server_url: str):
    scenario_url = open_gallery_copy(page, server_url)
    viewer = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    viewer.goto(scenario_url)
    expect(viewer.locator(".palette")).to_have_count(0)  # the view link cannot edit
    page.wait_for_timeout(500)  # let the viewer's websocket connect
    node_card(page, "worker2").get_by_role("button", name="cordon").click()
    expect(node_card(viewer, "worker2").locator(".badge")).to_have_text("SchedulingDisabled", timeout=10_000)


def test_fork_makes_an_editable_copy_that_remembers_its_origin(page: Page, server_url: str):
    original = open_gallery_copy(page, server_url)
    page.get_by_role("button", name="Fork").click()
    expect(page).not_to_have_url(original)
    expect(page.locator("h1.scenario-title")).to_have_text(re.compile("^Fork of Node affinity"))
    expect(page.get_by_text("Forked from")).to_be_visible()
