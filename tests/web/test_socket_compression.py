"""Websocket messages are compressed on the wire (permessage-deflate, RFC 7692) for a client that
offers it, at the bounded window playground/serve.py sets, and a client that offers none is served
as before. Against a real Daphne process started as `make run` starts it."""

import asyncio
import json
from typing import Any

import pytest
import websockets
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame

from playground.serve import DEFLATE_WINDOW_BITS
from tests.browser.big_scenarios import wide_deployment
from tests.load.harness import socket_url, start_run
from tests.servers import DaphneServer, create_scenario
from tests.web.conftest import ON_POSTGRES

pytestmark = pytest.mark.django_db(transaction=ON_POSTGRES)  # the server commits; PostgreSQL shares it

ORIGIN = "http://127.0.0.1"


def record_frames(socket_: websockets.ClientConnection, frames: list[tuple[bool, int, int]]) -> None:
    """Each data frame the deflate extension decodes: (compressed, bytes on the wire, bytes decoded)."""
    deflates = [extension for extension in socket_.protocol.extensions if isinstance(extension, PerMessageDeflate)]
    assert deflates, "permessage-deflate was not negotiated"
    deflate = deflates[0]
    decode = deflate.decode

    def recording(frame: Frame, *, max_size: int | None = None) -> Frame:
        decoded = decode(frame, max_size=max_size)
        if frame.opcode.name in ("TEXT", "BINARY"):
            frames.append((frame.rsv1, len(frame.data), len(decoded.data)))
        return decoded

    deflate.decode = recording  # type: ignore[method-assign]


async def first_run_events(socket_: websockets.ClientConnection, server: DaphneServer, view: str) -> dict[str, Any]:
    """Starts a run (as the page's Run button does) and returns the first frame of its events."""
    run_id = await asyncio.to_thread(start_run, server.url, view)
    async with asyncio.timeout(60):
        while True:
            frame = json.loads(await socket_.recv())
            if "mark" in frame:
                await socket_.send(json.dumps({"type": "ack", "mark": frame["mark"]}))
            if frame.get("type") == "run.events" and frame["run"] == run_id:
                return frame


def assert_run_events(frame: dict[str, Any]) -> None:
    events = frame["events"]
    assert events and [event["seq"] for event in events] == list(range(1, len(events) + 1))
    assert all(isinstance(event["time"], int | float) for event in events)


def test_a_client_offering_permessage_deflate_gets_compressed_messages(live_server_process, server_env):
    server = live_server_process
    links = create_scenario(server_env, wide_deployment(nodes=10, replicas=200))

    async def scenario() -> tuple[str, dict[str, Any], list[tuple[bool, int, int]]]:
        frames: list[tuple[bool, int, int]] = []
        async with websockets.connect(socket_url(server.url, links["slug"]), origin=ORIGIN, open_timeout=30) as socket_:
            assert socket_.response is not None
            record_frames(socket_, frames)
            frame = await first_run_events(socket_, server, links["view"])
            return socket_.response.headers.get("Sec-WebSocket-Extensions", ""), frame, frames

    extensions, frame, frames = asyncio.run(scenario())
    assert extensions.split(";")[0].strip() == "permessage-deflate"
    # websockets offers client_max_window_bits: the server bounds its inflate window with it.
    assert f"client_max_window_bits={DEFLATE_WINDOW_BITS}" in extensions.replace(" ", "")
    assert_run_events(frame)
    compressed = [(wire, decoded) for rsv1, wire, decoded in frames if rsv1]
    assert compressed, frames  # the server set RSV1: deflated frames
    largest_wire, largest_decoded = max(compressed, key=lambda sizes: sizes[1])
    assert largest_decoded > 4096 and largest_wire < largest_decoded / 3  # run events deflate well


def test_a_client_offering_no_compression_is_served_uncompressed(live_server_process, server_env):
    server = live_server_process
    links = create_scenario(server_env, wide_deployment(nodes=10, replicas=200))

    async def scenario() -> tuple[dict[str, str], dict[str, Any], list[str]]:
        url = socket_url(server.url, links["slug"])
        async with websockets.connect(url, origin=ORIGIN, open_timeout=30, compression=None) as socket_:
            assert socket_.request is not None and socket_.response is not None
            assert "Sec-WebSocket-Extensions" not in socket_.request.headers  # it offered nothing
            frame = await first_run_events(socket_, server, links["view"])
            return dict(socket_.response.headers), frame, [type(e).__name__ for e in socket_.protocol.extensions]

    headers, frame, extensions = asyncio.run(scenario())
    assert "sec-websocket-extensions" not in {name.lower() for name in headers}
    assert extensions == []
    assert_run_events(frame)
