// Run player: receives a run's events over the scenario's websocket (stored ones on (re)connect,
// live ones as the engine produces them), and replays them on the node board at a chosen speed.
// Every event carries the pod and node changes since the previous one, so the board can show the
// cluster exactly as it was at any event: forward by applying changes, backward by replaying.

import { onMessage, onOpen, send } from "./scenario-socket.js";

const SPEEDS_MAX_WAIT_MS = 1500; // long simulated pauses are shortened so nothing seems frozen
let run = null; // {id, events: [], status, error}
let position = 0; // number of events applied
let playing = false;
let timer = null;
let pods = new Map();
let nodes = new Map();
let workloads = new Map(); // "Kind/key" -> frame

const panel = () => document.getElementById("run-panel");
const control = (name) => panel()?.querySelector(`[data-player="${name}"]`);

function ownerHue(owner) {
  let hash = 0;
  for (const char of owner ?? "") hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % 360;
}

function startRun(id, at = null) {
  run = { id, events: [], status: "queued", error: "" };
  position = 0;
  pods = new Map();
  nodes = new Map();
  workloads = new Map();
  pendingSeek = at;
  send({ type: "resume", run: id, after: 0 });
  setPlaying(at === null); // a new run plays at once; a restored one waits where it was
  render();
}
let pendingSeek = null;
let pendingTime = null; // after acting: continue from the moment the action was taken

let gapAsked = 0;

function receive(events) {
  // Keep events contiguous by seq: drop what we have, and on a gap ask for the stored ones after
  // the last we hold (a live batch can overtake a resume) — nothing lost, nothing doubled.
  for (const event of events) {
    const last = run.events.at(-1)?.seq ?? 0;
    if (event.seq === last + 1) run.events.push(event);
    else if (event.seq > last + 1 && gapAsked !== last) {
      gapAsked = last;
      send({ type: "resume", run: run.id, after: last });
    }
  }
  const seek = control("seek");
  if (seek) seek.max = String(run.events.length);
  if (pendingSeek !== null && run.events.length >= pendingSeek) {
    seekTo(pendingSeek);
    pendingSeek = null;
  }
  if (pendingTime !== null) {
    const index = run.events.findIndex((frame) => frameTime(frame, Infinity) >= pendingTime);
    if (index >= 0 || run.status === "finished") {
      seekTo(index >= 0 ? index : run.events.length);
      pendingTime = null;
      setPlaying(true);
    }
  }
  if (playing && timer === null) schedule();
  renderStatus();
}

function apply(event) {
  for (const change of event.changes ?? []) {
    if (change.op === "pod") pods.set(change.key, change);
    else if (change.op === "pod-") pods.delete(change.key);
    else if (change.op === "node") nodes.set(change.name, change);
    else if (change.op === "node-") nodes.delete(change.name);
    else if (change.op === "workload") workloads.set(`${change.kind}/${change.key}`, change);
    else if (change.op === "workload-") workloads.delete(`${change.kind}/${change.key}`);
  }
}

// `remembered`: "now" for a single step, "soon" for one of a burst (dragging the timeline).
function seekTo(target, remembered = "now") {
  target = Math.max(0, Math.min(target, run.events.length));
  if (target < position) {
    chips.clear();
    pods = new Map();
    nodes = new Map();
    workloads = new Map();
    position = 0;
  }
  while (position < target) apply(run.events[position++]);
  requestRender();
  if (remembered === "now") remember();
  else rememberSoon();
}

// Playback runs on animation frames: each one applies every frame that has come due by the
// playback clock, then the board is drawn once. A frame is due a simulated gap (divided by the
// speed) after the one before, and at least STEP_MS / speed after it, so that a burst of events at
// one instant still unfolds step by step: 40 ms apart at 5x, 10 ms at 20x (several per drawing).
const STEP_MS = 200;
const MAX_FRAMES_PER_DRAW = 500; // after a stall, catch up in bounded bites
let due = 0; // performance.now() at which the frame at `position` is due

function gapBefore(index, speed) {
  if (index === 0) return 0;
  const simulated = (frameTime(run.events[index], 0) - frameTime(run.events[index - 1], 0)) * 1000;
  return Math.min(SPEEDS_MAX_WAIT_MS, Math.max(STEP_MS, simulated) / speed);
}

function schedule() {
  if (timer !== null) cancelAnimationFrame(timer);
  timer = null;
  if (!playing || !run) return;
  if (position >= run.events.length) {
    if (holdsWholeRun()) setPlaying(false);
    return; // more events may come: receive() schedules again
  }
  due = performance.now() + gapBefore(position, playbackSpeed());
  timer = requestAnimationFrame(advance);
}

// Playing stops at the end of the run, not at the end of what has arrived: a finished run's status
// can come before its last events (a live batch missed while the panel was swapped, then fetched
// again), and the player must go on once they are here.
function holdsWholeRun() {
  const ended = run.events.at(-1)?.end !== undefined;
  return ended || run.status === "failed" || run.status === "interrupted";
}

function playbackSpeed() {
  const value = control("speed")?.value ?? "5";
  return value === "instant" ? Infinity : Number(value);
}

function advance(now) {
  timer = null;
  if (!playing || !run) return;
  const speed = playbackSpeed();
  const before = position;
  if (speed === Infinity) {
    while (position < run.events.length) apply(run.events[position++]);
  } else {
    while (position < run.events.length && now >= due && position - before < MAX_FRAMES_PER_DRAW) {
      apply(run.events[position++]);
      if (position < run.events.length) due += gapBefore(position, speed);
    }
    if (now - due > SPEEDS_MAX_WAIT_MS) due = now; // a stall (hidden tab): go on from here
  }
  if (position !== before) {
    render();
    rememberSoon();
  }
  if (position < run.events.length) timer = requestAnimationFrame(advance);
  else if (holdsWholeRun()) setPlaying(false);
}

function setPlaying(value) {
  playing = value;
  const button = control("play");
  if (button) {
    button.textContent = playing ? "❚❚" : "▶";
    button.setAttribute("aria-label", playing ? "Pause" : "Play");
  }
  if (playing) schedule();
  else {
    if (timer !== null) cancelAnimationFrame(timer);
    timer = null;
    remember();
  }
}

// One drawing per animation frame, however many frames were applied meanwhile.
let renderQueued = false;
function requestRender() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    render();
  });
}

function remember() {
  if (!run) return;
  rememberedAt = performance.now();
  const url = new URL(location.href);
  url.searchParams.set("run", run.id);
  url.searchParams.set("at", position);
  history.replaceState(history.state, "", url);
}

// The address follows the player (a reload comes back here), at most every REMEMBER_MS: browsers
// refuse history updates beyond about a hundred in ten seconds. A step is remembered at once; a
// burst (playback, dragging the timeline) once now and once when it settles.
const REMEMBER_MS = 250;
let rememberedAt = 0;
let rememberTimer = null;
function rememberSoon() {
  const wait = rememberedAt + REMEMBER_MS - performance.now();
  if (wait <= 0) {
    remember();
  } else if (rememberTimer === null) {
    rememberTimer = setTimeout(() => {
      rememberTimer = null;
      remember();
    }, wait);
  }
}

// ------------------------------------------------------------------ rendering

// Every frame carries its simulated time; frames stored before it did fall back to their event's.
export function frameTime(frame, fallback = 0) {
  return frame?.time ?? frame?.event?.time ?? frame?.end ?? fallback;
}

function currentTime() {
  return position > 0 ? frameTime(run.events[position - 1]) : 0;
}

function renderStatus() {
  const status = control("status");
  if (!status || !run) return;
  const time = currentTime();
  const at = panel()?.querySelector('[data-act="at"]');
  if (at) {
    at.value = String(time);
    panel().querySelector('[data-act="time"]').textContent = `${Number(time).toFixed(1)}s`;
  }
  const state = run.status === "failed" || run.status === "interrupted" ? `${run.status}: ${run.error}` : run.status;
  const resume = control("resume");
  if (resume) resume.hidden = run.status !== "interrupted";
  status.textContent = `t=${Number(time).toFixed(1)}s · event ${position}/${run.events.length} · ${state}`;
  const seek = control("seek");
  if (seek) seek.value = String(position);
}

const byKey = (a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

// Only what changed is touched: a 2,000-pod board redrawn whole on every frame cannot keep up.
function renderPods() {
  const byNode = new Map();
  const pending = [];
  for (const pod of pods.values()) {
    if (pod.node) {
      if (!byNode.has(pod.node)) byNode.set(pod.node, []);
      byNode.get(pod.node).push(pod);
    } else if (!pod.deleting && pod.phase === "Pending") {
      pending.push(pod);
    }
  }
  for (const card of document.querySelectorAll("#board .node-card")) {
    let list = card.querySelector(".pods");
    if (!list) {
      list = document.createElement("ul");
      list.className = "pods";
      card.querySelector(".bars")?.after(list);
    }
    showChips(list, (byNode.get(card.dataset.nodeName) ?? []).sort(byKey).map(podChip));
    const node = nodes.get(card.dataset.nodeName);
    card.classList.toggle("not-ready", node ? !node.ready : false);
    card.classList.toggle("cordoned", node ? node.unschedulable : card.classList.contains("cordoned"));
  }
  const queue = control("pending");
  if (queue) {
    // The queue shows its first pods by name and counts the rest: thousands of chips would drown
    // the panel (and cost a layout of thousands of elements on every frame).
    pending.sort(byKey);
    const shown = pending.slice(0, MAX_QUEUE_CHIPS).map(podChip);
    if (pending.length > MAX_QUEUE_CHIPS) shown.push(queueRest(pending.length - MAX_QUEUE_CHIPS));
    showChips(queue, shown);
  }
}

const MAX_QUEUE_CHIPS = 60;
let restItem = null;
function queueRest(count) {
  restItem ??= document.createElement("li");
  restItem.className = "queue-rest";
  restItem.textContent = `and ${count.toLocaleString("en")} more Pending`;
  return restItem;
}

// Makes `list` hold exactly `items`, in order. The common cases of a playing run (nothing changed;
// the oldest rows gone and new ones at the end) move only those elements: replacing a few hundred
// rows on every frame makes the browser lay them all out again.
function showChips(list, items) {
  const children = [...list.children];
  if (children.length === items.length && items.every((item, index) => children[index] === item)) return;
  const start = children.indexOf(items[0]);
  if (start >= 0 && children.slice(start).every((child, index) => items[index] === child)) {
    for (const child of children.slice(0, start)) child.remove();
    list.append(...items.slice(children.length - start));
    return;
  }
  list.replaceChildren(...items);
}

const chips = new Map(); // pod key -> its element, reused so only new pods animate in
const drawn = new WeakMap(); // element -> the pod frame it shows

function podChip(pod) {
  let item = chips.get(pod.key);
  if (!item) {
    item = document.createElement("li");
    item.dataset.podKey = pod.key;
    item.tabIndex = 0;
    item.setAttribute("role", "button");
    item.draggable = true; // onto a node: "why not here?" (why-not-here.js)
    chips.set(pod.key, item);
  }
  if (drawn.get(item) === pod) return item; // frames are immutable: the same frame, the same chip
  drawn.set(item, pod);
  item.className = `pod phase-${pod.phase}${pod.deleting ? " deleting" : ""}${pod.ready ? " ready" : ""}`;
  item.textContent = pod.name;
  item.title = `${pod.key} · ${pod.phase}${pod.ready ? " · Ready" : ""}${pod.deleting ? " · Terminating" : ""}${pod.owner ? " · " + pod.owner : ""}`;
  if (pod.owner) item.style.setProperty("--owner-hue", ownerHue(pod.owner));
  return item;
}

// The event log shows the last LOG_ROWS events up to the player's position (those matching the
// filter), newest at the bottom. Rows are built once per event and moved, not rebuilt.
const LOG_ROWS = 300;
const logRows = new Map(); // frame index -> its <tr>
let logShown = { run: null, position: -1, filter: null, length: 0 };

function logRow(index, event) {
  let row = logRows.get(index);
  if (row) return row;
  row = document.createElement("tr");
  row.dataset.frame = String(index);
  if (event.type === "Warning") row.className = "warning";
  for (const value of [`${event.time.toFixed(1)}s`, event.type, event.reason, event.object.replace(/^Pod\//, "pod/"), event.message]) {
    const cell = document.createElement("td");
    cell.textContent = value;
    row.append(cell);
  }
  logRows.set(index, row);
  return row;
}

function renderLog() {
  const body = control("log");
  if (!body) return;
  const filter = (control("filter")?.value ?? "").toLowerCase();
  if (logShown.run !== run || logShown.filter !== filter || logShown.body !== body) logRows.clear();
  else if (logShown.position === position && logShown.length === body.children.length) return;
  const rows = [];
  for (let index = position - 1; index >= 0 && rows.length < LOG_ROWS; index--) {
    const event = run.events[index].event;
    if (!event) continue;
    if (filter && !`${event.reason} ${event.object} ${event.message}`.toLowerCase().includes(filter)) continue;
    rows.push(logRow(index, event));
  }
  rows.reverse();
  if (logRows.size > 4 * LOG_ROWS) {
    const keep = new Set(rows);
    for (const [index, row] of logRows) if (!keep.has(row)) logRows.delete(index);
  }
  body.querySelector("tr.current")?.classList.remove("current");
  const last = rows.at(-1);
  if (last && Number(last.dataset.frame) === position - 1) last.classList.add("current");
  showChips(body, rows);
  logShown = { run, position, filter, body, length: rows.length };
  // No scrolling here: the log box is a reversed flex column, so it stays at its newest row by
  // itself (reading its height here would force a layout of the whole page on every frame).
}

// Rollouts: each Deployment with its ReplicaSets side by side, pods counted against the
// rolling-update limits (at most replicas + maxSurge pods, at least replicas - maxUnavailable ready).
function renderRollouts() {
  const box = control("rollouts");
  if (!box) return;
  const podsByOwner = new Map();
  for (const pod of pods.values()) {
    if (!pod.owner || pod.deleting) continue;
    const counts = podsByOwner.get(pod.owner) ?? { total: 0, ready: 0 };
    counts.total += 1;
    if (pod.ready) counts.ready += 1;
    podsByOwner.set(pod.owner, counts);
  }
  const deployments = [...workloads.values()].filter((w) => w.kind === "Deployment");
  box.replaceChildren(...deployments.map((deployment) => {
    const sets = [...workloads.values()].filter((w) => w.kind === "ReplicaSet" && w.owner === `Deployment/${deployment.name}`);
    sets.sort((a, b) => Number(a.revision ?? 0) - Number(b.revision ?? 0));
    let total = 0;
    let ready = 0;
    const rows = sets.map((set) => {
      const counts = podsByOwner.get(`ReplicaSet/${set.name}`) ?? { total: 0, ready: 0 };
      total += counts.total;
      ready += counts.ready;
      const row = document.createElement("li");
      row.className = "rs";
      row.style.setProperty("--owner-hue", ownerHue(`ReplicaSet/${set.name}`));
      row.textContent = `${set.name} (rev ${set.revision ?? "?"}): ${counts.ready}/${counts.total} ready, wants ${set.replicas}`;
      return row;
    });
    const card = document.createElement("section");
    card.className = "rollout";
    const title = document.createElement("h4");
    const limits = deployment.strategy === "RollingUpdate"
      ? ` · pods ${total} ≤ ${deployment.replicas + deployment.maxSurge}, ready ${ready} ≥ ${Math.max(0, deployment.replicas - deployment.maxUnavailable)}`
      : ` · ${deployment.strategy}`;
    title.textContent = `Deployment ${deployment.name}: ${deployment.replicas} replicas${limits}`;
    const list = document.createElement("ul");
    list.append(...rows);
    card.append(title, list);
    return card;
  }));
}

function render() {
  if (!run) return;
  renderRollouts();
  renderPods();
  renderLog();
  renderStatus();
  // Other views of the run (charts, disruptions, traffic) listen for this and draw themselves
  // from the same state; they must not change it.
  document.dispatchEvent(new CustomEvent("run:rendered", {
    detail: { run, position, time: currentTime(), pods, nodes, workloads },
  }));
}

// ------------------------------------------------------------------ wiring

// An edit made a new version: this run is now of an older one. Say so, and offer to run the new one.
function showStale(version) {
  const notice = control("stale");
  if (!notice || !version) return;
  const stale = Number(notice.dataset.runVersion) !== version;
  notice.hidden = !stale;
  const number = control("current-version");
  if (number) number.textContent = String(version);
  const rerun = control("rerun");
  if (rerun) rerun.textContent = `Re-run v${version}`;
}

onMessage((message) => {
  if (message.type === "changed") showStale(Number(message.version));
  if (!run || message.run !== run.id) return;
  heard = Date.now();
  if (message.type === "run.events") receive(message.events);
  // The server dropped live events this page had not caught up with: ask for them as after a gap.
  if (message.type === "run.lagging") send({ type: "resume", run: run.id, after: run.events.at(-1)?.seq ?? 0 });
  if (message.type === "run.status") {
    run.status = message.status;
    run.error = message.error ?? "";
    renderStatus();
    if (playing) schedule();
  }
});

// A running run that has gone quiet may have lost its executor (a server restart): asking again
// makes the server look at its heartbeat, and answers with "interrupted" if it stopped.
const QUIET_MS = 10000;
let heard = Date.now();
setInterval(() => {
  if (run && (run.status === "running" || run.status === "queued") && Date.now() - heard > QUIET_MS) {
    heard = Date.now();
    send({ type: "resume", run: run.id, after: run.events.at(-1)?.seq ?? 0 });
  }
}, 2000);

// On every (re)connection ask for what we do not have yet: a resume sent before the socket was
// open is lost, and events broadcast while it was closed were never received.
onOpen(() => {
  if (run) send({ type: "resume", run: run.id, after: run.events.at(-1)?.seq ?? 0 });
});

document.addEventListener("click", (event) => {
  if (event.target.closest?.("[data-close-explain]")) {
    document.getElementById("explain-slot")?.replaceChildren();
    markVerdicts();
    return;
  }
  const chip = event.target.closest?.(".pod[data-pod-key]");
  const slot = document.getElementById("explain-slot");
  if (chip && run && slot && window.htmx) {
    const url = `${slot.dataset.explainUrl}?pod=${encodeURIComponent(chip.dataset.podKey)}&seq=${Math.max(position, 1)}`;
    window.htmx.ajax("GET", url, { target: "#explain-slot", swap: "innerHTML" });
    return;
  }
  const row = event.target.closest?.("#run-panel [data-player='log'] tr[data-frame]");
  if (row && run) {
    setPlaying(false);
    seekTo(Number(row.dataset.frame) + 1);
    return;
  }
  const button = event.target.closest?.("#run-panel [data-player]");
  if (!button || !run) return;
  const action = button.dataset.player;
  if (action === "play") setPlaying(!playing);
  if (action === "back") { setPlaying(false); seekTo(position - 1); }
  if (action === "forward") { setPlaying(false); seekTo(position + 1); }
});

document.addEventListener("change", (event) => {
  if (run && playing && event.target.matches?.('#run-panel [data-player="speed"]')) schedule();
  if (run && event.target.matches?.('#run-panel [data-player="seek"]')) remember(); // the timeline let go
});

document.addEventListener("input", (event) => {
  if (!run) return;
  if (event.target.matches?.('#run-panel [data-player="seek"]')) { setPlaying(false); seekTo(Number(event.target.value), "soon"); }
  if (event.target.matches?.('#run-panel [data-player="filter"]')) renderLog();
});

function adoptPanel() {
  const id = Number(panel()?.dataset.runId);
  if (id && (!run || run.id !== id)) {
    const params = new URLSearchParams(location.search);
    const at = Number(params.get("run")) === id && params.has("at") ? Number(params.get("at")) : null;
    const startAt = panel().dataset.startAt;
    startRun(id, startAt !== undefined ? 0 : at);
    if (startAt !== undefined) pendingTime = Number(startAt);
  }
  const board = document.getElementById("board");
  const version = panel()?.querySelector('[data-act="version"]');
  if (board && version) version.value = board.dataset.version;
}

document.addEventListener("change", (event) => {
  if (!event.target.matches?.('#run-panel select[name="op"]')) return;
  const needs = event.target.selectedOptions[0]?.dataset.needs ?? "";
  const input = panel().querySelector('.act input[name="value"]');
  input.placeholder = needs || "(no value)";
  input.disabled = !needs;
  // An HPA's load is a slider: the pods' CPU use as a percentage of their requests.
  const slider = event.target.value === "set-utilization";
  const wasSlider = input.type === "range";
  input.type = slider ? "range" : "text";
  if (slider) Object.assign(input, { min: "0", max: "400", step: "5", value: input.value && !isNaN(input.value) ? input.value : "100" });
  else if (wasSlider) input.value = "";
  showSliderValue(input);
});

function showSliderValue(input) {
  const shown = panel()?.querySelector('[data-act="value-shown"]');
  if (!shown) return;
  shown.hidden = input.type !== "range";
  shown.textContent = `${input.value}% of requests`;
}

document.addEventListener("input", (event) => {
  if (event.target.matches?.('#run-panel .act input[name="value"]')) showSliderValue(event.target);
});

// An explanation marks the board: nodes that fit glow, the others dim and say what blocks them.
function markVerdicts() {
  const rows = document.querySelectorAll("#explain [data-verdict-node]");
  const verdicts = new Map([...rows].map((row) => [row.dataset.verdictNode, row]));
  for (const card of document.querySelectorAll("#board .node-card")) {
    const row = verdicts.get(card.dataset.nodeName);
    card.classList.toggle("fits", row?.dataset.feasible === "true");
    card.classList.toggle("blocked", row?.dataset.feasible === "false");
    card.querySelector(".verdict")?.remove();
    if (row?.dataset.feasible === "false") {
      const note = document.createElement("p");
      note.className = "verdict";
      note.textContent = row.dataset.reason;
      card.querySelector(".node-head")?.after(note);
    }
  }
}

// The board is re-rendered by htmx after edits: put the run's pods back into the new cards.
document.addEventListener("htmx:after:swap", () => { adoptPanel(); if (run) render(); markVerdicts(); });
onOpen(() => adoptPanel());
document.documentElement.dataset.runPlayer = "ready";
