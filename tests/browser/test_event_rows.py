"""The event log "as kubectl events" (issue #16, item 6): the page's event-rows.js gathers the rows
the engine's correlator named and prints ages as scheduler_core/store/event_correlation.py does;
and in the player, the switch turns the step log into kubectl's list at the player's time."""

import json
import re

import pytest
from playwright.sync_api import Page, expect

from playground.run_frames import RunFrames
from playground.run_simulations import run_options
from scheduler_core.api.manifests import load_manifests
from scheduler_core.simulation.simulation import Simulation
from scheduler_core.store.event_correlation import correlate, event_rows, human_duration, last_seen
from tests.browser.player import play_to_the_end
from tests.browser.test_board import open_gallery_copy
from tests.core.controllers.node_health_helpers import DATA

pytestmark = pytest.mark.browser

SCENARIO = (DATA / "preemption_nominated_while_victims_terminate.yaml").read_text()
AGES = [-5, -0.5, 0, 59.9, 119, 120, 125, 599, 600, 10799, 10800, 10860, 28800, 172800, 176400, 691200, 63072000]


def test_the_page_prints_ages_and_gathers_rows_as_the_engine_does(page: Page, server_url: str):
    manifests = load_manifests(SCENARIO, source="scenario")
    frames = json.loads(json.dumps(list(RunFrames(Simulation(manifests, seed=0, options=run_options(manifests))))))
    simulation = Simulation(load_manifests(SCENARIO), seed=0)
    simulation.run_to_end(3600)
    now = simulation.now
    expected = [
        (row.last.seq, last_seen(row, now), row.message) for row in event_rows(correlate(simulation.cluster.events))
    ]
    assert any("(x4 over" in shown for _, shown, _ in expected)
    page.goto(server_url + "/")
    ages, rows = page.evaluate(
        """async ([frames, ages, now]) => {
          const { kubectlAge, groupedRows, lastSeen, rowMessage } = await import('/static/js/event-rows.js');
          const times = new Map(frames.filter((f) => f.event).map((f) => [f.event.seq, f.event.time]));
          const rows = groupedRows(frames, frames.length, { limit: 1000, keep: null, timeOfSeq: (s) => times.get(s) });
          return [ages.map(kubectlAge), rows.map((row) => [row.last.seq, lastSeen(row, now), rowMessage(row.last)])];
        }""",
        [frames, AGES, now],
    )
    assert ages == [human_duration(age) for age in AGES]
    assert [tuple(row) for row in rows] == expected


def test_the_switch_shows_repeats_on_one_row_at_the_players_time(page: Page, server_url: str):
    open_gallery_copy(page, server_url, "Preemption: a high-priority pod makes room")
    play_to_the_end(page)
    log = page.locator("[data-player='log']")
    # Every event: the latecomer's fourth FailedScheduling is a row of its own, tagged as a repeat.
    latecomer = log.locator("tr", has_text="FailedScheduling").filter(has_text="pod/default/latecomer")
    expect(latecomer).to_have_count(4)
    expect(latecomer.last.locator(".repeat")).to_have_text(" x4")
    page.get_by_label("Count repeats").check()
    expect(latecomer).to_have_count(1)
    expect(latecomer.locator("td").first).to_have_text(re.compile(r"^\d+s \(x4 over \d+s\)$"))
    expect(page.locator("[data-log-when]")).to_have_text("LAST SEEN")
    # A new message starts a new series: the urgent pod's first attempt, then its two waits.
    urgent = log.locator("tr", has_text="FailedScheduling").filter(has_text="pod/default/urgent")
    expect(urgent).to_have_count(2)
    expect(urgent.first.locator("td").last).to_have_text("0/1 nodes are available: 1 Insufficient cpu.")
    expect(urgent.last.locator("td").first).to_have_text(re.compile(r"^\d+s \(x2 over \d+s\)$"))
    # Remembered: the page opened again lists the events the same way.
    page.reload()
    expect(page.get_by_label("Count repeats")).to_be_checked()
