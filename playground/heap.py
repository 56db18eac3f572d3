"""Short pauses of the cyclic garbage collector in a server that holds big engine state.

A server simulating a 50,000-pod run, or keeping one for explanations (playground/run_states.py),
holds millions of objects, and each full collection of CPython's collector walks all of them with
the interpreter lock held: at 5,000 nodes / 50,000 pods a dozen full collections during the run
(0.2 s, 0.25 s, ... 1.1 s as the heap grew), then one now and then after it, so a cordon answered
in 0.3 s, or in 1.7 s when one fell inside it (issue #14; measured with a gc callback).

Once a full collection leaves at least BIG_HEAP_OBJECTS alive, they are frozen (gc.freeze: moved
to a generation the collector never walks), so the next full collection walks only what came
since. Nothing frozen is lost for good: an object freed by reference counting is freed as usual;
only reference cycles among frozen objects wait, for a whole walk (unfreeze, collect). One is due
when a big structure was let go (`released`: a run's simulation, whose controllers and watchers
form cycles) or once the frozen set has doubled since the last whole walk. A run's end walks at
once, before its last frames leave (1.0 s at 5,000 / 50,000, where it keeps 1.5 million objects
for explanations); anything else waits for a janitor thread to find a quiet moment (no request or
run under way for QUIET_SECONDS), or, for a release under load that never quiets, for
MAX_DEFER_SECONDS. Below BIG_HEAP_OBJECTS nothing stays frozen (but what a big run's start froze,
until a whole walk: `freeze_before_growth`): the collector runs on CPython's own schedule. The
threshold is low enough that a big run freezes early: at 500,000, two or three whole walks of
0.1-0.2 s fell in a 5,000-node run's first half second, before its first frame.

The gc callback takes no lock: a thread holding one can set off a collection.
"""

import gc
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

BIG_HEAP_OBJECTS = 250_000  # about 0.1 s a full walk on this project's CI machine
QUIET_SECONDS = 2.0
MAX_DEFER_SECONDS = 60.0
JANITOR_INTERVAL_SECONDS = 0.5


@dataclass
class _State:
    installed: bool = False
    in_flight: int = 0  # requests and runs under way
    last_activity: float = 0.0
    whole_collection: bool = False  # the full collection under way started with nothing frozen
    frozen_after_walk: int = 0  # objects frozen after the last whole walk
    frozen_estimate: int = 0  # objects frozen since (0: nothing is)
    walk_due_since: float | None = None
    walk_forced: bool = False  # due for a release: made after MAX_DEFER_SECONDS even under load
    whole_walks: int = 0
    installs: int = 0  # a janitor serves the install that started it only


_state = _State()
_lock = threading.Lock()


def install(*, janitor: bool = True) -> None:
    """Takes over the full collections' schedule in this process (idempotent)."""
    with _lock:
        if _state.installed:
            return
        _state.installed = True
        _state.installs += 1
        _state.last_activity = time.monotonic()
    gc.callbacks.append(_on_collection)
    if janitor:
        threading.Thread(target=_janitor, args=(_state.installs,), name="heap-janitor", daemon=True).start()


def uninstall() -> None:
    """Gives the collector back its own schedule, nothing frozen (the tests' clean-up)."""
    with _lock:
        _state.installed = False
    if _on_collection in gc.callbacks:
        gc.callbacks.remove(_on_collection)
    gc.unfreeze()
    _state.frozen_after_walk = _state.frozen_estimate = 0
    _state.walk_due_since = None
    _state.walk_forced = False


@contextmanager
def busy() -> Iterator[None]:
    """A request or a run under way: no whole walk starts meanwhile, nor QUIET_SECONDS after it."""
    with _lock:
        _state.in_flight += 1
    try:
        yield
    finally:
        with _lock:
            _state.in_flight -= 1
            _state.last_activity = time.monotonic()


def released(*, walk_now: bool = False) -> None:
    """A big structure with reference cycles was let go (a run's simulation): if objects are
    frozen, it may be among them, and only a whole walk frees it: now (`walk_now`, in the caller's
    thread: a run's end, where a pause is one more moment of a run a person watches end), else at
    the next quiet moment, or MAX_DEFER_SECONDS from now."""
    if not (_state.installed and _state.frozen_estimate):
        return
    if walk_now:
        whole_walk()
    else:
        _due(forced=True)


def freeze_before_growth() -> None:
    """A big run is about to start: what the process holds now is frozen at once (gc.freeze moves
    the collector's lists, it walks nothing), so the full collections the run's first objects set
    off walk those objects only. Below BIG_HEAP_OBJECTS nothing was frozen, and each of them walked
    the whole server too: at 5,000 / 50,000, 0.15 s of a run's first frame. A release walks as
    usual (the run's end)."""
    if not _state.installed:
        return
    gc.freeze()
    # How many is not counted (that walks the frozen list): at least one, so a release walks.
    _state.frozen_estimate = max(_state.frozen_estimate, 1)
    _state.frozen_after_walk = max(_state.frozen_after_walk, BIG_HEAP_OBJECTS)


def whole_walk() -> int:
    """Unfreezes everything and collects it (the cycles frozen objects were part of); what is
    still alive after it is frozen again if it is big (`_on_collection`). Returns what it freed."""
    _state.walk_due_since = None
    _state.walk_forced = False
    _state.whole_walks += 1
    gc.unfreeze()
    _state.frozen_estimate = 0
    return gc.collect()


def walk_is_due(now: float) -> bool:
    due = _state.walk_due_since
    if due is None:
        return False
    if _state.walk_forced and now - due >= MAX_DEFER_SECONDS:
        return True
    return _state.in_flight == 0 and now - _state.last_activity >= QUIET_SECONDS


def _due(*, forced: bool) -> None:
    if _state.walk_due_since is None:
        _state.walk_due_since = time.monotonic()
    _state.walk_forced = _state.walk_forced or forced


def _on_collection(phase: str, info: dict[str, int]) -> None:
    if info["generation"] != 2:
        return
    if phase == "start":
        _state.whole_collection = _state.frozen_estimate == 0
        return
    # What the collection left in the oldest generation: everything, after a whole one; what came
    # since the last freeze, otherwise. (gc.get_freeze_count walks the frozen list: 0.1 s a call
    # at 1.5 million objects, which is what this module saves.)
    survivors = len(gc.get_objects(generation=2))
    if _state.whole_collection and survivors < BIG_HEAP_OBJECTS:
        return  # a small heap: every full collection walks it, as CPython does
    gc.freeze()
    if _state.whole_collection:
        _state.frozen_after_walk = _state.frozen_estimate = survivors
        return
    # An upper bound: frozen objects freed by reference counting since are still counted.
    _state.frozen_estimate += survivors
    if _state.frozen_estimate >= 2 * _state.frozen_after_walk:
        _due(forced=False)


def _janitor(install: int) -> None:
    while _state.installed and _state.installs == install:
        time.sleep(JANITOR_INTERVAL_SECONDS)
        if walk_is_due(time.monotonic()):
            whole_walk()
