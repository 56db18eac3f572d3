// Live board: when someone saves an edit, every viewer fetches the board again (the same
// server-rendered partial as any other update). After a reconnect, fetch once in case we missed one.
//
// A board request can be lost: htmx drops a response whose target left the page, and two board
// requests race (a "placing pods" poll answered just before an edit committed swaps in the old
// version, and the live refresh that was aimed at the board it replaced is then dropped). So this
// module remembers the newest version the page has heard of (a "changed" message, or an answer
// such as an Act's run panel) and, whenever a board lands older than that, asks again.

import { onMessage, onOpen } from "./scenario-socket.js";

const scenario = document.querySelector(".scenario");
const MAX_REFRESHES_PER_VERSION = 3; // a server that keeps answering an older board is not asked for ever

let newest = shownVersion();
let refreshes = { version: newest, count: 0 };

function shownVersion() {
  return Number(document.getElementById("board")?.dataset.version ?? 0);
}

// The board again; settles once its answer is swapped in, or dropped.
function refresh() {
  const board = document.getElementById("board");
  if (!board || !window.htmx) return Promise.resolve();
  // The board comes back as it was shown: the same view and grouping.
  const query = new URLSearchParams();
  for (const field of board.querySelectorAll(".group-by select, .group-by input[name=q]")) query.set(field.name, field.value);
  // Its own source, so its own htmx request queue: from the body (the default) it would wait behind,
  // or be dropped by, the explanations and node details the page asks for.
  return window.htmx.ajax("GET", `${scenario.dataset.boardUrl}?${query}`, { source: scenario, target: "#board", swap: "outerHTML" });
}

function heardOf(version) {
  if (Number.isFinite(version) && version > newest) newest = version;
}

// The board shows an older version than the page knows exists: fetch it (a few times per version),
// one request at a time, and look again once it settles (its answer may have been dropped).
let asking = false;
function catchUp() {
  if (asking || !document.getElementById("board") || shownVersion() >= newest) return;
  if (refreshes.version !== newest) refreshes = { version: newest, count: 0 };
  if (refreshes.count >= MAX_REFRESHES_PER_VERSION) return;
  refreshes.count += 1;
  asking = true;
  refresh()
    .catch(() => {}) // a failed request: the next swap or message looks again
    .finally(() => {
      asking = false;
      catchUp();
    });
}

document.addEventListener("htmx:after:swap", () => {
  heardOf(shownVersion());
  heardOf(Number(document.getElementById("run-panel")?.dataset.scenarioVersion));
  catchUp();
  // A viewer's workload is plain read-only text (no editor is loaded for who cannot edit): it
  // follows the version the board shows.
  const text = document.getElementById("workload");
  const source = document.getElementById("workload-source");
  if (text?.readOnly && source && text.value !== source.content.textContent) text.value = source.content.textContent;
});

onOpen((reconnected) => { if (reconnected) refresh(); });
onMessage((message) => {
  if (message.type !== "changed") return;
  heardOf(Number(message.version));
  catchUp();
});
