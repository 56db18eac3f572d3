// "Charts" in the run panel: pods per node (or per zone) over simulated time, requested against
// allocatable per node at the player's position, and ready replicas per Deployment with the
// desired count dashed. A vertical cursor follows the player; clicking a time chart seeks there
// through the player's own timeline input. The player's state is only read, never changed.

import { onMessage } from "./scenario-socket.js";
import { formatAmount, requestedByNode, shortBytes } from "./node-usage.js";
import { downsample, NO_ZONE, positionAt, seriesOf, stack, ZONE_LABEL } from "./run-series.js";
import { fillLegend, svgElement, TimeChart } from "./svg-chart.js";

const MAX_POINTS = 400; // per series: more would not show at this width anyway
const REDRAW_EVERY_MS = 300; // while a long run streams in, redraw its lines at most this often
const MAX_BAR_ROWS = 12;
const LEGEND_ENTRIES = 12;
const OPEN_KEY = "run-charts-open";

let latest = null; // the last "run:rendered" detail
let view = null; // the charts built in the current run panel
let frame = 0;
let timer = 0;
let readingsTimer = 0;
const READINGS_EVERY_MS = 200;

// Distinct colours by sorted index (the golden angle keeps neighbours apart). Not run-player's owner
// hash: it gives names that differ in one character (app1, app2) nearly the same hue.
const indexHue = (index) => Math.round((210 + index * 137.508) % 360);

function seek(time) {
  if (!latest) return;
  const input = document.querySelector('#run-panel [data-player="seek"]');
  if (!input) return;
  input.value = String(positionAt(seriesOf(latest.run), time));
  input.dispatchEvent(new Event("input", { bubbles: true }));
}

function section(name, heading) {
  const box = document.createElement("section");
  box.className = "chart";
  box.dataset.chart = name;
  const head = document.createElement("header");
  const title = document.createElement("h4");
  title.textContent = heading;
  head.append(title);
  box.append(head);
  return { box, head, title };
}

function buildView(body) {
  const details = body.closest("details");
  if (localStorage.getItem(OPEN_KEY) === "false") details.open = false;
  details.addEventListener("toggle", () => {
    localStorage.setItem(OPEN_KEY, String(details.open));
    schedule();
  });

  const pods = section("pods", "Pods per node");
  const toggle = document.createElement("div");
  toggle.className = "chart-toggle";
  toggle.setAttribute("role", "group");
  toggle.setAttribute("aria-label", "Count pods per");
  for (const mode of ["node", "zone"]) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button small";
    button.dataset.mode = mode;
    button.textContent = mode;
    button.addEventListener("click", () => { current.mode = mode; schedule(); });
    toggle.append(button);
  }
  pods.head.append(toggle);
  const podsChart = new TimeChart({ label: "Pods per node over time", yLabel: "pods", onSeek: seek });
  const podsLegend = document.createElement("ul");
  podsLegend.className = "chart-legend";
  pods.box.append(podsChart.svg, podsLegend);

  const requested = section("requested", "Requested / allocatable");
  const requestedSvg = svgElement("svg", { class: "chart-svg", role: "img" });
  const requestedNote = document.createElement("p");
  requestedNote.className = "chart-note";
  requested.box.append(requestedSvg, requestedNote);

  const replicas = section("replicas", "Ready replicas per Deployment");
  const replicasChart = new TimeChart({ label: "Ready replicas per Deployment over time", yLabel: "replicas", onSeek: seek });
  const replicasLegend = document.createElement("ul");
  replicasLegend.className = "chart-legend";
  const replicasNote = document.createElement("p");
  replicasNote.className = "chart-note";
  replicas.box.append(replicasChart.svg, replicasLegend, replicasNote);

  body.replaceChildren(pods.box, requested.box, replicas.box);
  view?.resizes.disconnect();
  const resizes = new ResizeObserver(() => schedule()); // charts are drawn at the width they get
  resizes.observe(body);
  const current = {
    body, details, resizes, mode: null, drawn: { layout: "", changed: -1, at: 0 }, readAt: -Infinity,
    pods: { ...pods, toggle, chart: podsChart, legend: podsLegend, lines: [] },
    requested: { ...requested, svg: requestedSvg, note: requestedNote },
    replicas: { ...replicas, chart: replicasChart, legend: replicasLegend, note: replicasNote, lines: [] },
  };
  return current;
}

// ------------------------------------------------------------------ pods per node / zone

// Stacked, so nodes (or zones) with the same count do not hide one another and the top edge is
// the cluster's total.
function podLayers(state, mode, until) {
  const source = mode === "zone" ? state.byZone : state.byNode;
  const names = [...source.keys()].sort((a, b) => (a === NO_ZONE) - (b === NO_ZONE) || a.localeCompare(b));
  const { layers, highest } = stack(names.map((name) => source.get(name)), Math.max(until, 1), MAX_POINTS);
  return { highest, lines: names.map((name, index) => ({ label: name, hue: indexHue(index), points: layers[index], peak: peak(source.get(name)), area: true })) };
}

function peak(points) {
  let highest = 0;
  for (const [, value] of points) highest = Math.max(highest, value);
  return highest;
}

function drawPods(state, width, until) {
  const part = view.pods;
  const mode = view.mode ?? (state.hasZones ? "zone" : "node");
  part.mode = mode;
  part.toggle.hidden = !state.hasZones;
  for (const button of part.toggle.children) button.setAttribute("aria-pressed", String(button.dataset.mode === mode));
  part.title.textContent = `Pods per ${mode}`;
  part.chart.label = `Pods per ${mode} over time, stacked`;
  const { lines, highest } = podLayers(state, mode, until);
  part.lines = lines;
  part.chart.draw({
    width, until, yMax: highest, areas: lines,
    description: lines.slice(0, LEGEND_ENTRIES).map((line) => `${line.label} at most ${line.peak}`).join(", "),
  });
}

// The legends read the player's own state, not the series: at one simulated instant the player
// may stand between events (position 0 is before the first one, at t=0 too).
function fillLegends() {
  const usage = latest.usage ?? requestedByNode(latest.pods);
  const counts = new Map();
  for (const [name, used] of usage) {
    const key = view.pods.mode === "zone" ? latest.nodes.get(name)?.labels?.[ZONE_LABEL] ?? NO_ZONE : name;
    counts.set(key, (counts.get(key) ?? 0) + used.pods);
  }
  fillLegend(view.pods.legend, capped(view.pods.lines, (line) => `${line.label}: ${counts.get(line.label) ?? 0}`));
  const deployments = new Map([...latest.workloads.values()].filter((w) => w.kind === "Deployment").map((w) => [w.key, w]));
  const ready = view.replicas.lines.filter((line) => !line.dashed);
  fillLegend(view.replicas.legend, capped(ready, (line) => {
    const deployment = deployments.get(line.key);
    return `${line.name}: ${deployment?.ready ?? 0}/${deployment?.replicas ?? 0} ready`;
  }));
}

function capped(lines, text) {
  const shown = lines.slice(0, LEGEND_ENTRIES).map((line) => ({ ...line, label: text(line) }));
  if (lines.length > LEGEND_ENTRIES) shown.push({ label: `+ ${lines.length - LEGEND_ENTRIES} more` });
  return shown;
}

// ------------------------------------------------------------------ ready replicas

function drawReplicas(state, width, until) {
  const part = view.replicas;
  const deployments = [...state.deployments.values()].sort((a, b) => a.key.localeCompare(b.key));
  part.chart.svg.toggleAttribute("hidden", !deployments.length); // (an SVG element has no .hidden)
  part.legend.hidden = !deployments.length;
  part.note.textContent = deployments.length ? "solid: ready · dashed: desired (spec.replicas)" : "No Deployment in this run.";
  part.lines = deployments.flatMap((deployment, index) => {
    const hue = indexHue(index);
    return [
      { label: `${deployment.name} ready`, key: deployment.key, name: deployment.name, hue, points: downsample(deployment.ready, Math.max(until, 1), MAX_POINTS) },
      { label: `${deployment.name} desired`, name: deployment.name, hue, dashed: true, points: downsample(deployment.desired, Math.max(until, 1), MAX_POINTS) },
    ];
  });
  if (!deployments.length) return;
  part.chart.draw({
    width, until, yMax: state.maxReplicas, series: part.lines,
    description: deployments.map((deployment) => `${deployment.name}: ready ${deployment.ready.at(-1)?.[1] ?? 0} of ${deployment.desired.at(-1)?.[1] ?? 0} at the end`).join(", "),
  });
}

// ------------------------------------------------------------------ requested vs allocatable

const RESOURCES = ["cpu", "memory"];
const ROW = 32;
const NAME_WIDTH = 92;
const VALUE_WIDTH = 96;

function shortAmount(resource, amount) {
  return resource === "memory" ? shortBytes(amount) : formatAmount(resource, amount);
}

function drawRequested(width, time) {
  const part = view.requested;
  const usage = latest.usage ?? requestedByNode(latest.pods);
  let rows = [...latest.nodes.values()].map((node) => {
    const used = usage.get(node.name) ?? { cpu: 0, memory: 0 };
    const shares = RESOURCES.map((resource) => (node.allocatable?.[resource] ? used[resource] / node.allocatable[resource] : 0));
    return { node, used, top: Math.max(...shares) };
  });
  const total = rows.length;
  rows.sort((a, b) => a.node.name.localeCompare(b.node.name));
  if (rows.length > MAX_BAR_ROWS) rows = [...rows].sort((a, b) => b.top - a.top).slice(0, MAX_BAR_ROWS);
  part.title.textContent = `Requested / allocatable at t=${time.toFixed(1)}s`;
  part.note.textContent = !total ? "No node yet at this event."
    : total > rows.length ? `The ${rows.length} nodes with the highest requested share of ${total}.` : "";

  width = Math.max(240, Math.round(width));
  const height = rows.length * ROW + (rows.length ? 18 : 0);
  const svg = part.svg;
  svg.toggleAttribute("hidden", !rows.length);
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  const barWidth = width - NAME_WIDTH - VALUE_WIDTH;
  const parts = [svgElement("title", {}, `Requested cpu and memory against allocatable per node at t=${time.toFixed(1)}s`)];
  // A key of the two bar colours, above the rows.
  RESOURCES.forEach((resource, index) => {
    const x = NAME_WIDTH + index * 70;
    parts.push(svgElement("rect", { class: `chart-bar ${resource}`, x, y: 4, width: 10, height: 6 }));
    parts.push(svgElement("text", { class: "chart-tick", x: x + 14, y: 10 }, resource));
  });
  const described = [];
  rows.forEach(({ node, used }, index) => {
    const top = 18 + index * ROW;
    const name = svgElement("text", { class: "chart-label", x: 0, y: top + 16 }, node.name.length > 13 ? `${node.name.slice(0, 12)}…` : node.name);
    name.append(svgElement("title", {}, node.name));
    parts.push(name);
    RESOURCES.forEach((resource, line) => {
      const allocatable = node.allocatable?.[resource] ?? 0;
      const share = allocatable ? Math.min(1, used[resource] / allocatable) : 0;
      const y = top + 3 + line * 13;
      parts.push(svgElement("rect", { class: "chart-bar-track", x: NAME_WIDTH, y, width: barWidth, height: 9, rx: 2 }));
      parts.push(svgElement("rect", {
        class: `chart-bar ${resource}${share >= 0.9 ? " hot" : ""}`, x: NAME_WIDTH, y, width: (share * barWidth).toFixed(1), height: 9, rx: 2,
        "data-node": node.name, "data-resource": resource,
      }));
      const reading = `${shortAmount(resource, used[resource])}/${shortAmount(resource, allocatable)}`;
      parts.push(svgElement("text", { class: "chart-value", x: width - VALUE_WIDTH + 6, y: y + 8 }, reading));
      described.push(`${node.name} ${resource} ${reading}`);
    });
  });
  svg.setAttribute("aria-label", `Requested against allocatable at t=${time.toFixed(1)}s: ${described.join(", ")}`);
  svg.replaceChildren(...parts);
}

// ------------------------------------------------------------------ updating

function schedule() {
  if (!frame) frame = requestAnimationFrame(update);
}

function update() {
  frame = 0;
  const body = document.querySelector("#run-panel [data-run-charts-body]");
  if (!latest || !body) return;
  if (view?.body !== body) view = buildView(body); // the run panel was swapped (a new run)
  if (!view.details.open) return;
  const state = seriesOf(latest.run);
  const width = body.clientWidth;
  const until = state.times.at(-1) ?? 0;
  const layout = `${width}|${view.mode}`;
  if (layout !== view.drawn.layout || state.changed !== view.drawn.changed) {
    const wait = view.drawn.at + REDRAW_EVERY_MS - performance.now();
    if (layout === view.drawn.layout && wait > 0) {
      clearTimeout(timer); // only new events: catch up a little later, not on every batch
      timer = setTimeout(schedule, wait);
    } else {
      drawPods(state, width, until);
      drawReplicas(state, width, until);
      view.drawn = { layout, changed: state.changed, at: performance.now() };
    }
  }
  const time = Number(latest.time ?? 0);
  for (const part of [view.pods, view.replicas]) part.chart.moveCursor(time);
  // The legends and the requested bars look at every node (5,000: a sort and a pass each): at most
  // every READINGS_EVERY_MS while the player moves, and once more when it stops.
  const since = performance.now() - view.readAt;
  clearTimeout(readingsTimer);
  if (since >= READINGS_EVERY_MS) {
    fillLegends();
    drawRequested(width, time);
    view.readAt = performance.now();
  } else {
    readingsTimer = setTimeout(schedule, READINGS_EVERY_MS - since);
  }
}

document.addEventListener("run:rendered", (event) => {
  latest = event.detail;
  schedule();
});

// Events keep arriving while the player is paused (no render then): grow the lines anyway.
onMessage((message) => {
  if (latest && message.run === latest.run.id && (message.type === "run.events" || message.type === "run.status")) schedule();
});
