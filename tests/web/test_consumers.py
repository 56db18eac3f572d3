import pytest
from channels.testing import WebsocketCommunicator

from playground.asgi import application
from playground.broadcast import send_scenario_event

ORIGIN = (b"origin", b"http://127.0.0.1:8000")


async def test_viewer_receives_events_broadcast_to_its_scenario():
    viewer = WebsocketCommunicator(application, "/ws/scenarios/abc123/", headers=[ORIGIN, (b"host", b"127.0.0.1")])
    other = WebsocketCommunicator(application, "/ws/scenarios/other/", headers=[ORIGIN, (b"host", b"127.0.0.1")])
    connected, _ = await viewer.connect()
    assert connected
    assert (await other.connect())[0]

    await send_scenario_event("abc123", seq=1, payload={"reason": "Scheduled"})

    assert await viewer.receive_json_from(timeout=2) == {"seq": 1, "payload": {"reason": "Scheduled"}}
    assert await other.receive_nothing(timeout=0.2)
    await viewer.disconnect()
    await other.disconnect()


async def test_websocket_from_a_foreign_origin_is_refused():
    intruder = WebsocketCommunicator(
        application, "/ws/scenarios/abc123/", headers=[(b"origin", b"https://evil.example"), (b"host", b"127.0.0.1")]
    )
    connected, _ = await intruder.connect()
    assert not connected


@pytest.mark.parametrize("path", ["/ws/scenarios/" + "a" * 33 + "/", "/ws/scenarios/../x/", "/ws/nothing/"])
async def test_websocket_to_an_unknown_route_is_refused(path):
    communicator = WebsocketCommunicator(application, path, headers=[ORIGIN, (b"host", b"127.0.0.1")])
    with pytest.raises(ValueError, match="No route found"):
        await communicator.connect()
