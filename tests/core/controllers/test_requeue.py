"""Requeues as client-go's DefaultControllerRateLimiter gives them: the larger of a per-item
exponential backoff and a token bucket shared by the whole queue."""

from types import SimpleNamespace

import pytest

from scheduler_core.controllers.requeue import BUCKET_BURST, Requeue, TokenBucket


class Clock:
    """The part of a controller Context a Requeue uses: the time, and timers it can inspect."""

    def __init__(self) -> None:
        self.now = 0.0
        self.timers: list[tuple[float, str]] = []

    def after(self, delay: float, callback, *, label: str, idle: bool, woken_by_change=None) -> None:
        self.timers.append((self.now + delay, label))


def test_the_bucket_lets_a_burst_through_then_one_every_tenth_of_a_second():
    bucket = TokenBucket(per_second=10, burst=100)
    delays = [bucket.reserve(now=0.0) for _ in range(103)]
    assert delays[:100] == [0.0] * 100
    assert delays[100:] == pytest.approx([0.1, 0.2, 0.3])  # each waits for the token after the last
    assert bucket.reserve(now=10.0) == 0.0  # ten seconds later the reservations are repaid and more


def test_a_forgiven_key_still_waits_for_the_shared_bucket():
    clock = Clock()
    requeue = Requeue(SimpleNamespace(now=0.0, after=clock.after), mark=lambda key: None, label="test")
    delays = []
    for _ in range(BUCKET_BURST + 5):
        delays.append(requeue.rate_limited("default/stuck"))
        requeue.forget("default/stuck")  # a successful sync resets the per-item backoff
    assert delays[:BUCKET_BURST] == [0.005] * BUCKET_BURST  # the per-item first delay, 5 ms
    assert delays[BUCKET_BURST:] == pytest.approx([0.1, 0.2, 0.3, 0.4, 0.5])


def test_the_per_item_backoff_wins_when_it_is_longer():
    requeue = Requeue(SimpleNamespace(now=0.0, after=Clock().after), mark=lambda key: None, label="test")
    delays = [requeue.rate_limited("default/failing") for _ in range(12)]
    assert delays == [0.005 * 2**n for n in range(12)]  # 5 ms doubling; the bucket had tokens to spare
