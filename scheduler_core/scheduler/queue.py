"""The scheduling queue (pkg/scheduler/backend/queue): activeQ, backoffQ and unschedulable pods.

Time is the simulation's clock (seconds as floats), never the wall clock. A pod rejected by plugins
waits in the unschedulable pool until a cluster event that one of its rejecting plugins cares about
happens (upstream's QueueingHints, coarsened to "the event could help": a pod may be retried a
little more often than upstream would, never less), then goes through backoff to activeQ.
"""

import heapq
import itertools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from scheduler_core.api.types import Pod

DEFAULT_POD_INITIAL_BACKOFF = 1.0
DEFAULT_POD_MAX_BACKOFF = 10.0
DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION = 300.0
BACKOFF_FLUSH_INTERVAL = 1.0
UNSCHEDULABLE_FLUSH_INTERVAL = 30.0


class ClusterEvent(StrEnum):
    """The cluster changes that can make an unschedulable pod schedulable (framework.ClusterEvent)."""

    NODE_ADD = "NodeAdd"
    NODE_LABEL_UPDATE = "UpdateNodeLabel"
    NODE_TAINT_UPDATE = "UpdateNodeTaint"
    NODE_ALLOCATABLE_UPDATE = "UpdateNodeAllocatable"
    NODE_CONDITION_UPDATE = "UpdateNodeCondition"
    ASSIGNED_POD_ADD = "AssignedPodAdd"
    ASSIGNED_POD_LABEL_UPDATE = "AssignedPodUpdateLabel"
    ASSIGNED_POD_SCALE_DOWN = "AssignedPodUpdateScaleDown"  # its requests shrank (in-place resize)
    ASSIGNED_POD_DELETE = "AssignedPodDelete"
    POD_UPDATE = "UpdatePod"  # the unschedulable pod itself changed
    NAMESPACE_CHANGE = "NamespaceChange"
    PVC_ADD = "PersistentVolumeClaimAdd"
    PVC_UPDATE = "PersistentVolumeClaimUpdate"
    PV_ADD = "PersistentVolumeAdd"
    PV_UPDATE = "PersistentVolumeUpdate"
    STORAGE_CLASS_ADD = "StorageClassAdd"
    STORAGE_CLASS_UPDATE = "StorageClassUpdate"
    UNSCHEDULABLE_TIMEOUT = "UnschedulableTimeout"
    WILDCARD = "*"


_NODE_ANY = {ClusterEvent.NODE_ADD, ClusterEvent.NODE_LABEL_UPDATE, ClusterEvent.NODE_TAINT_UPDATE}

# Which events each plugin registers (EventsToRegister), by the plugin's upstream name.
PLUGIN_EVENTS: dict[str, frozenset[ClusterEvent]] = {
    "NodeUnschedulable": frozenset({ClusterEvent.NODE_ADD, ClusterEvent.NODE_TAINT_UPDATE, ClusterEvent.POD_UPDATE}),
    "NodeName": frozenset({ClusterEvent.NODE_ADD}),
    "TaintToleration": frozenset({ClusterEvent.NODE_ADD, ClusterEvent.NODE_TAINT_UPDATE, ClusterEvent.POD_UPDATE}),
    "NodeAffinity": frozenset({ClusterEvent.NODE_ADD, ClusterEvent.NODE_LABEL_UPDATE, ClusterEvent.POD_UPDATE}),
    "NodePorts": frozenset({ClusterEvent.NODE_ADD, ClusterEvent.ASSIGNED_POD_DELETE}),
    "NodeResourcesFit": frozenset(
        {
            ClusterEvent.NODE_ADD,
            ClusterEvent.NODE_ALLOCATABLE_UPDATE,
            ClusterEvent.NODE_TAINT_UPDATE,
            ClusterEvent.ASSIGNED_POD_DELETE,
            ClusterEvent.ASSIGNED_POD_SCALE_DOWN,
            ClusterEvent.POD_UPDATE,
        }
    ),
    "PodTopologySpread": frozenset(
        _NODE_ANY
        | {
            ClusterEvent.ASSIGNED_POD_ADD,
            ClusterEvent.ASSIGNED_POD_LABEL_UPDATE,
            ClusterEvent.ASSIGNED_POD_DELETE,
            ClusterEvent.POD_UPDATE,
        }
    ),
    "InterPodAffinity": frozenset(
        {
            ClusterEvent.NODE_ADD,
            ClusterEvent.NODE_LABEL_UPDATE,
            ClusterEvent.ASSIGNED_POD_ADD,
            ClusterEvent.ASSIGNED_POD_LABEL_UPDATE,
            ClusterEvent.ASSIGNED_POD_DELETE,
            ClusterEvent.POD_UPDATE,
            ClusterEvent.NAMESPACE_CHANGE,
        }
    ),
    "SchedulingGates": frozenset({ClusterEvent.POD_UPDATE}),
    "VolumeBinding": frozenset(
        {
            ClusterEvent.NODE_ADD,
            ClusterEvent.NODE_LABEL_UPDATE,
            ClusterEvent.PVC_ADD,
            ClusterEvent.PVC_UPDATE,
            ClusterEvent.PV_ADD,
            ClusterEvent.PV_UPDATE,
            ClusterEvent.STORAGE_CLASS_ADD,
            ClusterEvent.STORAGE_CLASS_UPDATE,
        }
    ),
    "VolumeZone": frozenset(
        _NODE_ANY
        | {
            ClusterEvent.PVC_ADD,
            ClusterEvent.PVC_UPDATE,
            ClusterEvent.PV_ADD,
            ClusterEvent.PV_UPDATE,
            ClusterEvent.STORAGE_CLASS_ADD,
        }
    ),
    "VolumeRestrictions": frozenset({ClusterEvent.NODE_ADD, ClusterEvent.ASSIGNED_POD_DELETE, ClusterEvent.PVC_ADD}),
}


@dataclass(slots=True)
class QueuedPodInfo:
    pod: Pod
    timestamp: float  # when it entered the queue (or was last requeued): PrioritySort's tie-breaker
    initial_attempt_timestamp: float | None = None
    attempts: int = 0
    unschedulable_count: int = 0
    consecutive_errors_count: int = 0
    unschedulable_plugins: set[str] = field(default_factory=set)
    gated: bool = False

    @property
    def key(self) -> str:
        return self.pod.key


def backoff_duration(info: QueuedPodInfo, initial: float, maximum: float) -> float:
    """initial x 2^(count-1), capped at maximum; errors count separately from rejections."""
    count = info.consecutive_errors_count or info.unschedulable_count
    if count == 0:
        return 0.0
    return min(initial * float(2 ** (count - 1)), maximum)


def _window(timestamp: float) -> float:
    """Backoff expirations align to whole seconds (the 1 s ordering window)."""
    return math.floor(timestamp)


class SchedulingQueue:
    def __init__(
        self,
        less: Callable[[QueuedPodInfo, QueuedPodInfo], bool],
        *,
        initial_backoff: float = DEFAULT_POD_INITIAL_BACKOFF,
        max_backoff: float = DEFAULT_POD_MAX_BACKOFF,
        max_in_unschedulable: float = DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION,
        pre_enqueue: Callable[[Pod], bool] | None = None,
    ) -> None:
        self._less = less
        self.initial_backoff = initial_backoff
        self.max_backoff = max_backoff
        self.max_in_unschedulable = max_in_unschedulable
        self._pre_enqueue = pre_enqueue or (lambda pod: True)
        self._counter = itertools.count()
        self._active: list[tuple[_Ordered, int, QueuedPodInfo]] = []
        self._backoff: list[tuple[float, _Ordered, int, QueuedPodInfo]] = []
        # Pods that failed with an error (no plugin rejected them) back off separately and are never
        # popped early: upstream's podErrorBackoffQ (else "no nodes" would spin at one instant).
        self._error_backoff: list[tuple[float, _Ordered, int, QueuedPodInfo]] = []
        self.unschedulable: dict[str, QueuedPodInfo] = {}
        self._where: dict[str, str] = {}  # pod key -> "active" | "backoff" | "unschedulable" | "in-flight"

    # ------------------------------------------------------------------ queries

    def __len__(self) -> int:
        return len(self._where)

    def __contains__(self, key: str) -> bool:
        return key in self._where

    def location(self, key: str) -> str | None:
        return self._where.get(key)

    def active_count(self) -> int:
        return sum(1 for _, _, info in self._active if self._where.get(info.key) == "active")

    def only_errors_backing_off(self) -> bool:
        """Every pod in backoff is there after an error (no node at all...), none moved by an event."""
        return not any(self._where.get(info.key) == "backoff" for _, _, _, info in self._backoff)

    def next_backoff_expiry(self) -> float | None:
        live = [
            expiry
            for heap in (self._backoff, self._error_backoff)
            for expiry, _, _, info in heap
            if self._where.get(info.key) == "backoff"
        ]
        return min(live) if live else None

    # ------------------------------------------------------------------ adding

    def add(self, pod: Pod, now: float) -> None:
        info = QueuedPodInfo(pod, now, initial_attempt_timestamp=None)
        if not self._pre_enqueue(pod):
            info.gated = True
            self._park(info)
            return
        self._push_active(info)

    def update(self, pod: Pod, now: float) -> None:
        """The pod changed (labels, tolerations, gates removed...): it may be schedulable now."""
        key = pod.key
        where = self._where.get(key)
        if where is None:
            self.add(pod, now)
            return
        info = self._find(key)
        if info is None:
            return
        info.pod = pod
        if where == "unschedulable":
            if info.gated:
                if self._pre_enqueue(pod):
                    info.gated = False
                    del self.unschedulable[key]
                    self._push_active(info)
                return
            self._requeue(info, now, [ClusterEvent.POD_UPDATE])

    def delete(self, key: str) -> None:
        self._where.pop(key, None)
        self.unschedulable.pop(key, None)

    def _push_active(self, info: QueuedPodInfo) -> None:
        self._where[info.key] = "active"
        sequence = next(self._counter)
        heapq.heappush(self._active, (_Ordered(info, self._less, sequence), sequence, info))

    def _push_backoff(self, info: QueuedPodInfo) -> None:
        self._where[info.key] = "backoff"
        expiry = _window(info.timestamp + backoff_duration(info, self.initial_backoff, self.max_backoff))
        sequence = next(self._counter)
        heap = (
            self._error_backoff if info.consecutive_errors_count and not info.unschedulable_plugins else self._backoff
        )
        heapq.heappush(heap, (expiry, _Ordered(info, self._less, sequence), sequence, info))

    def _park(self, info: QueuedPodInfo) -> None:
        self._where[info.key] = "unschedulable"
        self.unschedulable[info.key] = info

    def _find(self, key: str) -> QueuedPodInfo | None:
        if key in self.unschedulable:
            return self.unschedulable[key]
        for _, _, info in self._active:
            if info.key == key:
                return info
        for _, _, _, info in self._backoff + self._error_backoff:
            if info.key == key:
                return info
        return None

    # ------------------------------------------------------------------ popping

    def pop(self, now: float) -> QueuedPodInfo | None:
        """The next pod to schedule; with activeQ empty, the head of backoffQ even if still backing
        off (SchedulerPopFromBackoffQ, on by default since v1.33)."""
        while self._active:
            _, _, info = heapq.heappop(self._active)
            if self._where.get(info.key) == "active":
                return self._start(info, now)
        while self._backoff:
            _, _, _, info = heapq.heappop(self._backoff)
            if self._where.get(info.key) == "backoff":
                return self._start(info, now)
        return None

    def _start(self, info: QueuedPodInfo, now: float) -> QueuedPodInfo:
        info.attempts += 1
        if info.initial_attempt_timestamp is None:
            info.initial_attempt_timestamp = now
        self._where[info.key] = "in-flight"
        return info

    def done(self, key: str) -> None:
        """The pod was bound: it leaves the queue."""
        if self._where.get(key) == "in-flight":
            del self._where[key]

    def add_unschedulable(
        self, info: QueuedPodInfo, now: float, rejectors: Iterable[str], *, error: bool = False
    ) -> None:
        """After a failed attempt: back to the unschedulable pool (or backoff, for errors)."""
        if self._where.get(info.key) != "in-flight":
            return  # deleted while being scheduled
        info.timestamp = now
        info.unschedulable_plugins = set(rejectors)
        if error or not info.unschedulable_plugins:
            info.consecutive_errors_count += 1
            self._push_backoff(info)
            return
        info.consecutive_errors_count = 0
        info.unschedulable_count += 1
        self._park(info)

    # ------------------------------------------------------------------ events and flushes

    def move_all_to_active_or_backoff(self, events: Iterable[ClusterEvent], now: float) -> int:
        """A cluster event happened: every parked pod one of whose rejectors cares is requeued."""
        wanted = set(events)
        moved = 0
        for info in list(self.unschedulable.values()):
            if info.gated:
                continue
            if self._requeue(info, now, wanted):
                moved += 1
        return moved

    def _requeue(self, info: QueuedPodInfo, now: float, events: Iterable[ClusterEvent]) -> bool:
        if not _cares(info, set(events)):
            return False
        del self.unschedulable[info.key]
        if self.is_backing_off(info, now):
            self._push_backoff(info)
        else:
            self._push_active(info)
        return True

    def is_backing_off(self, info: QueuedPodInfo, now: float) -> bool:
        expiry = _window(info.timestamp + backoff_duration(info, self.initial_backoff, self.max_backoff))
        return expiry >= _window(now)

    def flush_backoff_completed(self, now: float) -> int:
        moved = 0
        for heap in (self._backoff, self._error_backoff):
            moved += self._flush_heap(heap, now)
        return moved

    def _flush_heap(self, heap: list[tuple[float, "_Ordered", int, QueuedPodInfo]], now: float) -> int:
        moved = 0
        while heap and heap[0][0] < _window(now):
            _, _, _, info = heapq.heappop(heap)
            if self._where.get(info.key) == "backoff":
                self._push_active(info)
                moved += 1
        return moved

    def flush_unschedulable_leftover(self, now: float) -> int:
        stale = [
            info
            for info in self.unschedulable.values()
            if not info.gated and now - info.timestamp > self.max_in_unschedulable
        ]
        for info in stale:
            self._requeue(info, now, [ClusterEvent.UNSCHEDULABLE_TIMEOUT])
        return len(stale)


def _cares(info: QueuedPodInfo, events: set[ClusterEvent]) -> bool:
    """Could one of these events make the pod schedulable? Plugins without a registration care about all."""
    if events & {ClusterEvent.WILDCARD, ClusterEvent.UNSCHEDULABLE_TIMEOUT}:
        return True
    for plugin in info.unschedulable_plugins:
        registered = PLUGIN_EVENTS.get(plugin)
        if registered is None or events & registered:
            return True
    return False


class _Ordered:
    """Adapts the QueueSort plugin's less() to heapq; equal pods keep their insertion order."""

    __slots__ = ("info", "less", "sequence")

    def __init__(
        self, info: QueuedPodInfo, less: Callable[[QueuedPodInfo, QueuedPodInfo], bool], sequence: int
    ) -> None:
        self.info = info
        self.less = less
        self.sequence = sequence

    def __lt__(self, other: "_Ordered") -> bool:
        if self.less(self.info, other.info):
            return True
        if self.less(other.info, self.info):
            return False
        return self.sequence < other.sequence
