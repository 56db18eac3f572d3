import re

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.big_scenarios import wide_deployment
from tests.browser.player import play_to_the_end
from tests.browser.test_board import node_card, open_gallery_copy
from tests.servers import create_scenario

pytestmark = pytest.mark.browser


def run_to_the_end(page: Page, server_url: str, title: str) -> Locator:
    """Opens a copy of a gallery scenario, runs it, and shows its last event; the player's status."""
    open_gallery_copy(page, server_url, title)
    play_to_the_end(page, timeout=15_000)
    return page.locator("[data-player='status']")


def run_a_wide_deployment(page: Page, server, nodes: int, replicas: int) -> None:
    """A new scenario of one wide Deployment, opened with its edit link and run to its last event."""
    links = create_scenario(server.env, wide_deployment(nodes=nodes, replicas=replicas))
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(server.url + links["edit"])
    expect(page.locator("html")).to_have_attribute("data-run-player", "ready")
    play_to_the_end(page)


def test_run_places_pods_as_the_engine_says_and_steps_back_and_forth(page: Page, server_url: str, screenshot_path):
    open_gallery_copy(page, server_url, "GPU node reserved with a taint")
    page.get_by_test_id("run").click()
    status = page.locator("[data-player='status']")
    expect(status).to_contain_text("finished", timeout=15_000)
    expect(page.get_by_role("button", name="Pause")).to_be_visible()  # a new run plays at once
    page.locator("[data-player='speed']").select_option("instant")
    expect(status).to_contain_text(re.compile(r"event (\d+)/\1 "))
    # web (no toleration) never lands on the tainted GPU node; pytorch2 is pinned there by nodeName.
    expect(node_card(page, "worker3").locator(".pod", has_text="pytorch2")).to_be_visible()
    expect(node_card(page, "worker3").locator(".pod", has_text="web")).to_have_count(0)
    log = page.locator("[data-player='log'] tr")
    expect(log.filter(has_text="Scheduled").first).to_be_visible()
    page.screenshot(path=screenshot_path, full_page=True)

    total = int(re.search(r"event \d+/(\d+)", status.inner_text()).group(1))
    page.get_by_role("button", name="Step back").click()
    expect(status).to_contain_text(f"event {total - 1}/{total} ")  # the player redraws, then says so
    # Back to the very start: no pod placed yet.
    page.locator("[data-player='seek']").fill("0")
    expect(page.locator("#board .pod")).to_have_count(0)
    page.get_by_role("button", name="Step forward").click()
    expect(status).to_contain_text("event 1/")


def test_a_reload_mid_run_comes_back_to_the_same_event(page: Page, server_url: str):
    open_gallery_copy(page, server_url, "Why is my pod Pending?")
    page.get_by_test_id("run").click()
    status = page.locator("[data-player='status']")
    expect(status).to_contain_text("finished", timeout=15_000)
    page.locator("[data-player='seek']").fill("1")
    expect(status).to_contain_text("event 1/")
    page.reload()
    expect(page.locator("[data-player='status']")).to_contain_text("event 1/", timeout=10_000)
    expect(page.locator("[data-player='log'] tr").first).to_contain_text("FailedScheduling")
    expect(page.locator("[data-player='log'] tr").first).to_contain_text("0/3 nodes are available")


def test_explain_panel_for_a_pending_pod_shows_the_reason(page: Page, server_url: str, screenshot_path):
    open_gallery_copy(page, server_url, "Why is my pod Pending?")
    page.get_by_test_id("run").click()
    expect(page.locator("[data-player='status']")).to_contain_text("finished", timeout=15_000)
    page.locator("[data-player='speed']").select_option("instant")
    pending = page.locator("[data-player='pending'] .pod", has_text="big")
    expect(pending).to_be_visible()
    pending.click()
    panel = page.locator("#explain")
    expect(panel).to_contain_text("Pending.")
    expect(panel).to_contain_text("0/3 nodes are available: 1 node(s) had untolerated taint")
    expect(panel.locator("tr[data-verdict-node='worker-1']")).to_contain_text("Insufficient cpu")
    expect(panel.locator(".fixes")).to_contain_text("toleration")  # a verified smallest fix
    # The board shows the verdicts: every node dims with its blocking reason.
    expect(node_card(page, "worker-1")).to_have_class(re.compile("blocked"))
    expect(node_card(page, "worker-1").locator(".verdict")).to_have_text("NodeResourcesFit: Insufficient cpu")
    page.screenshot(path=screenshot_path, full_page=True)
    panel.get_by_role("button", name="Close").click()
    expect(panel).to_have_count(0)
    expect(node_card(page, "worker-1").locator(".verdict")).to_have_count(0)


def test_acting_during_a_run_taints_a_node_and_the_run_continues_from_there(
    page: Page, server_url: str, screenshot_path
):
    run_to_the_end(page, server_url, "GPU node reserved with a taint")
    act = page.locator("form.act")
    act.locator("select[name=op]").select_option("taint")
    act.locator("select[name=target]").select_option("Node/worker2")
    act.locator("input[name=value]").fill("maintenance=true:NoExecute")
    act.get_by_role("button", name="Do it").click()
    expect(page.locator("[data-player='status']")).to_contain_text("finished", timeout=15_000)
    page.locator("[data-player='speed']").select_option("instant")
    log = page.locator("[data-player='log']")
    expect(log).to_contain_text("TaintManagerEviction", timeout=10_000)
    expect(page.locator("#workload")).to_have_value(re.compile("op: taint"))  # the editor follows the new version
    page.screenshot(path=screenshot_path, full_page=True)


def test_a_rolling_update_shows_the_replica_sets_side_by_side_within_the_limits(
    page: Page, server_url: str, screenshot_path
):
    open_gallery_copy(page, server_url, "Rolling update with maxSurge and maxUnavailable")
    page.get_by_test_id("run").click()
    status = page.locator("[data-player='status']")
    expect(status).to_contain_text("finished", timeout=20_000)
    page.get_by_role("button", name="Pause").click()
    rollouts = page.locator("[data-player='rollouts']")
    # Step through the whole run: at every event the pods stay within replicas + maxSurge (3 + 2).
    total = int(re.search(r"event \d+/(\d+)", status.inner_text()).group(1))
    page.locator("[data-player='seek']").fill("0")
    for _ in range(total):
        page.get_by_role("button", name="Step forward").click()
        text = rollouts.inner_text()
        match = re.search(r"pods (\d+) ≤ (\d+)", text)
        if match:
            assert int(match.group(1)) <= int(match.group(2)), text
    expect(rollouts.locator(".rs")).to_have_count(2)  # the old and the new ReplicaSet
    expect(rollouts).to_contain_text("Deployment nginx: 3 replicas")
    page.screenshot(path=screenshot_path, full_page=True)


def test_dragging_a_pending_pod_onto_a_node_asks_why_not_there(page: Page, server_url: str, screenshot_path):
    open_gallery_copy(page, server_url, "Why is my pod Pending?")
    page.get_by_test_id("run").click()
    expect(page.locator("[data-player='status']")).to_contain_text("finished", timeout=15_000)
    page.locator("[data-player='speed']").select_option("instant")
    pending = page.locator("[data-player='pending'] .pod", has_text="big")
    # The charts above the queue are drawn on the next animation frames: measure once they are.
    expect(page.locator("[data-chart='pods'] svg")).to_be_visible()
    page.wait_for_timeout(300)
    # A person drags within the window: scroll so that the queue and the node are both on screen.
    top = pending.evaluate("chip => chip.getBoundingClientRect().top + scrollY - 80")
    page.evaluate("top => window.scrollTo(0, top)", top)
    chip, card = pending.bounding_box(), node_card(page, "control-plane").bounding_box()
    page.mouse.move(chip["x"] + 5, chip["y"] + 5)
    page.mouse.down()
    page.mouse.move(chip["x"] + 25, chip["y"] + 25, steps=4)
    page.mouse.move(card["x"] + 60, card["y"] + 60, steps=8)
    page.mouse.up()
    answer = page.locator("#explain [data-why-not='control-plane']")
    expect(answer).to_contain_text("Why not control-plane?")
    expect(answer).to_contain_text("TaintToleration")
    expect(answer).to_contain_text("node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }")
    # From the keyboard: the panel's "why not?" link of another node asks the same question.
    page.locator("#explain a.why-link[href*='node=worker-1']").click()
    expect(page.locator("#explain [data-why-not='worker-1']")).to_contain_text("Insufficient cpu")
    page.locator("#explain").screenshot(path=screenshot_path)


def test_a_viewer_of_a_run_is_told_live_when_the_scenario_moves_on(page: Page, browser, server_url: str):
    scenario_url = open_gallery_copy(page, server_url, "GPU node reserved with a taint")
    page.get_by_test_id("run").click()
    expect(page.locator("[data-player='status']")).to_contain_text("finished", timeout=15_000)
    run_id = page.locator("#run-panel").get_attribute("data-run-id")
    viewer = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    viewer.goto(f"{scenario_url}?run={run_id}")
    expect(viewer.locator("[data-player='status']")).to_contain_text("finished", timeout=10_000)
    stale = viewer.get_by_test_id("stale-run")
    expect(stale).to_be_hidden()
    # While the run is shown the board is the run's: the editor goes back to the saved scenario to edit it.
    page.get_by_role("button", name="Show the saved scenario").click()
    node_card(page, "worker2").get_by_role("button", name="cordon").click()  # the editor makes v2
    expect(stale).to_be_visible(timeout=10_000)
    expect(stale).to_have_text("This run is of v1; the scenario is now v2.")
    expect(viewer.get_by_role("button", name="Re-run v2")).to_be_visible()


def test_an_hpas_load_is_a_slider_and_moving_it_acts_at_the_current_time(page: Page, server_url: str):
    open_gallery_copy(page, server_url, "HPA reacts on its 15-second loop")
    page.get_by_test_id("run").click()
    expect(page.locator("[data-player='status']")).to_contain_text("finished", timeout=15_000)
    act = page.locator("form.act")
    act.locator("select[name=op]").select_option("set-utilization")
    load = act.locator("input[name=value]")
    expect(load).to_have_attribute("type", "range")
    load.fill("250")
    expect(act.locator("[data-act='value-shown']")).to_have_text("250% of requests")
    act.locator("select[name=target]").select_option("Deployment/default/web")
    act.get_by_role("button", name="Do it").click()
    expect(page.locator("#workload")).to_have_value(re.compile(r"op: set-utilization\n.*cpu: 250", re.S))
    expect(page.locator("[data-player='status']")).to_contain_text("finished", timeout=15_000)


def test_a_taint_dropped_on_a_node_during_a_run_can_act_at_the_current_time(
    page: Page, server_url: str, screenshot_path
):
    run_to_the_end(page, server_url, "GPU node reserved with a taint")
    first_run = page.locator("#run-panel").get_attribute("data-run-id")
    taint = page.locator(".palette .chip.taint", has_text="maintenance=true:NoExecute")
    taint.drag_to(node_card(page, "worker2"))
    choice = node_card(page, "worker2").locator(".drop-choice")
    expect(choice).to_contain_text("Taint maintenance=true:NoExecute:")
    node_card(page, "worker2").screenshot(path=screenshot_path)
    choice.get_by_role("button", name=re.compile(r"^Act at \d+\.\ds$")).click()
    expect(page.locator("#run-panel")).not_to_have_attribute("data-run-id", first_run, timeout=10_000)
    expect(page.locator("#workload")).to_have_value(re.compile(r"op: taint\n\s+target: Node/worker2"))
    expect(node_card(page, "worker2").locator(".node-taints")).not_to_contain_text("maintenance")  # the node as defined
    page.locator("[data-player='speed']").select_option("instant")
    expect(page.locator("[data-player='log']")).to_contain_text("TaintManagerEviction", timeout=15_000)


def test_on_a_cluster_of_hundreds_of_nodes_the_act_target_is_typed_with_suggestions(
    page: Page, session_server, screenshot_path
):
    run_a_wide_deployment(page, session_server, nodes=400, replicas=20)
    act = page.locator("form.act")
    target = act.get_by_role("combobox", name=re.compile("Target: one of 401 nodes and workloads"))
    expect(target).to_be_visible(timeout=15_000)
    assert act.locator("select[name=target]").count() == 0
    expect(act.locator("datalist#act-targets option").first).to_have_attribute("value", "Deployment/default/web")
    act.locator("select[name=op]").select_option("cordon")
    target.fill("Node/node399")
    act.get_by_role("button", name="Do it").click()
    expect(page.locator("#workload")).to_have_value(re.compile("target: Node/node399"), timeout=15_000)
    target = page.locator("form.act").get_by_role("combobox", name=re.compile("Target"))
    target.fill("Node/node-typo")
    page.locator("form.act").get_by_role("button", name="Do it").click()
    expect(page.locator("form.act [role=alert]")).to_contain_text("Node/node-typo is not in this scenario")
    act = page.locator("form.act")  # as it was sent: nothing typed is lost
    expect(act.get_by_role("combobox", name=re.compile("Target"))).to_have_value("Node/node-typo")
    expect(act.locator("select[name=op]")).to_have_value("cordon")
    expect(act.locator("input[name=value]")).to_be_disabled()  # cordon takes no value
    page.screenshot(path=screenshot_path, full_page=False)


def test_a_tiles_bars_follow_the_run_to_the_share_each_tile_reads_out(page: Page, session_server):
    run_a_wide_deployment(page, session_server, nodes=20, replicas=200)
    expect(page.locator("#board")).to_have_attribute("data-density", "tiles")
    tile = page.locator("#board .tile[data-node='node003']")
    expect(tile).to_have_attribute("aria-label", re.compile(r"node003: \d+ pods, cpu [1-9]\d*%"))

    def bars_match_the_label() -> int:
        cpu, memory = re.search(r"cpu (\d+)%, memory (\d+)%", tile.get_attribute("aria-label")).groups()
        expect(tile.locator(".tile-bar .fill[data-resource='cpu']")).to_have_class(f"fill w{cpu}")
        expect(tile.locator(".tile-bar .fill[data-resource='memory']")).to_have_class(f"fill w{memory}")
        width = tile.locator(".tile-bar").first.bounding_box()["width"]
        filled = tile.locator(".tile-bar .fill[data-resource='cpu']").bounding_box()["width"]
        assert abs(filled - width * int(cpu) / 100) < 1  # drawn that long
        return int(cpu)

    at_the_end = bars_match_the_label()
    total = int(page.locator("[data-player='seek']").get_attribute("max"))
    page.locator("[data-player='seek']").fill(str(total // 3))  # back, with fewer pods placed
    expect(tile).not_to_have_attribute("aria-label", re.compile(rf"cpu {at_the_end}%"))
    assert bars_match_the_label() < at_the_end
