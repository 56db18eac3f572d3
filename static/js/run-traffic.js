// Traffic: how requests to the scenario's Services and Ingresses split over pods, nodes and
// versions at the player's position. The server replays the run to that event and renders the
// engine's numbers (playground/traffic.py); this module only decides when to ask: at most every
// REFRESH_MS while playing, at once when paused or sought, and never two requests at a time.

const REFRESH_MS = 1000; // within the server's "inspect" rate limit (120 a minute) while a run plays

let position = null; // the player's position the panel should show
let probe = new URLSearchParams(); // the viewer's own Ingress request, as last sent
let inFlight = false;
let lastSent = 0;
let timer = null;

const box = () => document.getElementById("traffic");
const playing = () => document.querySelector('#run-panel [data-player="play"]')?.getAttribute("aria-label") === "Pause";

function wantedUrl(target) {
  const address = new URL(target.dataset.trafficUrl, location.href);
  address.searchParams.set("seq", String(position));
  for (const [name, value] of probe) address.searchParams.set(name, value);
  return address.pathname + address.search;
}

function refresh({ now = false } = {}) {
  clearTimeout(timer);
  timer = null;
  const target = box();
  if (!target || position === null || !window.htmx || inFlight) return;
  const url = wantedUrl(target);
  if (target.dataset.shown === url) return;
  const wait = lastSent + REFRESH_MS - Date.now();
  if (!now && playing() && wait > 0) {
    timer = setTimeout(refresh, wait);
    return;
  }
  inFlight = true;
  lastSent = Date.now();
  const seq = target.closest(".traffic")?.querySelector("[data-traffic-seq]");
  if (seq) seq.value = String(position);
  window.htmx
    .ajax("GET", url, { target: "#traffic", swap: "innerHTML" })
    .catch(() => {})
    .finally(() => {
      inFlight = false;
      const current = box();
      if (current === target) current.dataset.shown = url;
      refresh(); // the player may have moved on meanwhile
    });
}

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
