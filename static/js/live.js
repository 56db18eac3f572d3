// Live board: when someone saves an edit, every viewer fetches the board again (the same
// server-rendered partial as any other update). After a reconnect, fetch once in case we missed one.

import { onMessage, onOpen } from "./scenario-socket.js";

const scenario = document.querySelector(".scenario");

function refresh() {
  const board = document.getElementById("board");
  if (!board || !window.htmx) return;
  const group = board.querySelector("select[name=group]")?.value ?? "";
  const url = scenario.dataset.boardUrl + (group ? `?group=${encodeURIComponent(group)}` : "");
  window.htmx.ajax("GET", url, { target: "#board", swap: "outerHTML" });
}

onOpen((reconnected) => { if (reconnected) refresh(); });
onMessage((message) => {
  const board = document.getElementById("board");
  if (message.type === "changed" && board && Number(board.dataset.version) < message.version) refresh();
});
