"""Answers that need a long replay, computed off the request (issue #14: "no request waits on a
simulation longer than its budget"). The traffic view of a big run and the explanation of a pod in
a big run still under way replay the run up to the player's event, and a comparison of a big
scenario simulates both sides to their end: 30 s of CPU at most, in proportion past 30,000 pods
(run_simulations.MAX_REPLAY_CPU_SECONDS), which a request used to spend inline.

A request asks `answer(key, compute)`: the answer if it is known; else the computation is queued
(or joined, once per key however many ask), waited for briefly (WAIT_SECONDS), and the request
answers "preparing" and asks again later (its poll waits for nothing). As previews and run-state
replays are (playground/preview.py, run_state_builder.py): one daemon worker at a lower priority,
QUEUE_SIZE waiting at most (past it a request is told to come back), the last KEPT answers kept.

`compute` runs on the worker thread: it must not touch the database (the request loads what it
needs first). An exception it raises is the answer, once: the request that gets it has it raised
again, and the next one computes anew.
"""

import logging
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playground import heap
from playground.background import keep_workers, lower_priority, next_job

logger = logging.getLogger(__name__)

WORKERS = 1  # replays are CPU-bound and share the interpreter lock with the requests
QUEUE_SIZE = 8
KEPT = 64
WAIT_SECONDS = 0.3  # what the request that queued the work waits for it
NICE = 10


@dataclass(frozen=True, slots=True)
class Pending:
    """Not known yet: being computed, or not even queued (queue_full)."""

    queue_full: bool = False


# A key names the kind of answer first ("traffic", ...), then what it depends on.
Key = tuple[Any, ...]


@dataclass(slots=True)
class _Job:
    key: Key
    compute: Callable[[], Any]
    group: Key | None = None  # a newer job of the same group supersedes this one while it waits
    done: threading.Event = field(default_factory=threading.Event)


@dataclass(frozen=True, slots=True)
class _Outcome:
    value: Any = None
    error: BaseException | None = None


_lock = threading.Lock()
_work = threading.Condition(_lock)
_jobs: dict[Key, _Job] = {}
_queue: deque[_Job] = deque()
_known: "OrderedDict[Key, _Outcome]" = OrderedDict()
_workers: list[threading.Thread] = []
computed = 0  # computations this process ran (how tests see that nothing ran twice)


def answer(
    key: Key,
    compute: Callable[[], Any],
    *,
    wait: float | None = None,
    prepare: Callable[[], None] | None = None,
    supersedes: Key | None = None,
) -> Any:
    """The answer for `key` (computed by `compute`, off the request), or Pending. `prepare` is called
    in the request before the work is queued, never for a poll (it loads what `compute` reads: a
    25 MiB workload). A job queued with the same `supersedes` and not yet started is dropped for this
    one: a playing run's traffic asks for a new event every second, only the newest is worth a replay."""
    wait = WAIT_SECONDS if wait is None else wait
    if prepare is not None and not started(key):
        prepare()
    with _lock:
        job = _jobs.get(key)
        queued = False
        if job is None and key not in _known:
            if supersedes is not None:
                _drop_queued(supersedes)
            if len(_queue) >= QUEUE_SIZE:
                return Pending(queue_full=True)
            job = _Job(key, compute, supersedes)
            _jobs[key] = job
            _queue.append(job)
            keep_workers(_workers, WORKERS, _work_loop, "offloaded")
            _work.notify()
            queued = True
    if job is not None and queued:  # a poll that joins work under way does not wait for it
        job.done.wait(wait)
    with _lock:
        outcome = _known.get(key)
        if outcome is None:
            return Pending()
        _known.move_to_end(key)
        if outcome.error is not None:  # said once: a CPU budget missed on a busy machine may be met later
            del _known[key]
    if outcome.error is not None:
        raise outcome.error
    return outcome.value


def has_room() -> bool:
    """Whether new work would be queued now (else it is refused: queue_full)."""
    with _lock:
        return len(_queue) < QUEUE_SIZE


def _drop_queued(group: Key) -> None:
    """Called with the lock held: the queued, unstarted jobs of the group go (their polls queue again)."""
    for job in [job for job in _queue if job.group == group]:
        _queue.remove(job)
        del _jobs[job.key]
        job.done.set()


def started(key: Key) -> bool:
    """Whether the answer for `key` is under way or known: asking again costs nothing (a poll)."""
    with _lock:
        return key in _jobs or key in _known


def forget_all() -> None:
    """For tests: nothing known (work under way finishes and is kept)."""
    with _lock:
        _known.clear()


def _work_loop() -> None:
    global computed
    lower_priority(NICE)
    while True:
        job = next_job(_work, _queue)
        with _lock:
            computed += 1
        started = time.monotonic()
        outcome = _Outcome(error=RuntimeError("the computation did not finish"))
        try:
            with heap.busy():
                outcome = _Outcome(value=job.compute())
        except Exception as error:  # the request re-raises it: a limit, a manifest, or a bug it reports
            outcome = _Outcome(error=error)
        finally:  # whatever happened, its polls get an answer
            heap.released()
            logger.info("%s computed off the request in %.1f s", job.key[0], time.monotonic() - started)
            with _lock:
                _known[job.key] = outcome
                while len(_known) > KEPT:
                    _known.popitem(last=False)
                _jobs.pop(job.key, None)
            job.done.set()
