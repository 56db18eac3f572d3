// How big the nodes are drawn: the zoom buttons, Ctrl + wheel (a trackpad pinch) and a two-finger
// pinch on a touch screen move between the board's levels (dots, tiles, cards); at the dots level the squares grow to fill the space
// the board has, from a phone to a wall display; and a compact tile opens into the node's full
// card (labels, taints, pods by name, its editing controls) over the board.

const LEVELS = ["dots", "tiles", "cards"];
const MIN_DOT = 24; // px: the smallest target a pointer is asked to hit (WCAG 2.2, 2.5.8)
const MAX_DOT = 64;
const GAP = 3;
const GROUP_TITLE = 24; // px: a group's heading and its margin

const board = () => document.getElementById("board");

let asked = null; // the level asked for and not drawn yet: quick clicks add up

function zoom(direction) {
  const element = board();
  const select = element?.querySelector("[data-board-view]");
  if (!element || !select) return;
  const from = asked ?? element.dataset.density;
  const level = LEVELS.indexOf(from);
  const next = LEVELS[Math.max(0, Math.min(LEVELS.length - 1, (level < 0 ? 1 : level) + direction))];
  if (next === from) return;
  asked = next;
  select.value = next;
  select.dispatchEvent(new Event("change", { bubbles: true }));
}

document.addEventListener("click", (event) => {
  const button = event.target.closest?.("#board [data-zoom]");
  if (button) zoom(button.dataset.zoom === "in" ? 1 : -1);
});

let wheelAt = 0;
document.addEventListener("wheel", (event) => {
  if (!event.ctrlKey || !event.target.closest?.("#board [data-board-canvas]")) return;
  event.preventDefault(); // the page itself does not zoom
  const now = performance.now();
  if (now - wheelAt < 450) return; // one level per gesture
  wheelAt = now;
  zoom(event.deltaY < 0 ? 1 : -1);
}, { passive: false });

// A pinch on a touch screen: the board's CSS leaves only panning to the browser (touch-action), so
// two fingers moving apart or together change the level, once per gesture, instead of magnifying
// the whole page.
const PINCH_IN = 1.25; // fingers this much further apart than at the start: one level closer
const PINCH_OUT = 0.8;
let pinch = null; // {distance, done}

const fingersApart = (touches) =>
  Math.hypot(touches[0].clientX - touches[1].clientX, touches[0].clientY - touches[1].clientY);

document.addEventListener("touchstart", (event) => {
  if (event.touches.length !== 2 || !event.target.closest?.("#board [data-board-canvas]")) return;
  pinch = { distance: fingersApart(event.touches), done: false };
}, { passive: true });

document.addEventListener("touchmove", (event) => {
  if (!pinch || event.touches.length !== 2) return;
  event.preventDefault();
  if (pinch.done || pinch.distance <= 0) return;
  const ratio = fingersApart(event.touches) / pinch.distance;
  if (ratio >= PINCH_IN || ratio <= PINCH_OUT) {
    pinch.done = true;
    zoom(ratio > 1 ? 1 : -1);
  }
}, { passive: false });

document.addEventListener("touchend", (event) => {
  if (event.touches.length < 2) pinch = null;
});
document.addEventListener("touchcancel", () => { pinch = null; });

// ------------------------------------------------------------------ dots that fill the board

function fitDots() {
  const element = board();
  const canvas = element?.querySelector("[data-board-canvas]");
  if (!element || !canvas || element.dataset.density !== "dots") return;
  const width = canvas.clientWidth - 4;
  const height = canvas.clientHeight - 4;
  const groups = [...canvas.querySelectorAll(".node-grid.tiles")].map((grid) => grid.children.length);
  if (!groups.length || width <= 0) return;
  const titles = canvas.querySelectorAll(".group-title").length * GROUP_TITLE;
  const fits = (size) => {
    const perRow = Math.max(1, Math.floor((width + GAP) / (size + GAP)));
    const rows = groups.reduce((sum, count) => sum + Math.ceil(count / perRow), 0);
    return rows * (size + GAP) + titles <= height;
  };
  let size = MIN_DOT;
  while (size < MAX_DOT && fits(size + 1)) size += 1;
  element.style.setProperty("--dot", `${size}px`);
}

const observer = typeof ResizeObserver === "function" ? new ResizeObserver(() => fitDots()) : null;
function watchCanvas() {
  const canvas = board()?.querySelector("[data-board-canvas]");
  if (!canvas) return;
  observer?.disconnect();
  observer?.observe(canvas);
  fitDots();
}

// ------------------------------------------------------------------ a tile, opened

let opened = null; // {name, tile}

function detailBox() {
  return document.getElementById("node-detail");
}

function openNode(tile) {
  const box = detailBox();
  if (!box || !window.htmx) return;
  opened = { name: tile.dataset.node };
  const url = new URL(box.dataset.nodeDetailUrl, location.href);
  url.searchParams.set("node", tile.dataset.node);
  url.searchParams.set("view", "cards");
  window.htmx.ajax("GET", url.pathname + url.search, { target: "#node-detail", swap: "innerHTML" });
}

function closeNode() {
  const box = detailBox();
  const name = opened?.name;
  opened = null; // also when it is still loading: its answer must not open it afterwards
  if (!box || box.hidden) return;
  box.hidden = true;
  box.replaceChildren();
  if (name) {
    const quoted = CSS.escape(name);
    board()?.querySelector(`.tile[data-node="${quoted}"], [data-describe-node="${quoted}"], .dot-hit`)?.focus();
  }
}

document.addEventListener("click", (event) => {
  if (event.target.closest?.("[data-node-detail-close]")) return closeNode();
  const tile = event.target.closest?.("#board .tile[data-node], #board .dot-hit[data-node]");
  if (tile && !tile.dataset.runOnly && tile.dataset.node) return openNode(tile);
  // A card's own "describe" button opens the same detail (the card is already the full node).
  const describe = event.target.closest?.("#board [data-describe-node]:not(#node-detail *)");
  if (describe) openNode({ dataset: { node: describe.dataset.describeNode } });
});

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && opened) closeNode();
});

// A level asked while the one before it was on its way: htmx queues that request behind the first,
// and drops it when the first's board replaces the select that sent it. Asked again here, once.
let reasked = null;

function askAgain(event) {
  const element = board();
  if (!asked || !element || event.detail?.ctx?.target?.id !== "board") return;
  if (element.dataset.density === asked || reasked === asked) {
    asked = reasked = null;
    return;
  }
  const select = element.querySelector("[data-board-view]");
  if (!select) return;
  reasked = asked;
  select.value = asked;
  select.dispatchEvent(new Event("change", { bubbles: true }));
}

document.addEventListener("htmx:after:swap", (event) => {
  askAgain(event);
  const box = detailBox();
  if (box && !opened && event.detail?.ctx?.target?.id === "node-detail") {
    box.replaceChildren(); // a detail closed while it was loading stays closed
    box.hidden = true;
  } else if (box && opened && box.childElementCount) {
    const wasHidden = box.hidden;
    box.hidden = false;
    if (wasHidden) box.querySelector("[data-node-detail-close]")?.focus();
  } else if (box && opened && !box.childElementCount) {
    // The board was drawn again (an edit made in the card): open the same node again.
    const tile = board()?.querySelector(`.tile[data-node="${CSS.escape(opened.name)}"]`)
      ?? (board()?.querySelector("[data-dot-board]") ? { dataset: { node: opened.name } } : null); // drawn on a canvas
    if (tile) openNode(tile);
    else opened = null;
  }
  watchCanvas();
});

// The palette stays folded or open as its editor left it (it is redrawn after every palette
// change); on a phone it starts folded: the board comes first.
const PALETTE_OPEN = "playground:palette-open";
function foldPaletteOnPhones() {
  const palette = document.getElementById("palette");
  if (!palette || palette.dataset.folded) return;
  palette.dataset.folded = "true";
  const remembered = localStorage.getItem(PALETTE_OPEN);
  palette.open = remembered !== null ? remembered === "true" : !window.matchMedia?.("(max-width: 900px)").matches;
  palette.addEventListener("toggle", () => localStorage.setItem(PALETTE_OPEN, String(palette.open)));
}
document.addEventListener("htmx:after:swap", foldPaletteOnPhones);

document.addEventListener("DOMContentLoaded", () => { watchCanvas(); foldPaletteOnPhones(); });
foldPaletteOnPhones();
watchCanvas();
document.documentElement.dataset.boardZoom = "ready";
