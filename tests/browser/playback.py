"""Measuring a run's playback in the page, for tests/browser/test_big_run.py (a loose regression
guard) and scripts/bench-playback (the figures in the README): the gaps between animation frames, the
main thread's long tasks, how far the player got, and what a seek costs while the scrubber is dragged.

Everything is measured by the page itself (requestAnimationFrame, the Long Tasks API), so Playwright's
round trips do not count; the page is driven only through its controls, as a person drives it.
"""

import re
import statistics
from dataclasses import asdict, dataclass

from playwright.sync_api import Page, expect

from tests.browser.big_scenarios import wide_deployment
from tests.servers import create_scenario

# The size issue #13 sets the bar at: 500 nodes on one screen, 2,000 pods, in three zones.
BIG_RUN = {"nodes": 500, "replicas": 2000, "zones": 3}
# run-player.js STEP_MS: frames at one simulated instant are at least STEP_MS / speed apart, so in
# `seconds` the player can show at most seconds * 1000 * speed / STEP_MS of them.
STEP_MS = 200

# Starts (once) counting the gaps between animation frames and the long tasks (over 50 ms, the Long
# Tasks API's threshold) of the main thread; called again, starts the counts afresh.
WATCH_FRAMES = """() => {
  window.__frames = [];
  window.__longTasks = [];
  if (window.__watching) return;
  window.__watching = true;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
  }).observe({ type: "longtask" });
  let last = performance.now();
  const tick = (now) => { window.__frames.push(now - last); last = now; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
}"""

# Times every seek of the scrubber from its input event to the end of the drawing that shows it: the
# player draws on the next animation frame, our frame callback runs after its own (registered later),
# and a message posted there is delivered once that frame is painted.
WATCH_SEEKS = """() => {
  window.__seeks = [];
  if (window.__watchingSeeks) return;
  window.__watchingSeeks = true;
  const painted = new MessageChannel();
  const waiting = [];
  painted.port1.onmessage = () => {
    const now = performance.now();
    for (const start of waiting.splice(0)) window.__seeks.push(now - start);
  };
  document.addEventListener("input", (event) => {
    if (!event.target.matches?.("#run-panel [data-player='seek']")) return;
    const start = event.timeStamp;
    requestAnimationFrame(() => { waiting.push(start); painted.port2.postMessage(null); });
  });
}"""


def big_run_scenario(env: dict[str, str], nodes: int, pods: int, zones: int = 3) -> dict[str, str]:
    """One wide Deployment of `pods` pods on `nodes` nodes, in the server's database; its links."""
    return create_scenario(env, wide_deployment(nodes=nodes, replicas=pods, zones=zones))


def status_numbers(page: Page) -> tuple[float, int, int]:
    """The player's status line: (simulated time, events shown, events received)."""
    return parse_status(page.locator("[data-player='status']").inner_text())


def parse_status(text: str) -> tuple[float, int, int]:
    time, shown, total = re.search(r"t=([\d.]+)s · event (\d+)/(\d+)", text).groups()
    return float(time), int(shown), int(total)


def run_to_the_end(page: Page, timeout: float = 300_000) -> int:
    """Presses Run and waits until the run has finished and every event has arrived; the number of
    events. A big run takes a minute or more to simulate on a small machine."""
    page.get_by_test_id("run").click()
    return wait_for_whole_run(page, timeout)


def wait_for_whole_run(page: Page, timeout: float = 300_000) -> int:
    """Waits until the run shown has finished and its last event has arrived (the status can say
    "finished" before the last batch is here); the number of events."""
    expect(page.locator("[data-player='status']")).to_contain_text("finished", timeout=timeout)
    page.wait_for_function(
        """() => {
          const seek = document.querySelector("#run-panel [data-player='seek']");
          const total = /event \\d+\\/(\\d+)/.exec(document.querySelector("[data-player='status']").textContent);
          return seek && total && Number(seek.max) === Number(total[1]) && Number(seek.max) > 0;
        }""",
        timeout=timeout,
    )
    return status_numbers(page)[2]


# The controls by their data-player attributes, not by role: resolving a role and a name walks the
# accessibility of the whole page, 2,000 pod squares and 500 tiles, and would be measured with it.
PLAY_BUTTON = "#run-panel [data-player='play']"


def pause(page: Page) -> None:
    if page.locator(PLAY_BUTTON).get_attribute("aria-label") == "Pause":
        page.locator(PLAY_BUTTON).click()


def board_density(page: Page) -> str:
    return page.locator("#board").get_attribute("data-density") or ""


@dataclass(frozen=True, slots=True)
class Playback:
    """What `seconds` of playing from the first event showed, and how smoothly."""

    speed: float
    seconds: float
    start: int  # the event it started from
    frames_shown: int  # how far the player went in `seconds`
    frames_at_step_pace: int  # at most this many (STEP_MS / speed apart)
    animation_frames: int
    frame_gap_p50_ms: float
    frame_gap_p95_ms: float
    frame_gap_max_ms: float
    long_tasks: int  # over 50 ms
    longest_task_ms: float  # 0 if none was over 50 ms

    def as_dict(self) -> dict[str, float | int]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Seeking:
    """Dragging the scrubber end to end and back: each seek's time from input to painted frame."""

    seeks: int
    seek_p50_ms: float
    seek_max_ms: float
    frame_gap_p95_ms: float
    frame_gap_max_ms: float
    longest_task_ms: float

    def as_dict(self) -> dict[str, float | int]:
        return asdict(self)


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of `values` lie (nearest rank), 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def seek(page: Page, position: int) -> None:
    """Moves the scrubber to `position` and waits until the board shows it (the player draws on the
    next animation frame)."""
    page.locator("[data-player='seek']").fill(str(position))
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


# Presses Play, and `seconds` later reads the status and presses Pause, all in the page: a round
# trip of Playwright's (slow on a loaded machine) would let the player go on past `seconds`, and its
# actionability checks would run inside the stretch measured.
PLAY_FOR = """async (seconds) => {
  const button = document.querySelector("#run-panel [data-player='play']");
  if (button.getAttribute("aria-label") === "Play") button.click();
  await new Promise((done) => setTimeout(done, seconds * 1000));
  const status = document.querySelector("[data-player='status']").textContent;
  if (button.getAttribute("aria-label") === "Pause") button.click();
  return { status, frames: window.__frames, longTasks: window.__longTasks };
}"""


def measure_playback(page: Page, speed: float, seconds: float, start: int = 0) -> Playback:
    """Seeks to event `start`, plays at `speed` for `seconds`, and pauses again."""
    pause(page)
    seek(page, start)
    page.locator("[data-player='speed']").select_option(f"{speed:g}")
    page.evaluate(WATCH_FRAMES)
    played = page.evaluate(PLAY_FOR, seconds)
    _, position, _ = parse_status(played["status"])
    frames: list[float] = played["frames"]
    long_tasks: list[float] = played["longTasks"]
    return Playback(
        speed=speed,
        seconds=seconds,
        start=start,
        frames_shown=position - start,
        frames_at_step_pace=int(seconds * 1000 * speed / STEP_MS),
        animation_frames=len(frames),
        frame_gap_p50_ms=round(statistics.median(frames), 1) if frames else 0.0,
        frame_gap_p95_ms=round(percentile(frames, 0.95), 1),
        frame_gap_max_ms=round(max(frames, default=0.0), 1),
        long_tasks=len(long_tasks),
        longest_task_ms=round(max(long_tasks, default=0.0), 1),
    )


def measure_seeking(page: Page, steps: int = 60) -> Seeking:
    """Drags the scrubber's thumb from its start to its end and back to a tenth, in `steps` moves each
    way (backward seeks replay the run from its first event), with the mouse as a person does."""
    pause(page)
    seek(page, 0)
    box = page.locator("[data-player='seek']").bounding_box()
    assert box is not None, "the scrubber is not on screen"
    y = box["y"] + box["height"] / 2
    start, end = box["x"] + 4, box["x"] + box["width"] - 4
    page.evaluate(WATCH_SEEKS)
    page.evaluate(WATCH_FRAMES)
    page.mouse.move(start, y)
    page.mouse.down()
    page.mouse.move(end, y, steps=steps)
    page.mouse.move(start + (end - start) / 10, y, steps=steps)
    page.mouse.up()
    page.wait_for_timeout(500)  # the last seeks' drawings
    seeks: list[float] = page.evaluate("window.__seeks")
    frames: list[float] = page.evaluate("window.__frames")
    long_tasks: list[float] = page.evaluate("window.__longTasks")
    return Seeking(
        seeks=len(seeks),
        seek_p50_ms=round(statistics.median(seeks), 1) if seeks else 0.0,
        seek_max_ms=round(max(seeks, default=0.0), 1),
        frame_gap_p95_ms=round(percentile(frames, 0.95), 1),
        frame_gap_max_ms=round(max(frames, default=0.0), 1),
        longest_task_ms=round(max(long_tasks, default=0.0), 1),
    )
