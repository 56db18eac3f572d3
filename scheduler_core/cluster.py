"""The object store: the simulated API server and its informers.

Every state change goes through here: create, update and delete bump the resourceVersion, notify
the watchers (controllers and the scheduler) in registration order, and nothing else writes state.
Events (core/v1 Event) are recorded here too, stamped with the simulated clock.
"""

import random
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from scheduler_core.events import NORMAL, Event, object_ref


class ChangeType(StrEnum):
    ADDED = "ADDED"
    MODIFIED = "MODIFIED"
    DELETED = "DELETED"


@dataclass(frozen=True, slots=True)
class Change:
    type: ChangeType
    kind: str
    key: str  # namespace/name or name
    old: Any
    new: Any


class ConflictError(Exception):
    """Create of an object that exists, or update/delete of one that does not (409/404)."""


class Cluster:
    """Objects by kind and key. Objects are immutable dataclasses with a `metadata`; an update
    replaces the stored object with a new one."""

    def __init__(self, clock: Callable[[], float], rng: random.Random, max_events: int = 1_000_000) -> None:
        self._clock = clock
        self._rng = rng
        self._objects: dict[str, dict[str, Any]] = {}
        self._watchers: list[Callable[[Change], None]] = []
        self.events: list[Event] = []
        self.max_events = max_events
        self.resource_version = 0
        # Admission: called on every create with the object, returning it (mutated) or raising.
        self.admission: list[Callable[[Any], Any]] = []

    # ------------------------------------------------------------------ reads

    def get(self, kind: str, key: str) -> Any:
        return self._objects.get(kind, {}).get(key)

    def objects(self, kind: str) -> list[Any]:
        return list(self._objects.get(kind, {}).values())

    def items(self, kind: str) -> Iterator[tuple[str, Any]]:
        yield from list(self._objects.get(kind, {}).items())

    def kinds(self) -> list[str]:
        return list(self._objects)

    def count(self, kind: str) -> int:
        return len(self._objects.get(kind, {}))

    # ------------------------------------------------------------------ writes

    def watch(self, watcher: Callable[[Change], None]) -> None:
        self._watchers.append(watcher)

    def new_uid(self) -> str:
        """A UUID drawn from the run's seeded generator: the same scenario gets the same uids."""
        return str(uuid.UUID(int=self._rng.getrandbits(128), version=4))

    def create(self, obj: Any) -> Any:
        kind = type_name(obj)
        key = obj.metadata.key
        store = self._objects.setdefault(kind, {})
        if key in store:
            raise ConflictError(f'{kind.lower()}s "{obj.metadata.name}" already exists')
        for admit in self.admission:
            obj = admit(obj)
        metadata = obj.metadata
        if not metadata.uid:
            metadata = replace(metadata, uid=self.new_uid())
        metadata = replace(metadata, creation_timestamp=self._clock())
        obj = replace(obj, metadata=metadata)
        store[key] = obj
        self.resource_version += 1
        self._notify(Change(ChangeType.ADDED, kind, key, None, obj))
        return obj

    def update(self, obj: Any) -> Any:
        kind = type_name(obj)
        key = obj.metadata.key
        store = self._objects.get(kind, {})
        old = store.get(key)
        if old is None:
            raise ConflictError(f'{kind.lower()}s "{obj.metadata.name}" not found')
        if old == obj:
            return old
        store[key] = obj
        self.resource_version += 1
        self._notify(Change(ChangeType.MODIFIED, kind, key, old, obj))
        return obj

    def delete(self, kind: str, key: str) -> Any:
        store = self._objects.get(kind, {})
        old = store.pop(key, None)
        if old is None:
            raise ConflictError(f'{kind.lower()}s "{key}" not found')
        self.resource_version += 1
        self._notify(Change(ChangeType.DELETED, kind, key, old, None))
        return old

    def _notify(self, change: Change) -> None:
        for watcher in self._watchers:
            watcher(change)

    # ------------------------------------------------------------------ events

    def record(self, obj: Any, reason: str, message: str, *, event_type: str = NORMAL, source: str = "") -> Event:
        if len(self.events) >= self.max_events:
            raise SimulationLimitError(f"the run produced more than {self.max_events} events")
        kind = type_name(obj)
        event = Event(
            seq=len(self.events) + 1,
            time=round(self._clock(), 6),
            type=event_type,
            reason=reason,
            object=object_ref(kind, obj.metadata.namespace, obj.metadata.name),
            message=message,
            source=source,
        )
        self.events.append(event)
        return event


def type_name(obj: Any) -> str:
    explicit = getattr(obj, "kind_name", None)  # stand-ins for objects that do not exist
    if isinstance(explicit, str):
        return explicit
    return str(getattr(type(obj), "kind", type(obj).__name__))


class SimulationLimitError(Exception):
    """A run exceeded a bound that keeps hostile or runaway scenarios from using unbounded time or memory."""
