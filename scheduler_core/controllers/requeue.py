"""A controller's delayed and rate-limited requeues, as client-go's workqueue gives them.

`rate_limited(key)` is AddRateLimited with client-go's DefaultControllerRateLimiter: the larger of a
per-item exponential failure delay (5 ms doubling up to 1000 s, which `forget(key)` resets after a
successful sync) and the delay of a token bucket the whole queue shares (10 a second, bursts of
100), so that keys requeued again and again cannot spin the controller however often they are
forgiven. `after(key, delay)` is AddAfter: a key already waiting keeps its earlier time. When the
time comes the key is marked dirty and the controller syncs it in its next pass.

Retries further out than a minute are idle timers: alone they do not keep a finished run going, so a
permanently failing object does not make a run endless, while the first minute of retries (which is
when a quota raised or a PriorityClass created shortly after shows its effect) still plays out. Such a
retry is woken by a later change of the store (Simulation.after's woken_by_change): a pod that
finishes and frees its quota makes the ReplicaSet's next retry work left to do, as it is upstream.
"""

from collections.abc import Callable

from scheduler_core.controllers.base import Context

BASE_DELAY_SECONDS = 0.005
MAX_DELAY_SECONDS = 1000.0
KEEP_ALIVE_SECONDS = 60.0
BUCKET_PER_SECOND = 10.0  # client-go workqueue.DefaultControllerRateLimiter: rate.NewLimiter(10, 100)
BUCKET_BURST = 100


class TokenBucket:
    """golang.org/x/time/rate's Limiter as Reserve().Delay() uses it: every reservation takes a token,
    possibly one not yet there (the bucket goes negative), and waits until it will be."""

    def __init__(self, per_second: float, burst: int) -> None:
        self.per_second = per_second
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = 0.0

    def reserve(self, now: float) -> float:
        elapsed = max(0.0, now - self.stamp)
        self.tokens = min(float(self.burst), self.tokens + elapsed * self.per_second)
        self.stamp = now
        self.tokens -= 1.0
        return 0.0 if self.tokens >= 0 else -self.tokens / self.per_second


class Requeue:
    def __init__(self, ctx: Context, mark: Callable[[str], None], label: str) -> None:
        self.ctx = ctx
        self._mark = mark
        self._label = label
        self._failures: dict[str, int] = {}
        self._due: dict[str, float] = {}
        self._bucket = TokenBucket(BUCKET_PER_SECOND, BUCKET_BURST)

    def rate_limited(self, key: str) -> float:
        failures = self._failures.get(key, 0)
        self._failures[key] = failures + 1
        exponential = min(BASE_DELAY_SECONDS * 2.0 ** min(failures, 40), MAX_DELAY_SECONDS)
        delay = max(exponential, self._bucket.reserve(self.ctx.now))
        self.after(key, delay)
        return delay

    def forget(self, key: str) -> None:
        self._failures.pop(key, None)

    def failures(self, key: str) -> int:
        return self._failures.get(key, 0)

    def after(
        self, key: str, delay: float, *, idle: bool | None = None, needed: Callable[[], bool] | None = None
    ) -> None:
        """Marks the key dirty after `delay` (an earlier pending time for it wins). `idle`: see
        Simulation.after; `needed` (with idle): work left while it says so and the time is still due."""
        at = self.ctx.now + max(delay, 0.0)
        due = self._due.get(key)
        if due is not None and due <= at:
            return
        self._due[key] = at

        def fire() -> None:
            if self._due.get(key) == at:
                del self._due[key]
                self._mark(key)

        if idle is None:
            # A backoff retry far out (a refused create): idle, but woken by any later change of the
            # store (a quota freed, a pod gone), which may make it succeed.
            far = delay > KEEP_ALIVE_SECONDS
            still_due = (lambda: self._due.get(key) == at) if far else None
            self.ctx.after(delay, fire, label=f"{self._label} {key}", idle=far, woken_by_change=still_due)
        else:
            still_needed = (lambda: self._due.get(key) == at and needed()) if needed is not None else None
            self.ctx.after(delay, fire, label=f"{self._label} {key}", idle=idle, needed=still_needed)

    def drop(self, key: str) -> None:
        """The object is gone: its pending retries and failure count with it."""
        self._failures.pop(key, None)
        self._due.pop(key, None)
