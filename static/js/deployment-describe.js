// `kubectl describe deployment` in the rollout view: a Deployment card's "describe" button (drawn by
// run-player.js) opens the deployment at the player's event in the card, asked of the server
// (views.running.describe_deployment_at), and follows the player when panel-refresh.js says to ask.
// One deployment is described at a time; the button again, or another card's, closes it.

import { keepFolded, panelRefresher, playing } from "./panel-refresh.js";

const SLOT_ID = "deployment-describe-run";

let position = null; // the player's position (frames applied), once a run has been drawn
let chosen = null; // the described Deployment's namespace/name

const runPanel = () => document.getElementById("run-panel");
const cardOf = (key) => [...(runPanel()?.querySelectorAll(".rollout[data-deployment]") ?? [])]
  .find((card) => card.dataset.deployment === key);
const buttons = () => runPanel()?.querySelectorAll("[data-describe-deployment]") ?? [];

function wantedUrl() {
  const address = new URL(runPanel().dataset.describeDeploymentUrl, location.href);
  address.searchParams.set("deployment", chosen);
  address.searchParams.set("seq", String(position));
  return address.pathname + address.search;
}

// The slot under the card's ReplicaSets, made when the card is first described.
function slotIn(card) {
  let slot = document.getElementById(SLOT_ID);
  if (!slot) {
    slot = document.createElement("div");
    slot.id = SLOT_ID;
    slot.className = "deployment-describe";
    slot.setAttribute("role", "region");
    slot.setAttribute("aria-live", "off"); // read when asked for, not at every event while playing
  }
  if (slot.parentElement !== card) {
    delete slot.dataset.shown;
    card.append(slot);
  }
  slot.setAttribute("aria-label", `kubectl describe deployment ${chosen}`);
  return slot;
}

function request() {
  if (chosen === null || position === null || !runPanel()?.dataset.describeDeploymentUrl) return null;
  const card = cardOf(chosen);
  if (!card) return null; // not there at this event: its card is gone, and the panel with it
  return { url: wantedUrl(), slot: slotIn(card), target: `#${SLOT_ID}` };
}

const fold = keepFolded(SLOT_ID);
const refresh = panelRefresher(request, fold.remember);

// The buttons say which deployment is described (run-player.js draws new cards closed).
function showChosen() {
  for (const button of buttons()) {
    const open = button.dataset.describeDeployment === chosen;
    button.setAttribute("aria-expanded", String(open));
    if (open) button.setAttribute("aria-controls", SLOT_ID);
    else button.removeAttribute("aria-controls");
  }
}

function toggle(key) {
  document.getElementById(SLOT_ID)?.remove();
  fold.forget();
  chosen = chosen === key ? null : key;
  showChosen();
  if (chosen === null) return;
  const card = cardOf(key);
  if (card) {
    const waiting = document.createElement("p");
    waiting.className = "muted small";
    waiting.textContent = `Describing ${key} at the player’s event…`;
    slotIn(card).replaceChildren(waiting);
  }
  refresh({ now: true });
}

document.addEventListener("run:rendered", (event) => {
  position = event.detail.position;
  if (chosen === null) return;
  showChosen();
  refresh();
});

document.addEventListener("run:started", () => {
  position = null;
  chosen = null;
  document.getElementById(SLOT_ID)?.remove();
});

document.addEventListener("click", (event) => {
  const button = event.target.closest?.("#run-panel [data-describe-deployment]");
  if (button) toggle(button.dataset.describeDeployment);
  // Pausing shows the position reached at once.
  if (event.target.closest?.('#run-panel [data-player="play"]') && !playing()) setTimeout(() => refresh({ now: true }), 0);
});
