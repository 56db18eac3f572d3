"""One websocket per scenario viewer. Everything a scenario's viewers must all see goes through the
scenario's group: edits (they re-fetch the board), run events and run status.

Client messages (JSON): {"type": "resume", "run": <id>, "after": <seq>} asks for a run's stored
events after a sequence number, so a reconnect continues where it stopped; the client drops any
event it already has (by seq), so a replayed overlap is never shown twice. Anything else gets an
error frame; the connection stays up.

A replay can be a whole run (20,000 events), so each connection has a small token bucket of resume
requests (RESUME_BURST at once, then RESUMES_PER_SECOND): a flood of them gets cheap error frames,
not replays. A page asks once per run it shows and once per reconnect or gap, far below that.
"""

import json
import time
from collections.abc import Callable
from typing import Any

from asgiref.sync import sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from playground.broadcast import scenario_group
from playground.outage import DATABASE_DOWN

MAX_CLIENT_FRAME_BYTES = 4096
RESUME_CHUNK = 500
TRY_AGAIN_LATER = 1013  # RFC 6455's "Try Again Later"
RESUME_BURST = 10
RESUMES_PER_SECOND = 1.0
clock: Callable[[], float] = time.monotonic


class ScenarioConsumer(AsyncWebsocketConsumer):
    group: str
    slug: str
    resume_tokens: float = RESUME_BURST
    resume_stamp: float = 0.0

    async def connect(self) -> None:
        self.slug = self.scope["url_route"]["kwargs"]["slug"]
        self.resume_tokens, self.resume_stamp = float(RESUME_BURST), clock()
        try:
            exists = await self._scenario_exists()
        except DATABASE_DOWN:
            await self.close(code=TRY_AGAIN_LATER)  # the page's socket reconnects with backoff
            return
        if not exists:
            await self.close(code=4404)
            return
        self.group = scenario_group(self.slug)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is None or len(text_data.encode()) > MAX_CLIENT_FRAME_BYTES:
            await self._error("frames must be JSON text of at most 4 KiB")
            return
        try:
            message = json.loads(text_data)
        except ValueError:
            await self._error("not JSON")
            return
        if not isinstance(message, dict) or message.get("type") != "resume":
            await self._error('unknown message: expected {"type": "resume", "run": id, "after": seq}')
            return
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
            await self._resume(run_id, after)
        except DATABASE_DOWN:
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

    async def _resume(self, run_id: int, after: int) -> None:
        run = await self._run(run_id)
        if run is None:
            await self._error(f"no run {run_id} in this scenario")
            return
        status, error = run
        while True:
            events = await self._events(run_id, after)
            if not events:
                break
            await self.send(text_data=json.dumps({"type": "run.events", "run": run_id, "events": events}))
            after = events[-1]["seq"]
            if len(events) < RESUME_CHUNK:
                break
        await self.send(text_data=json.dumps({"type": "run.status", "run": run_id, "status": status, "error": error}))

    async def _error(self, message: str) -> None:
        await self.send(text_data=json.dumps({"type": "error", "message": message}))

    @sync_to_async
    def _scenario_exists(self) -> bool:
        from playground.models import Scenario

        return Scenario.objects.filter(slug=self.slug).exists()

    @sync_to_async
    def _run(self, run_id: int) -> tuple[str, str] | None:
        from playground.models import Run
        from playground.runs import check_interrupted

        run = Run.objects.select_related("scenario").filter(pk=run_id, scenario__slug=self.slug).first()
        if run is None:
            return None
        run = check_interrupted(run)  # a run whose executor died is told as interrupted, not running
        return run.status, run.error

    @sync_to_async
    def _events(self, run_id: int, after: int) -> list[dict[str, Any]]:
        from playground.models import RunEvent

        rows = RunEvent.objects.filter(run_id=run_id, seq__gt=after).order_by("seq")[:RESUME_CHUNK]
        return [{"seq": row.seq, **row.payload} for row in rows]

    # ------------------------------------------------------------------ group messages

    async def scenario_event(self, message: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps({"seq": message["seq"], "payload": message["payload"]}))

    async def scenario_changed(self, message: dict[str, Any]) -> None:
        """Someone saved an edit: viewers re-fetch the board (the HTTP partial stays the one renderer)."""
        await self.send(text_data=json.dumps({"type": "changed", "version": message["version"]}))

    async def run_events(self, message: dict[str, Any]) -> None:
        await self.send(text_data=message["frame"])  # already the client's JSON (see broadcast.py)

    async def run_status(self, message: dict[str, Any]) -> None:
        payload = {"type": "run.status", "run": message["run"], "status": message["status"], "error": message["error"]}
        await self.send(text_data=json.dumps(payload))
