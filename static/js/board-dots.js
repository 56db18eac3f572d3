// A big cluster's dots on canvases (playground/board_dots.py): one canvas per group, a square per
// node with its cpu and memory bars and its pods as dots, sized to fill the board. 5,000 nodes and
// 50,000 pods as elements were 100,000 of them and seconds of style work; drawn, they are one pass
// of rectangles, and a run's frame draws again only the nodes it changed.
//
// One button (.dot-hit) stands in for the node under the pointer or the keyboard's focus: it
// carries the node's name and id as a tile does (data-node, data-node-id), so dropping a label,
// a taint or a pod on it, clicking it (the node's card opens) and Enter work as on tiles, and a
// screen reader hears the node's summary. The arrow keys move it from node to node.

import { explainVerdicts } from "./explain-verdicts.js";
import { ownerBucket, OWNER_HUES } from "./owner-hue.js";

const MIN_DOT = 8; // px; the Table view is the large-target equivalent of this board
const MAX_DOT = 64;
const PENDING_COLOR = "#d97706";
const CORDON_COLOR = "#b45309";

let board = null; // {root, data, groups: [{canvas, nodes}], byName, size, gap, perRow}
let run = null; // the run:rendered detail the board shows (null: the saved scenario)
let lastRun = null; // the player's last detail, shown again by "Back to the run"
const runPods = new Map(); // node name -> Map(pod key -> pod frame)
let verdicts = new Map(); // node name -> true (fits) | false (blocked), from the explanation shown
let current = { group: 0, index: 0 }; // where the stand-in button is

const hueDegrees = (bucket) => (bucket * 157.5) % 360; // the .hue-N classes of app.css
const boardElement = () => document.getElementById("board");

// ------------------------------------------------------------------ the saved board's data

function readBoard() {
  const root = boardElement()?.querySelector("[data-dot-board]");
  const script = document.getElementById("board-dots-data");
  if (!root || !script) return null;
  const data = JSON.parse(script.textContent);
  const fields = Object.fromEntries(data.fields.map((name, index) => [name, index]));
  const byName = new Map();
  const groups = data.groups.map((group, groupIndex) => {
    const canvas = root.querySelector(`canvas[data-group="${groupIndex}"]`);
    const nodes = group.nodes.map((row, index) => {
      const codes = row[fields.pods];
      const pods = [];
      for (let at = 0; at < codes.length; at += 2) {
        pods.push({ phase: data.phases[Number(codes[at])] ?? "Unknown", bucket: parseInt(codes[at + 1], 16), ready: false, deleting: false });
      }
      const node = {
        name: row[fields.name], id: row[fields.id], cordoned: Boolean(row[fields.flags] & 1),
        cpu: row[fields.cpu], memory: row[fields.memory], pods, taints: row[fields.taints], labels: row[fields.labels],
        group: groupIndex, index,
      };
      byName.set(node.name, node);
      return node;
    });
    return { canvas, nodes };
  });
  return { root, data, groups, byName, size: MIN_DOT, gap: 2, perRow: 1 };
}

// ------------------------------------------------------------------ what a node shows now

/** The node as drawn: the saved one, or the run's at the player's event. */
function shown(node) {
  if (!run) return { ...node, absent: false, notReady: false };
  const frame = run.nodes.get(node.name);
  if (run.nodes.size && !frame) return { ...node, absent: true };
  const pods = [...(runPods.get(node.name)?.values() ?? [])].sort((a, b) => (a.key < b.key ? -1 : 1))
    .map((pod) => ({ phase: pod.phase, bucket: ownerBucket(pod.owner), ready: pod.ready, deleting: pod.deleting }));
  const used = run.usage?.get(node.name);
  const percent = (resource) => {
    const total = frame?.allocatable?.[resource];
    return total ? Math.min(100, Math.round((100 * (used?.[resource] ?? 0)) / total)) : node[resource];
  };
  return {
    ...node,
    pods,
    cpu: percent("cpu"),
    memory: percent("memory"),
    cordoned: frame ? Boolean(frame.unschedulable) : node.cordoned,
    notReady: frame ? !frame.ready : false,
    taints: frame ? (frame.taints ?? []).map((t) => `${t.key}${t.value ? "=" + t.value : ""}:${t.effect}`) : node.taints,
    labels: frame ? Object.keys(frame.labels ?? {}).length : node.labels,
    absent: false,
  };
}

function summary(node) {
  const parts = [`${node.name}: ${node.pods.length} pod${node.pods.length === 1 ? "" : "s"}`, `cpu ${node.cpu}%`, `memory ${node.memory}%`];
  if (node.notReady) parts.push("NotReady");
  if (node.cordoned) parts.push("SchedulingDisabled");
  for (const taint of node.taints) parts.push(`taint ${taint}`);
  parts.push(`${node.labels} label${node.labels === 1 ? "" : "s"}`);
  const verdict = verdicts.get(node.name);
  if (verdict !== undefined) parts.push(verdict ? "fits" : "blocked");
  return parts.join(", ");
}

// ------------------------------------------------------------------ layout

function layout() {
  const scroller = board.root.closest("[data-board-canvas]");
  const width = Math.max(60, board.root.clientWidth - 2);
  const height = (scroller?.clientHeight ?? 600) - 8;
  const titles = board.root.querySelectorAll(".group-title").length * 22;
  const counts = board.groups.map((group) => group.nodes.length);
  const gapFor = (size) => (size >= 16 ? 3 : size >= 10 ? 2 : 1);
  const rowsAt = (size) => {
    const perRow = Math.max(1, Math.floor((width + gapFor(size)) / (size + gapFor(size))));
    return counts.reduce((sum, count) => sum + Math.ceil(count / perRow), 0);
  };
  let size = MIN_DOT;
  while (size < MAX_DOT && rowsAt(size + 1) * (size + 1 + gapFor(size + 1)) + titles <= height) size += 1;
  board.size = size;
  board.gap = gapFor(size);
  board.perRow = Math.max(1, Math.floor((width + board.gap) / (size + board.gap)));
  const ratio = window.devicePixelRatio || 1;
  for (const group of board.groups) {
    const rows = Math.max(1, Math.ceil(group.nodes.length / board.perRow));
    const cssHeight = rows * (size + board.gap);
    group.canvas.style.width = `${width}px`;
    group.canvas.style.height = `${cssHeight}px`;
    group.canvas.width = Math.round(width * ratio);
    group.canvas.height = Math.round(cssHeight * ratio);
    group.context = group.canvas.getContext("2d");
    group.context.setTransform(ratio, 0, 0, ratio, 0, 0);
  }
}

const origin = (node) => ({
  x: (node.index % board.perRow) * (board.size + board.gap),
  y: Math.floor(node.index / board.perRow) * (board.size + board.gap),
});

// ------------------------------------------------------------------ drawing

function colors() {
  const style = getComputedStyle(document.documentElement);
  const read = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
  return {
    surface: read("--surface", "#fff"), border: read("--border", "#d9dde3"), bg: read("--bg", "#f6f7f9"),
    muted: read("--muted", "#5b6470"), accent: read("--accent", "#326ce5"), bad: read("--bad", "#cf222e"), ok: read("--ok", "#1a7f37"),
  };
}

function drawNode(group, node, palette) {
  const context = group.context;
  const size = board.size;
  const { x, y } = origin(node);
  context.clearRect(x - 1, y - 1, size + 2, size + 2);
  const look = shown(node);
  if (look.absent) return;
  const verdict = verdicts.get(node.name);
  context.globalAlpha = 1;
  context.fillStyle = verdict === false ? palette.bg : palette.surface;
  roundRect(context, x + 0.5, y + 0.5, size - 1, size - 1, Math.min(4, size / 5));
  context.fill();
  if (look.notReady) { // a tint of --bad over the surface, as .tile.not-ready
    context.globalAlpha = 0.12;
    context.fillStyle = palette.bad;
    context.fill();
    context.globalAlpha = 1;
  }
  context.lineWidth = look.cordoned || look.notReady || verdict !== undefined ? 2 : 1;
  context.setLineDash(look.cordoned || verdict === false ? [3, 2] : []);
  context.strokeStyle = look.notReady ? palette.bad : look.cordoned ? CORDON_COLOR : verdict === true ? palette.ok : verdict === false ? palette.muted : palette.border;
  context.stroke();
  context.setLineDash([]);
  if (look.taints.length) {
    const corner = Math.max(3, Math.round(size / 5));
    context.fillStyle = PENDING_COLOR;
    context.beginPath();
    context.moveTo(x + size - corner, y);
    context.lineTo(x + size, y);
    context.lineTo(x + size, y + corner);
    context.fill();
  }
  const pad = size >= 16 ? 3 : 2;
  let top = y + pad;
  const inner = size - 2 * pad;
  if (size >= 14) { // the cpu and memory bars, as a tile's
    for (const percent of [look.cpu, look.memory]) {
      context.fillStyle = palette.border;
      context.fillRect(x + pad, top, inner, 1.5);
      context.fillStyle = percent >= 90 ? palette.bad : palette.accent;
      context.fillRect(x + pad, top, (inner * percent) / 100, 1.5);
      top += 2.5;
    }
    top += 1;
  }
  drawPods(context, look.pods, x + pad, top, inner, y + size - pad - top, palette);
}

function drawPods(context, pods, left, top, width, height, palette) {
  if (!pods.length || width <= 0 || height <= 0) return;
  let dot = 4;
  const fits = (side) => Math.floor((width + 1) / (side + 1)) * Math.floor((height + 1) / (side + 1)) >= pods.length;
  while (dot > 1 && !fits(dot)) dot -= 1;
  const perRow = Math.max(1, Math.floor((width + 1) / (dot + 1)));
  const shownCount = Math.min(pods.length, perRow * Math.max(1, Math.floor((height + 1) / (dot + 1))));
  for (let index = 0; index < shownCount; index += 1) {
    const pod = pods[index];
    const px = left + (index % perRow) * (dot + 1);
    const py = top + Math.floor(index / perRow) * (dot + 1);
    context.globalAlpha = pod.deleting ? 0.3 : pod.ready || pod.phase === "Succeeded" || pod.phase === "Pending" || pod.phase === "Failed" ? 1 : 0.55;
    if (pod.phase === "Pending" && dot >= 3) {
      context.strokeStyle = PENDING_COLOR;
      context.lineWidth = 1;
      context.strokeRect(px + 0.5, py + 0.5, dot - 1, dot - 1);
      continue;
    }
    context.fillStyle = pod.phase === "Pending" ? PENDING_COLOR : pod.phase === "Failed" ? palette.bad
      : pod.phase === "Succeeded" ? palette.muted : `hsl(${hueDegrees(pod.bucket % OWNER_HUES)} 62% 46%)`;
    context.fillRect(px, py, dot, dot);
  }
  context.globalAlpha = 1;
}

function roundRect(context, x, y, width, height, radius) {
  context.beginPath();
  if (context.roundRect) context.roundRect(x, y, width, height, radius);
  else context.rect(x, y, width, height);
}

function drawAll() {
  if (!board) return;
  const palette = colors();
  for (const group of board.groups) {
    group.context.clearRect(0, 0, group.canvas.width, group.canvas.height);
    for (const node of group.nodes) drawNode(group, node, palette);
  }
  placeStandIn(current, false);
}

function drawNames(names) {
  const palette = colors();
  for (const name of names) {
    const node = board.byName.get(name);
    if (node) drawNode(board.groups[node.group], node, palette);
  }
}

// ------------------------------------------------------------------ the stand-in button

const standIn = () => board?.root.querySelector(".dot-hit");

function nodeAt(place) {
  const group = board.groups[place.group];
  return group?.nodes[place.index] ?? null;
}

function placeStandIn(place, announce) {
  const button = standIn();
  const node = nodeAt(place);
  if (!button || !node) return;
  current = { group: node.group, index: node.index };
  const canvas = board.groups[node.group].canvas;
  const { x, y } = origin(node);
  const rootBox = board.root.getBoundingClientRect();
  const box = canvas.getBoundingClientRect();
  Object.assign(button.style, {
    left: `${box.left - rootBox.left + x}px`, top: `${box.top - rootBox.top + y}px`,
    width: `${board.size}px`, height: `${board.size}px`,
  });
  if (button.dataset.node !== node.name) button.classList.remove("drop-target");
  button.dataset.node = node.name;
  button.dataset.nodeName = node.name;
  button.dataset.nodeId = String(node.id);
  const text = summary(shown(node));
  button.setAttribute("aria-label", text);
  const tip = board.root.querySelector(".dot-tip");
  if (tip) tip.textContent = text;
  if (announce) {
    const live = board.root.querySelector("[data-dot-live]");
    if (live) live.textContent = text;
  }
}

function showTip(visible) {
  const tip = board?.root.querySelector(".dot-tip");
  const button = standIn();
  if (!tip || !button) return;
  tip.hidden = !visible;
  if (!visible) return;
  const left = parseFloat(button.style.left);
  const top = parseFloat(button.style.top);
  tip.style.left = `${Math.max(0, Math.min(left, board.root.clientWidth - tip.offsetWidth))}px`;
  tip.style.top = `${top >= tip.offsetHeight + 4 ? top - tip.offsetHeight - 4 : top + board.size + 4}px`;
}

/** The node under a point of the screen, or null. */
function hit(clientX, clientY) {
  for (const group of board.groups) {
    const box = group.canvas.getBoundingClientRect();
    if (clientX < box.left || clientX >= box.right || clientY < box.top || clientY >= box.bottom) continue;
    const step = board.size + board.gap;
    const column = Math.floor((clientX - box.left) / step);
    const row = Math.floor((clientY - box.top) / step);
    if (column >= board.perRow || (clientX - box.left) % step > board.size || (clientY - box.top) % step > board.size) return null;
    const node = group.nodes[row * board.perRow + column];
    return node && !shown(node).absent ? node : null;
  }
  return null;
}

function follow(event) {
  if (!board || !board.root.contains(event.target)) return;
  const node = hit(event.clientX, event.clientY);
  if (!node) return;
  if (node.group !== current.group || node.index !== current.index) placeStandIn(node, false);
  showTip(true);
}

/** The node at `index` of `flat`, or, when the run shown has removed it (a deleted node's square
 * stays empty), the nearest one the run still has: first in the direction moved, then back. */
function presentNear(flat, index, direction) {
  for (const way of [direction, -direction]) {
    for (let at = index; at >= 0 && at < flat.length; at += way) {
      if (!shown(flat[at]).absent) return flat[at];
    }
  }
  return null;
}

function step(key) {
  const flat = board.groups.flatMap((group) => group.nodes);
  const at = flat.indexOf(nodeAt(current));
  const moves = {
    ArrowRight: at + 1, ArrowLeft: at - 1, ArrowDown: at + board.perRow, ArrowUp: at - board.perRow,
    Home: 0, End: flat.length - 1, PageDown: at + board.perRow * 10, PageUp: at - board.perRow * 10,
  };
  if (!(key in moves)) return false;
  const target = presentNear(flat, Math.max(0, Math.min(flat.length - 1, moves[key])), moves[key] >= at ? 1 : -1);
  if (!target) return true; // a run has removed every node: nothing to stand in for
  placeStandIn(target, true);
  standIn()?.scrollIntoView({ block: "nearest", inline: "nearest" });
  showTip(true);
  return true;
}

// ------------------------------------------------------------------ the run

function track(detail) {
  if (!detail.changes || detail.changes.all) {
    runPods.clear();
    for (const [key, pod] of detail.pods) place(key, pod);
    return null;
  }
  for (const [key, before] of detail.changes.pods) {
    if (before?.node) runPods.get(before.node)?.delete(key);
    place(key, detail.pods.get(key));
  }
  return detail.changes.nodes;
}

function place(key, pod) {
  if (!pod?.node) return;
  if (!runPods.has(pod.node)) runPods.set(pod.node, new Map());
  runPods.get(pod.node).set(key, pod);
}

function readVerdicts() {
  verdicts = new Map([...explainVerdicts()].map(([name, verdict]) => [name, verdict.feasible]));
}

// ------------------------------------------------------------------ wiring

function start() {
  board = readBoard();
  if (!board) return;
  const showingRun = boardElement()?.classList.contains("run-shown");
  if (!showingRun) run = null;
  readVerdicts();
  layout();
  if (!nodeAt(current)) current = { group: 0, index: 0 };
  drawAll();
}

let resizeFrame = 0;
const observer = typeof ResizeObserver === "function"
  ? new ResizeObserver(() => {
    cancelAnimationFrame(resizeFrame);
    resizeFrame = requestAnimationFrame(() => { if (board?.root.isConnected) { layout(); drawAll(); } });
  })
  : null;

function watch() {
  const fresh = boardElement()?.querySelector("[data-dot-board]");
  if (fresh && fresh === board?.root) return;
  observer?.disconnect();
  board = null;
  if (!fresh) return;
  start();
  const scroller = fresh.closest("[data-board-canvas]");
  if (scroller) observer?.observe(scroller);
}

/** Nodes the run made (an action added them) join the last group; true when there were any. */
function adoptRunNodes(detail) {
  if (!board || detail.nodes.size <= board.byName.size && ![...detail.nodes.keys()].some((name) => !board.byName.has(name))) return false;
  const last = board.groups.at(-1);
  let added = false;
  for (const name of detail.nodes.keys()) {
    if (board.byName.has(name)) continue;
    const node = { name, id: "", cordoned: false, cpu: 0, memory: 0, pods: [], taints: [], labels: 0, group: board.groups.length - 1, index: last.nodes.length };
    last.nodes.push(node);
    board.byName.set(name, node);
    added = true;
  }
  return added;
}

document.addEventListener("run:rendered", (event) => {
  let changed = track(event.detail);
  lastRun = event.detail;
  if (!board?.root.isConnected) return;
  if (adoptRunNodes(event.detail)) { layout(); changed = null; }
  // run-board.js marks the board as showing the run; while the saved scenario is shown, it is left alone.
  requestAnimationFrame(() => {
    if (!boardElement()?.classList.contains("run-shown")) { run = null; return; }
    const wasShown = run !== null;
    run = lastRun;
    if (changed && wasShown) drawNames(changed);
    else drawAll();
  });
});

document.addEventListener("click", (event) => {
  const toggle = event.target.closest?.("[data-board-show]");
  if (!toggle || !board) return;
  if (toggle.dataset.boardShow === "run" && lastRun) requestAnimationFrame(() => { run = lastRun; drawAll(); });
  if (toggle.dataset.boardShow === "saved") run = null;
});

document.addEventListener("pointermove", follow);
document.addEventListener("dragover", follow, true); // before board.js looks for a node under the drop
document.addEventListener("pointerleave", (event) => { if (event.target === board?.root) showTip(false); }, true);

document.addEventListener("keydown", (event) => {
  if (!board || !event.target.classList?.contains("dot-hit")) return;
  if (step(event.key)) event.preventDefault();
});
document.addEventListener("focusin", (event) => { if (board && event.target.classList?.contains("dot-hit")) showTip(true); });
document.addEventListener("focusout", (event) => { if (board && event.target.classList?.contains("dot-hit")) showTip(false); });

window.matchMedia?.("(prefers-color-scheme: dark)").addEventListener?.("change", () => drawAll());
document.addEventListener("htmx:after:swap", () => {
  watch();
  if (board) { readVerdicts(); drawAll(); }
});
document.addEventListener("DOMContentLoaded", watch);
watch();
document.documentElement.dataset.boardDots = "ready";
