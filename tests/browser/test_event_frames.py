"""Every event is a frame (#13): stepping the player one event moves the board by exactly that
event's changes, and the board at an event is the engine's cluster right after it, as the CLI
(`simulate --at-event N`) computes it on its own."""

import json
import subprocess
import sys

import pytest
from playwright.sync_api import Page, expect

from tests.browser.player import play_to_the_end
from tests.browser.test_board import open_gallery_copy

pytestmark = pytest.mark.browser

# Six replicas placed at t=0, one Scheduled event each: before this, all six came with the first event.
SCENARIO = "topologySpreadConstraints: even across zones and nodes"

PODS_ON_THE_BOARD = """() => Object.fromEntries([...document.querySelectorAll('#board [data-node] [data-pod]')]
  .map((pod) => [pod.dataset.pod, pod.closest('[data-node]').dataset.node]))"""

LOG = """rows => rows.map((row) =>
  [Number(row.dataset.frame), row.children[2].textContent, row.children[3].textContent])"""


def board(page: Page, position: int) -> dict[str, str]:
    page.locator("[data-player='seek']").fill(str(position))
    expect(page.locator("[data-player='status']")).to_contain_text(f"event {position}/")
    page.wait_for_timeout(100)  # one animation frame: the board is drawn on the next one
    return page.evaluate(PODS_ON_THE_BOARD)


def engine_placement(document: str, event: int) -> dict[str, str]:
    """Where the engine has each pod right after its event `event`, from the command line."""
    command = [sys.executable, "-m", "scheduler_core", "simulate", "-f", "-", "--at-event", str(event), "-o", "json"]
    answer = subprocess.run(command, input=document, capture_output=True, text=True, check=True)
    pods = json.loads(answer.stdout)["pods"]
    return {f"{pod['namespace']}/{pod['name']}": pod["node"] for pod in pods if pod["node"]}


def cluster_document(page: Page, url: str) -> str:
    """The scenario as the engine reads it: its export without the playground's own header."""
    exported = page.request.get(url + "/export.yaml").text()
    documents = [part for part in exported.split("\n---\n") if "kind: Scenario" not in part]
    return "\n---\n".join(documents)


def test_each_scheduled_event_places_exactly_its_pod_as_the_engine_does(page: Page, server_url: str):
    url = open_gallery_copy(page, server_url, SCENARIO)
    document = cluster_document(page, url)
    play_to_the_end(page)
    log = page.locator("[data-player='log'] tr[data-frame]").evaluate_all(LOG)
    scheduled = [
        (number, frame, target) for number, (frame, reason, target) in enumerate(log, 1) if reason == "Scheduled"
    ]
    assert len(scheduled) == 6
    for number, frame, target in scheduled:
        pod = target.removeprefix("pod/")
        before, after = board(page, frame), board(page, frame + 1)
        moved = {key: node for key, node in after.items() if before.get(key) != node}
        assert list(moved) == [pod], f"event {number} (Scheduled {pod}) moved {moved}"
        assert set(before) - set(after) == set()  # and took no pod off the board
        assert after == engine_placement(document, number), f"the board after event {number}"


def test_stepping_forward_one_event_shows_that_event_and_no_later_one(page: Page, server_url: str):
    open_gallery_copy(page, server_url, SCENARIO)
    play_to_the_end(page)
    log = page.locator("[data-player='log'] tr[data-frame]").evaluate_all(LOG)
    first, second = [frame for frame, reason, _ in log if reason == "Scheduled"][:2]
    shown = board(page, first)
    page.get_by_role("button", name="Step forward").click()
    expect(page.locator("[data-player='status']")).to_contain_text(f"event {first + 1}/")
    page.wait_for_timeout(100)
    assert len(page.evaluate(PODS_ON_THE_BOARD)) == len(shown) + 1
    assert second > first  # the next pod waits for its own event


def test_the_explanation_at_an_early_event_knows_no_later_pod(page: Page, server_url: str):
    """At the first Scheduled event no other replica is placed yet, so PodTopologySpread's filter
    (maxSkew 1, DoNotSchedule) lets every node through. On the state at the end of that instant,
    with the five replicas placed after it, it would reject the nodes that already hold one."""
    open_gallery_copy(page, server_url, SCENARIO)
    play_to_the_end(page)
    log = page.locator("[data-player='log'] tr[data-frame]").evaluate_all(LOG)
    frame, _, target = next(entry for entry in log if entry[1] == "Scheduled")
    board(page, frame + 1)
    page.locator(f"#board .pod[data-pod='{target.removeprefix('pod/')}']").click()
    rows = page.locator("#explain tr[data-verdict-node]")
    expect(rows).to_have_count(4)
    expect(page.locator("#explain tr[data-verdict-node][data-feasible='true']")).to_have_count(4)


# The board's motion on pods (a ghost flying to the pod's node, a fade, a pop-in), made by script:
# not the style sheet's own animations (a Pending pod's pulse).
RUNNING_ANIMATIONS = """() => document.getAnimations().filter((animation) => animation.playState === 'running'
  && !(animation instanceof CSSAnimation) && !(animation instanceof CSSTransition)
  && animation.effect?.target?.matches?.('.pod-ghost, [data-pod]')).length"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_placement_is_drawn_as_motion_unless_motion_is_reduced(page: Page, server_url: str, motion: str):
    page.emulate_media(reduced_motion=motion)
    open_gallery_copy(page, server_url, SCENARIO)
    play_to_the_end(page)
    log = page.locator("[data-player='log'] tr[data-frame]").evaluate_all(LOG)
    frame = next(frame for frame, reason, _ in log if reason == "Scheduled")
    board(page, frame)
    page.locator("[data-player='speed']").select_option("5")  # motion is for the slower speeds
    page.get_by_role("button", name="Step forward").click()
    expect(page.locator("[data-player='status']")).to_contain_text(f"event {frame + 1}/")
    if motion == "reduce":
        page.wait_for_timeout(150)
        assert page.evaluate(RUNNING_ANIMATIONS) == 0
    else:  # the pod flies to (or pops in on) its node: one step, one animation
        page.wait_for_timeout(50)
        assert page.evaluate(RUNNING_ANIMATIONS) >= 1
