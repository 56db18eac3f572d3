"""A run's frames as stored and sent: a change to an object the run has shown before carries only
what differs from how it showed it last.

Each pod, node or workload change is a whole frame of the object (run_frames.pod_frame and the others),
so a pod that is created, bound, started and made Ready is sent four times in full: with a 400-pod
Deployment that was 40 % of the run's bytes, and every byte is stored once and sent to every viewer.
Here the first frame of an object (and the first after it was deleted) stays whole; a later one
becomes {"op": "pod~", <its identity>, <the fields that changed>}. Frames are read in order from the
first (a page holds every event of a run contiguously; a replay walks them all), so whoever reads
frame n has read the object's last whole or changed form: the full frame is that with the delta
applied (`expand`, and static/js/change-deltas.js in the page). A frame whose fields differ in
name from the object's last (a new kind of field) is sent whole.
"""

from collections.abc import Iterable, Iterator
from typing import Any

DELTA = "~"  # suffix of the op of a change that carries only what changed
DELETED = "-"  # suffix of the op of a deletion (run_frames.ChangeRecorder)
IDENTITY: dict[str, tuple[str, ...]] = {"pod": ("key",), "node": ("name",), "workload": ("kind", "key")}

Identity = tuple[Any, ...]


def identity(op: str, change: dict[str, Any]) -> Identity | None:
    fields = IDENTITY.get(op)
    return None if fields is None else (op, *(change[name] for name in fields))


class DeltaEncoder:
    """Turns full frames, in order, into the run's stored form. It keeps each live object's last
    fields (names once per shape, values as a tuple), not the frames themselves."""

    def __init__(self) -> None:
        self._shown: dict[Identity, tuple[tuple[str, ...], tuple[Any, ...]]] = {}
        self._shapes: dict[tuple[str, ...], tuple[str, ...]] = {}  # one tuple of names per shape

    def encode(self, frame: dict[str, Any]) -> dict[str, Any]:
        return {**frame, "changes": [self._change(change) for change in frame["changes"]]}

    def _change(self, change: dict[str, Any]) -> dict[str, Any]:
        op: str = change["op"]
        if op.endswith(DELETED):
            gone = identity(op[: -len(DELETED)], change)
            if gone is not None:
                self._shown.pop(gone, None)
            return change
        key = identity(op, change)
        if key is None:
            return change
        names = tuple(change)
        names = self._shapes.setdefault(names, names)
        values = tuple(change.values())
        before = self._shown.get(key)
        self._shown[key] = (names, values)
        if before is None or before[0] != names:
            return change
        delta = {"op": op + DELTA, **{name: change[name] for name in IDENTITY[op]}}
        for name, old, new in zip(names, before[1], values, strict=True):
            if old != new:
                delta[name] = new
        return delta


def expand(frames: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Stored frames, in order from the run's first, with each change whole again."""
    shown: dict[Identity, dict[str, Any]] = {}
    for frame in frames:
        changes = []
        for change in frame["changes"]:
            op: str = change["op"]
            if op.endswith(DELTA):
                full_op = op[: -len(DELTA)]
                key = identity(full_op, change)
                change = {**shown[key], **change, "op": full_op}
            elif op.endswith(DELETED):
                gone = identity(op[: -len(DELETED)], change)
                if gone is not None:
                    shown.pop(gone, None)
                changes.append(change)
                continue
            key = identity(change["op"], change)
            if key is not None:
                shown[key] = change
            changes.append(change)
        yield {**frame, "changes": changes}
