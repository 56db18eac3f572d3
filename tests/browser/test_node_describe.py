"""`kubectl describe node` in the node detail (issue #16, item 7): at the scenario's state when the
tile opens, then at the player's event while a run is watched, following the player."""

import re

from playwright.sync_api import Page, expect

from tests.browser import axe
from tests.browser.player import play_to_the_end
from tests.browser.test_board import open_gallery_copy

MEMORY_PRESSURE = "Memory pressure evicts by QoS class"


def open_node(page: Page, name: str) -> None:
    """The board zoomed out to tiles, the node's tile opened into its detail."""
    expect(page.locator("html")).to_have_attribute("data-board-zoom", "ready")
    if page.locator("#board").get_attribute("data-density") == "cards":
        page.get_by_role("button", name="Zoom out: smaller nodes").click()
        expect(page.locator("#board")).to_have_attribute("data-density", "tiles")
    page.locator(f"#board .tile[data-node='{name}']").click()
    expect(page.locator("#node-detail .node-card")).to_be_visible()


def condition(page: Page, scope: str, kind: str):
    return page.locator(f"#node-detail [data-describe-scope='{scope}'] tr[data-condition='{kind}']")


def test_the_node_detail_describes_its_node_and_follows_the_player(page: Page, server_url: str, screenshot_path):
    open_gallery_copy(page, server_url, MEMORY_PRESSURE)
    open_node(page, "worker1")
    scenario = page.locator("#node-detail [data-describe-scope='scenario']")
    expect(scenario).to_be_visible()
    expect(scenario.locator("summary")).to_contain_text("kubectl describe node worker1")
    expect(scenario.locator("summary")).to_contain_text("at the scenario’s state")
    expect(condition(page, "scenario", "MemoryPressure")).to_have_attribute("data-status", "False")
    expect(scenario).to_contain_text("Non-terminated Pods: (3 in total)")
    page.keyboard.press("Escape")

    play_to_the_end(page)
    open_node(page, "worker1")
    run = page.locator("#node-detail [data-describe-scope='run']")
    expect(run).to_be_visible()
    expect(scenario).to_be_hidden()  # the board shows the run: so does its description
    total = int(re.search(r"event \d+/(\d+)", page.locator("[data-player='status']").inner_text()).group(1))
    expect(run.locator("summary")).to_contain_text(f"at event {total}")
    # Back to the first eviction: the kubelet's MemoryPressure is True, with its taint and event.
    page.locator("#run-panel [data-player='log'] tr[data-frame]", has_text="Evicted").first.click()
    expect(condition(page, "run", "MemoryPressure")).to_have_attribute("data-status", "True", timeout=10_000)
    expect(condition(page, "run", "MemoryPressure")).to_contain_text("KubeletHasInsufficientMemory")
    expect(run.locator("tr[data-describe-event='NodeHasInsufficientMemory']")).to_be_visible()
    expect(run.locator("summary")).to_contain_text("t=10s")
    # Its tables scroll sideways where they are wider than the panel, from the keyboard too.
    region = run.get_by_role("region", name="Conditions:")
    region.focus()
    expect(region).to_be_focused()
    page.screenshot(path=screenshot_path, full_page=True)
    axe.assert_no_violations(page)
    page.emulate_media(color_scheme="dark")
    axe.assert_no_violations(page)


def test_a_node_card_opens_its_description_and_a_closed_one_stays_closed(page: Page, server_url: str):
    """Cards (the default view of a small cluster) have their own "describe" button; Esc closes
    the detail and gives the focus back; a detail closed while its answer is on its way stays shut."""
    open_gallery_copy(page, server_url, MEMORY_PRESSURE)
    describe = page.get_by_role("button", name="Describe node worker1")
    describe.click()
    expect(page.locator("#node-detail [data-node-describe]")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#node-detail")).to_be_hidden()
    expect(describe).to_be_focused()

    held = []
    page.route(re.compile(r"/board\?"), lambda route: held.append(route))  # the detail's answer, held back
    describe.click()
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the detail was not asked for"
    page.keyboard.press("Escape")  # before the answer
    held[0].continue_()
    page.wait_for_timeout(500)
    expect(page.locator("#node-detail")).to_be_hidden()
