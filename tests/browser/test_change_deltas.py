"""The page's change-deltas.js turns a run's stored frames back into whole ones exactly as
playground/change_deltas.expand does: the frames of a real run with deletions and re-creations."""

import json

import pytest
from playwright.sync_api import Page

from playground.change_deltas import expand
from playground.run_frames import RunFrames
from playground.run_simulations import run_options
from scheduler_core.api.manifests import load_manifests
from scheduler_core.simulation.simulation import Simulation
from tests.browser.big_scenarios import wide_deployment

pytestmark = pytest.mark.browser

ROLLOUT = """
---
apiVersion: playground/v1
kind: Action
spec: {at: 5s, op: set-image, target: Deployment/web, image: "nginx:2"}
"""


def run_frames() -> list[dict]:
    document = "---\n".join(wide_deployment(nodes=4, replicas=12).split("---\n")[1:])
    manifests = load_manifests(document + ROLLOUT, source="scenario")
    return json.loads(json.dumps(list(RunFrames(Simulation(manifests, seed=0, options=run_options(manifests))))))


def test_the_page_expands_stored_frames_as_the_server_does(page: Page, server_url: str):
    stored = run_frames()
    assert any(change["op"] == "pod-" for frame in stored for change in frame["changes"])  # the rollout deletes
    assert any(change["op"] == "pod~" for frame in stored for change in frame["changes"])
    page.goto(server_url + "/")
    expanded = page.evaluate(
        """async (frames) => {
          const { expandFrame } = await import('/static/js/change-deltas.js');
          const shown = new Map();
          return frames.map((frame) => expandFrame(frame, shown));
        }""",
        stored,
    )
    assert expanded == list(expand(stored))
