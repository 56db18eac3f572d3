// One websocket per scenario page, shared by the modules that need it (live board, run player).
// Reconnects with exponential backoff; listeners are told when the socket (re)opens so they can
// ask for whatever they missed.
//
// Flow control: every frame from the server carries a "mark", and the page acknowledges the frames
// it has read ({"type": "ack", "mark": ...}: that frame and every one before it). The server sends
// only a window ahead of what was acknowledged (1 MiB, 256 frames); a live batch that does not fit
// is dropped and the page is told (run.lagging; the run player resumes from its last event). One
// ack goes once ACK_CHARS or ACK_FRAMES were read since the last, else ACK_DELAY_MS after the first
// frame left unacknowledged: far inside the window, with a quarter of the acks a run's viewers
// sent when each frame had its own (load harness: an ack is as much work for the server as a send).

// The server is full, or this page left too much unread: 1013 is RFC 6455's "try again later",
// 4013 the same from a server that may not send 1013 once the socket is open (Daphne).
const TRY_AGAIN_LATER = [1013, 4013];
const ACK_CHARS = 256 * 1024;
const ACK_FRAMES = 16;
const ACK_DELAY_MS = 50;
const scenario = document.querySelector(".scenario");
const listeners = { message: new Set(), open: new Set() };
let socket = null;

export function onMessage(handler) { listeners.message.add(handler); }
// A module that loads after the socket opened (scripts are separate modules, and another one's
// import may have connected it first) is told at once: it would otherwise wait for a reconnect.
export function onOpen(handler) {
  listeners.open.add(handler);
  if (socket?.readyState === WebSocket.OPEN) queueMicrotask(() => handler(false));
}
export function send(message) {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function connect(attempt = 0) {
  if (!scenario) return;
  const protocol = location.protocol === "https:" ? "wss" : "ws";
  const current = new WebSocket(`${protocol}://${location.host}/ws/scenarios/${scenario.dataset.slug}/`);
  socket = current;
  let opened = false;
  const acks = acknowledger(current);
  current.addEventListener("open", () => {
    opened = true;
    listeners.open.forEach((handler) => handler(attempt > 0));
  });
  current.addEventListener("message", (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    // Read is read: counted before the listeners run, so one that throws cannot stall the stream.
    if (typeof message.mark === "string") acks.read(message.mark, event.data.length);
    listeners.message.forEach((handler) => handler(message));
  });
  current.addEventListener("close", (event) => {
    // A socket that served starts the backoff over; one refused (never opened, or closed with
    // "try again later") waits twice as long each time, up to 30 s.
    const next = opened && !TRY_AGAIN_LATER.includes(event.code) ? 1 : attempt + 1;
    setTimeout(() => connect(next), Math.min(30000, 500 * 2 ** (next - 1)));
  });
}

// The acknowledgements of one socket (a reconnection starts with new marks).
function acknowledger(current) {
  let mark = null, chars = 0, frames = 0, timer = 0;
  const flush = () => {
    clearTimeout(timer);
    timer = 0;
    if (mark !== null && current.readyState === WebSocket.OPEN) current.send(JSON.stringify({ type: "ack", mark }));
    mark = null;
    chars = frames = 0;
  };
  return {
    read(latest, size) {
      mark = latest;
      chars += size;
      frames += 1;
      if (chars >= ACK_CHARS || frames >= ACK_FRAMES) flush();
      else if (!timer) timer = setTimeout(flush, ACK_DELAY_MS);
    },
  };
}

connect();
