// The run on the board: while a run is shown, every node tile and card shows the run's state at
// the player's event (its pods, cordon, taints, labels, readiness), never the saved scenario's;
// the controls that edit the saved scenario are hidden, and the board's bar says what is shown.
// "Show the saved scenario" brings back the saved board (and its controls), "Back to the run" the
// run. Placements are drawn as motion: a pod flies from the pending queue (or its old node) to its
// node, a deleted one fades where it was; prefers-reduced-motion turns that off.
//
// Only what changed is touched: the player says which pods and nodes the frames since the last
// drawing changed (detail.changes), the pods are kept indexed by node, and only those nodes are
// drawn again; frames are immutable, so an element that already shows a frame is left alone. The
// whole board is drawn again only when it was swapped in anew or the player rebuilt its state.

import { boardIndex } from "./board-index.js";
import { showChildren } from "./dom-lists.js";
import { requestedByNode } from "./node-usage.js";
import { hueClass } from "./owner-hue.js";

const MAX_QUEUE_CHIPS = 60; // the queue names its first pods and counts the rest
const MAX_FLIGHTS = 12; // more moves than this in one drawing: they just appear
const FLIGHT_MS = 420;
const reducedMotion = window.matchMedia?.("(prefers-reduced-motion: reduce)");

let showing = "run"; // "run" | "saved"
let last = null; // the last run:rendered detail
const podElements = new Map(); // "card|tile" + pod key -> element
const drawnPod = new WeakMap(); // element -> pod frame it shows
const drawnNode = new WeakMap(); // node element -> node frame it shows
const podsOnNode = new Map(); // node name -> Map(pod key -> frame), as of the last run:rendered
const pendingPods = new Map(); // pod key -> frame of the pods waiting to be scheduled
let drawnEpoch = -1; // the board index the last drawing drew (-1: draw everything next time)
let drawnKnown = false; // whether the last drawing knew the run's nodes

const board = () => document.getElementById("board");
const byKey = (a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

// ------------------------------------------------------------------ the run's pods, by node

function placeInIndex(key, pod) {
  if (pod?.node) {
    if (!podsOnNode.has(pod.node)) podsOnNode.set(pod.node, new Map());
    podsOnNode.get(pod.node).set(key, pod);
  } else if (pod && !pod.deleting && pod.phase === "Pending") {
    pendingPods.set(key, pod);
  }
}

/** Follows the player's state; true when the pending queue may have changed. */
function track(detail) {
  const { changes, pods } = detail;
  if (!changes || changes.all) {
    podsOnNode.clear();
    pendingPods.clear();
    for (const [key, pod] of pods) placeInIndex(key, pod);
    return true;
  }
  let queue = false;
  for (const [key, before] of changes.pods) {
    if (before?.node) podsOnNode.get(before.node)?.delete(key);
    queue = pendingPods.delete(key) || queue;
    const now = pods.get(key);
    placeInIndex(key, now);
    queue = queue || pendingPods.has(key);
  }
  return queue;
}

const podsOn = (name) => [...(podsOnNode.get(name)?.values() ?? [])].sort(byKey);

// ------------------------------------------------------------------ pods

function podChip(pod) {
  const id = `card|${pod.key}`;
  let chip = podElements.get(id);
  if (!chip) {
    chip = document.createElement("button");
    chip.type = "button";
    chip.dataset.pod = pod.key;
    chip.dataset.podKey = pod.key;
    chip.draggable = true; // onto a node: "why not here?" (why-not-here.js)
    podElements.set(id, chip);
  }
  if (drawnPod.get(chip) === pod) return chip;
  drawnPod.set(chip, pod);
  chip.className = `pod phase-${pod.phase}${pod.deleting ? " deleting" : ""}${pod.ready ? " ready" : ""} ${hueClass(pod.owner)}`;
  chip.textContent = pod.name;
  chip.title = podTitle(pod);
  return chip;
}

function podSquare(pod) {
  const id = `tile|${pod.key}`;
  let square = podElements.get(id);
  if (!square) {
    square = document.createElement("i");
    square.dataset.pod = pod.key;
    podElements.set(id, square);
  }
  if (drawnPod.get(square) === pod) return square;
  drawnPod.set(square, pod);
  square.className = `sq phase-${pod.phase}${pod.deleting ? " deleting" : ""}${pod.ready ? " ready" : ""} ${hueClass(pod.owner)}`;
  square.title = podTitle(pod);
  return square;
}

function podTitle(pod) {
  return `${pod.key} · ${pod.phase}${pod.ready ? " · Ready" : ""}${pod.deleting ? " · Terminating" : ""}${pod.owner ? " · " + pod.owner : ""}`;
}

// ------------------------------------------------------------------ nodes

function chipItem(className, text, data) {
  const item = document.createElement("li");
  item.className = className;
  item.title = text;
  Object.assign(item.dataset, data);
  const span = document.createElement("span");
  span.className = "chip-text";
  span.textContent = text;
  item.append(span);
  return item;
}

function taintText(taint) {
  return `${taint.key}${taint.value ? "=" + taint.value : ""}:${taint.effect}`;
}

function labelText(key, value) {
  return `${key}${value ? "=" + value : ""}`;
}

function showNodeState(element, node) {
  element.classList.toggle("cordoned", Boolean(node?.unschedulable));
  element.classList.toggle("not-ready", node ? !node.ready : false);
  element.classList.toggle("tainted", Boolean(node?.taints?.length));
  if (!node || drawnNode.get(element) === node) return;
  drawnNode.set(element, node);
  const badges = element.querySelector(".node-badges");
  if (badges) {
    const wanted = [];
    if (!node.ready) wanted.push(["not-ready", "bad", "NotReady"]);
    if (node.unschedulable) wanted.push(["cordoned", "warn", "SchedulingDisabled"]);
    badges.replaceChildren(...wanted.map(([name, tone, text]) => {
      const badge = document.createElement("span");
      badge.className = `badge ${tone}`;
      badge.dataset.badge = name;
      badge.textContent = text;
      return badge;
    }));
  }
  const taints = element.querySelector(".node-taints");
  if (taints) {
    taints.replaceChildren(...node.taints.map((taint) =>
      chipItem(`chip taint effect-${taint.effect}`, taintText(taint), { key: taint.key, value: taint.value ?? "", effect: taint.effect })));
  }
  const labels = element.querySelector(".node-labels");
  if (labels) {
    const grouped = new Set([...document.querySelectorAll("#board .group-by select:is([name=group], [name=then])")].map((select) => select.value));
    const entries = Object.entries(node.labels ?? {}).filter(([key]) => !grouped.has(key));
    labels.replaceChildren(...entries.map(([key, value]) => chipItem("chip label", labelText(key, value), { key, value })));
    const summary = element.querySelector(".node-meta > summary");
    const meta = element.querySelector(".node-meta");
    if (meta) meta.hidden = entries.length === 0;
    if (summary) {
      summary.textContent = `${entries.length} label${entries.length === 1 ? "" : "s"}`;
      summary.title = entries.map(([key, value]) => labelText(key, value)).join("\n");
    }
  }
}

function tileSummary(name, node, pods, usage) {
  const parts = [`${name}: ${pods} pod${pods === 1 ? "" : "s"}`];
  for (const resource of ["cpu", "memory"]) {
    const total = node?.allocatable?.[resource];
    if (total) parts.push(`${resource} ${Math.min(100, Math.round((100 * (usage?.[resource] ?? 0)) / total))}%`);
  }
  if (node && !node.ready) parts.push("NotReady");
  if (node?.unschedulable) parts.push("SchedulingDisabled");
  for (const taint of node?.taints ?? []) parts.push(`taint ${taintText(taint)}`);
  const labels = Object.keys(node?.labels ?? {}).length;
  parts.push(`${labels} label${labels === 1 ? "" : "s"}`);
  return parts.join(", ");
}

// A node the run has and the saved board does not (created by an action): a tile of its own.
function runOnlyTile(name) {
  const grid = board()?.querySelector(".node-grid:last-of-type") ?? board()?.querySelector("[data-board-canvas]");
  if (!grid) return null;
  const compact = grid.classList.contains("tiles");
  const element = document.createElement(compact ? "button" : "article");
  element.dataset.node = name;
  element.dataset.nodeName = name;
  element.dataset.runOnly = "true";
  if (compact) {
    element.type = "button";
    element.className = "tile";
    element.innerHTML = '<span class="tile-name"></span><span class="tile-pods" aria-hidden="true"></span>';
    element.querySelector(".tile-name").textContent = name;
    const item = document.createElement("li");
    item.append(element);
    grid.append(item);
  } else {
    element.className = "node-card";
    element.tabIndex = 0;
    element.innerHTML = '<header class="node-head"><h3 class="node-name"></h3></header><ul class="chips node-taints"></ul><div class="pods" role="group"></div>';
    element.querySelector(".node-name").textContent = name;
    element.querySelector(".pods").setAttribute("aria-label", `Pods on ${name}`);
    grid.append(element);
  }
  return element;
}

// ------------------------------------------------------------------ motion

function motionAllowed(detail) {
  return !reducedMotion?.matches && (detail.speed ?? 5) <= 10 && !document.hidden;
}

function ghost(rect, source) {
  const clone = source.cloneNode(false);
  clone.removeAttribute("data-pod");
  clone.removeAttribute("data-pod-key");
  clone.removeAttribute("id");
  clone.setAttribute("aria-hidden", "true");
  // A picture in flight, not a control: out of the tab order and of every interaction (axe's
  // aria-hidden-focus otherwise finds a focusable button hidden from readers mid-flight).
  clone.tabIndex = -1;
  clone.inert = true;
  clone.removeAttribute("draggable");
  clone.classList.add("pod-ghost");
  clone.textContent = source.textContent;
  Object.assign(clone.style, { position: "fixed", left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px`, margin: "0", pointerEvents: "none", zIndex: "20" });
  document.body.append(clone);
  return clone;
}

function fly(from, to, target) {
  const flier = ghost(to, target);
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  const scale = from.width && to.width ? from.width / to.width : 1;
  target.style.visibility = "hidden";
  const animation = flier.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: 0.9 }, { transform: "none", opacity: 1 }],
    { duration: FLIGHT_MS, easing: "cubic-bezier(.2,.7,.2,1)" },
  );
  animation.onfinish = animation.oncancel = () => { flier.remove(); target.style.visibility = ""; };
}

function fade(rect, source) {
  const faded = ghost(rect, source);
  const animation = faded.animate([{ opacity: 1 }, { opacity: 0, transform: "scale(0.6)" }], { duration: FLIGHT_MS, easing: "ease-in" });
  animation.onfinish = animation.oncancel = () => faded.remove();
}

// The elements that show each pod now, to measure before the drawing changes them.
function shownElement(key) {
  for (const prefix of ["card|", "tile|"]) {
    const element = podElements.get(prefix + key);
    if (element?.isConnected && element.offsetParent !== null) return element;
  }
  return null;
}

function plannedMoves(detail, full) {
  if (full || !motionAllowed(detail)) return null;
  const moved = [];
  const gone = [];
  for (const [key, before] of detail.changes.pods) {
    const pod = detail.pods.get(key);
    if (!pod) {
      if (before) gone.push(key);
    } else if (pod.node && (!before || before.node !== pod.node)) {
      moved.push(key);
    }
  }
  if (moved.length + gone.length > MAX_FLIGHTS) return null;
  const rects = new Map();
  for (const key of [...moved, ...gone]) {
    const element = shownElement(key);
    if (element) rects.set(key, { rect: element.getBoundingClientRect(), element });
  }
  return { moved, gone, rects };
}

function animateMoves(plan) {
  if (!plan) return;
  for (const key of plan.gone) {
    const was = plan.rects.get(key);
    if (was) fade(was.rect, was.element);
  }
  for (const key of plan.moved) {
    const was = plan.rects.get(key);
    const now = shownElement(key);
    if (!was || !now) {
      now?.animate?.([{ transform: "scale(0.2)", opacity: 0 }, { transform: "none", opacity: 1 }], { duration: 260, easing: "ease-out" });
      continue;
    }
    fly(was.rect, now.getBoundingClientRect(), now);
  }
}

// ------------------------------------------------------------------ drawing

function draw(detail, queueChanged) {
  const element = board();
  if (!element) return;
  const { epoch, byName } = boardIndex();
  const known = detail.nodes.size > 0; // before its first event, the run has no node yet
  const full = !detail.changes || detail.changes.all || epoch !== drawnEpoch || known !== drawnKnown;
  drawnEpoch = epoch;
  drawnKnown = known;
  const plan = plannedMoves(detail, full);
  element.classList.add("run-shown");
  document.getElementById("node-detail")?.classList.add("run-shown");
  showMode(detail);
  const usage = detail.usage ?? requestedByNode(detail.pods);
  const names = full ? new Set([...byName.keys(), ...detail.nodes.keys()]) : detail.changes.nodes;
  for (const name of names) {
    const node = detail.nodes.get(name);
    let elements = byName.get(name);
    if (!elements) {
      if (element.querySelector("[data-dot-board]")) continue; // a canvas draws it (board-dots.js)
      const created = node ? runOnlyTile(name) : null;
      if (!created) continue;
      elements = [created];
      byName.set(name, elements);
    }
    const pods = podsOn(name);
    const absent = known && !node;
    for (const nodeElement of elements) {
      (nodeElement.closest("li") ?? nodeElement).classList.toggle("absent", absent);
      nodeElement.classList.toggle("absent", absent);
      drawNode(nodeElement, name, node, pods, usage);
    }
  }
  if (full || queueChanged) drawQueue([...pendingPods.values()]);
  animateMoves(plan);
}

function drawNode(element, name, node, pods, usage) {
  showNodeState(element, node);
  if (element.classList.contains("tile")) {
    const summary = tileSummary(name, node, pods.length, usage?.get(name));
    if (element.dataset.summary !== summary) {
      element.dataset.summary = summary;
      const described = summary + (element.dataset.verdict ?? "");
      element.setAttribute("aria-label", described);
      element.title = described;
    }
    const box = element.querySelector(".tile-pods");
    if (box) showChildren(box, pods.map(podSquare));
  } else {
    const box = element.querySelector(".pods");
    if (box) showChildren(box, pods.map(podChip));
  }
}

let restItem = null;
function drawQueue(pending) {
  const queue = document.querySelector('#run-panel [data-player="pending"]');
  if (!queue) return;
  pending.sort(byKey);
  const shown = pending.slice(0, MAX_QUEUE_CHIPS).map(podChip);
  if (pending.length > MAX_QUEUE_CHIPS) {
    restItem ??= document.createElement("span");
    restItem.className = "queue-rest";
    restItem.textContent = `and ${(pending.length - MAX_QUEUE_CHIPS).toLocaleString("en")} more Pending`;
    shown.push(restItem);
  }
  if (shown.length) {
    let label = queue.querySelector(".queue-label");
    if (!label) {
      label = document.createElement("span");
      label.className = "queue-label";
    }
    label.textContent = `Pending (${pending.length.toLocaleString("en")}):`;
    shown.unshift(label);
  }
  showChildren(queue, shown);
}

function showMode(detail) {
  const mode = board()?.querySelector("[data-board-mode]");
  if (mode) {
    const text = `Run ${detail.run.id} at event ${detail.position}/${detail.run.events.length}, t=${Number(detail.time).toFixed(1)}s: the board shows the run`;
    if (mode.textContent !== text) mode.textContent = text;
  }
  const saved = board()?.querySelector('[data-board-show="saved"]');
  if (saved) saved.hidden = false;
  const back = board()?.querySelector('[data-board-show="run"]');
  if (back) back.hidden = true;
}

function showSavedBar() {
  const element = board();
  if (!element) return;
  element.classList.remove("run-shown");
  const mode = element.querySelector("[data-board-mode]");
  if (mode) mode.textContent = element.dataset.canEdit === "true"
    ? "Saved scenario: edits apply to the next run" : "Saved scenario (no run shown)";
  const saved = element.querySelector('[data-board-show="saved"]');
  if (saved) saved.hidden = true;
  const back = element.querySelector('[data-board-show="run"]');
  if (back) back.hidden = !last;
}

function reloadSavedBoard() {
  const element = board();
  if (!element || !window.htmx) return;
  const url = new URL(document.querySelector(".scenario").dataset.boardUrl, location.href);
  for (const field of element.querySelectorAll(".group-by select, .group-by input[name=q]")) url.searchParams.set(field.name, field.value);
  window.htmx.ajax("GET", url.pathname + url.search, { target: "#board", swap: "outerHTML" });
}

// Events arrived while the player waits: the bar counts them as the player's status does.
document.addEventListener("run:received", (event) => {
  if (showing === "run" && last) showMode(event.detail);
});

document.addEventListener("run:rendered", (event) => {
  last = event.detail;
  const queueChanged = track(event.detail);
  if (showing === "run") draw(event.detail, queueChanged);
  else drawnEpoch = -1; // back to the run: everything is drawn again
});

document.addEventListener("click", (event) => {
  const toggle = event.target.closest?.("[data-board-show]");
  if (!toggle) return;
  if (toggle.dataset.boardShow === "saved") {
    showing = "saved";
    drawnEpoch = -1;
    reloadSavedBoard();
  } else if (last) {
    showing = "run";
    drawnEpoch = -1;
    draw(last, true);
  }
});

// A new run (Run again, an action) is shown at once.
document.addEventListener("run:started", () => { showing = "run"; drawnEpoch = -1; });

document.addEventListener("htmx:after:swap", () => {
  if (showing === "saved") showSavedBar();
});
