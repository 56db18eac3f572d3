"""Pausing the cyclic garbage collector while a request builds many short-lived objects.

A server that keeps a finished 50,000-pod run for explanations (playground/run_states.py) holds
millions of objects. Explaining a pod builds the scheduler's snapshot of that moment, 50,000 pod
infos, and the allocations set off full collections that walk the whole heap (cProfile put most of
the time in the snapshot's constructors): the last pod's explanation at 5,000 / 50,000 took 2.0 s
in the server before the pause and 0.8 s after it, what it takes in a process that keeps less.
The objects built are freed by reference counting when the request ends, so nothing is lost by
not hunting cycles meanwhile. Explanations have not paused since playground/heap.py freezes a big
heap (a full collection walks only what is new; a pause only left one young collection of all the
explanation made): the pause is left to the run's parse when Run is pressed (views/running.py).
Pauses nest and overlap across threads: the collector runs again once the last one ends, and only
if it was running when the first began.
"""

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_pauses = 0
_was_enabled = False


@contextmanager
def collector_paused() -> Iterator[None]:
    global _pauses, _was_enabled
    with _lock:
        if _pauses == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _lock:
            _pauses -= 1
            if _pauses == 0 and _was_enabled:
                gc.enable()
