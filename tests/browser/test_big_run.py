"""A 500-node, 2,000-pod run plays in Chromium at 20x: the player keeps pace with its clock, the page
keeps drawing, and the scrubber can be dragged end to end and back.

A regression guard, not the bar: its bounds hold on a loaded 2-core machine, and catch a player that
falls behind or a page that freezes for seconds. How smoothly it plays is scripts/bench-playback's to
measure (issue #13's bars, p95 frame gap 50 ms and no long task over 100 ms, and the README's figures),
on the same scenario and with the same measurements (tests/browser/playback.py).
"""

import json

import pytest
from playwright.sync_api import Page, expect

from tests.browser import playback
from tests.servers import DaphneServer

pytestmark = pytest.mark.browser

NODES, PODS, ZONES = playback.BIG_RUN["nodes"], playback.BIG_RUN["replicas"], playback.BIG_RUN["zones"]


def test_a_2000_pod_run_on_500_nodes_plays_at_20x_and_seeks(page: Page, session_server: DaphneServer, screenshot_path):
    links = playback.big_run_scenario(session_server.env, NODES, PODS, ZONES)
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(session_server.url + links["view"])
    expect(page.locator("html[data-run-player='ready']")).to_have_count(1)
    total = playback.run_to_the_end(page)
    assert total > 10_000  # every pod scheduled, pulled, created, started, plus the frames between

    # From a quarter in: the pods land on their nodes one event after another (before, the run only
    # creates them, and the board does not change).
    played = playback.measure_playback(page, speed=20, seconds=10, start=total // 4)
    page.screenshot(path=screenshot_path)
    seeking = playback.measure_seeking(page)
    report = {"density": playback.board_density(page), "20x": played.as_dict(), "seeking": seeking.as_dict()}
    print(json.dumps(report))
    # Keeping pace: every frame here is at t=0, so at 20x they are due 10 ms apart (STEP_MS / 20 in
    # run-player.js), about 1,000 in 10 s; a slow drawing shows several at once, never fewer.
    assert played.frames_shown >= 0.8 * played.frames_at_step_pace, report
    # Drawing: at least twice a second, and no stall of the main thread of a second or more.
    assert played.animation_frames >= 20, report
    assert played.frame_gap_p95_ms <= 1000, report
    assert played.longest_task_ms <= 1500, report
    # Seeking: every move of the thumb is drawn, backward ones (a replay from the first event) too,
    # and the last one lands where the thumb was let go, a tenth of the way in.
    assert seeking.seeks >= 20, report
    assert seeking.seek_max_ms <= 3000, report
    _, shown, _ = playback.status_numbers(page)
    assert 0 < shown < total / 4, report
