"""A big cluster's dots on canvases (issue #14, static/js/board-dots.js): the nodes are drawn, not
elements, and one button stands in for the node under the pointer or the keyboard, so hovering,
opening a node, moving with the arrow keys, a palette chip's Enter and a run all work as on tiles."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser import axe
from tests.browser.big_scenarios import wide_deployment
from tests.browser.player import play_to_the_end
from tests.servers import DaphneServer, create_scenario

pytestmark = pytest.mark.browser

NODES = 1000  # past playground.board_dots.DOM_DOTS_UP_TO
PAINTED = """() => [...document.querySelectorAll('#board canvas.dot-canvas')].map((canvas) => {
  const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let painted = 0;
  for (let index = 3; index < pixels.length; index += 4) if (pixels[index]) painted += 1;
  return painted;
})"""
# Pixels of the colour a Pending pod is drawn in (#d97706): bound but not started, as the saved
# board's preview shows every pod; a finished run's pods are Running, drawn in their owner's colour.
PENDING_PIXELS = """() => [...document.querySelectorAll('#board canvas.dot-canvas')].reduce((sum, canvas) => {
  const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  for (let index = 0; index < pixels.length; index += 4) {
    const [r, g, b] = [pixels[index], pixels[index + 1], pixels[index + 2]];
    if (r > 190 && g > 95 && g < 145 && b < 50) sum += 1;
  }
  return sum;
}, 0)"""


@pytest.fixture(scope="module")
def big_cluster(session_server: DaphneServer) -> dict[str, str]:
    return create_scenario(session_server.env, wide_deployment(nodes=NODES, replicas=1500, zones=3))


def open_board(page: Page, url: str) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(url)
    expect(page.locator("html")).to_have_attribute("data-board-dots", "ready")
    expect(page.locator("#board canvas.dot-canvas")).to_have_count(3)


def node_under(page: Page, canvas_index: int, x: float, y: float) -> None:
    box = page.locator("#board canvas.dot-canvas").nth(canvas_index).bounding_box()
    page.mouse.move(box["x"] + x, box["y"] + y)


def test_the_nodes_are_drawn_and_a_hovered_one_names_itself_and_opens(page: Page, session_server, big_cluster):
    open_board(page, session_server.url + big_cluster["view"])
    assert page.locator("#board .tile").count() == 0
    assert page.evaluate("() => document.getElementsByTagName('*').length") < 1500
    assert all(painted > 1000 for painted in page.evaluate(PAINTED))
    node_under(page, 0, 3, 3)  # the first node of zone-0
    stand_in = page.locator("#board .dot-hit")
    expect(stand_in).to_have_attribute("data-node", "node000")
    summary = re.compile(r"^node000: \d+ pods?, cpu \d+%, memory \d+%, 2 labels$")
    expect(stand_in).to_have_attribute("aria-label", summary)
    expect(page.locator("#board .dot-tip")).to_be_visible()
    expect(page.locator("#board .dot-tip")).to_contain_text("node000:")
    node_under(page, 1, 3, 3)  # zone-1's first
    expect(stand_in).to_have_attribute("data-node", "node001")
    stand_in.click()
    card = page.locator("#node-detail .node-card[data-node='node001']")
    expect(card).to_be_visible()
    expect(card.locator(".node-labels")).to_contain_text("topology.kubernetes.io/zone=zone-1")


def test_the_arrow_keys_move_from_node_to_node_and_enter_opens_one(page: Page, session_server, big_cluster):
    open_board(page, session_server.url + big_cluster["view"])
    stand_in = page.locator("#board .dot-hit")
    stand_in.focus()
    expect(stand_in).to_have_attribute("data-node", "node000")
    page.keyboard.press("ArrowRight")
    expect(stand_in).to_have_attribute("data-node", "node003")  # zone-0 holds every third node
    expect(page.locator("#board [data-dot-live]")).to_contain_text("node003:")  # read out
    page.keyboard.press("End")
    expect(stand_in).to_have_attribute("data-node", "node998")  # zone-2's last
    expect(stand_in).to_be_in_viewport()
    page.keyboard.press("Home")
    page.keyboard.press("Enter")
    expect(page.locator("#node-detail .node-card[data-node='node000']")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#node-detail")).to_be_hidden()
    expect(stand_in).to_be_focused()


def test_a_palette_chip_lands_on_the_node_the_keyboard_is_on(page: Page, session_server, big_cluster):
    copy = create_scenario(session_server.env, wide_deployment(nodes=NODES, replicas=10, zones=3))
    open_board(page, session_server.url + copy["edit"])
    page.locator(".palette .chip.label", has_text="disktype=ssd").focus()
    page.keyboard.press("Enter")
    stand_in = page.locator("#board .dot-hit")
    stand_in.focus()
    page.keyboard.press("ArrowRight")
    expect(stand_in).to_have_attribute("data-node", "node003")
    page.keyboard.press("Enter")
    expect(page.locator("#board")).to_have_attribute("data-version", "2")
    node_under(page, 0, 3, 3)
    stand_in.focus()
    page.keyboard.press("ArrowRight")
    expect(stand_in).to_have_attribute("aria-label", re.compile(r"^node003: .*, 3 labels$"))


def test_a_run_is_drawn_on_the_canvas_and_axe_finds_nothing(page: Page, session_server, big_cluster):
    open_board(page, session_server.url + big_cluster["edit"])
    expect(page.get_by_test_id("placing-pods")).to_have_count(0, timeout=60_000)
    saved = page.evaluate(PENDING_PIXELS)
    play_to_the_end(page, timeout=120_000)
    expect(page.locator("#board")).to_have_class(re.compile(r"\brun-shown\b"))
    assert page.locator("#board .tile").count() == 0  # no tile made for the run's nodes
    stand_in = page.locator("#board .dot-hit")
    stand_in.focus()
    label = stand_in.get_attribute("aria-label")
    assert re.match(r"node000: \d+ pods?, cpu \d+%, memory \d+%", label), label
    page.wait_for_timeout(500)  # the last frame's drawing
    drawn = page.evaluate(PENDING_PIXELS)
    assert saved > 1500 and drawn < saved / 20, (saved, drawn)  # the run's Running pods, not the saved ones
    page.get_by_role("button", name="Show the saved scenario").click()
    expect(page.locator("#board")).not_to_have_class(re.compile(r"\brun-shown\b"))
    expect(page.get_by_role("button", name="Back to the run")).to_be_visible()
    page.wait_for_timeout(500)
    assert page.evaluate(PENDING_PIXELS) > saved / 2  # the saved preview again
    page.get_by_role("button", name="Back to the run").click()
    page.wait_for_timeout(500)
    assert page.evaluate(PENDING_PIXELS) < saved / 20  # and the run again
    axe.assert_no_violations(page)


def test_the_arrow_keys_skip_a_node_the_run_has_deleted(page: Page, session_server):
    deleted = wide_deployment(nodes=NODES, replicas=30, zones=3) + (
        "---\napiVersion: playground/v1\nkind: Action\nspec: {at: 1s, op: delete, target: Node/node003}\n"
    )
    links = create_scenario(session_server.env, deleted)
    open_board(page, session_server.url + links["view"])
    play_to_the_end(page, timeout=60_000)
    expect(page.locator("#board")).to_have_class(re.compile(r"\brun-shown\b"))
    stand_in = page.locator("#board .dot-hit")
    stand_in.focus()
    expect(stand_in).to_have_attribute("data-node", "node000")
    page.keyboard.press("ArrowRight")
    expect(stand_in).to_have_attribute("data-node", "node006")  # node003 is gone at the run's end
    page.keyboard.press("ArrowLeft")
    expect(stand_in).to_have_attribute("data-node", "node000")


def test_a_big_clusters_explanation_is_short_and_marks_every_node(
    page: Page, session_server, big_cluster, screenshot_path
):
    open_board(page, session_server.url + big_cluster["view"])
    play_to_the_end(page, timeout=120_000)
    stand_in = page.locator("#board .dot-hit")
    stand_in.focus()
    page.keyboard.press("Enter")  # node000's card, with the run's pods on it
    chip = page.locator("#node-detail .pod[data-pod-key]").first
    expect(chip).to_be_visible()
    chip.click()
    panel = page.locator("#explain")
    expect(panel).to_contain_text("kube-scheduler picks")
    expect(panel.locator("tr[data-verdict-node]")).to_have_count(20)
    expect(panel).to_contain_text(re.compile(r"The 20 best-scored of the \d+ nodes that fit are shown"))
    expect(panel.get_by_label("Why not a node of your choice?")).to_be_visible()
    page.keyboard.press("Escape")  # the node's card closes; the explanation stays
    stand_in.focus()
    page.keyboard.press("End")  # a node without a row: its verdict came in the JSON document
    expect(stand_in).to_have_attribute("aria-label", re.compile(r"fits"))
    page.screenshot(path=screenshot_path, full_page=True)
    axe.assert_no_violations(page)
    page.emulate_media(color_scheme="dark")  # the canvases redraw in the dark palette
    axe.assert_no_violations(page)
