// `kubectl describe node` in the node detail: the server renders it at the scenario's state with the
// node's card (templates/board/node_detail.html); while a run is watched, this module shows the
// node at the player's event instead, asked of the server (views.running.describe_node_at) in the
// detail's run slot, when panel-refresh.js says to ask.

import { keepFolded, panelRefresher, playing } from "./panel-refresh.js";

let position = null; // the player's position (frames applied), once a run has been drawn

const box = () => document.querySelector("#node-detail [data-node-describe]");
const runPanel = () => document.getElementById("run-panel");
// The board shows the run (not the saved scenario): the detail describes the node as the run has it.
const watching = () => Boolean(document.getElementById("board")?.classList.contains("run-shown")
  && position !== null && runPanel()?.dataset.describeNodeUrl);

function wantedUrl(target) {
  const address = new URL(runPanel().dataset.describeNodeUrl, location.href);
  address.searchParams.set("node", target.dataset.nodeDescribe);
  address.searchParams.set("seq", String(position));
  return address.pathname + address.search;
}

// The detail's two slots: the scenario's state, or the run's at the player's event.
function request() {
  const target = box();
  if (!target) return null;
  const scenarioSlot = target.querySelector('[data-describe-slot="scenario"]');
  const runSlot = target.querySelector('[data-describe-slot="run"]');
  const run = watching();
  if (scenarioSlot) scenarioSlot.hidden = run;
  if (runSlot) runSlot.hidden = !run;
  if (!run || !runSlot) return null;
  return { url: wantedUrl(target), slot: runSlot, target: "#node-describe-run" };
}

const fold = keepFolded("node-describe-run");
const refresh = panelRefresher(request, fold.remember);

document.addEventListener("htmx:after:swap", (event) => {
  if (event.detail?.ctx?.target?.id === "node-detail") {
    fold.forget();
    refresh({ now: true }); // a node opened: describe it at the player's event
  }
});

document.addEventListener("run:rendered", (event) => {
  position = event.detail.position;
  if (box()) refresh();
});

document.addEventListener("run:started", () => {
  position = null;
  const slot = document.getElementById("node-describe-run");
  if (slot) delete slot.dataset.shown;
});

// Pausing shows the position reached at once; switching the board between the run and the saved
// scenario switches the description with it.
document.addEventListener("click", (event) => {
  if (event.target.closest?.('#run-panel [data-player="play"]') && !playing()) setTimeout(() => refresh({ now: true }), 0);
  if (event.target.closest?.("[data-board-show]")) setTimeout(() => refresh({ now: true }), 0);
});
