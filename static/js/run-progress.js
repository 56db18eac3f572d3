// A thin progress bar under the player: how much of the run has been received (and, inside that,
// how far the player is), and, while the engine is still simulating, that it is. The total is not
// known until the last event (it carries `end`), so while running the received share is measured
// against the run's limits: one simulated hour or 20,000 events, whichever it is nearer to.

import { onMessage } from "./scenario-socket.js";

const MAX_SECONDS = 3600; // playground/runs.py DEFAULT_UNTIL_SECONDS
const MAX_EVENTS = 20_000; // playground/runs.py MAX_RUN_EVENTS

let latest = null;
let frame = 0;

function part(bar, name) {
  let element = bar.querySelector(`.run-progress-${name}`);
  if (!element) {
    element = document.createElement("div");
    element.className = `run-progress-${name}`;
    bar.append(element);
  }
  return element;
}

function update() {
  frame = 0;
  const bar = document.querySelector("#run-panel [data-run-progress]");
  if (!bar || !latest) return;
  const { run, position } = latest;
  const count = run.events.length;
  const last = run.events.at(-1);
  const ended = last?.end !== undefined;
  const lastTime = last?.time ?? last?.event?.time ?? last?.end ?? 0;
  const active = !ended && (run.status === "running" || run.status === "queued");
  const received = ended ? 1 : Math.min(0.99, Math.max(lastTime / MAX_SECONDS, count / MAX_EVENTS));
  const played = count ? (received * position) / count : 0;
  part(bar, "received").style.width = `${(received * 100).toFixed(2)}%`;
  part(bar, "played").style.width = `${(played * 100).toFixed(2)}%`;
  bar.classList.toggle("running", active);
  bar.classList.toggle("failed", run.status === "failed");
  const state = ended ? `finished at ${lastTime.toFixed(1)} s` : active ? `simulating, at most ${MAX_SECONDS} s` : run.status;
  const text = `${count.toLocaleString("en")} events received up to t=${lastTime.toFixed(1)}s, ${state}; showing event ${position}`;
  bar.setAttribute("aria-valuenow", String(Math.round(received * 100)));
  bar.setAttribute("aria-valuetext", text);
  bar.title = text;
}

function schedule() {
  if (!frame) frame = requestAnimationFrame(update);
}

document.addEventListener("run:rendered", (event) => {
  latest = event.detail;
  schedule();
});

// Batches and the run's status arrive between renders (the player may be paused): follow them too.
onMessage((message) => {
  if (latest && message.run === latest.run.id && (message.type === "run.events" || message.type === "run.status")) schedule();
});
