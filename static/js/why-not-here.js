// "Why not here?": drag a pod of the run (a Pending one from the queue, or a placed one) onto a
// node card, and the explain panel answers for that node at the player's current event: the
// filter that rejects it, or the scores it lost on. The panel's "why not?" links do the same from
// the keyboard.

const POD_TYPE = "application/x-playground-pod";
let position = 1;

document.addEventListener("run:rendered", (event) => { position = Math.max(event.detail.position, 1); });

document.addEventListener("dragstart", (event) => {
  const chip = event.target.closest?.(".pod[data-pod-key]");
  if (!chip) return;
  event.dataTransfer.setData(POD_TYPE, chip.dataset.podKey);
  event.dataTransfer.effectAllowed = "link";
  document.documentElement.classList.add("dragging-pod");
});

document.addEventListener("dragend", () => document.documentElement.classList.remove("dragging-pod"));

document.addEventListener("dragover", (event) => {
  if (event.dataTransfer.types.includes(POD_TYPE) && event.target.closest?.("[data-node]")) {
    event.preventDefault();
    event.dataTransfer.dropEffect = "link";
  }
});

document.addEventListener("drop", (event) => {
  const podKey = event.dataTransfer.getData(POD_TYPE);
  const card = event.target.closest?.("[data-node]");
  const slot = document.getElementById("explain-slot");
  if (!podKey || !card || !slot || !window.htmx) return;
  event.preventDefault();
  card.classList.remove("drop-target");
  const query = new URLSearchParams({ pod: podKey, seq: String(position), node: card.dataset.node });
  window.htmx.ajax("GET", `${slot.dataset.explainUrl}?${query}`, { target: "#explain-slot", swap: "innerHTML" });
});
