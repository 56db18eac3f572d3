"""The page acknowledges what it reads in batches (static/js/scenario-socket.js): a run's every
event arrives and the last frame read is acknowledged soon after; a burst of frames gets one ack
per 16 of them."""

import json
import re
import time

import pytest
from playwright.sync_api import Page, WebSocket, WebSocketRoute

from tests.browser import playback
from tests.servers import DaphneServer

pytestmark = pytest.mark.browser


def _acked(payload: str | bytes) -> list[str]:
    message = json.loads(payload)
    return [message["mark"]] if message.get("type") == "ack" else []


def test_a_run_arrives_whole_and_its_last_frame_is_acknowledged(page: Page, session_server: DaphneServer):
    received: list[dict] = []
    acks: list[str] = []

    def watch(socket_: WebSocket) -> None:
        socket_.on("framereceived", lambda payload: received.append(json.loads(payload)))
        socket_.on("framesent", lambda payload: acks.extend(_acked(payload)))

    page.on("websocket", watch)
    links = playback.big_run_scenario(session_server.env, nodes=40, pods=400)
    page.goto(session_server.url + links["view"])
    total = playback.run_to_the_end(page, timeout=120_000)
    assert total > 2_000
    events = [event["seq"] for frame in received if frame.get("type") == "run.events" for event in frame["events"]]
    assert sorted(set(events)) == list(range(1, total + 1))
    marked = [frame["mark"] for frame in received if "mark" in frame]
    page.wait_for_timeout(300)  # the last frame's ack is at most 50 ms behind it
    assert acks[-1] == marked[-1]
    positions = [marked.index(mark) for mark in acks]  # only marks the server sent, in order
    assert positions == sorted(set(positions))


def test_a_burst_of_frames_gets_one_ack_per_sixteen(page: Page, session_server: DaphneServer):
    links = playback.big_run_scenario(session_server.env, nodes=2, pods=2)
    acks: list[str] = []
    sockets: list[WebSocketRoute] = []

    def serve(socket_: WebSocketRoute) -> None:  # stands in for the server
        socket_.on_message(lambda payload: acks.extend(_acked(payload)))
        sockets.append(socket_)

    page.route_web_socket(re.compile(r"/ws/scenarios/"), serve)
    page.goto(session_server.url + links["view"])
    page.wait_for_function("() => document.readyState === 'complete'")
    deadline = time.monotonic() + 10
    while not sockets and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    for index in range(40):
        sockets[0].send(json.dumps({"mark": f"m{index:02d}", "type": "probe"}))
    page.wait_for_timeout(400)
    assert acks[-1] == "m39"  # the last 8 by the timer
    # In a burst: after the 16th, the 32nd, then the rest (a slow machine spreading the frames over
    # more than 50 ms gets a few more, never one a frame).
    assert 3 <= len(acks) <= 10, acks
    assert acks == sorted(acks)
