"""Daemon worker threads for work done off the request (previews, run-state replays): started with
the first job, replaced when one died, and given a lower priority than the requests they serve."""

import contextlib
import os
import threading
from collections import deque
from collections.abc import Callable


def keep_workers(workers: list[threading.Thread], count: int, target: Callable[[], None], name: str) -> None:
    """Called with the pool's lock held: `count` live workers named name-1, name-2, ... in `workers`
    (daemons, so a job never holds up the process' exit on SIGTERM)."""
    workers[:] = [thread for thread in workers if thread.is_alive()]
    while len(workers) < count:
        thread = threading.Thread(target=target, name=f"{name}-{len(workers) + 1}", daemon=True)
        workers.append(thread)
        thread.start()


def lower_priority(nice: int) -> None:
    """This thread gives way to the requests (Linux schedules threads apart, each with its own nice value)."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), nice)


def next_job[T](work: threading.Condition, queue: deque[T]) -> T:
    """A worker's next job from its pool's queue, waiting for one (`work`: the condition on the pool's lock)."""
    with work:
        while not queue:
            work.wait()
        return queue.popleft()
