"""The scheduling queue (pkg/scheduler/backend/queue): activeQ, backoffQ and unschedulable pods.

Time is the simulation's clock (seconds as floats), never the wall clock. A pod rejected by plugins
waits in the unschedulable pool until a cluster event happens that one of its rejecting plugins
registered and whose QueueingHint says it may help this pod (cluster_events.py), then goes through
backoff to activeQ. Events that happen while a pod is in flight (from its pop to the end of its
scheduling cycle) are kept and looked at when it comes back (determineSchedulingHintForInFlightPod);
its binding cycle is not in flight (queue.Done() before PreBind since v1.33): a pod that fails there
backs off as after an error.
"""

import heapq
import itertools
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from scheduler_core.api.types import Pod
from scheduler_core.scheduler.cluster_events import (
    UNSCHEDULABLE_TIMEOUT,
    ClusterEvent,
    PluginHint,
    QueueingHint,
    QueueingHintMap,
    pod_scheduling_properties_change,
)

DEFAULT_POD_INITIAL_BACKOFF = 1.0
DEFAULT_POD_MAX_BACKOFF = 10.0
DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION = 300.0
BACKOFF_FLUSH_INTERVAL = 1.0
UNSCHEDULABLE_FLUSH_INTERVAL = 30.0


class Strategy(Enum):
    """queueingStrategy: where an event sends a parked pod."""

    SKIP = 0
    AFTER_BACKOFF = 1
    IMMEDIATELY = 2


@dataclass(slots=True)
class QueuedPodInfo:
    pod: Pod
    timestamp: float  # when it entered the queue (or was last requeued): PrioritySort's tie-breaker
    initial_attempt_timestamp: float | None = None
    attempts: int = 0
    unschedulable_count: int = 0
    consecutive_errors_count: int = 0
    unschedulable_plugins: set[str] = field(default_factory=set)
    pending_plugins: set[str] = field(default_factory=set)  # rejected with Pending: a Queue skips backoff
    gating_plugin: str = ""  # the PreEnqueue plugin holding the pod back

    @property
    def key(self) -> str:
        return self.pod.key

    @property
    def gated(self) -> bool:
        return bool(self.gating_plugin)


def backoff_duration(info: QueuedPodInfo, initial: float, maximum: float) -> float:
    """initial x 2^(count-1), capped at maximum; errors count separately from rejections."""
    count = info.consecutive_errors_count or info.unschedulable_count
    if count == 0:
        return 0.0
    return min(initial * float(2 ** (count - 1)), maximum)


def _window(timestamp: float) -> float:
    """Backoff expirations align to whole seconds (the 1 s ordering window)."""
    return math.floor(timestamp)


EventRecord = tuple[ClusterEvent, Any, Any]  # an event with its old and new object
# PreEnqueue: the name of the plugin that holds the pod back, or "" when none does.
PreEnqueue = Callable[[Pod], str]
# A MoveAllToActiveOrBackoffQueue pre-check: only parked pods it accepts are considered.
PreCheck = Callable[[Pod], bool]


class SchedulingQueue:
    def __init__(
        self,
        less: Callable[[QueuedPodInfo, QueuedPodInfo], bool],
        *,
        initial_backoff: float = DEFAULT_POD_INITIAL_BACKOFF,
        max_backoff: float = DEFAULT_POD_MAX_BACKOFF,
        max_in_unschedulable: float = DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION,
        pre_enqueue: PreEnqueue | None = None,
        hint_maps: Mapping[str, QueueingHintMap] | None = None,
    ) -> None:
        self._less = less
        self.initial_backoff = initial_backoff
        self.max_backoff = max_backoff
        self.max_in_unschedulable = max_in_unschedulable
        self._pre_enqueue = pre_enqueue or (lambda pod: "")
        # By scheduler name: event -> the hints of the plugins that registered it. A pod whose
        # profile has no map (a queue used without cluster events) is requeued by any event.
        self._hint_maps: Mapping[str, QueueingHintMap] = hint_maps or {}
        self._counter = itertools.count()
        self._active: list[tuple[_Ordered, int, QueuedPodInfo]] = []
        self._backoff: list[tuple[float, _Ordered, int, QueuedPodInfo]] = []
        # Pods that failed with an error (no plugin rejected them) back off separately and are never
        # popped early: upstream's podErrorBackoffQ (else "no nodes" would spin at one instant).
        self._error_backoff: list[tuple[float, _Ordered, int, QueuedPodInfo]] = []
        self.unschedulable: dict[str, QueuedPodInfo] = {}
        # pod key -> "active" | "backoff" | "unschedulable" | "in-flight" | "binding"
        self._where: dict[str, str] = {}
        self._in_flight_events: dict[str, list[EventRecord]] = {}  # popped pod -> events since
        self._matching: dict[tuple[str, ClusterEvent], _Matching | None] = {}

    # ------------------------------------------------------------------ queries

    def __len__(self) -> int:
        return len(self._where)

    def __contains__(self, key: str) -> bool:
        return key in self._where

    def location(self, key: str) -> str | None:
        return self._where.get(key)

    def waiting(self) -> bool:
        """Some pod is parked or in flight: a cluster event may concern it."""
        return bool(self.unschedulable or self._in_flight_events)

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
        self._move_to_active(QueuedPodInfo(pod, now, initial_attempt_timestamp=None))

    def update(self, pod: Pod, now: float, old: Pod | None = None) -> None:
        """The pod changed. In activeQ or backoffQ it is updated in place; parked, each of its
        changes (PodSchedulingPropertiesChange) is offered to its rejecting plugins' hints."""
        key = pod.key
        where = self._where.get(key)
        if where is None:
            self.add(pod, now)
            return
        if where == "binding":
            return  # an assumed pod's updates are not the queue's (updatePodInSchedulingQueue)
        events = pod_scheduling_properties_change(pod, old) if old is not None else []
        if where == "in-flight":
            for records in self._in_flight_events.values():
                records.extend((event, old, pod) for event in events)
            return
        info = self._find(key)
        if info is None:
            return
        info.pod = pod
        if where != "unschedulable":
            return
        if old is None:  # no before-image: treat as a change any plugin may care about
            self._requeue(info, now, Strategy.AFTER_BACKOFF)
            return
        for event in events:
            strategy = self._worth_requeuing(info, event, old, pod)
            if self._requeue(info, now, strategy) != "unschedulable":
                break

    def delete(self, key: str) -> None:
        self._where.pop(key, None)
        self.unschedulable.pop(key, None)
        self._in_flight_events.pop(key, None)

    def _move_to_active(self, info: QueuedPodInfo) -> bool:
        """moveToActiveQ: PreEnqueue first; a gated pod is parked instead (and keeps its place if
        already parked)."""
        if self._gate(info):
            return False
        self.unschedulable.pop(info.key, None)
        self._push_active(info)
        return True

    def _gate(self, info: QueuedPodInfo) -> bool:
        """runPreEnqueuePlugins: a plugin that holds the pod back parks it, named as its rejector."""
        gate = self._pre_enqueue(info.pod)
        info.gating_plugin = gate
        if not gate:
            return False
        info.unschedulable_plugins.add(gate)
        self._park(info)
        return True

    def _push_active(self, info: QueuedPodInfo) -> None:
        self._where[info.key] = "active"
        sequence = next(self._counter)
        heapq.heappush(self._active, (_Ordered(info, self._less, sequence), sequence, info))

    def _push_backoff(self, info: QueuedPodInfo) -> None:
        self.unschedulable.pop(info.key, None)
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
        self._in_flight_events[info.key] = []
        return info

    def binding(self, key: str) -> None:
        """The pod's binding cycle starts (after Reserve): Done() for the in-flight events, though
        the pod stays the queue's until it is bound or comes back."""
        self._in_flight_events.pop(key, None)
        if self._where.get(key) == "in-flight":
            self._where[key] = "binding"

    def done(self, key: str) -> None:
        """The pod was bound: it leaves the queue."""
        self._in_flight_events.pop(key, None)
        if self._where.get(key) in ("in-flight", "binding"):
            del self._where[key]

    def add_unschedulable(
        self,
        info: QueuedPodInfo,
        now: float,
        rejectors: Iterable[str],
        *,
        error: bool = False,
        pending: Iterable[str] = (),
    ) -> None:
        """AddUnschedulableIfNotPresent, after a failed attempt: the events seen while the pod was
        in flight decide whether it is parked or goes straight back (errors always back off)."""
        if self._where.get(info.key) not in ("in-flight", "binding"):
            return  # deleted while being scheduled
        seen = self._in_flight_events.pop(info.key, [])
        info.timestamp = now
        info.unschedulable_plugins = set() if error else set(rejectors)
        info.pending_plugins = set() if error else set(pending)
        if not info.unschedulable_plugins and not info.pending_plugins:
            info.consecutive_errors_count += 1
            self._push_backoff(info)
            return
        info.consecutive_errors_count = 0
        info.unschedulable_count += 1
        self._requeue(info, now, self._hint_for_in_flight(info, seen))

    def _hint_for_in_flight(self, info: QueuedPodInfo, seen: list[EventRecord]) -> Strategy:
        strategy = Strategy.SKIP
        for event, old, new in seen:
            verdict = self._worth_requeuing(info, event, old, new)
            if verdict is Strategy.IMMEDIATELY:
                return verdict
            if verdict is Strategy.AFTER_BACKOFF:
                strategy = verdict
                if not info.pending_plugins:
                    return strategy
        return strategy

    # ------------------------------------------------------------------ events and flushes

    def move_all_to_active_or_backoff(
        self, event: ClusterEvent, now: float, old: Any = None, new: Any = None, pre_check: PreCheck | None = None
    ) -> int:
        """MoveAllToActiveOrBackoffQueue: offer the event to every parked pod (that pre_check
        accepts) and to every pod in flight; returns how many parked pods moved."""
        if not self._of_interest(event):
            return 0
        moved = 0
        by_profile: dict[str, _Matching | None] = {}  # every parked pod of a profile asks the same
        wildcard = event.is_wildcard
        for info in list(self.unschedulable.values()):
            name = info.pod.spec.scheduler_name
            matching = (
                by_profile[name]
                if name in by_profile
                else by_profile.setdefault(name, self._matching_hints(name, event))
            )
            rejectors = info.unschedulable_plugins
            if (
                matching is not None
                and not wildcard
                and rejectors
                and rejectors.isdisjoint(matching.plugins)
                and info.pending_plugins.isdisjoint(matching.plugins)
            ):
                continue  # none of its rejectors registered the event: no hint to ask
            if pre_check is not None and not pre_check(info.pod):
                continue
            if info.gating_plugin and not self._gate_cares(info, event):
                continue
            strategy = self._decide(info, event, old, new, matching)
            if strategy is Strategy.SKIP:
                continue
            if self._requeue(info, now, strategy) != "unschedulable":
                moved += 1
        for records in self._in_flight_events.values():
            records.append((event, old, new))
        return moved

    def _of_interest(self, event: ClusterEvent) -> bool:
        """isEventOfInterest: some plugin of some profile registered the event."""
        if event.is_wildcard or not self._hint_maps:
            return True
        return any(
            matching is None or matching.entries
            for matching in (self._matching_hints(name, event) for name in self._hint_maps)
        )

    def _gate_cares(self, info: QueuedPodInfo, event: ClusterEvent) -> bool:
        hints = self._hint_maps.get(info.pod.spec.scheduler_name)
        if hints is None:
            return True
        return any(
            registered.matches(event) and any(entry.plugin == info.gating_plugin for entry in entries)
            for registered, entries in hints.items()
        )

    def _worth_requeuing(self, info: QueuedPodInfo, event: ClusterEvent, old: Any, new: Any) -> Strategy:
        """isPodWorthRequeuing: ask the hints of the plugins that rejected the pod."""
        return self._decide(info, event, old, new, self._matching_hints(info.pod.spec.scheduler_name, event))

    def _decide(
        self, info: QueuedPodInfo, event: ClusterEvent, old: Any, new: Any, matching: "_Matching | None"
    ) -> Strategy:
        """A Queue from a plugin that left the pod Pending skips backoff; one from a rejecting
        plugin waits it out; no Queue leaves the pod parked."""
        rejectors = info.unschedulable_plugins | info.pending_plugins
        if not rejectors:
            return Strategy.AFTER_BACKOFF
        if event.is_wildcard:
            # A wildcard naming one pod (ForceActivate) is for that pod only.
            if new is not None and (not isinstance(new, Pod) or new.metadata.uid != info.pod.metadata.uid):
                return Strategy.SKIP
            return Strategy.AFTER_BACKOFF
        if matching is None:
            return Strategy.AFTER_BACKOFF  # a profile without a hint map
        strategy = Strategy.SKIP
        for entry in matching.entries:
            if entry.plugin not in rejectors:
                continue
            if entry.hint(info.pod, old, new) is QueueingHint.QUEUE_SKIP:
                continue
            if entry.plugin in info.pending_plugins:
                return Strategy.IMMEDIATELY
            if not info.pending_plugins:
                return Strategy.AFTER_BACKOFF
            strategy = Strategy.AFTER_BACKOFF
        return strategy

    def _matching_hints(self, scheduler_name: str, event: ClusterEvent) -> "_Matching | None":
        """The hints registered for events that match this one, in registration order (None for a
        profile without a map); remembered per event."""
        key = (scheduler_name, event)
        if key not in self._matching:
            hints = self._hint_maps.get(scheduler_name)
            self._matching[key] = None if hints is None else _Matching(_entries_matching(hints, event))
        return self._matching[key]

    def _requeue(self, info: QueuedPodInfo, now: float, strategy: Strategy) -> str:
        """requeuePodWithQueueingStrategy: where the pod went ("unschedulable", "backoff", "active")."""
        if strategy is Strategy.SKIP:
            self._park(info)
            return "unschedulable"
        if strategy is Strategy.AFTER_BACKOFF and self.is_backing_off(info, now):
            # PreEnqueue runs on entering backoffQ (it is skipped when the pod leaves it).
            if self._gate(info):
                return "unschedulable"
            self._push_backoff(info)
            return "backoff"
        return "active" if self._move_to_active(info) else "unschedulable"

    def is_backing_off(self, info: QueuedPodInfo, now: float) -> bool:
        if not info.unschedulable_count and not info.consecutive_errors_count:
            return False  # never tried (a pod whose gates were just removed)
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
        """Pods parked longer than podMaxInUnschedulablePodsDuration move on UnschedulableTimeout."""
        stale = [info for info in self.unschedulable.values() if now - info.timestamp > self.max_in_unschedulable]
        moved = 0
        for info in stale:
            if info.gated:
                continue  # the timeout does not interest a gating plugin
            if self._requeue(info, now, Strategy.AFTER_BACKOFF) != "unschedulable":
                moved += 1
        if stale:
            for records in self._in_flight_events.values():
                records.append((UNSCHEDULABLE_TIMEOUT, None, None))
        return moved


class _Matching:
    """A profile's hints for one incoming event, and the plugins they belong to."""

    __slots__ = ("entries", "plugins")

    def __init__(self, entries: tuple[PluginHint, ...]) -> None:
        self.entries = entries
        self.plugins = frozenset(entry.plugin for entry in entries)


def _entries_matching(hints: QueueingHintMap, event: ClusterEvent) -> tuple[PluginHint, ...]:
    return tuple(entry for registered, entries in hints.items() if registered.matches(event) for entry in entries)


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
