// Node cards' cpu / memory / pods bars during a run: requested against allocatable at the event the
// player shows, so they move with it, forward and back. Without a run the server-rendered bars (the
// t=0 preview) stay as they are: this only acts on "run:rendered".

import { boardIndex } from "./board-index.js";
import { formatAmount, requestedByNode } from "./node-usage.js";

const HOT_PERCENT = 90; // as templates/bar.svg and board/node_tile.html

function percent(used, total) {
  if (!total) return used ? 100 : 0;
  return Math.min(100, Math.round((100 * used) / total));
}

function updateRow(row, used, allocatable) {
  const resource = row.dataset.resource;
  // Before the run's first event the player knows no node yet: count against the board's figure.
  const total = allocatable?.[resource] ?? Number(row.dataset.total ?? 0);
  const shown = `${used}/${total}`;
  if (row.dataset.shown === shown) return; // unchanged: a 200-node board is not redrawn every frame
  row.dataset.shown = shown;
  const share = percent(used, total);
  const fill = row.querySelector(".bar-svg .fill");
  if (fill) {
    fill.setAttribute("width", String(share));
    fill.classList.toggle("hot", share >= HOT_PERCENT);
  }
  const text = row.querySelector(".bar-text");
  if (text) text.textContent = `${formatAmount(resource, used)} / ${formatAmount(resource, total)}`;
  row.title = `${resource} requested: ${formatAmount(resource, used)} of ${formatAmount(resource, total)} allocatable`;
}

// Each node element's bars, looked up once (a 500-node board is not searched on every frame), and
// what they last showed: a node whose usage did not change is skipped.
const barsOf = new WeakMap();
function bars(card) {
  let found = barsOf.get(card);
  if (!found) {
    found = { rows: [...card.querySelectorAll(".bar-row[data-resource]")], fills: [...card.querySelectorAll(".tile-bars .fill[data-resource]")], shown: "" };
    barsOf.set(card, found);
  }
  return found;
}

// Only the nodes the frames since the last drawing changed are looked at (detail.changes), unless
// the board was swapped in anew or the player rebuilt its state.
let drawnEpoch = -1;

document.addEventListener("run:rendered", ({ detail }) => {
  // The saved scenario asked for instead of the run: its bars are the server's (run-board.js).
  if (!document.getElementById("board")?.classList.contains("run-shown")) {
    drawnEpoch = -1;
    return;
  }
  const usage = detail.usage ?? requestedByNode(detail.pods);
  const { epoch, byName } = boardIndex();
  const full = !detail.changes || detail.changes.all || epoch !== drawnEpoch;
  drawnEpoch = epoch;
  const cards = full ? [...byName.values()].flat() : [...detail.changes.nodes].flatMap((name) => byName.get(name) ?? []);
  for (const card of cards) {
    const used = usage.get(card.dataset.node) ?? { cpu: 0, memory: 0, pods: 0 };
    const allocatable = detail.nodes.get(card.dataset.node)?.allocatable;
    const known = bars(card);
    const shown = `${used.cpu}/${used.memory}/${used.pods}/${allocatable?.cpu}/${allocatable?.memory}/${allocatable?.pods}`;
    if (known.shown === shown) continue;
    known.shown = shown;
    for (const row of known.rows) {
      updateRow(row, used[row.dataset.resource] ?? 0, allocatable);
    }
    // A tile's bars are two thin lines (cpu, memory): only their length, a class w0-w100 (app.css).
    for (const fill of known.fills) {
      const total = allocatable?.[fill.dataset.resource];
      if (!total) continue;
      const share = percent(used[fill.dataset.resource] ?? 0, total);
      const className = `fill w${share}${share >= HOT_PERCENT ? " hot" : ""}`;
      if (fill.className !== className) fill.className = className;
    }
  }
});
