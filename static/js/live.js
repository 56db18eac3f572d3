// Live updates: every viewer of a scenario listens on its websocket group; when someone saves an
// edit, the board is fetched again (the same server-rendered partial as any other update).
// Reconnects with backoff; a reconnect re-fetches once in case an update was missed meanwhile.

const scenario = document.querySelector(".scenario");

function refresh() {
  const board = document.getElementById("board");
  if (!board || !window.htmx) return;
  const group = board.querySelector("select[name=group]")?.value ?? "";
  const url = scenario.dataset.boardUrl + (group ? `?group=${encodeURIComponent(group)}` : "");
  window.htmx.ajax("GET", url, { target: "#board", swap: "outerHTML" });
}

function connect(attempt = 0) {
  const protocol = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${protocol}://${location.host}/ws/scenarios/${scenario.dataset.slug}/`);
  socket.addEventListener("open", () => {
    if (attempt > 0) refresh();
    attempt = 0;
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    const board = document.getElementById("board");
    if (message.type === "changed" && board && Number(board.dataset.version) < message.version) refresh();
  });
  socket.addEventListener("close", () => {
    const delay = Math.min(30000, 500 * 2 ** attempt);
    setTimeout(() => connect(attempt + 1), delay);
  });
}

if (scenario) connect();
