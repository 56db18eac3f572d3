"""The run's views beyond the board: node bars that follow the player, the Charts section and the
progress bar. Figures are the engine's for the gallery scenarios (seed 0)."""

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.player import play_to_the_end
from tests.browser.test_board import node_card, open_gallery_copy

pytestmark = pytest.mark.browser

ROLLING_UPDATE = "Rolling update with maxSurge and maxUnavailable"
TOPOLOGY_SPREAD = "topologySpreadConstraints: even across zones and nodes"


def seek(page: Page, position: int) -> None:
    page.locator("[data-player='seek']").fill(str(position))
    expect(page.locator("[data-player='status']")).to_contain_text(f"event {position}/")


def bar_text(page: Page, node: str, resource: str) -> Locator:
    return node_card(page, node).locator(f".bar-row[data-resource='{resource}'] .bar-text")


def cursor_x(chart: Locator) -> float:
    return float(chart.locator(".chart-cursor").get_attribute("x1"))


def test_node_bars_show_what_is_requested_at_the_players_event(page: Page, server_url: str, screenshot_path):
    open_gallery_copy(page, server_url, ROLLING_UPDATE)
    # Before any run: the server's t=0 preview, two 100m replicas on worker1 and one on worker2.
    expect(bar_text(page, "worker1", "cpu")).to_have_text("200m / 4")
    total = play_to_the_end(page)
    assert total == 48  # 41 events, 6 frames of changes without an event (pods turning Ready, gone), the end
    # At the end only the new ReplicaSet's three 100m pods are left: one on worker1, two on worker2.
    expect(bar_text(page, "worker1", "cpu")).to_have_text("100m / 4")
    expect(bar_text(page, "worker2", "cpu")).to_have_text("200m / 4")
    expect(bar_text(page, "worker2", "pods")).to_have_text("2 / 110")
    expect(bar_text(page, "worker2", "memory")).to_have_text("0 / 16Gi")
    # At t=20 s the image changes: maxSurge 2 adds three new pods beside the three old ones, and the
    # two old ones being deleted still hold their requests (Terminating, 10 s grace).
    seek(page, 31)  # the third new pod's Scheduled event
    expect(bar_text(page, "worker1", "cpu")).to_have_text("300m / 4")
    expect(bar_text(page, "worker1", "pods")).to_have_text("3 / 110")
    expect(node_card(page, "worker1").locator(".bar-row[data-resource='cpu'] .fill")).to_have_attribute("width", "8")
    # Event 0: nothing placed yet.
    seek(page, 0)
    expect(bar_text(page, "worker1", "cpu")).to_have_text("0 / 4")
    expect(bar_text(page, "worker1", "pods")).to_have_text("0 / 110")
    # Every event is a frame: the Deployment scales up first, then each pod is created, then placed.
    page.get_by_role("button", name="Step forward").click()
    expect(bar_text(page, "worker1", "cpu")).to_have_text("0 / 4")  # ScalingReplicaSet: no pod yet
    seek(page, 6)  # Scheduled nginx-…-8lw58 to worker1
    expect(bar_text(page, "worker1", "cpu")).to_have_text("100m / 4")
    page.get_by_role("button", name="Step forward").click()  # Scheduled nginx-…-f6d4n to worker1
    expect(bar_text(page, "worker1", "cpu")).to_have_text("200m / 4")
    page.screenshot(path=screenshot_path, full_page=True)


def test_charts_follow_the_player_and_a_click_seeks(page: Page, server_url: str, screenshot_path):
    open_gallery_copy(page, server_url, ROLLING_UPDATE)
    total = play_to_the_end(page)
    charts = page.locator("[data-run-charts]")
    expect(charts).to_have_attribute("open", "")
    pods = charts.locator("[data-chart='pods']")
    replicas = charts.locator("[data-chart='replicas']")
    expect(pods.locator("path.chart-area")).to_have_count(2)  # worker1, worker2 (no zone labels)
    expect(pods.locator(".chart-toggle")).to_be_hidden()
    expect(pods.locator(".chart-legend")).to_contain_text("worker1: 1")
    expect(pods.locator(".chart-legend")).to_contain_text("worker2: 2")
    expect(replicas.locator("path.chart-series")).to_have_count(2)  # nginx ready, and desired dashed
    expect(replicas.locator("path.chart-series.dashed")).to_have_count(1)
    expect(replicas.locator(".chart-legend")).to_have_text("nginx: 3/3 ready")
    described = re.compile(r"Pods per node over time, stacked, 0 to 36 simulated seconds")
    expect(pods.locator("svg")).to_have_attribute("aria-label", described)
    requested = charts.locator("[data-chart='requested']")
    expect(requested.locator("rect[data-node]")).to_have_count(4)  # cpu and memory of two nodes
    expect(requested.locator("h4")).to_have_text("Requested / allocatable at t=36.0s")
    expect(requested.locator("svg")).to_have_attribute("aria-label", re.compile(r"worker2 cpu 200m/4\b"))
    at_end = cursor_x(pods)

    seek(page, 0)
    expect(pods.locator(".chart-legend")).to_contain_text("worker1: 0")
    at_start = cursor_x(pods)
    assert at_start < at_end
    assert cursor_x(replicas) == at_start

    # A click at t=25 s shows the cluster there: every frame up to t=21 s applied (frame 41), the
    # new pods started, none of them Ready yet (the first is at 26 s): the old pod left is the ready one.
    svg = pods.locator("svg")
    width = float(svg.get_attribute("viewBox").split()[2])
    end = float(svg.get_attribute("data-end"))  # the time axis runs a little past the last event
    box = svg.bounding_box()
    left, right = 40, width - 12  # the plot area (svg-chart.js SIZE)
    svg.click(position={"x": (left + 25 / end * (right - left)) * box["width"] / width, "y": 60})
    expect(page.locator("[data-player='status']")).to_contain_text(f"event 41/{total}")
    expect(replicas.locator(".chart-legend")).to_have_text("nginx: 1/3 ready")
    assert at_start < cursor_x(pods) < at_end
    expect(bar_text(page, "worker2", "cpu")).to_have_text("300m / 4")
    page.screenshot(path=screenshot_path, full_page=True)
    charts.screenshot(path=screenshot_path.with_name(f"{screenshot_path.stem}-charts.png"))

    # Collapsed, the section stays collapsed for the next run.
    charts.locator("summary").click()
    expect(charts).not_to_have_attribute("open", "")
    page.reload()
    expect(page.locator("[data-run-charts]")).not_to_have_attribute("open", "")


def test_pods_per_zone_with_a_toggle_to_nodes(page: Page, server_url: str, screenshot_path):
    open_gallery_copy(page, server_url, TOPOLOGY_SPREAD)
    play_to_the_end(page)
    pods = page.locator("[data-chart='pods']")
    expect(pods.locator("h4")).to_have_text("Pods per zone")
    expect(pods.locator("path.chart-area")).to_have_count(2)
    expect(pods.locator(".chart-legend")).to_have_text(re.compile(r"zone-a: 3\s*zone-b: 3"))
    pods.get_by_role("button", name="node").click()
    expect(pods.locator("h4")).to_have_text("Pods per node")
    expect(pods.locator("path.chart-area")).to_have_count(4)
    expect(pods.get_by_role("button", name="node")).to_have_attribute("aria-pressed", "true")
    # Six 100m / 64Mi replicas, two nodes with two: maxSkew 1 across zones and across nodes.
    requested = page.locator("[data-chart='requested'] svg")
    expect(requested).to_have_attribute("aria-label", re.compile(r"node-a-1 cpu 200m/4, node-a-1 memory 128Mi/16Gi"))
    page.screenshot(path=screenshot_path, full_page=True)
    page.locator("[data-run-charts]").screenshot(path=screenshot_path.with_name(f"{screenshot_path.stem}-charts.png"))


def test_the_progress_bar_shows_received_and_played_events(page: Page, server_url: str):
    open_gallery_copy(page, server_url, ROLLING_UPDATE)
    total = play_to_the_end(page)
    progress = page.locator("[data-run-progress]")
    expect(progress).to_have_attribute("aria-valuenow", "100")
    expect(progress).not_to_have_class(re.compile("running"))
    expect(progress).to_have_attribute(
        "aria-valuetext", re.compile(rf"{total} events received up to t=36.0s, finished")
    )
    played = progress.locator(".run-progress-played")
    inside = progress.bounding_box()["width"] - 2  # within the 1px border
    assert played.bounding_box()["width"] == pytest.approx(inside, abs=1)
    seek(page, 21)
    expect(progress).to_have_attribute("aria-valuetext", re.compile(r"showing event 21$"))
    share = played.bounding_box()["width"] / inside
    assert share == pytest.approx(21 / total, abs=0.01)


def test_a_run_without_deployments_says_so_and_counts_its_nodes(page: Page, server_url: str):
    open_gallery_copy(page, server_url, "Why is my pod Pending?")
    play_to_the_end(page)
    replicas = page.locator("[data-chart='replicas']")
    expect(replicas.locator(".chart-note")).to_have_text("No Deployment in this run.")
    expect(replicas.locator("svg")).to_be_hidden()
    pods = page.locator("[data-chart='pods']")
    expect(pods.locator("path.chart-area")).to_have_count(3)  # three nodes; the one pod stays Pending
    expect(pods.locator(".chart-legend li")).to_have_count(3)
    expect(page.locator("[data-chart='requested'] rect[data-node]")).to_have_count(6)
