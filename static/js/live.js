// Live board: when someone saves an edit, every viewer fetches the board again (the same
// server-rendered partial as any other update). After a reconnect, fetch once in case we missed one.

import { onMessage, onOpen } from "./scenario-socket.js";

const scenario = document.querySelector(".scenario");

function refresh() {
  const board = document.getElementById("board");
  if (!board || !window.htmx) return;
  // The board comes back as it was shown: the same view and grouping.
  const query = new URLSearchParams();
  for (const field of board.querySelectorAll(".group-by select, .group-by input[name=q]")) query.set(field.name, field.value);
  window.htmx.ajax("GET", `${scenario.dataset.boardUrl}?${query}`, { target: "#board", swap: "outerHTML" });
}

// A viewer's workload is plain read-only text (no editor is loaded for who cannot edit): it follows
// the version the board shows.
document.addEventListener("htmx:after:swap", () => {
  const text = document.getElementById("workload");
  const source = document.getElementById("workload-source");
  if (text?.readOnly && source && text.value !== source.content.textContent) text.value = source.content.textContent;
});

onOpen((reconnected) => { if (reconnected) refresh(); });
onMessage((message) => {
  const board = document.getElementById("board");
  if (message.type === "changed" && board && Number(board.dataset.version) < message.version) refresh();
});
