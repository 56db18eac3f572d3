import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.player import step_forward
from tests.browser.test_board import node_card
from tests.browser.test_runs import run_to_the_end

pytestmark = pytest.mark.browser


def seek_to_event(page: Page, text: str) -> None:
    """Clicking a row of the event log moves the player to that event (the log lists the events
    played so far, so this moves back; step_until moves forward)."""
    page.locator("[data-player='log'] tr", has_text=text).first.click()


def step_until(page: Page, time: str, steps: int = 20) -> None:
    status = page.locator("[data-player='status']")
    for _ in range(steps):
        if time in status.inner_text():
            return
        step_forward(page)
    expect(status).to_contain_text(time)


def step_until_class(page: Page, locator, name: str, steps: int = 10) -> None:
    """Step forward until `locator` has the class: the events of one instant are frames of their
    own, so what happens at a time may come a few events after the clock reached it."""
    for _ in range(steps):
        if re.search(rf"\b{name}\b", locator.get_attribute("class") or ""):
            return
        step_forward(page)
    expect(locator).to_have_class(re.compile(rf"\b{name}\b"))


def test_a_tolerated_noexecute_taint_shows_a_countdown_that_follows_the_players_time(
    page: Page, server_url: str, screenshot_path
):
    run_to_the_end(page, server_url, "NoExecute taints evict, tolerationSeconds delays")
    pod = node_card(page, "worker3").locator(".pod", has_text="for-a-minute")
    # The taint lands at 10 s; the pod tolerates it for 60 s.
    seek_to_event(page, "Marking for deletion Pod default/intolerant")
    expect(page.locator("[data-player='status']")).to_contain_text("t=10.0s")
    expect(pod.locator(".evict-countdown")).to_have_text("evicted in 60s")
    expect(pod).to_have_class(re.compile("evicting"))
    # The pod that tolerates nothing is marked for deletion at once, and says why while it terminates.
    intolerant = node_card(page, "worker3").locator(".pod", has_text="intolerant")
    expect(intolerant.locator(".preempted-badge")).to_have_text("evicted: taint")
    page.screenshot(path=screenshot_path, full_page=True)
    step_until(page, "t=20.0s")  # the next events: the Pending pod's, at 20 s
    expect(pod.locator(".evict-countdown")).to_have_text("evicted in 50s")
    # At 70 s the deletion is done: the pod terminates and the countdown is gone.
    step_until(page, "t=70.0s")
    step_until_class(page, pod, "deleting")
    expect(pod.locator(".evict-countdown")).to_have_count(0)
    # Pods tolerating the taint forever get no countdown.
    expect(node_card(page, "worker3").locator(".pod", has_text="pytorch2").locator(".evict-countdown")).to_have_count(0)


def test_the_budget_gauge_shows_no_disruption_allowed_while_a_drain_waits(page: Page, server_url: str, screenshot_path):
    run_to_the_end(page, server_url, "Drain held back by a PodDisruptionBudget")
    gauge = page.locator("[data-run-pdbs] .pdb-gauge")
    seek_to_event(page, "NodeSchedulable")  # 30 s, before the drain: three healthy of two desired
    expect(gauge).to_have_count(1)
    expect(gauge.locator(".pdb-allowed")).to_have_text("1 disruption allowed")
    expect(gauge).not_to_have_class(re.compile("blocked"))
    step_until(page, "t=40.0s")  # the drain: one pod evicted, the others refused
    step_until_class(page, gauge, "blocked")
    expect(gauge.locator(".pdb-allowed")).to_have_text("0 disruptions allowed")
    expect(gauge).to_have_class(re.compile("blocked"))
    for _ in range(10):  # the evicted pod counts as healthy until its own frame takes it off
        if "2 healthy" in gauge.inner_text():
            break
        step_forward(page)
    expect(gauge).to_contain_text("2 healthy · 2 desired")
    expect(gauge).to_contain_text("a drain waits")
    expect(gauge.locator(".pdb-cells li.needed")).to_have_count(2)
    gauge.scroll_into_view_if_needed()
    page.screenshot(path=screenshot_path, full_page=True)


def test_preemption_victims_are_marked_and_the_explain_panel_says_why(page: Page, server_url: str, screenshot_path):
    run_to_the_end(page, server_url, "Preemption: a high-priority pod makes room")
    seek_to_event(page, "Preempted")  # the first victim's event: it is marked, the next not yet
    board = node_card(page, "node-1")
    expect(board.locator(".pod", has_text="low-1").locator(".preempted-badge")).to_have_text("preempted")
    expect(board.locator(".pod", has_text="low-2")).not_to_have_class(re.compile("preempted"))
    for _ in range(4):  # each victim: deleted (Killing), then its Preempted event
        step_forward(page)
    for name in ("low-1", "low-2", "low-3"):
        expect(board.locator(".pod", has_text=name)).to_have_class(re.compile("preempted"))
    expect(board.locator(".pod.preempted")).to_have_count(3)
    expect(board.locator(".pod", has_text="low-0").locator(".preempted-badge")).to_have_count(0)

    # Nominated while its victims terminate, the pod preempts no one else: it waits for them.
    page.locator("[data-player='pending'] .pod", has_text="urgent").click()
    panel = page.locator("#explain")
    waiting = panel.locator("[data-preemption] [data-terminating-victim]")
    expect(waiting).to_have_count(3)
    expect(panel.locator("[data-preemption-waiting]")).to_contain_text("Nominated to node-1")
    panel.get_by_role("button", name="Close").click()

    # At its FailedScheduling event, before any victim went, the dry run's choice and its victims.
    page.locator("[data-player='log'] tr", has_text="FailedScheduling").filter(has_text="urgent").first.click()
    page.locator("[data-player='pending'] .pod", has_text="urgent").click()
    preemption = panel.locator("[data-preemption]")
    expect(preemption).to_contain_text("Evicting 3 pods on node-1")
    expect(preemption.locator("[data-criterion]")).to_have_text("only candidate")
    victims = preemption.locator("tr[data-preemption-node='node-1'] .victims li")
    expect(victims).to_have_count(3)
    expect(victims.first).to_contain_text("default/low-3")  # the youngest, lowest priority first
    panel.scroll_into_view_if_needed()
    page.screenshot(path=screenshot_path, full_page=True)

    # The latecomer has nobody of lower priority to preempt: upstream's message says so.
    panel.get_by_role("button", name="Close").click()
    page.locator("[data-player='pending'] .pod", has_text="latecomer").click()
    expect(page.locator("#explain [data-preemption-message]")).to_have_text(
        "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."
    )
