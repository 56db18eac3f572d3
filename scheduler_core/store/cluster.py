"""The object store: the simulated API server and its informers.

Every state change goes through here: create, update and delete bump the resourceVersion, notify
the watchers (controllers and the scheduler) in registration order, and nothing else writes state.
A watcher may name the kinds it cares about: it is then called for those only (the others still in
registration order). Events (core/v1 Event) are recorded here too, stamped with the simulated clock.

Reads in store order (`objects`, `items`) list a kind's objects in the order they were created (an
update keeps an object's place). `pods_on_node` gives the pods bound to a node in that same order,
from an index kept on every write, so node handlers need not scan every pod of the cluster.

A journal, when one is kept, lists every change and every event in the order they happened (a
change before any watcher hears of it, so what a watcher does about it comes after it): the
Simulation keeps one per instant to stream them. `before` gives a copy of the store as it was
before the latest of them, for a viewer stopped between two events of one instant.
"""

import builtins
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Protocol, cast, overload

from scheduler_core.api.types import ObjectMeta, Pod
from scheduler_core.store.events import NORMAL, Event, object_ref


class StoredObject(Protocol):
    """What the store keeps: an immutable object of api/ with its metadata."""

    @property
    def metadata(self) -> ObjectMeta: ...


class ChangeType(StrEnum):
    ADDED = "ADDED"
    MODIFIED = "MODIFIED"
    DELETED = "DELETED"


@dataclass(frozen=True, slots=True)
class Change[T: StoredObject]:
    type: ChangeType
    kind: str
    key: str  # namespace/name or name
    old: T | None  # None when ADDED
    new: T | None  # None when DELETED
    # The object's creation number in the store: its place in store order, kept by updates. With
    # it a deletion can be undone in place (Cluster.before).
    order: int = 0

    def of[U: StoredObject](self, kind: builtins.type[U]) -> "Change[U] | None":
        """This change as a change of `kind`, when it is one (a watcher of several kinds sorts them)."""
        try:
            name = _KIND_NAMES[kind]
        except KeyError:
            name = _name(kind)
        return cast("Change[U]", self) if self.kind == name else None

    @property
    def latest(self) -> T:
        """The object as this change leaves it, or as it was when deleted."""
        found = self.new if self.new is not None else self.old
        assert found is not None, "a change has an object before or after it"
        return found

    @property
    def previous(self) -> T:
        """The object before an update or a deletion (an addition has none)."""
        assert self.old is not None, f"{self.type} {self.kind} {self.key} has no object before it"
        return self.old


Watcher = Callable[[Change[StoredObject]], None]
# The store's name of each class of objects: one dict lookup on every read by class (most of a
# controller's work: an isinstance and a getattr on each cost a tenth of a run).
_KIND_NAMES: dict[type | str, str] = {}
_NOTHING: dict[str, StoredObject] = {}


def kind_name(cls: type) -> str:
    """The store's name for a class of objects: its `kind` (Pod, Node...)."""
    return _name(cls)


def _name(kind: type | str) -> str:
    if isinstance(kind, str):
        return kind  # not remembered: names from data (owner references...) are not bounded
    name = _KIND_NAMES.get(kind)
    if name is None:
        name = _KIND_NAMES[kind] = str(getattr(kind, "kind", kind.__name__))
    return name


def uuid4_text(bits: int) -> str:
    """str(uuid.UUID(int=bits, version=4)) without building a UUID (a third of a creation's time):
    the version nibble set to 4 and the variant bits to RFC 4122's, in 8-4-4-4-12 hex."""
    value = (bits & ~(0xC000 << 48) | (0x8000 << 48)) & ~(0xF000 << 64) | (4 << 76)
    text = f"{value:032x}"
    return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"


class ConflictError(Exception):
    """Create of an object that exists, or update/delete of one that does not (409/404)."""


class Cluster:
    """Objects by kind and key. Objects are immutable dataclasses with a `metadata`; an update
    replaces the stored object with a new one."""

    def __init__(
        self,
        clock: Callable[[], float],
        rng: random.Random,
        max_events: int = 1_000_000,
        max_objects: int | None = None,
    ) -> None:
        self._clock = clock
        self._rng = rng
        self._objects: dict[str, dict[str, StoredObject]] = {}
        self._watchers: list[tuple[Watcher, frozenset[str] | None]] = []
        self._watchers_by_kind: dict[str, tuple[Watcher, ...]] = {}
        # Creation numbers (store order): kind -> key -> number, one count over every kind.
        self._created: dict[str, dict[str, int]] = {}
        # Pods by the node they are bound to: node -> pod key -> the pod's creation number (store order).
        self._pods_by_node: dict[str, dict[str, int]] = {}
        self._creations = 0
        self.events: list[Event] = []
        # When a list: every change and event from now on is appended to it, in the order they happen.
        self.journal: list[Change[StoredObject] | Event] | None = None
        self.max_events = max_events
        self.max_objects = max_objects
        self._object_count = 0  # every kind's objects, for max_objects
        self.resource_version = 0
        # Admission: called on every create with the object, returning it (mutated) or raising.
        self.admission: list[Callable[[StoredObject], StoredObject]] = []

    # ------------------------------------------------------------------ reads

    # A kind is named by its class (typed reads) or, where it comes from data (an owner reference,
    # an action's target), by its string: then the reader narrows what it gets.
    @overload
    def get[T: StoredObject](self, kind: type[T], key: str) -> T | None: ...
    @overload
    def get(self, kind: str, key: str) -> StoredObject | None: ...
    def get(self, kind: type | str, key: str) -> StoredObject | None:
        try:
            name = _KIND_NAMES[kind]
        except KeyError:
            name = _name(kind)
        return self._objects.get(name, _NOTHING).get(key)

    @overload
    def objects[T: StoredObject](self, kind: type[T]) -> list[T]: ...
    @overload
    def objects(self, kind: str) -> list[StoredObject]: ...
    def objects(self, kind: type | str) -> list[Any]:  # the overloads above say what callers get
        return list(self._objects.get(_name(kind), _NOTHING).values())

    @overload
    def items[T: StoredObject](self, kind: type[T]) -> Iterator[tuple[str, T]]: ...
    @overload
    def items(self, kind: str) -> Iterator[tuple[str, StoredObject]]: ...
    def items(self, kind: type | str) -> Iterator[tuple[str, Any]]:
        yield from list(self._objects.get(_name(kind), _NOTHING).items())

    def kinds(self) -> list[str]:
        return list(self._objects)

    def count(self, kind: type | str) -> int:
        return len(self._objects.get(_name(kind), _NOTHING))

    def pods_on_node(self, node_name: str) -> list[Pod]:
        """The pods whose spec.nodeName is this node, in store order (as a scan of `objects(Pod)` finds them)."""
        keys = self._pods_by_node.get(node_name)
        if not keys:
            return []
        pods = cast(dict[str, Pod], self._objects["Pod"])
        ordered = sorted(keys.items(), key=_second) if len(keys) > 1 else keys.items()
        return [pods[key] for key, _ in ordered]

    # ------------------------------------------------------------------ writes

    def watch(self, watcher: Watcher, kinds: Iterable[str] | None = None) -> None:
        """Call `watcher` with every change, or with the changes of `kinds` only, after the watchers
        registered before it."""
        self._watchers.append((watcher, frozenset(kinds) if kinds is not None else None))
        self._watchers_by_kind.clear()

    def _watchers_of(self, kind: str) -> tuple[Watcher, ...]:
        watchers = tuple(watcher for watcher, kinds in self._watchers if kinds is None or kind in kinds)
        self._watchers_by_kind[kind] = watchers
        return watchers

    def new_uid(self) -> str:
        """A UUID drawn from the run's seeded generator: the same scenario gets the same uids."""
        return uuid4_text(self._rng.getrandbits(128))

    def create[T: StoredObject](self, obj: T) -> T:
        kind = type_name(obj)
        key = obj.metadata.key
        store = self._objects.get(kind)
        if store is None:
            store = self._objects[kind] = {}
            self._created[kind] = {}
        if key in store:
            raise ConflictError(f'{kind.lower()}s "{obj.metadata.name}" already exists')
        if self.max_objects is not None and self._object_count >= self.max_objects:
            raise SimulationLimitError(f"the cluster holds more than {self.max_objects} objects")
        for admit in self.admission:
            obj = cast(T, admit(obj))  # the object it was given, perhaps mutated
        metadata = obj.metadata
        if metadata.uid:
            metadata = replace(metadata, creation_timestamp=self._clock())
        else:  # one copy, not two: 55,000 creations at the scenario limit
            metadata = replace(metadata, uid=self.new_uid(), creation_timestamp=self._clock())
        obj = _with_metadata(obj, metadata)
        store[key] = obj
        self._object_count += 1
        self._creations += 1
        number = self._creations
        self._created[kind][key] = number
        if isinstance(obj, Pod) and obj.spec.node_name:
            self._pods_by_node.setdefault(obj.spec.node_name, {})[key] = number
        self.resource_version += 1
        self._notify(Change(ChangeType.ADDED, kind, key, None, obj, number))
        return obj

    def update[T: StoredObject](self, obj: T) -> T:
        kind = type_name(obj)
        key = obj.metadata.key
        store = self._objects.get(kind, {})
        old = store.get(key)
        if old is None:
            raise ConflictError(f'{kind.lower()}s "{obj.metadata.name}" not found')
        if old is obj or old == obj:
            return old
        store[key] = obj
        number = self._created[kind][key]
        if isinstance(obj, Pod) and cast(Pod, old).spec.node_name != obj.spec.node_name:
            self._unbind(cast(Pod, old))
            if obj.spec.node_name:
                self._pods_by_node.setdefault(obj.spec.node_name, {})[key] = number
        self.resource_version += 1
        self._notify(Change(ChangeType.MODIFIED, kind, key, old, obj, number))
        return obj

    @overload
    def delete[T: StoredObject](self, kind: type[T], key: str) -> T: ...
    @overload
    def delete(self, kind: str, key: str) -> StoredObject: ...
    def delete(self, kind: type | str, key: str) -> StoredObject:
        kind = _name(kind)
        store = self._objects.get(kind, {})
        old = store.pop(key, None)
        if old is None:
            raise ConflictError(f'{kind.lower()}s "{key}" not found')
        self._object_count -= 1
        number = self._created[kind].pop(key)
        if isinstance(old, Pod):
            self._unbind(old)
        self.resource_version += 1
        self._notify(Change(ChangeType.DELETED, kind, key, old, None, number))
        return old

    def _unbind(self, pod: Pod) -> None:
        node_name = pod.spec.node_name
        if node_name:
            keys = self._pods_by_node.get(node_name)
            if keys is not None:
                keys.pop(pod.metadata.key, None)
                if not keys:
                    del self._pods_by_node[node_name]

    def _notify(self, change: Change[StoredObject]) -> None:
        if self.journal is not None:
            self.journal.append(change)
        watchers = self._watchers_by_kind.get(change.kind)
        if watchers is None:
            watchers = self._watchers_of(change.kind)
        for watcher in watchers:
            watcher(change)

    # ------------------------------------------------------------------ events

    def record(
        self, obj: StoredObject, reason: str, message: str, *, event_type: str = NORMAL, source: str = ""
    ) -> Event:
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
            uid=obj.metadata.uid,
        )
        self.events.append(event)
        if self.journal is not None:
            self.journal.append(event)
        return event

    # ------------------------------------------------------------------ copies

    def before(self, later: Sequence[Change[StoredObject] | Event]) -> "Cluster":
        """A copy of the store as it was before `later`: the latest changes and events it saw, oldest
        first (the tail of a journal). The copy holds that moment's objects in their store order, its
        indexes, counters and events; it has no watchers, no journal and no admission, its clock is
        stopped at this store's present time and its uids come from a copy of the generator: reading
        it or writing to it changes nothing here, and nobody hears of its writes."""
        now = self._clock()
        rng = random.Random()
        rng.setstate(self._rng.getstate())
        copy = Cluster(lambda: now, rng, max_events=self.max_events, max_objects=self.max_objects)
        objects = {kind: dict(store) for kind, store in self._objects.items()}
        created = {kind: dict(numbers) for kind, numbers in self._created.items()}
        events = len(self.events)
        undone = 0
        reordered: set[str] = set()
        for item in reversed(later):
            if isinstance(item, Event):
                events -= 1
                continue
            undone += 1
            store, numbers = objects[item.kind], created[item.kind]
            if item.old is None:  # ADDED
                del store[item.key]
                del numbers[item.key]
            elif item.type is ChangeType.MODIFIED:
                store[item.key] = item.old
            else:
                store[item.key] = item.old
                numbers[item.key] = item.order
                reordered.add(item.kind)
        for kind in reordered:  # a deletion undone puts the object back in its place
            numbers = created[kind]
            objects[kind] = {key: objects[kind][key] for key in sorted(objects[kind], key=numbers.__getitem__)}
        copy._objects = objects
        copy._created = created
        for key, pod in cast(dict[str, Pod], objects.get("Pod", {})).items():
            if pod.spec.node_name:
                copy._pods_by_node.setdefault(pod.spec.node_name, {})[key] = created["Pod"][key]
        copy._creations = self._creations
        copy._object_count = sum(len(store) for store in objects.values())
        copy.resource_version = self.resource_version - undone
        copy.events = self.events[:events]
        return copy


def _with_metadata[T: StoredObject](obj: T, metadata: ObjectMeta) -> T:
    return cast(T, replace(cast(Any, obj), metadata=metadata))  # every stored object is a dataclass


def _second(item: tuple[str, int]) -> int:
    return item[1]


def type_name(obj: Any) -> str:
    explicit = getattr(obj, "kind_name", None)  # stand-ins for objects that do not exist
    if isinstance(explicit, str):
        return explicit
    return str(getattr(type(obj), "kind", type(obj).__name__))


class SimulationLimitError(Exception):
    """A run exceeded a bound that keeps hostile or runaway scenarios from using unbounded time or memory."""
