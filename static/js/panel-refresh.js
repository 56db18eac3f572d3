// A panel that shows the run at the player's position, asked of the server (traffic, `kubectl
// describe`): this decides when to ask. At most every REFRESH_MS while playing, at once when
// paused, sought or opened (`refresh({now: true})`), never two requests at a time, and never the
// same request twice in a row.

export const REFRESH_MS = 1000; // within the server's "inspect" rate limit (120 a minute) while a run plays

export const playing = () =>
  document.querySelector('#run-panel [data-player="play"]')?.getAttribute("aria-label") === "Pause";

// `request()` says what to ask now, or null for nothing: {url, slot (the element whose
// data-shown remembers the last answer), target (the selector the answer goes into)};
// `beforeSend(slot)` runs just before a request goes out.
export function panelRefresher(request, beforeSend = () => {}) {
  let inFlight = false;
  let lastSent = 0;
  let timer = null;
  function refresh({ now = false } = {}) {
    clearTimeout(timer);
    timer = null;
    const wanted = request();
    if (!wanted || !window.htmx || inFlight) return;
    const { url, slot, target } = wanted;
    if (slot.dataset.shown === url) return;
    const wait = lastSent + REFRESH_MS - Date.now();
    if (!now && playing() && wait > 0) {
      timer = setTimeout(refresh, wait);
      return;
    }
    inFlight = true;
    lastSent = Date.now();
    beforeSend(slot);
    // The slot is the request's source: htmx queues requests per source element, and panels
    // sharing the page's body as their source would drop each other's requests.
    window.htmx
      .ajax("GET", url, { source: slot, target, swap: "innerHTML" })
      .then(() => {
        if (slot.isConnected) slot.dataset.shown = url;
      })
      .catch(() => {}) // not marked as shown: asked again at the next refresh
      .finally(() => {
        inFlight = false;
        refresh(); // the player may have moved on meanwhile
      });
  }
  return refresh;
}

// A `kubectl describe` panel folded by its reader stays folded when the next event's answer
// replaces it in the slot with this id. `remember(slot)` before a request; `forget()` for a new one.
export function keepFolded(slotId) {
  let folded = false;
  document.addEventListener("htmx:after:swap", (event) => {
    const target = event.detail?.ctx?.target;
    if (target?.id !== slotId) return;
    const details = target.querySelector("details.describe");
    if (details && folded) details.open = false;
  });
  return {
    remember(slot) {
      const details = slot.querySelector("details.describe");
      if (details) folded = !details.open;
    },
    forget() {
      folded = false;
    },
  };
}
