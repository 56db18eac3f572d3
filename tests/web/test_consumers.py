import json

import pytest
from channels.testing import WebsocketCommunicator

from playground.asgi import application
from playground.broadcast import send_scenario_event
from playground.models import Run, RunEvent
from playground.scenarios import create_scenario, snapshot

ORIGIN = (b"origin", b"http://127.0.0.1:8000")
HEADERS = [ORIGIN, (b"host", b"127.0.0.1")]

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def scenario():
    created, _ = create_scenario("ws test")
    return created


def unmarked(frame: dict) -> dict:
    """The frame without its flow-control mark (every frame has one: see playground/send_window.py)."""
    assert isinstance(frame.pop("mark"), str)
    return frame


async def connected(slug: str) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(application, f"/ws/scenarios/{slug}/", headers=HEADERS)
    ok, _ = await communicator.connect()
    assert ok
    return communicator


async def test_viewer_receives_events_broadcast_to_its_scenario_only(scenario):
    from asgiref.sync import sync_to_async

    other, _ = await sync_to_async(create_scenario)("other")
    viewer = await connected(scenario.slug)
    bystander = await connected(other.slug)
    await send_scenario_event(scenario.slug, seq=1, payload={"reason": "Scheduled"})
    assert unmarked(await viewer.receive_json_from(timeout=2)) == {"seq": 1, "payload": {"reason": "Scheduled"}}
    assert await bystander.receive_nothing(timeout=0.2)
    await viewer.disconnect()
    await bystander.disconnect()


async def test_unknown_scenarios_are_refused():
    communicator = WebsocketCommunicator(application, "/ws/scenarios/nosuchthing/", headers=HEADERS)
    connected_, _ = await communicator.connect()
    assert not connected_


async def test_websocket_from_a_foreign_origin_is_refused(scenario):
    intruder = WebsocketCommunicator(
        application,
        f"/ws/scenarios/{scenario.slug}/",
        headers=[(b"origin", b"https://evil.example"), (b"host", b"127.0.0.1")],
    )
    connected_, _ = await intruder.connect()
    assert not connected_


@pytest.mark.parametrize(
    "path",
    ["/ws/scenarios/" + "a" * 33 + "/", "/ws/scenarios/" + "a" * 120 + "/", "/ws/scenarios/a.b/",
     "/ws/scenarios/../x/", "/ws/scenarios//", "/ws/nothing/", "/"],
)  # fmt: skip
async def test_websocket_to_a_slug_no_scenario_can_have_or_an_unknown_route_is_refused_with_4404(path):
    communicator = WebsocketCommunicator(application, path, headers=HEADERS)
    assert await communicator.connect() == (False, 4404)  # not a routing error (Daphne: a 500)


@pytest.mark.parametrize(
    "frame",
    ["not json", json.dumps([1, 2]), json.dumps({"type": "subscribe"}), json.dumps({"type": "resume", "run": "1"}),
     json.dumps({"type": "resume", "run": 1, "after": -5}), "x" * 5000],
)  # fmt: skip
async def test_malformed_messages_get_an_error_frame_and_the_connection_stays(scenario, frame):
    viewer = await connected(scenario.slug)
    await viewer.send_to(text_data=frame)
    reply = await viewer.receive_json_from(timeout=2)
    assert reply["type"] == "error"
    await viewer.send_to(text_data=json.dumps({"type": "resume", "run": 999999, "after": 0}))
    assert (await viewer.receive_json_from(timeout=2))["type"] == "error"  # still answering
    await viewer.disconnect()


async def test_resume_sends_the_stored_events_after_a_sequence_number_in_order(scenario):
    from asgiref.sync import sync_to_async

    @sync_to_async
    def stored_run() -> Run:
        run = Run.objects.create(scenario=scenario, version=snapshot(scenario), status=Run.Status.FINISHED)
        RunEvent.objects.bulk_create(
            RunEvent(run=run, seq=seq, payload={"event": {"reason": f"r{seq}"}, "changes": []})
            for seq in range(1, 1201)
        )
        return run

    run = await stored_run()
    viewer = await connected(scenario.slug)
    await viewer.send_json_to({"type": "resume", "run": run.pk, "after": 150})
    seqs: list[int] = []
    while True:
        frame = await viewer.receive_json_from(timeout=5)
        if frame["type"] == "run.status":
            assert frame["status"] == "finished"
            break
        assert frame["type"] == "run.events"
        seqs.extend(event["seq"] for event in frame["events"])
    assert seqs == list(range(151, 1201))
    await viewer.disconnect()


async def test_a_viewer_idle_longer_than_the_layers_socket_timeout_still_receives(scenario):
    """With the Redis layer, redis-py 8's default 5 s socket timeout used to end the blocking read of
    every idle consumer (the socket closed with 1011); the settings lift it. The in-memory layer
    passes this trivially."""
    viewer = await connected(scenario.slug)
    assert await viewer.receive_nothing(timeout=6.5)  # longer than 5 s, and no crash meanwhile
    await send_scenario_event(scenario.slug, seq=7, payload={"reason": "Scheduled"})
    assert unmarked(await viewer.receive_json_from(timeout=5)) == {"seq": 7, "payload": {"reason": "Scheduled"}}
    await viewer.disconnect()


# ---------------------------------------------------------------------------- hostile clients


@pytest.mark.parametrize(
    "frame",
    [b"\x00\xff\xfe", b'{"type": "resume", "run": 1, "after": 0}', b"\x89PNG" + bytes(8000), b"\x00"],
)
async def test_binary_frames_get_an_error_frame_and_the_connection_stays(scenario, frame):
    viewer = await connected(scenario.slug)
    await viewer.send_to(bytes_data=frame)
    reply = await viewer.receive_json_from(timeout=2)
    assert unmarked(reply) == {"type": "error", "message": "frames must be JSON text of at most 4 KiB"}
    await viewer.send_to(text_data=json.dumps({"type": "resume", "run": 999999, "after": 0}))
    assert (await viewer.receive_json_from(timeout=2))["type"] == "error"  # still answering
    await viewer.disconnect()


async def test_a_flood_of_resume_requests_gets_a_bounded_number_of_replays(scenario, monkeypatch):
    from asgiref.sync import sync_to_async

    from playground import consumers

    now = [100.0]
    monkeypatch.setattr(consumers, "clock", lambda: now[0])
    replays: list[int] = []
    events = consumers.ScenarioConsumer._events

    def counting_events(self, run_id, after):
        replays.append(after)
        return events.__wrapped__(self, run_id, after)

    monkeypatch.setattr(consumers.ScenarioConsumer, "_events", sync_to_async(counting_events))

    @sync_to_async
    def stored_run() -> Run:
        run = Run.objects.create(scenario=scenario, version=snapshot(scenario), status=Run.Status.FINISHED)
        RunEvent.objects.bulk_create(
            RunEvent(run=run, seq=seq, payload={"event": {"reason": f"r{seq}"}, "changes": []}) for seq in range(1, 31)
        )
        return run

    run = await stored_run()
    viewer = await connected(scenario.slug)
    flood = 200
    for _ in range(flood):
        await viewer.send_to(text_data=json.dumps({"type": "resume", "run": run.pk, "after": 0}))
    frames = [await viewer.receive_json_from(timeout=5) for _ in range(consumers.RESUME_BURST * 2)]
    frames += [await viewer.receive_json_from(timeout=5) for _ in range(flood - consumers.RESUME_BURST)]
    assert await viewer.receive_nothing(timeout=0.3)
    kinds = [frame["type"] for frame in frames]
    # RESUME_BURST replays (30 events and the status each); every other request one short error frame.
    assert kinds.count("run.events") == consumers.RESUME_BURST
    assert kinds.count("run.status") == consumers.RESUME_BURST
    assert kinds.count("error") == flood - consumers.RESUME_BURST
    assert len(replays) == consumers.RESUME_BURST  # the database was read for the replays only
    assert frames[-1]["message"] == "too many resume requests: at most 10 at once, then 1 a second"
    now[0] += 1.0  # a token comes back each second: a well-behaved client is served again
    await viewer.send_to(text_data=json.dumps({"type": "resume", "run": run.pk, "after": 25}))
    reply = await viewer.receive_json_from(timeout=2)
    assert reply["type"] == "run.events" and [event["seq"] for event in reply["events"]] == [26, 27, 28, 29, 30]
    assert (await viewer.receive_json_from(timeout=2))["type"] == "run.status"
    await viewer.disconnect()


async def test_oversized_text_frames_are_refused_before_parsing(scenario):
    viewer = await connected(scenario.slug)
    huge = json.dumps({"type": "resume", "run": 1, "after": 0, "pad": "é" * 3000})  # 6 KiB of UTF-8
    await viewer.send_to(text_data=huge)
    assert (await viewer.receive_json_from(timeout=2))["message"] == "frames must be JSON text of at most 4 KiB"
    await viewer.disconnect()


# ---------------------------------------------------------------------------- bounds (see also test_socket_bounds.py)


async def test_a_replay_stops_at_the_window_until_a_real_mark_is_acknowledged(scenario, monkeypatch):
    from asgiref.sync import sync_to_async

    from playground import consumers

    monkeypatch.setattr(consumers, "WINDOW_CHARS", 8192)

    @sync_to_async
    def stored_run() -> Run:
        run = Run.objects.create(scenario=scenario, version=snapshot(scenario), status=Run.Status.FINISHED)
        RunEvent.objects.bulk_create(
            RunEvent(run=run, seq=seq, payload={"event": {"reason": f"r{seq}"}, "changes": []}) for seq in range(1, 701)
        )
        return run

    run = await stored_run()
    viewer = await connected(scenario.slug)
    await viewer.send_json_to({"type": "resume", "run": run.pk, "after": 0})
    first = await viewer.receive_json_from(timeout=5)
    assert [event["seq"] for event in first["events"]] == list(range(1, consumers.RESUME_CHUNK + 1))
    assert await viewer.receive_nothing(timeout=0.3)  # one chunk filled the window: nothing more
    for forged in ["AAAAAAAA", first["mark"] + "x", "", 5]:  # marks it was never sent open nothing
        await viewer.send_json_to({"type": "ack", "mark": forged})
        reply = await viewer.receive_json_from(timeout=2)
        assert reply["message"] == '"mark" must be the mark of a frame received and not yet acknowledged'
    assert await viewer.receive_nothing(timeout=0.3)
    await viewer.send_json_to({"type": "ack", "mark": first["mark"]})
    rest = await viewer.receive_json_from(timeout=5)
    assert [event["seq"] for event in rest["events"]] == list(range(consumers.RESUME_CHUNK + 1, 701))
    assert (await viewer.receive_json_from(timeout=5))["type"] == "run.status"
    await viewer.disconnect()


async def test_a_client_that_leaves_too_many_small_frames_unread_is_closed(scenario, monkeypatch):
    from playground import consumers

    monkeypatch.setattr(consumers, "MAX_UNACKED_FRAMES", 5)
    viewer = await connected(scenario.slug)
    replies = []
    for _ in range(5):
        await viewer.send_to(text_data="not json")
        replies.append(await viewer.receive_json_from(timeout=2))
    await viewer.send_json_to({"type": "ack", "mark": replies[-1]["mark"]})  # read: room again
    for _ in range(6):
        await viewer.send_to(text_data="not json")
    assert [(await viewer.receive_json_from(timeout=2))["type"] for _ in range(5)] == ["error"] * 5
    assert await viewer.receive_output(timeout=2) == {"type": "websocket.close", "code": consumers.BUSY}
    await viewer.disconnect()


async def test_the_process_caps_connections_even_with_rate_limits_off(scenario, monkeypatch, settings):
    from playground import connection_caps, consumers

    settings.RATE_LIMITS_ENABLED = False  # load tests: every client is one address, no cap per client
    monkeypatch.setattr(consumers, "connections", connection_caps.ConnectionCaps())
    monkeypatch.setattr(consumers, "MAX_CONNECTIONS", 3)
    monkeypatch.setattr(consumers, "MAX_CONNECTIONS_PER_CLIENT", 2)
    viewers = [await connected(scenario.slug) for _ in range(3)]  # more than 2 from one address
    refused = await connected(scenario.slug)  # accepted only to be told why
    reply = unmarked(await refused.receive_json_from(timeout=2))
    assert reply == {
        "type": "error",
        "message": "the server holds its maximum of 3 live connections: try again later",
    }
    assert await refused.receive_output(timeout=2) == {"type": "websocket.close", "code": consumers.BUSY}
    await refused.disconnect()
    await viewers.pop().disconnect()
    assert consumers.connections.total == 2  # the closed one is not counted any more
    viewers.append(await connected(scenario.slug))
    for viewer in viewers:
        await viewer.disconnect()
    assert consumers.connections == connection_caps.ConnectionCaps()  # nothing kept of them
