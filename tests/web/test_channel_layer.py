import asyncio

import pytest

from playground import channel_layer
from playground.channel_layer import FanOutInMemoryChannelLayer


async def joined(layer: FanOutInMemoryChannelLayer, group: str, count: int) -> list[str]:
    names = [await layer.new_channel() for _ in range(count)]
    for name in names:
        await layer.group_add(group, name)
    return names


async def test_a_group_send_reaches_every_member_once_and_no_one_else():
    layer = FanOutInMemoryChannelLayer()
    members = await joined(layer, "run-1", 3)
    outsider = (await joined(layer, "run-2", 1))[0]
    await layer.group_send("run-1", {"type": "run.batch", "frame": "abc", "seq": 7})
    for name in members:
        assert await layer.receive(name) == {"type": "run.batch", "frame": "abc", "seq": 7}
        assert name not in layer.channels  # nothing more is waiting for it
    assert outsider not in layer.channels
    await layer.group_send("nobody", {"type": "run.batch"})  # an empty group is no error


async def test_each_member_gets_its_own_copy_even_of_nested_messages():
    layer = FanOutInMemoryChannelLayer()
    first, second = await joined(layer, "g", 2)
    await layer.group_send("g", {"type": "flat", "n": 1})
    await layer.group_send("g", {"type": "nested", "items": [1, 2]})
    flat_a, flat_b = await layer.receive(first), await layer.receive(second)
    assert flat_a == flat_b and flat_a is not flat_b
    nested_a = await layer.receive(first)
    nested_a["items"].append(3)
    assert (await layer.receive(second))["items"] == [1, 2]


async def test_a_member_whose_queue_is_full_is_skipped_and_the_rest_still_get_it():
    layer = FanOutInMemoryChannelLayer(capacity=1)
    slow, fast = await joined(layer, "g", 2)
    await layer.group_send("g", {"type": "m", "n": 1})
    assert await layer.receive(fast) == {"type": "m", "n": 1}
    await layer.group_send("g", {"type": "m", "n": 2})  # slow still holds n=1: its queue is full
    assert await layer.receive(slow) == {"type": "m", "n": 1}
    assert await layer.receive(fast) == {"type": "m", "n": 2}
    assert slow not in layer.channels  # n=2 was dropped for it, as Channels' layer does


async def test_a_waiting_receiver_is_woken_by_a_group_send():
    layer = FanOutInMemoryChannelLayer()
    (member,) = await joined(layer, "g", 1)
    waiting = asyncio.create_task(layer.receive(member))
    await asyncio.sleep(0)
    await layer.group_send("g", {"type": "m"})
    assert await asyncio.wait_for(waiting, 1) == {"type": "m"}


async def test_expired_messages_are_still_dropped_but_checked_at_most_once_an_interval(monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(channel_layer.time, "monotonic", lambda: clock[0])
    layer = FanOutInMemoryChannelLayer(expiry=60)
    stale, fresh = await joined(layer, "g", 2)
    await layer.send(stale, {"type": "old"})
    layer.channels[stale]._queue[0] = (0.0, {"type": "old"})  # its expiry long past
    await layer.group_send("g", {"type": "new"})  # the first send cleans: stale leaves the group
    assert stale not in layer.channels and stale not in layer.groups["g"]
    await layer.send(stale, {"type": "old"})
    layer.channels[stale]._queue[0] = (0.0, {"type": "old"})
    await layer.receive(fresh)
    assert stale in layer.channels  # within the interval: not looked at again
    clock[0] += channel_layer.CLEAN_INTERVAL_SECONDS
    await layer.group_send("g", {"type": "later"})
    assert stale not in layer.channels
    assert await layer.receive(fresh) == {"type": "later"}


def test_the_embedded_default_uses_this_layer(settings):
    backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    if backend.startswith("channels_redis"):
        pytest.skip("REDIS_URL is set: the Redis layer is configured")
    assert backend == "playground.channel_layer.FanOutInMemoryChannelLayer"


async def test_a_fan_out_counts_the_members_it_put_the_message_before():
    layer = FanOutInMemoryChannelLayer(capacity=1)
    _slow, fast = await joined(layer, "g", 2)
    assert await layer.fan_out("g", {"type": "m", "n": 1}) == 2
    await layer.receive(fast)
    assert await layer.fan_out("g", {"type": "m", "n": 2}) == 1  # slow's queue is full
    assert await layer.fan_out("nobody", {"type": "m"}) == 0


async def test_a_receive_builds_a_queue_only_for_a_channel_that_has_none(monkeypatch):
    built: list[object] = []

    class CountedQueue(asyncio.Queue):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            built.append(self)

    monkeypatch.setattr(asyncio, "Queue", CountedQueue)
    layer = FanOutInMemoryChannelLayer()
    (member,) = await joined(layer, "g", 1)
    await layer.group_send("g", {"type": "m", "n": 1})
    await layer.group_send("g", {"type": "m", "n": 2})
    assert len(built) == 1
    assert await layer.receive(member) == {"type": "m", "n": 1}
    assert await layer.receive(member) == {"type": "m", "n": 2}
    assert len(built) == 1  # Channels' receive built one more per call
    assert member not in layer.channels  # drained: gone, as in Channels (a probe's channel leaks nothing)


async def test_a_cancelled_receive_leaves_no_queue():
    layer = FanOutInMemoryChannelLayer()
    (member,) = await joined(layer, "g", 1)
    waiting = asyncio.create_task(layer.receive(member))
    await asyncio.sleep(0)
    waiting.cancel()  # the consumer ended
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert member not in layer.channels


def test_the_scale_out_set_up_puts_viewers_on_redis_pub_sub_and_run_requests_on_the_core_layer():
    import os

    from django.conf import settings

    if not os.environ.get("REDIS_URL"):
        pytest.skip("REDIS_URL is not set: the embedded default's one layer serves both")
    assert settings.VIEWER_CHANNEL_LAYER == "viewers"
    assert settings.CHANNEL_LAYERS["viewers"]["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "channels_redis.core.RedisChannelLayer"
