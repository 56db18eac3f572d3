"""The watch view (#13): the board is the page. 500 nodes fit one screen, a phone scrolls only down,
a run's board shows the run's state and nothing of the saved scenario, and a compact tile opens
into its node's card."""

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.big_scenarios import wide_deployment
from tests.browser.player import play_to_the_end
from tests.browser.test_board import node_card, open_gallery_copy
from tests.servers import DaphneServer, create_scenario

pytestmark = pytest.mark.browser

# Every node tile's box, and whether it lies wholly inside the window.
TILES_IN_VIEW = """() => [...document.querySelectorAll('#board [data-node]')].map((tile) => {
  const box = tile.getBoundingClientRect();
  const inside = box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth;
  return { node: tile.dataset.node, inside };
})"""

PAGE_WIDTH = "() => [document.documentElement.scrollWidth, innerWidth]"


@pytest.fixture(scope="module")
def big_cluster(session_server: DaphneServer) -> dict[str, str]:
    """500 nodes in 3 zones (the size the issue names), 2,000 pods."""
    return create_scenario(session_server.env, wide_deployment(nodes=500, replicas=2000, zones=3))


def test_500_nodes_fit_one_1440_by_900_screen(page: Page, session_server: DaphneServer, big_cluster, screenshot_path):
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(session_server.url + big_cluster["view"])
    expect(page.locator("#board")).to_have_attribute("data-density", "dots")
    expect(page.locator("#board .group-title")).to_have_count(3)  # grouped by zone, the label shown once
    tiles = page.evaluate(TILES_IN_VIEW)
    page.screenshot(path=screenshot_path)
    assert len(tiles) == 500
    assert sorted(tile["node"] for tile in tiles) == [f"node{index:03d}" for index in range(500)]
    outside = [tile["node"] for tile in tiles if not tile["inside"]]
    assert not outside, f"{len(outside)} nodes below or beside the window, e.g. {outside[:5]}"
    width, window = page.evaluate(PAGE_WIDTH)
    assert width <= window
    # Described for a screen reader: the name, the load, the state.
    label = page.locator("#board [data-node='node000']").get_attribute("aria-label")
    assert re.match(r"node000: \d+ pods?, cpu \d+%, memory \d+%", label), label


def test_a_tile_opens_into_its_node_card_and_closes_back_to_it(page: Page, session_server: DaphneServer, big_cluster):
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(session_server.url + big_cluster["view"])
    expect(page.locator("html")).to_have_attribute("data-board-zoom", "ready")
    tile = page.locator("#board .tile[data-node='node042']")
    tile.focus()
    page.keyboard.press("Enter")
    card = page.locator("#node-detail .node-card[data-node='node042']")
    expect(card).to_be_visible()
    expect(card.locator(".node-labels")).to_contain_text("topology.kubernetes.io/zone=zone-0")
    expect(page.locator("#node-detail [data-node-detail-close]")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator("#node-detail")).to_be_hidden()
    expect(tile).to_be_focused()


def test_zooming_moves_between_dots_tiles_and_cards(page: Page, server_url: str):
    open_gallery_copy(page, server_url)
    expect(page.locator("html")).to_have_attribute("data-board-zoom", "ready")
    board = page.locator("#board")
    expect(board).to_have_attribute("data-density", "cards")  # a handful of nodes: rich cards
    page.get_by_role("button", name="Zoom out: smaller nodes").click()
    expect(board).to_have_attribute("data-density", "tiles")
    expect(page.locator("#board .tile[data-node='worker1']")).to_be_visible()
    page.get_by_role("button", name="Zoom out: smaller nodes").click()
    expect(board).to_have_attribute("data-density", "dots")
    page.get_by_role("button", name="Zoom in: larger nodes").click()
    page.get_by_role("button", name="Zoom in: larger nodes").click()
    expect(board).to_have_attribute("data-density", "cards")
    expect(node_card(page, "worker1")).to_be_visible()


def test_two_quick_zooms_reach_the_second_level(page: Page, server_url: str):
    """The second click comes while the first level's board is on its way (the same task here; a
    slow server for a person): htmx queues its request, then drops it with the select the first
    board replaced. The page asks for it again."""
    open_gallery_copy(page, server_url)
    expect(page.locator("html")).to_have_attribute("data-board-zoom", "ready")
    board = page.locator("#board")
    page.get_by_role("button", name="Zoom out: smaller nodes").click()
    expect(board).to_have_attribute("data-density", "tiles")
    page.get_by_role("button", name="Zoom out: smaller nodes").click()
    expect(board).to_have_attribute("data-density", "dots")
    page.evaluate("""() => {
        const zoomIn = () => document.querySelector("#board [data-zoom='in']");
        zoomIn().click();
        zoomIn().click();
    }""")
    expect(board).to_have_attribute("data-density", "cards")
    expect(node_card(page, "worker1")).to_be_visible()


def pinch(page: Page, *, spread: float) -> None:
    """Two fingers on the board's middle, moving apart (spread > 1) or together, as a touch
    screen sends them (Chromium's DevTools protocol: real touch events, not synthetic DOM ones)."""
    box = page.locator("#board [data-board-canvas]").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = page.context.new_cdp_session(page)
    start = 40.0

    def fingers(distance: float) -> list[dict[str, float]]:
        return [{"x": x - distance / 2, "y": y, "id": 1}, {"x": x + distance / 2, "y": y, "id": 2}]

    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": fingers(start)})
    for step in range(1, 9):
        distance = start * (1 + (spread - 1) * step / 8)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": fingers(distance)})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_a_pinch_on_a_touch_screen_changes_the_level_not_the_page_zoom(browser: Browser, server_url: str):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    open_gallery_copy(page, server_url)
    expect(page.locator("html")).to_have_attribute("data-board-zoom", "ready")
    board = page.locator("#board")
    expect(board).to_have_attribute("data-density", "cards")
    pinch(page, spread=0.4)  # fingers together: smaller nodes, one level per gesture
    expect(board).to_have_attribute("data-density", "tiles")
    pinch(page, spread=0.4)
    expect(board).to_have_attribute("data-density", "dots")
    pinch(page, spread=2.5)  # apart: larger again
    expect(board).to_have_attribute("data-density", "tiles")
    assert page.evaluate("() => visualViewport.scale") == 1  # the page itself was not magnified
    context.close()


@pytest.mark.parametrize("who", ["editor", "viewer"])
def test_a_phone_scrolls_only_down_and_sees_the_board_first(page: Page, browser: Browser, server_url: str, who: str):
    url = open_gallery_copy(page, server_url, "Drain held back by a PodDisruptionBudget")
    if who == "viewer":  # another browser: the same link, without the edit rights
        page = browser.new_context().new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(url)
    play_to_the_end(page)
    width, window = page.evaluate(PAGE_WIDTH)
    assert width <= window, f"{width}px wide in a {window}px window"
    board_top = page.locator("#board").bounding_box()["y"]
    for later in ("[data-side-panel='run']", ".side-tabs"):
        assert page.locator(later).bounding_box()["y"] > board_top
    palette = page.locator("#palette")
    if palette.count():
        assert palette.bounding_box()["y"] > board_top  # the palette follows the board on a phone


def test_a_run_board_shows_the_runs_state_not_the_saved_one(page: Page, server_url: str, screenshot_path):
    # Saved: worker2 cordoned. The run uncordons it at 30 s and drains worker1 at 40 s.
    open_gallery_copy(page, server_url, "Drain held back by a PodDisruptionBudget")
    expect(node_card(page, "worker2").locator(".badge")).to_have_text("SchedulingDisabled")
    expect(node_card(page, "worker1").locator(".badge")).to_have_count(0)
    play_to_the_end(page)
    expect(page.locator("[data-board-mode]")).to_contain_text(re.compile(r"Run \d+ at event (\d+)/\1"))
    expect(node_card(page, "worker2").locator(".badge")).to_have_count(0)
    expect(node_card(page, "worker1").locator(".badge")).to_have_text("SchedulingDisabled")
    # No control that edits the saved scenario is on a tile that shows the run.
    for name in ("cordon", "uncordon", "clone"):
        expect(page.locator("#board").get_by_role("button", name=name, exact=True)).to_have_count(0)
    page.screenshot(path=screenshot_path)
    # Stepping back to before the uncordon shows the cordon again: the board follows the player.
    page.locator("[data-player='seek']").fill("1")
    expect(node_card(page, "worker2").locator(".badge")).to_have_text("SchedulingDisabled")
    # The saved scenario, asked for, comes back with its controls; and the run after it.
    page.get_by_role("button", name="Show the saved scenario").click()
    expect(node_card(page, "worker2").get_by_role("button", name="uncordon")).to_be_visible()
    expect(node_card(page, "worker1").locator(".badge")).to_have_count(0)
    page.get_by_role("button", name="Back to the run").click()
    expect(node_card(page, "worker2").get_by_role("button", name="uncordon")).to_be_hidden()


def test_no_page_scrolls_sideways_on_a_phone(page: Page, server_url: str):
    url = open_gallery_copy(page, server_url)
    permalink = page.locator(".share-panel input.copy").nth(1).input_value().rsplit("/", 1)[-1]
    page.set_viewport_size({"width": 390, "height": 844})
    for path in (
        "/",
        "/mine",
        url.removeprefix(server_url),
        f"/v/{permalink}",
        f"/embed/{permalink}",
        url.removeprefix(server_url) + "/compare",
    ):
        page.goto(server_url + path)
        expect(page.locator("h1").first).to_be_visible()
        width, window = page.evaluate(PAGE_WIDTH)
        assert width <= window, f"{path}: {width}px wide in a {window}px window"


def test_a_run_opened_at_an_early_event_counts_its_events_on_the_bar_as_the_player_does(
    page: Page, session_server: DaphneServer
):
    """Paused at event 5 while the rest of the run arrives in batches, the board's bar and the
    player's status say the same total (the bar kept the count of its last drawing)."""
    links = create_scenario(session_server.env, wide_deployment(nodes=20, replicas=400))
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(session_server.url + links["edit"])
    total = play_to_the_end(page)
    assert total > 1000  # more than one batch
    page.goto(page.url.split("?")[0] + "?" + re.sub(r"at=\d+", "at=5", page.url.split("?")[1]))
    status = page.locator("[data-player='status']")
    expect(status).to_contain_text(f"event 5/{total}", timeout=15_000)
    expect(page.locator("[data-board-mode]")).to_contain_text(f"at event 5/{total},")
