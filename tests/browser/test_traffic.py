import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.player import play_to_the_end, step_forward
from tests.browser.test_board import open_gallery_copy

pytestmark = pytest.mark.browser

CANARY = "Canary release: a stable and a canary Deployment behind one Ingress"
NODE_DOWN = "A node goes down behind a LoadBalancer and a NodePort"


def seek_to_event(page: Page, *texts: str) -> None:
    """Click the first log row with these texts: the player goes to that event (and pauses)."""
    row = page.locator("[data-player='log'] tr")
    for text in texts:
        row = row.filter(has_text=text)
    row.first.click()


def step_until(page: Page, *texts: str, steps: int = 10) -> None:
    """Step forward until the log's last row has these texts (the player goes one event at a time)."""
    for _ in range(steps):
        step_forward(page)
        last = page.locator("[data-player='log'] tr").last.inner_text()
        if all(text in last for text in texts):
            return
    raise AssertionError(f"no event with {texts} within {steps} steps")


def flow(page: Page, name: str):
    return page.locator(f"#traffic [data-flow='{name}']")


def counts_once_shown(page: Page, bar, shares: tuple[str, ...], steps: int = 10) -> dict[str, int]:
    """Step forward until one panel of the player's position shows every share, and read their
    counts from that same panel at once (a panel is replaced as a whole when the position moves)."""
    script = """(bar, shares) => Object.fromEntries(shares.map(
        (share) => [share, bar.querySelector(`li[data-share='${share}']`)?.dataset.count ?? null]))"""
    for _ in range(steps):
        position = re.search(r"event (\d+)/", page.locator("[data-player='status']").inner_text()).group(1)
        expect(page.locator(f"#traffic .traffic-body[data-traffic-seq='{position}']")).to_have_count(1)
        counts = bar.evaluate(script, list(shares))
        if all(counts[share] is not None for share in shares):
            return {share: int(counts[share]) for share in shares}
        step_forward(page)
    raise AssertionError(f"no panel showed all of {shares} within {steps} steps")


def test_a_canary_by_weight_gets_about_a_tenth_of_the_requests(page: Page, server_url: str, screenshot_path):
    open_gallery_copy(page, server_url, CANARY)
    play_to_the_end(page)
    expect(page.locator(".traffic h3")).to_have_text("Traffic")
    main = flow(page, "Ingress/app.example.com/")
    expect(main.locator(".flow-canary")).to_contain_text("weight 50 of 100")  # widened at 60 s

    seek_to_event(page, "Started", "shop-canary")  # 1 s: the canary started, at weight 10
    backends = main.locator("[data-bar='backends']")
    # ... and Ready, with the stable pods, in the frames after it (a change without an event of its own)
    counts = counts_once_shown(page, backends, ("shop-canary", "shop"))
    expect(main.locator(".flow-canary")).to_contain_text("weight 10 of 100")
    canary, stable = counts["shop-canary"], counts["shop"]
    assert canary + stable == 100 and 3 <= canary <= 20, (canary, stable)
    expect(main.locator("[data-bar='versions'] li[data-share='v2']")).to_contain_text(f"({canary}%)")
    header = flow(page, "Ingress/app.example.com/ X-Canary: always")
    expect(header.locator("[data-bar='backends'] li[data-share='shop-canary']")).to_have_attribute("data-count", "100")

    # A request of one's own: the header sends every request to the canary.
    probe = page.locator("form[data-traffic-probe]")
    probe.locator("input[name=host]").fill("app.example.com")
    probe.locator("input[name=path]").fill("/cart")
    probe.locator("input[name=header]").fill("X-Canary: never")
    probe.get_by_role("button", name="Send").click()
    own = flow(page, "own Ingress/app.example.com/cart X-Canary: never")
    expect(own.locator("[data-bar='backends'] li[data-share='shop']")).to_have_attribute("data-count", "100")
    page.screenshot(path=screenshot_path, full_page=True)
    page.locator("section.traffic").screenshot(path=screenshot_path.with_name(screenshot_path.stem + "-panel.png"))


def test_a_node_going_down_shows_failures_then_recovery_as_the_player_moves(
    page: Page, server_url: str, screenshot_path
):
    open_gallery_copy(page, server_url, NODE_DOWN)
    # Never more than one traffic request in flight, however fast the player moves.
    in_flight: list[int] = [0, 0]  # now, most

    def started(request) -> None:
        if "/traffic?" in request.url:
            in_flight[0] += 1
            in_flight[1] = max(in_flight)

    def ended(request) -> None:
        if "/traffic?" in request.url:
            in_flight[0] -= 1

    page.on("request", started)
    page.on("requestfinished", ended)
    page.on("requestfailed", ended)
    play_to_the_end(page)
    failing = page.locator("#traffic .flow.has-failures")
    expect(page.locator("#traffic .flow")).to_have_count(2)
    expect(failing).to_have_count(0)  # worker1 came back at 120 s

    seek_to_event(page, "NodeNotSchedulable")  # 40 s: worker1 down for 10 s, still Ready in the API
    node_port = flow(page, "Service/default/web-np")
    expect(node_port).to_have_class(re.compile("has-failures"))
    expect(node_port.locator("[data-bar='pods'] li.failed")).to_have_count(2)
    expect(node_port).to_contain_text("endpoint on a node that is down: timeout")
    expect(node_port).to_contain_text("node address unreachable: the node is down")
    expect(page.locator(".traffic-down")).to_contain_text("worker1 is down: the API server still reports it Ready")
    balancer = flow(page, "Service/default/web-lb")
    expect(balancer).not_to_have_class(re.compile("has-failures"))
    expect(balancer.locator("[data-bar='received by'] li[data-share='worker1']")).to_have_count(0)
    page.screenshot(path=screenshot_path, full_page=True)
    page.locator("section.traffic").screenshot(path=screenshot_path.with_name(screenshot_path.stem + "-panel.png"))

    step_until(page, "NodeNotReady", "pod/")  # 80 s: the pod is out of the endpoints
    expect(node_port.locator("[data-bar='pods'] li.failed")).to_have_count(1)
    expect(node_port).not_to_contain_text("timeout")

    # Play on from there: the panel follows the player, and the failures end when worker1 is back.
    page.locator("[data-player='speed']").select_option("20")
    page.get_by_role("button", name="Play").click()
    expect(failing).to_have_count(0, timeout=20_000)
    expect(page.locator(".traffic-down")).to_have_count(0)
    assert in_flight[1] == 1, in_flight
