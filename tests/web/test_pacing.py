"""A run simulated in a thread of the web process waits until its viewers have been sent each batch
(playground/pacing.py)."""

import asyncio
import json

import pytest
from channels.testing import WebsocketCommunicator

from playground import broadcast
from playground.asgi import application
from playground.channel_layer import FanOutInMemoryChannelLayer
from playground.pacing import Receipts, receipts
from playground.scenarios import create_scenario
from tests.web.test_consumers import HEADERS


async def test_a_wait_ends_once_every_viewer_has_handed_the_receipt_in():
    book = Receipts()
    token = book.open()
    waiting = asyncio.create_task(book.wait(token, expected=2, timeout=5))
    await asyncio.sleep(0)
    book.hand_in(token)
    await asyncio.sleep(0.01)
    assert not waiting.done()  # one viewer of two
    book.hand_in(token)
    assert await asyncio.wait_for(waiting, 1) is True
    assert len(book) == 0  # nothing kept once the wait is over


async def test_receipts_handed_in_before_the_wait_count():
    book = Receipts()
    token = book.open()
    book.hand_in(token)
    assert await asyncio.wait_for(book.wait(token, expected=1, timeout=5), 0.5) is True


async def test_a_batch_put_before_no_viewer_needs_no_wait():
    book = Receipts()
    assert await asyncio.wait_for(book.wait(book.open(), expected=0, timeout=5), 0.5) is True


async def test_a_viewer_that_never_hands_it_in_holds_the_run_only_until_the_timeout():
    book = Receipts()
    token = book.open()
    book.hand_in(token)
    started = asyncio.get_running_loop().time()
    assert await book.wait(token, expected=2, timeout=0.05) is False
    assert 0.04 <= asyncio.get_running_loop().time() - started < 1
    assert len(book) == 0


@pytest.mark.parametrize("token", [None, "1", 10**9, True, 1.0])
async def test_unknown_or_missing_receipts_are_ignored(token):
    book = Receipts()
    opened = book.open()
    assert opened == 1  # what True and 1.0 equal
    book.hand_in(token)  # no error, nothing counted
    assert await book.wait(opened, expected=1, timeout=0.01) is False


async def test_a_viewer_that_never_hands_receipts_in_costs_its_group_one_timeout_a_while(monkeypatch):
    from playground import pacing

    monkeypatch.setattr(pacing, "PACE_TIMEOUT_SECONDS", 0.05)
    monkeypatch.setattr(pacing, "backoff", pacing.Backoff())
    monkeypatch.setattr(broadcast, "backoff", pacing.backoff)
    layer = FanOutInMemoryChannelLayer()
    await layer.group_add("scenario.stuck", await layer.new_channel())  # nobody reads it
    message = {"type": "run.events", "frame": "{}", "run": 1, "after": 0}
    loop = asyncio.get_running_loop()
    started = loop.time()
    await broadcast._send_paced(layer, "scenario.stuck", message)  # waits out the timeout
    timed_out = loop.time() - started
    started = loop.time()
    for _ in range(5):
        await broadcast._send_paced(layer, "scenario.stuck", message)  # unpaced meanwhile
    assert timed_out >= 0.04 and loop.time() - started < 0.04
    assert len(receipts) == 0


async def test_a_paced_send_returns_only_once_each_member_has_handled_the_batch():
    layer = FanOutInMemoryChannelLayer()
    members = [await layer.new_channel() for _ in range(3)]
    for channel in members:
        await layer.group_add("scenario.x", channel)
    handled: list[str] = []

    async def viewer(channel: str, delay: float) -> None:
        message = await layer.receive(channel)
        await asyncio.sleep(delay)
        handled.append(channel)
        receipts.hand_in(message["receipt"])

    viewers = [asyncio.create_task(viewer(channel, 0.02 * index)) for index, channel in enumerate(members)]
    await broadcast._send_paced(layer, "scenario.x", {"type": "run.events", "frame": "{}", "run": 1, "after": 0})
    assert sorted(handled) == sorted(members)
    await asyncio.gather(*viewers)
    assert len(receipts) == 0


in_memory_viewers = pytest.mark.skipif(
    not isinstance(broadcast.viewer_layer(), FanOutInMemoryChannelLayer),
    reason="runs are paced on the embedded default's layer only (the scale-out set-up runs them in workers)",
)


@in_memory_viewers
@pytest.mark.django_db(transaction=True)
async def test_a_run_thread_publishing_a_batch_goes_on_after_the_viewers_were_sent_it(monkeypatch):
    from asgiref.sync import sync_to_async

    from playground.consumers import ScenarioConsumer

    handle = ScenarioConsumer._run_events

    async def slow_viewer(self, message):  # a viewer's consumer that takes its time to send
        await asyncio.sleep(0.1)
        await handle(self, message)

    monkeypatch.setattr(ScenarioConsumer, "_run_events", slow_viewer)
    scenario, _ = await sync_to_async(create_scenario)("paced")
    viewers = []
    for _ in range(3):
        communicator = WebsocketCommunicator(application, f"/ws/scenarios/{scenario.slug}/", headers=HEADERS)
        assert (await communicator.connect())[0]
        viewers.append(communicator)
    events = [{"seq": seq, "event": None, "time": 0.0, "changes": []} for seq in range(1, 4)]
    # From another thread, as a run executing in the web process publishes.
    await asyncio.to_thread(broadcast.send_run_batch, scenario.slug, 7, events)
    for communicator in viewers:  # already sent, not merely queued for the viewer's consumer
        assert not communicator.output_queue.empty()
        frame = json.loads(await communicator.receive_from(timeout=1))
        assert [event["seq"] for event in frame["events"]] == [1, 2, 3]
        await communicator.disconnect()
    assert len(receipts) == 0


@in_memory_viewers
@pytest.mark.django_db(transaction=True)
async def test_a_viewer_that_drops_a_batch_still_hands_its_receipt_in():
    from asgiref.sync import sync_to_async

    scenario, _ = await sync_to_async(create_scenario)("paced drop")
    communicator = WebsocketCommunicator(application, f"/ws/scenarios/{scenario.slug}/", headers=HEADERS)
    assert (await communicator.connect())[0]
    layer = broadcast.viewer_layer()
    group = broadcast.scenario_group(scenario.slug)
    big = '{"type":"run.events","run":3,"events":[' + ",".join(['{"seq":1}'] * 1) + "]}"
    # The first batch fills the window (nothing acknowledged), so the second one is dropped.
    for after, frame in [(0, big.replace("}]", ',"pad":"' + "x" * (2 << 20) + '"}]')), (1, big)]:
        token = receipts.open()
        message = {"type": "run.events", "frame": frame, "run": 3, "after": after, "receipt": token}
        put = await layer.fan_out(group, message)
        assert await receipts.wait(token, put, timeout=2) is True
    await communicator.receive_from(timeout=1)
    assert json.loads(await communicator.receive_from(timeout=1))["type"] == "run.lagging"
    await communicator.disconnect()
