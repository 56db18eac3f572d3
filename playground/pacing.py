"""A run simulated in a thread of the web process waits, after each batch it publishes, until this
process's viewers have been sent that batch.

The thread simulating and the event loop sending to viewers share one interpreter lock. Left to
itself, the simulation took about half of it while a batch went out to each viewer in turn, so a
batch reached its last viewer long after it left (load harness, 200 viewers of a 2,003-event run:
p95 0.60 s from send to read). A simulation running ahead of its viewers gains nothing: what it
makes waits for the same loop. So a batch carries a receipt; the layer counts the viewers it was
put before (playground/channel_layer.py), each viewer's consumer hands the receipt in once it has
sent or skipped the batch, and the run's thread goes on when all have, or after
PACE_TIMEOUT_SECONDS (a viewer that left between the put and its turn never hands it in).

Everything here runs on the server's event loop, so it needs no lock.
"""

import asyncio
import itertools
from dataclasses import dataclass, field

PACE_TIMEOUT_SECONDS = 0.5
# A batch whose wait timed out leaves the group's runs unpaced this long: a viewer that never hands
# its receipts in (its consumer crashed before leaving the group) costs a run one timeout in that
# time, not one per batch.
UNPACED_AFTER_TIMEOUT_SECONDS = 10.0


@dataclass
class _Receipt:
    expected: int | None = None  # known once the batch has been put before its viewers
    handed_in: int = 0
    done: asyncio.Future[None] | None = field(default=None, repr=False)

    def complete(self) -> bool:
        return self.expected is not None and self.handed_in >= self.expected


class Receipts:
    def __init__(self) -> None:
        self._open: dict[int, _Receipt] = {}
        self._tokens = itertools.count(1)

    def open(self) -> int:
        token = next(self._tokens)
        self._open[token] = _Receipt()
        return token

    def hand_in(self, token: object) -> None:
        """A viewer's consumer has handled the batch with this receipt (any other value: not paced)."""
        receipt = self._open.get(token) if type(token) is int else None  # not True, which == 1
        if receipt is None:
            return
        receipt.handed_in += 1
        if receipt.done is not None and receipt.complete() and not receipt.done.done():
            receipt.done.set_result(None)

    async def wait(self, token: int, expected: int, timeout: float | None = None) -> bool:
        """Until `expected` viewers have handed the receipt in (True) or `timeout` passed (False;
        PACE_TIMEOUT_SECONDS unless told)."""
        timeout = PACE_TIMEOUT_SECONDS if timeout is None else timeout
        receipt = self._open[token]
        receipt.expected = expected
        try:
            if receipt.complete():
                return True
            receipt.done = asyncio.get_running_loop().create_future()
            try:
                await asyncio.wait_for(receipt.done, timeout)
            except TimeoutError:
                return False
            return True
        finally:
            del self._open[token]

    def discard(self, token: int) -> None:
        self._open.pop(token, None)

    def __len__(self) -> int:
        return len(self._open)


receipts = Receipts()


class Backoff:
    """Groups whose last paced batch timed out, until when they go unpaced (loop thread only)."""

    def __init__(self) -> None:
        self._until: dict[str, float] = {}

    def paced(self, group: str, now: float) -> bool:
        until = self._until.get(group)
        if until is None:
            return True
        if now < until:
            return False
        del self._until[group]
        return True

    def timed_out(self, group: str, now: float) -> None:
        self._until[group] = now + UNPACED_AFTER_TIMEOUT_SECONDS


backoff = Backoff()
