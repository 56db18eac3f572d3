"""One websocket per scenario viewer. Everything a scenario's viewers must all see goes through the
scenario's group: edits (they re-fetch the board), run events and run status.

Client messages (JSON):
- {"type": "resume", "run": <id>, "after": <seq>} asks for a run's stored events after a sequence
  number, so a reconnect continues where it stopped; the client drops any event it already has (by
  seq), so a replayed overlap is never shown twice. A new resume replaces one still being sent.
- {"type": "ack", "mark": <mark>} says the client has read the frame with that mark and every one
  before it (see playground/send_window.py).
Anything else gets an error frame; the connection stays up.

Nothing a client does makes the server hold more than a window for it. A replay is sent in chunks
only while the window has room and goes on as acks arrive. A live batch of run events that does not
fit is dropped for this connection, which is told once ({"type": "run.lagging", "run": id,
"after": seq}) and resumes from its last event when it has caught up. Small frames (changed, status,
errors) always go, but a connection that leaves MAX_UNACKED_FRAMES of them unread is closed (4013):
it is not reading. Connections are capped per client and per process (playground/connection_caps.py).

A replay chunk holds at most RESUME_CHUNK events and at most wire.MAX_MESSAGE_CHARS characters.
A replay can be a whole run (hundreds of thousands of events), so each connection has a small token bucket of resume
requests (RESUME_BURST at once, then RESUMES_PER_SECOND): a flood of them gets cheap error frames,
not replays. A page asks once per run it shows and once per reconnect or gap, far below that.
"""

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from playground.broadcast import scenario_group
from playground.connection_caps import ConnectionCaps
from playground.outage import DATABASE_DOWN
from playground.pacing import receipts
from playground.ratelimit import address_key
from playground.send_window import SendWindow
from playground.wire import batches, encode_event, run_events_message

MAX_CLIENT_FRAME_BYTES = 4096
RESUME_CHUNK = 500
TRY_AGAIN_LATER = 1013  # RFC 6455's "Try Again Later" (before accepting: Daphne answers 403 anyway)
# The same, once accepted: autobahn (under Daphne) lets a server close only with 1000 or 3000-4999.
BUSY = 4013
NOT_FOUND = 4404
RESUME_BURST = 10
RESUMES_PER_SECOND = 1.0
WINDOW_CHARS = 1 << 20  # unacknowledged characters per connection (plus at most one replay chunk)
MAX_UNACKED_FRAMES = 256
MAX_CONNECTIONS = 2000  # per process, always
MAX_CONNECTIONS_PER_CLIENT = 20  # per address (IPv6: per /64), with the rate limits on
LAGGING_RUNS_KEPT = 16  # runs whose live batches this connection skips until it resumes them
SLUG = re.compile(r"[A-Za-z0-9_-]{1,16}")  # Scenario.slug holds at most 16 characters
clock: Callable[[], float] = time.monotonic
connections = ConnectionCaps()


@dataclass
class Resume:
    run: int
    after: int


class ScenarioConsumer(AsyncWebsocketConsumer):
    channel_layer_alias = settings.VIEWER_CHANNEL_LAYER  # pub/sub in the scale-out set-up (settings.py)
    group: str
    slug: str
    resume_tokens: float = RESUME_BURST
    resume_stamp: float = 0.0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.admitted: tuple[str | None] | None = None  # the client counted in `connections`
        try:
            await super().__call__(scope, receive, send)
        finally:
            if self.admitted is not None:  # however the connection ended
                connections.release(self.admitted[0])
                self.admitted = None

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, without its hop to a thread before every message to close stale
        database connections: most messages here (acks, live batches) never touch the database,
        and with 200 viewers that hop was a fifth of the server's time in a broadcast. The methods
        that do use it close stale connections themselves (database_sync_to_async)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.slug = self.scope["url_route"]["kwargs"]["slug"]
        self.window = SendWindow(WINDOW_CHARS, MAX_UNACKED_FRAMES)
        self.resuming: Resume | None = None
        self.lagging: dict[int, None] = {}  # insertion-ordered set
        self.closing = False
        self.resume_tokens, self.resume_stamp = float(RESUME_BURST), clock()
        if not SLUG.fullmatch(self.slug):
            await self.close(code=NOT_FOUND)  # before any lookup: no such scenario can exist
            return
        client = self._client() if getattr(settings, "RATE_LIMITS_ENABLED", True) else None
        refusal = connections.admit(client, MAX_CONNECTIONS, MAX_CONNECTIONS_PER_CLIENT)
        if refusal is not None:
            # Accepted only to say why: a refused handshake reaches the page without a code.
            await self.accept()
            await self._send_small({"type": "error", "message": refusal})
            await self._close(BUSY)
            return
        self.admitted = (client,)
        try:
            exists = await self._scenario_exists()
        except DATABASE_DOWN:
            await self.close(code=TRY_AGAIN_LATER)  # the page's socket reconnects with backoff
            return
        if not exists:
            await self.close(code=NOT_FOUND)
            return
        self.group = scenario_group(self.slug)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        self.resuming = None

    def _client(self) -> str:
        client = self.scope.get("client")
        return address_key(str(client[0]) if client else "unknown")

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is None or len(text_data.encode()) > MAX_CLIENT_FRAME_BYTES:
            await self._error("frames must be JSON text of at most 4 KiB")
            return
        try:
            message = json.loads(text_data)
        except ValueError:
            await self._error("not JSON")
            return
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "ack":
            await self._ack(message.get("mark"))
        elif kind == "resume":
            await self._resume_request(message)
        else:
            await self._error(
                'unknown message: expected {"type": "resume", "run": id, "after": seq} or {"type": "ack", "mark": mark}'
            )

    async def _ack(self, mark: object) -> None:
        if not isinstance(mark, str) or not self.window.ack(mark):
            await self._error('"mark" must be the mark of a frame received and not yet acknowledged')
            return
        try:
            await self._pump()
        except DATABASE_DOWN:
            self.resuming = None
            await self._error("the database is unavailable: ask again in a few seconds")

    async def _resume_request(self, message: dict[str, Any]) -> None:
        run_id, after = message.get("run"), message.get("after", 0)
        if (
            not isinstance(run_id, int)
            or isinstance(run_id, bool)
            or not isinstance(after, int)
            or isinstance(after, bool)
            or after < 0
        ):
            await self._error('"run" and "after" must be non-negative integers')
            return
        if not self._take_resume_token():
            await self._error(
                f"too many resume requests: at most {RESUME_BURST} at once, then {RESUMES_PER_SECOND:g} a second"
            )
            return
        try:
            if await self._run(run_id) is None:
                await self._error(f"no run {run_id} in this scenario")
                return
            self.resuming = Resume(run_id, after)
            self.lagging.pop(run_id, None)
            await self._pump()
        except DATABASE_DOWN:
            self.resuming = None
            await self._error("the database is unavailable: ask again in a few seconds")

    def _take_resume_token(self) -> bool:
        now = clock()
        elapsed = max(0.0, now - self.resume_stamp)
        self.resume_tokens = min(float(RESUME_BURST), self.resume_tokens + elapsed * RESUMES_PER_SECOND)
        self.resume_stamp = now
        if self.resume_tokens < 1:
            return False
        self.resume_tokens -= 1
        return True

    async def _pump(self) -> None:
        """Sends the pending replay's next chunks while the window has room; its status once done.
        Handlers run one at a time, so no live batch of the run is handled between a chunk read
        and the replay being marked done: one stored before that read is in it, one after it is
        sent live."""
        while self.resuming is not None and self.window.has_room() and not self.closing:
            resume = self.resuming
            events, last_seq, exhausted = await self._events(resume.run, resume.after)
            if events:
                await self._send_frame(run_events_message(resume.run, events))
                resume.after = last_seq
            if exhausted:
                self.resuming = None
                run = await self._run(resume.run)
                status, error = run if run is not None else ("failed", "the run was deleted")
                await self._send_small({"type": "run.status", "run": resume.run, "status": status, "error": error})

    # ------------------------------------------------------------------ sending

    async def _send_frame(self, frame: str) -> None:
        if not self.closing:
            await self.send(text_data=self.window.stamp(frame))

    async def _send_small(self, payload: dict[str, Any]) -> None:
        """A control frame: sent whatever the window, unless the client has left too many unread."""
        if self.window.frames_in_flight >= MAX_UNACKED_FRAMES:
            await self._close(BUSY)  # it reconnects and resumes once it reads again
            return
        await self._send_frame(json.dumps(payload))

    async def _close(self, code: int) -> None:
        if not self.closing:
            self.closing = True
            self.resuming = None
            await self.close(code=code)

    async def _error(self, message: str) -> None:
        await self._send_small({"type": "error", "message": message})

    # ------------------------------------------------------------------ database

    @database_sync_to_async
    def _scenario_exists(self) -> bool:
        from playground.models import Scenario

        return Scenario.objects.filter(slug=self.slug).exists()

    @database_sync_to_async
    def _run(self, run_id: int) -> tuple[str, str] | None:
        from playground.models import Run
        from playground.runs import check_interrupted

        run = Run.objects.select_related("scenario").filter(pk=run_id, scenario__slug=self.slug).first()
        if run is None:
            return None
        run = check_interrupted(run)  # a run whose executor died is told as interrupted, not running
        return run.status, run.error

    @database_sync_to_async
    def _events(self, run_id: int, after: int) -> tuple[list[str], int, bool]:
        """The next stored events after `after`, encoded, as many as fit one message (at most
        RESUME_CHUNK); the seq of the last one; whether no event is left after it."""
        from playground.models import RunEvent

        rows = list(RunEvent.objects.filter(run_id=run_id, seq__gt=after).order_by("seq")[:RESUME_CHUNK])
        encoded = [encode_event(row.seq, row.payload) for row in rows]
        taken = next(batches(encoded), [])
        last_seq = rows[len(taken) - 1].seq if taken else after
        return taken, last_seq, len(rows) < RESUME_CHUNK and len(taken) == len(rows)

    # ------------------------------------------------------------------ group messages

    async def scenario_event(self, message: dict[str, Any]) -> None:
        await self._send_small({"seq": message["seq"], "payload": message["payload"]})

    async def scenario_changed(self, message: dict[str, Any]) -> None:
        """Someone saved an edit: viewers re-fetch the board (the HTTP partial stays the one renderer)."""
        await self._send_small({"type": "changed", "version": message["version"]})

    async def run_events(self, message: dict[str, Any]) -> None:
        try:
            await self._run_events(message)
        finally:
            receipts.hand_in(message.get("receipt"))  # the run's thread may go on (pacing.py)

    async def _run_events(self, message: dict[str, Any]) -> None:
        run, frame = message["run"], message["frame"]  # frame: already the client's JSON (broadcast.py)
        if (self.resuming is not None and self.resuming.run == run) or run in self.lagging:
            return  # stored before it was broadcast: the replay (or the resume to come) reads it
        if self.window.fits(len(frame)):
            await self._send_frame(frame)
            return
        self.lagging[run] = None
        if len(self.lagging) > LAGGING_RUNS_KEPT:
            del self.lagging[next(iter(self.lagging))]
        await self._send_small({"type": "run.lagging", "run": run, "after": message["after"]})

    async def run_status(self, message: dict[str, Any]) -> None:
        payload = {"type": "run.status", "run": message["run"], "status": message["status"], "error": message["error"]}
        await self._send_small(payload)


class UnknownPath(AsyncWebsocketConsumer):
    """Any other websocket path: refused like an unknown scenario, not with a routing error."""

    async def connect(self) -> None:
        await self.close(code=NOT_FOUND)
