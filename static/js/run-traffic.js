// Traffic: how requests to the scenario's Services and Ingresses split over pods, nodes and
// versions at the player's position. The server replays the run to that event and renders the
// engine's numbers (playground/traffic.py); when to ask is panel-refresh.js's.

import { panelRefresher, playing } from "./panel-refresh.js";

let position = null; // the player's position the panel should show
let probe = new URLSearchParams(); // the viewer's own Ingress request, as last sent

const box = () => document.getElementById("traffic");

function wantedUrl(target) {
  const address = new URL(target.dataset.trafficUrl, location.href);
  address.searchParams.set("seq", String(position));
  for (const [name, value] of probe) address.searchParams.set(name, value);
  return address.pathname + address.search;
}

function request() {
  const target = box();
  if (!target || position === null) return null;
  return { url: wantedUrl(target), slot: target, target: "#traffic" };
}

// The form's own seq follows the panel, so that a request sent without script asks the same.
function beforeSend(target) {
  const seq = target.closest(".traffic")?.querySelector("[data-traffic-seq]");
  if (seq) seq.value = String(position);
}

const refresh = panelRefresher(request, beforeSend);

document.addEventListener("run:rendered", (event) => {
  if (!box()) return;
  position = event.detail.position;
  refresh();
});

// Pausing shows the position reached at once, not after the next tick.
document.addEventListener("click", (event) => {
  if (event.target.closest?.('#run-panel [data-player="play"]') && !playing()) setTimeout(() => refresh({ now: true }), 0);
});

// The form works without script (a GET of the panel); with it, the answer lands in the panel and
// later refreshes keep sending the same request.
document.addEventListener("submit", (event) => {
  const form = event.target.closest?.("#run-panel form[data-traffic-probe]");
  if (!form) return;
  event.preventDefault();
  probe = new URLSearchParams();
  for (const name of ["host", "path", "header"]) {
    const value = form.elements[name].value.trim();
    if (value) probe.set(name, value);
  }
  refresh({ now: true });
});
