// One websocket per scenario page, shared by the modules that need it (live board, run player).
// Reconnects with exponential backoff; listeners are told when the socket (re)opens so they can
// ask for whatever they missed.

const scenario = document.querySelector(".scenario");
const listeners = { message: new Set(), open: new Set() };
let socket = null;

export function onMessage(handler) { listeners.message.add(handler); }
export function onOpen(handler) { listeners.open.add(handler); }
export function send(message) {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function connect(attempt = 0) {
  if (!scenario) return;
  const protocol = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${protocol}://${location.host}/ws/scenarios/${scenario.dataset.slug}/`);
  socket.addEventListener("open", () => {
    listeners.open.forEach((handler) => handler(attempt > 0));
    attempt = 0;
  });
  socket.addEventListener("message", (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    listeners.message.forEach((handler) => handler(message));
  });
  socket.addEventListener("close", () => {
    setTimeout(() => connect(attempt + 1), Math.min(30000, 500 * 2 ** attempt));
  });
}

connect();
