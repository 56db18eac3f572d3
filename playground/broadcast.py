"""Every group_send of the app lives here, so message shapes cannot drift apart.

Sends from plain threads (a run executing in a thread of the web process) go through the server's
own event loop. async_to_sync would run them on a loop of the thread's own, and the in-memory
layer's queues belong to the server's loop: a put from another loop does not wake the consumer
waiting on it (a batch then waits for the next wake-up, or is lost in a race).
"""

import asyncio
import threading
import time
from collections.abc import Coroutine
from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings

from playground.channel_layer import FanOutInMemoryChannelLayer
from playground.pacing import backoff, receipts
from playground.wire import batches, encode, run_events_message

SEND_TIMEOUT_SECONDS = 30.0  # more than pacing.PACE_TIMEOUT_SECONDS
_server_loop: asyncio.AbstractEventLoop | None = None


def remember_event_loop() -> None:
    """Called by the ASGI application on every connection: the loop serving it is the server's."""
    global _server_loop
    _server_loop = asyncio.get_running_loop()


def _run(coroutine_function: Any, *args: Any) -> None:
    """Runs an async layer call to completion from synchronous code."""
    from asgiref.sync import async_to_sync

    loop = _server_loop_elsewhere()
    if loop is not None:
        coroutine: Coroutine[Any, Any, Any] = coroutine_function(*args)
        asyncio.run_coroutine_threadsafe(coroutine, loop).result(timeout=SEND_TIMEOUT_SECONDS)
    else:
        async_to_sync(coroutine_function)(*args)


def _server_loop_elsewhere() -> asyncio.AbstractEventLoop | None:
    """The server's event loop, when it runs and this is another thread of its process."""
    loop = _server_loop
    if loop is not None and loop.is_running() and getattr(loop, "_thread_id", None) != threading.get_ident():
        return loop
    return None


def viewer_layer() -> Any:
    """The layer the viewers' sockets listen on (settings.VIEWER_CHANNEL_LAYER)."""
    return get_channel_layer(settings.VIEWER_CHANNEL_LAYER)


def scenario_group(slug: str) -> str:
    """One channel-layer group per scenario (group names allow [a-zA-Z0-9_.-])."""
    return f"scenario.{slug}"


async def send_scenario_event(slug: str, seq: int, payload: dict[str, Any]) -> None:
    layer = viewer_layer()
    assert layer is not None, "CHANNEL_LAYERS is always configured in settings"
    await layer.group_send(scenario_group(slug), {"type": "scenario.event", "seq": seq, "payload": payload})


def notify_scenario_changed(slug: str, version: int) -> None:
    """Tell every open viewer of the scenario that it changed (they re-fetch the board)."""
    layer = viewer_layer()
    if layer is None:
        return
    _run(layer.group_send, scenario_group(slug), {"type": "scenario.changed", "version": version})


def send_run_batch(slug: str, run_id: int, events: list[dict[str, Any]]) -> None:
    """Stored run events, in order, as messages of bounded size (playground/wire.py); batched, as
    the in-memory layer drops a channel's 101st message."""
    layer = viewer_layer()
    if layer is None:
        return
    encoded = [encode(event) for event in events]
    first = 0  # index of the batch's first event
    for batch in batches(encoded):
        after = events[first]["seq"] - 1
        first += len(batch)
        # "sent": when the batch left (epoch seconds), so a viewer can tell how late it arrived.
        # Encoded once here, not once per viewer: the layer copies a message for every member of
        # the group, and a string is cheap to copy where 200 events of nested dicts are not.
        # "run" and "after" (the seq before the batch) let a consumer that must drop the batch for
        # a viewer who is not reading say where to resume, without decoding the frame.
        frame = run_events_message(run_id, batch, sent=time.time())
        message = {"type": "run.events", "frame": frame, "run": run_id, "after": after}
        if isinstance(layer, FanOutInMemoryChannelLayer) and _server_loop_elsewhere() is not None:
            _run(_send_paced, layer, scenario_group(slug), message)  # its viewers are on that loop
        else:
            _run(layer.group_send, scenario_group(slug), message)


async def _send_paced(layer: FanOutInMemoryChannelLayer, group: str, message: dict[str, Any]) -> None:
    """The batch to the group, returning once its viewers have been sent it (playground/pacing.py)."""
    now = time.monotonic()
    if not backoff.paced(group, now):
        await layer.group_send(group, message)
        return
    token = receipts.open()
    try:
        put = await layer.fan_out(group, {**message, "receipt": token})
    except BaseException:
        receipts.discard(token)
        raise
    if not await receipts.wait(token, put):
        backoff.timed_out(group, time.monotonic())


def send_run_status(slug: str, run_id: int, status: str, error: str = "") -> None:
    layer = viewer_layer()
    if layer is None:
        return
    message = {"type": "run.status", "run": run_id, "status": status, "error": error}
    _run(layer.group_send, scenario_group(slug), message)
