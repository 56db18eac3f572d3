// Run player: receives a run's events over the scenario's websocket (stored ones on (re)connect,
// live ones as the engine produces them), and replays them on the node board at a chosen speed.
// Every event carries the pod and node changes since the previous one, so the board can show the
// cluster exactly as it was at any event: forward by applying changes, backward by replaying.

import { expandFrame } from "./change-deltas.js";
import { showChildren as showChips } from "./dom-lists.js";
import { groupedRows, kubectlAge, rowMessage } from "./event-rows.js";
import { explainVerdicts } from "./explain-verdicts.js";
import { holdsResources } from "./node-usage.js";
import { hueClass } from "./owner-hue.js";
import { onMessage, onOpen, send } from "./scenario-socket.js";

const SPEEDS_MAX_WAIT_MS = 1500; // long simulated pauses are shortened so nothing seems frozen
let run = null; // {id, events: [], status, error, shown}: shown, for change-deltas.js
let position = 0; // number of events applied
let playing = false;
let timer = null;
let pods = new Map();
let nodes = new Map();
let workloads = new Map(); // "Kind/key" -> frame
// Kept as pods change, not counted again over every pod on every drawing (50,000 pods at 60 fps):
let usage = new Map(); // node -> {cpu, memory, pods} requested: node-usage.js's requestedByNode(pods)
let owners = new Map(); // owner -> {total, ready}: the pods the rollouts panel counts

const panel = () => document.getElementById("run-panel");
const control = (name) => panel()?.querySelector(`[data-player="${name}"]`);


function clearState() {
  pods = new Map();
  nodes = new Map();
  workloads = new Map();
  usage = new Map();
  owners = new Map();
}

/** Adds (sign 1) or takes away (-1) a pod frame's share of `usage` and `owners`. */
function account(pod, sign) {
  if (!pod) return;
  if (holdsResources(pod)) {
    const sum = usage.get(pod.node) ?? { cpu: 0, memory: 0, pods: 0 };
    sum.cpu += sign * (pod.requests?.cpu ?? 0);
    sum.memory += sign * (pod.requests?.memory ?? 0);
    sum.pods += sign;
    if (sum.pods > 0) usage.set(pod.node, sum);
    else usage.delete(pod.node);
  }
  if (pod.owner && !pod.deleting) {
    const counts = owners.get(pod.owner) ?? { total: 0, ready: 0 };
    counts.total += sign;
    if (pod.ready) counts.ready += sign;
    if (counts.total > 0) owners.set(pod.owner, counts);
    else owners.delete(pod.owner);
  }
}

function startRun(id, at = null) {
  // seqTimes: each event's time by its seq, for the first time of a row of repeats.
  run = { id, events: [], status: "queued", error: "", shown: new Map(), seqTimes: new Map() };
  position = 0;
  clearState();
  touched = everythingChanged();
  pendingSeek = at;
  marksDrawn = 0;
  document.dispatchEvent(new CustomEvent("run:started", { detail: { id } }));
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
    if (event.seq === last + 1) {
      run.events.push(expandFrame(event, run.shown));
      if (event.event) run.seqTimes.set(event.event.seq, event.event.time);
    }
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
  // Paused, nothing is drawn as events arrive: the views that count them (the board's bar) are told.
  document.dispatchEvent(new CustomEvent("run:received", { detail: { run, position, time: currentTime() } }));
}

// What the frames applied since the last drawing changed, so that views draw only that: the pods
// touched (with the frame each had before, undefined for a new one), the nodes whose pods or state
// changed, and `all` when the state was rebuilt (a new run, a step back).
let touched = everythingChanged();

function everythingChanged() {
  return { all: true, pods: new Map(), nodes: new Set() };
}

function apply(event) {
  for (const change of event.changes ?? []) {
    if (change.op === "pod" || change.op === "pod-") {
      const before = pods.get(change.key);
      if (!touched.pods.has(change.key)) touched.pods.set(change.key, before);
      if (before?.node) touched.nodes.add(before.node);
      account(before, -1);
      if (change.op === "pod") {
        pods.set(change.key, change);
        account(change, 1);
        if (change.node) touched.nodes.add(change.node);
      } else {
        pods.delete(change.key);
      }
    } else if (change.op === "node") {
      nodes.set(change.name, change);
      touched.nodes.add(change.name);
    } else if (change.op === "node-") {
      nodes.delete(change.name);
      touched.nodes.add(change.name);
    }
    else if (change.op === "workload") workloads.set(`${change.kind}/${change.key}`, change);
    else if (change.op === "workload-") workloads.delete(`${change.kind}/${change.key}`);
  }
}

// `remembered`: "now" for a single step, "soon" for one of a burst (dragging the timeline).
function seekTo(target, remembered = "now") {
  target = Math.max(0, Math.min(target, run.events.length));
  if (target < position) {
    clearState();
    position = 0;
    touched = everythingChanged();
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
  document.documentElement.classList.toggle("playing-fast", value && playbackSpeed() > 10);
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
    renderLog(); // every row again
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
  if (playing) return; // replaceState costs a style recalculation of the page: remembered on pause
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

// "finished" once the player holds the whole run: the status can come before the last events (see
// holdsWholeRun), and "event 0/0 · finished" would say the run has no events.
function statusText() {
  if (run.status === "failed" || run.status === "interrupted") return `${run.status}: ${run.error}`;
  if (run.status === "finished" && !holdsWholeRun()) return "simulated, receiving its events";
  return run.status;
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
  const state = statusText();
  const resume = control("resume");
  if (resume) resume.hidden = run.status !== "interrupted";
  status.textContent = `t=${Number(time).toFixed(1)}s · event ${position}/${run.events.length} · ${state}`;
  const seek = control("seek");
  if (seek) seek.value = String(position);
}

// The event log shows the last LOG_ROWS events up to the player's position (those matching the
// filter), newest at the bottom. Rows are built once per event and moved, not rebuilt.
const LOG_ROWS = 300;
const FAST_LOG_ROWS = 30;
// Playing fast, a hundred events a second go by: the log is drawn about eight times a second, not
// on every animation frame (its text repainted each frame was a fifth of a 500-node frame's time);
// stopping draws it whole at once.
const FAST_LOG_EVERY_MS = 125;
const logRows = new Map(); // frame index -> its <tr>
let logShown = { run: null, position: -1, filter: null, length: 0, at: 0 };
let logTimer = null;

function logRow(index, event) {
  let row = logRows.get(index);
  if (row) return row;
  row = tableRow(index, event, [`${event.time.toFixed(1)}s`, event.type, event.reason, shownObject(event), event.message]);
  if ((event.count ?? 1) > 1) {
    // A repeat: `kubectl events` counts it on the row of the first (and here is how many so far).
    const tag = document.createElement("span");
    tag.className = "repeat";
    tag.textContent = ` x${event.count}`;
    tag.title = `repeat ${event.count} of event ${event.firstSeq}: kubectl events shows them on one row`;
    row.firstChild.append(tag);
  }
  logRows.set(index, row);
  return row;
}

function shownObject(event) {
  return event.object.replace(/^Pod\//, "pod/");
}

function tableRow(index, event, values) {
  const row = document.createElement("tr");
  row.setAttribute("role", "row");
  row.dataset.frame = String(index);
  if (event.type === "Warning") row.className = "warning";
  for (const value of values) {
    const cell = document.createElement("td");
    cell.setAttribute("role", "cell");
    cell.textContent = value;
    row.append(cell);
  }
  return row;
}

// "As kubectl events": one row per repeated event, LAST SEEN as an age at the player's time.
const GROUPED_KEY = "ksp.eventLog.grouped";
function grouped() {
  return control("grouped")?.checked ?? false;
}

function groupedLogRows(limit, filter) {
  const now = currentTime();
  const keep = filter
    ? (event) => `${event.reason} ${event.object} ${rowMessage(event)}`.toLowerCase().includes(filter)
    : null;
  const timeOfSeq = (seq) => run.seqTimes.get(seq);
  return groupedRows(run.events, position, { limit, keep, timeOfSeq }).map((row) => {
    const cells = [kubectlAge(now - row.last.time), row.last.type, row.last.reason, shownObject(row.last), rowMessage(row.last)];
    const tr = tableRow(row.index, row.last, cells);
    if (row.count > 1) {
      // kubectl's "5s (x3 over 2m)", the count on a line of its own in a narrow column.
      tr.firstChild.textContent = `${cells[0]} `;
      const tag = document.createElement("span");
      tag.className = "repeat";
      tag.textContent = `(x${row.count} over ${kubectlAge(now - row.firstTime)})`;
      tr.firstChild.append(tag);
    }
    return tr;
  });
}

function renderLog() {
  const body = control("log");
  if (!body) return;
  // Playing fast, the log shows its newest rows only (a few hundred rows moved on every drawing
  // cost more than the board); all of them again when the player stops.
  const fast = playing && playbackSpeed() > 5;
  const limit = fast ? FAST_LOG_ROWS : LOG_ROWS;
  const filter = (control("filter")?.value ?? "").toLowerCase();
  const asKubectl = grouped();
  const table = body.closest("table");
  table?.classList.toggle("grouped", asKubectl); // a wider first column: "5s (x3 over 2m)"
  const when = table?.querySelector("[data-log-when]");
  if (when) when.textContent = asKubectl ? "LAST SEEN" : "TIME";
  if (logShown.run !== run || logShown.filter !== filter || logShown.body !== body || logShown.asKubectl !== asKubectl) logRows.clear();
  else if (logShown.position === position && logShown.length === body.children.length && logShown.limit === limit) return;
  else if (fast && logShown.limit === limit && performance.now() - logShown.at < FAST_LOG_EVERY_MS) {
    // Drawn a moment later, should no frame come meanwhile (the player waiting for a live run's events).
    if (!logTimer) logTimer = setTimeout(() => { logTimer = null; renderLog(); }, FAST_LOG_EVERY_MS);
    return;
  }
  clearTimeout(logTimer);
  logTimer = null;
  const rows = asKubectl ? groupedLogRows(limit, filter) : [];
  for (let index = position - 1; !asKubectl && index >= 0 && rows.length < limit; index--) {
    const event = run.events[index].event;
    if (!event) continue;
    if (filter && !`${event.reason} ${event.object} ${event.message}`.toLowerCase().includes(filter)) continue;
    rows.push(logRow(index, event));
  }
  if (!asKubectl) rows.reverse();
  if (logRows.size > 4 * LOG_ROWS) {
    const keep = new Set(rows);
    for (const [index, row] of logRows) if (!keep.has(row)) logRows.delete(index);
  }
  body.querySelector("tr.current")?.classList.remove("current");
  const last = rows.at(-1);
  if (last && Number(last.dataset.frame) === position - 1) last.classList.add("current");
  showChips(body, rows);
  logShown = { run, position, filter, body, asKubectl, length: rows.length, limit, at: performance.now() };
  // No scrolling here: the log box is a reversed flex column, so it stays at its newest row by
  // itself (reading its height here would force a layout of the whole page on every frame).
}

// Rollouts: each Deployment with its ReplicaSets side by side, pods counted against the
// rolling-update limits (at most replicas + maxSurge pods, at least replicas - maxUnavailable ready).
// A Deployment's card stays from one drawing to the next, only its text redrawn: its "describe" button
// keeps the keyboard's focus while the run plays, and the describe panel (deployment-describe.js)
// stays in it.
function renderRollouts() {
  const box = control("rollouts");
  if (!box) return;
  const podsByOwner = owners;
  const deployments = [...workloads.values()].filter((w) => w.kind === "Deployment");
  const cards = new Map([...box.children].map((card) => [card.dataset.deployment, card]));
  const wanted = deployments.map((deployment) => {
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
      row.classList.add(hueClass(`ReplicaSet/${set.name}`));
      row.textContent = `${set.name} (rev ${set.revision ?? "?"}): ${counts.ready}/${counts.total} ready, wants ${set.replicas}`;
      return row;
    });
    const card = cards.get(deployment.key) ?? rolloutCard(deployment);
    const limits = deployment.strategy === "RollingUpdate"
      ? ` · pods ${total} ≤ ${deployment.replicas + deployment.maxSurge}, ready ${ready} ≥ ${Math.max(0, deployment.replicas - deployment.maxUnavailable)}`
      : ` · ${deployment.strategy}`;
    card.querySelector("h4").textContent = `Deployment ${deployment.name}: ${deployment.replicas} replicas${limits}`;
    card.querySelector("[data-conditions]").replaceWith(conditionLine(deployment.conditions ?? []));
    card.querySelector("ul").replaceChildren(...rows);
    return card;
  });
  // Only cards that go or come move: moving one would take the focus from its button.
  const keep = new Set(wanted);
  for (const card of [...box.children]) if (!keep.has(card)) card.remove();
  wanted.forEach((card, index) => {
    if (box.children[index] !== card) box.insertBefore(card, box.children[index] ?? null);
  });
}

function rolloutCard(deployment) {
  const card = document.createElement("section");
  card.className = "rollout";
  card.dataset.deployment = deployment.key;
  const head = document.createElement("div");
  head.className = "rollout-head";
  const title = document.createElement("h4");
  // `kubectl describe deployment` at the player's event, in the card (deployment-describe.js).
  const describe = document.createElement("button");
  describe.type = "button";
  describe.className = "button small describe-toggle";
  describe.dataset.describeDeployment = deployment.key;
  describe.setAttribute("aria-expanded", "false");
  describe.setAttribute("aria-label", `describe deployment ${deployment.name}`);
  describe.title = `kubectl describe deployment ${deployment.name}, at the player's event`;
  describe.textContent = "describe";
  head.append(title, describe);
  const conditions = document.createElement("p");
  conditions.dataset.conditions = "";
  card.append(head, conditions, document.createElement("ul"));
  return card;
}

// status.conditions of a Deployment: "Available: True · Progressing: False (ProgressDeadlineExceeded)",
// each with its message as a tooltip; an unhealthy one stands out.
function conditionLine(conditions) {
  const line = document.createElement("p");
  line.className = "conditions small";
  line.dataset.conditions = "";
  conditions.forEach(([type, status, reason, message], index) => {
    const item = document.createElement("span");
    // ReplicaFailure is the one condition that is bad when True.
    const healthy = type === "ReplicaFailure" ? status !== "True" : status === "True";
    item.className = healthy ? "condition" : "condition off";
    item.textContent = `${type}: ${status}${reason ? ` (${reason})` : ""}`;
    if (message) item.title = message;
    line.append(...(index ? [" · ", item] : [item]));
  });
  return line;
}

// The scrubber's track marks what is worth finding: Warning events, the timeline's actions (an
// event from the "timeline" source) and the run's end. Drawn again only as events arrive.
const MAX_MARKS = 400;
let marksDrawn = 0;
function renderMarks() {
  const box = control("marks");
  if (!box || run.events.length === marksDrawn) return;
  marksDrawn = run.events.length;
  const total = Math.max(run.events.length, 1);
  const marks = [];
  run.events.forEach((frame, index) => {
    const kind = frame.end !== undefined ? "end" : frame.event?.source === "timeline" ? "action" : frame.event?.type === "Warning" ? "warning" : null;
    if (kind) marks.push([index + 1, kind, frame.event ? `${frame.event.reason}: ${frame.event.message}` : "end of the run"]);
  });
  // Thousands of warnings (a big Pending workload) would be one red bar: keep them spread out.
  const step = Math.ceil(marks.length / MAX_MARKS);
  box.replaceChildren(...marks.filter((mark, index) => mark[1] !== "warning" || index % step === 0).map(([seq, kind]) => {
    const mark = document.createElement("i");
    mark.className = kind;
    mark.style.left = `${(100 * seq) / total}%`;
    return mark;
  }));
}

function render() {
  if (!run) return;
  renderRollouts();
  renderLog();
  renderStatus();
  renderMarks();
  const changes = touched;
  touched = { all: false, pods: new Map(), nodes: new Set() };
  // Other views of the run (charts, disruptions, traffic) listen for this and draw themselves
  // from the same state; they must not change it.
  document.dispatchEvent(new CustomEvent("run:rendered", {
    detail: { run, position, time: currentTime(), pods, nodes, workloads, speed: playbackSpeed(), usage, changes },
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

// Space plays and pauses, the arrows step, when the focus is not in a field (or the editor).
document.addEventListener("keydown", (event) => {
  if (!run || event.altKey || event.ctrlKey || event.metaKey) return;
  // A focused region that scrolls (a describe panel's tables) keeps its arrows for scrolling.
  if (event.target.closest?.("input, select, textarea, button, [contenteditable], .cm-editor, a, summary, [role=region]")) return;
  if (event.key === " ") { event.preventDefault(); setPlaying(!playing); }
  else if (event.key === "ArrowRight") { event.preventDefault(); setPlaying(false); seekTo(position + 1); }
  else if (event.key === "ArrowLeft") { event.preventDefault(); setPlaying(false); seekTo(position - 1); }
});

document.addEventListener("change", (event) => {
  if (run && event.target.matches?.('#run-panel [data-player="speed"]')) {
    document.documentElement.classList.toggle("playing-fast", playing && playbackSpeed() > 10);
    if (playing) schedule();
  }
  if (run && event.target.matches?.('#run-panel [data-player="seek"]')) remember(); // the timeline let go
});

document.addEventListener("input", (event) => {
  if (!run) return;
  if (event.target.matches?.('#run-panel [data-player="seek"]')) { setPlaying(false); seekTo(Number(event.target.value), "soon"); }
  if (event.target.matches?.('#run-panel [data-player="filter"]')) renderLog();
});

document.addEventListener("change", (event) => {
  if (!event.target.matches?.('#run-panel [data-player="grouped"]')) return;
  localStorage.setItem(GROUPED_KEY, String(event.target.checked));
  if (run) renderLog();
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
  const groupedBox = control("grouped");
  if (groupedBox) groupedBox.checked = localStorage.getItem(GROUPED_KEY) === "true";
  const board = document.getElementById("board");
  const version = panel()?.querySelector('[data-act="version"]');
  if (board && version) version.value = board.dataset.version;
  // The value field fits the operation chosen (a refused act comes back with its own chosen).
  const op = panel()?.querySelector('.act select[name="op"]');
  if (op) fitValueToOperation(op);
}

document.addEventListener("change", (event) => {
  if (event.target.matches?.('#run-panel select[name="op"]')) fitValueToOperation(event.target);
});

function fitValueToOperation(select) {
  const needs = select.selectedOptions[0]?.dataset.needs ?? "";
  const input = panel().querySelector('.act input[name="value"]');
  input.placeholder = needs || "(no value)";
  input.disabled = !needs;
  // An HPA's load is a slider: the pods' CPU use as a percentage of their requests.
  const slider = select.value === "set-utilization";
  const wasSlider = input.type === "range";
  input.type = slider ? "range" : "text";
  if (slider) Object.assign(input, { min: "0", max: "400", step: "5", value: input.value && !isNaN(input.value) ? input.value : "100" });
  else if (wasSlider) input.value = "";
  showSliderValue(input);
}

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
  const verdicts = explainVerdicts();
  for (const card of document.querySelectorAll("#board [data-node]:not(.dot-hit), #node-detail [data-node]")) {
    const verdict = verdicts.get(card.dataset.node);
    card.classList.toggle("fits", verdict?.feasible === true);
    card.classList.toggle("blocked", verdict?.feasible === false);
    card.querySelector(".verdict")?.remove();
    if (card.classList.contains("tile")) {
      // A tile has no room for the reason: it is in its description, and shown on hover.
      card.dataset.summary ??= card.getAttribute("aria-label") ?? "";
      card.dataset.verdict = verdict ? (verdict.feasible ? " (fits)" : ` (blocked: ${verdict.reason})`) : "";
      card.setAttribute("aria-label", card.dataset.summary + card.dataset.verdict);
      card.title = card.dataset.summary + card.dataset.verdict;
    } else if (verdict?.feasible === false) {
      const note = document.createElement("p");
      note.className = "verdict";
      note.textContent = verdict.reason;
      card.querySelector(".node-head")?.after(note);
    }
  }
}

// The board is re-rendered by htmx after edits: put the run's pods back into the new cards.
document.addEventListener("htmx:after:swap", () => { adoptPanel(); if (run) render(); markVerdicts(); });
onOpen(() => adoptPanel());
document.documentElement.dataset.runPlayer = "ready";
