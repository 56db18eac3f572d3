"""How far an import has come, for the page to show while it waits: the upload as its bytes arrive
(playground/request_body.py, in Daphne's reactor thread), then the reading of each file and the
save (the view's thread). The page names its import by a token of its own making in a request
header (TOKEN_HEADER) and asks for it here (views.editing.import_progress_view) until its answer
arrives.

Kept in this process's memory, at most MAX_ENTRIES for at most TTL_SECONDS each: an import is
answered by the process that received it, and so is a page's question while it polls that process.
"""

import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

TOKEN_HEADER = "X-Import-Progress"
TOKEN_META_KEY = "HTTP_X_IMPORT_PROGRESS"  # as Django's META has it
_TOKEN = re.compile(r"[A-Za-z0-9-]{8,64}\Z")
MAX_ENTRIES = 256
TTL_SECONDS = 600.0

PHASES = ("sending", "nodes", "pods", "saving")  # in this order; each is done from 0 to 1
LABELS = {
    "sending": "Sending the files",
    "nodes": "Reading the nodes",
    "pods": "Reading the pods",
    "saving": "Saving the board",
}


@dataclass(frozen=True, slots=True)
class Progress:
    phase: str
    done: float  # of this phase, 0 to 1
    updated: float  # time.monotonic()

    @property
    def overall(self) -> float:
        """Of the whole import, each phase counting as much as the others (what a bar shows)."""
        return (PHASES.index(self.phase) + min(max(self.done, 0.0), 1.0)) / len(PHASES)

    def as_json(self) -> dict[str, object]:
        return {
            "phase": self.phase,
            "label": LABELS[self.phase],
            "step": PHASES.index(self.phase) + 1,
            "steps": len(PHASES),
            "done": round(self.done, 3),
            "overall": round(self.overall, 3),
        }


_entries: "OrderedDict[str, Progress]" = OrderedDict()
_lock = threading.Lock()


def valid_token(token: str | bytes | None) -> str | None:
    if isinstance(token, bytes):
        token = token.decode("ascii", errors="replace")
    return token if token and _TOKEN.match(token) else None


def report(token: str | None, phase: str, done: float) -> None:
    """Records that `phase` is `done` (0 to 1) for the import named `token` (nothing without one)."""
    if token is None:
        return
    now = time.monotonic()
    with _lock:
        _entries[token] = Progress(phase, done, now)
        _entries.move_to_end(token)
        while len(_entries) > MAX_ENTRIES or (_entries and now - next(iter(_entries.values())).updated > TTL_SECONDS):
            _entries.popitem(last=False)


def read(token: str) -> Progress | None:
    with _lock:
        progress = _entries.get(token)
    if progress is None or time.monotonic() - progress.updated > TTL_SECONDS:
        return None
    return progress


def forget(token: str | None) -> None:
    if token is None:
        return
    with _lock:
        _entries.pop(token, None)


def reporter(token: str | None, phase: str, step: float = 0.01) -> Callable[[float], None]:
    """A function taking this phase's fraction done, recording it when it moved by `step` or more
    (the reading calls it for every megabyte; the page asks twice a second)."""
    last = -1.0

    def moved(done: float) -> None:
        nonlocal last
        if done - last >= step or done >= 1.0:
            last = done
            report(token, phase, done)

    return moved
