"""PodTopologySpread's EventsToRegister and QueueingHints (podtopologyspread/plugin.go, v1.34 with
SchedulerQueueingHints on): which pod and node changes may let a pod this plugin rejected fit now.

Both hints read the pod's DoNotSchedule constraints as PreFilter builds them (getConstraints). They
are kept per pod version here, as hints run for every parked pod on every pod and node event.
"""

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scheduler_core.api.types import Node, Pod
from scheduler_core.scheduler.cluster_events import (
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    EventResource,
    QueueingHint,
    QueueingHintFn,
)
from scheduler_core.scheduler.plugins.pod_topology_spread.common import SpreadConstraint, node_has_keys
from scheduler_core.scheduler.selector_source import SelectorSource

QUEUE, SKIP = QueueingHint.QUEUE, QueueingHint.QUEUE_SKIP

# With queueing hints on, a new toleration of the pod itself matters too (NodeTaintsPolicy: Honor).
POD_ACTIONS = ActionType.ADD | ActionType.UPDATE_POD_LABEL | ActionType.UPDATE_POD_TOLERATIONS | ActionType.DELETE
NODE_ACTIONS = ActionType.ADD | ActionType.DELETE | ActionType.UPDATE_NODE_LABEL | ActionType.UPDATE_NODE_TAINT

_CACHE_LIMIT = 1 << 16  # pods remembered; past it the cache starts over


def events_to_register(pod_hint: QueueingHintFn, node_hint: QueueingHintFn) -> list[ClusterEventWithHint]:
    return [
        ClusterEventWithHint(ClusterEvent(EventResource.POD, POD_ACTIONS), pod_hint),
        ClusterEventWithHint(ClusterEvent(EventResource.NODE, NODE_ACTIONS), node_hint),
    ]


class HardConstraints:
    """A pod's DoNotSchedule constraints with what the hints ask of them, worked out once."""

    __slots__ = ("constraints", "honors_taints", "keys")

    def __init__(self, constraints: Sequence[SpreadConstraint]) -> None:
        self.constraints = tuple(constraints)
        self.keys = tuple(constraint.topology_key for constraint in constraints)
        # hasConstraintWithNodeTaintsPolicyHonor
        self.honors_taints = any(constraint.honor_node_taints for constraint in constraints)

    def any_selects(self, labels: Mapping[str, str]) -> bool:
        """podLabelsMatchSpreadConstraints: some constraint's selector matches the labels."""
        return any(constraint.matches(labels) for constraint in self.constraints)

    def selection_changed(self, before: Mapping[str, str], after: Mapping[str, str]) -> bool:
        """Some constraint's selector matches one of the two label sets and not the other."""
        return any(constraint.matches(before) != constraint.matches(after) for constraint in self.constraints)

    def topology_changed(self, before: Mapping[str, str], after: Mapping[str, str]) -> bool:
        """checkTopologyKeyLabelsChanged: a missing key reads as the empty value."""
        return any(before.get(key, "") != after.get(key, "") for key in self.keys)


class HardConstraintsByPod:
    """HardConstraints per pod, kept while the pod object stays the same. A pod that spreads by the
    default constraints also depends on the Services and controllers deducing its selector, so its
    entry holds for one list of selector sources only (the controller replaces the list on a change)."""

    __slots__ = ("_entries",)

    def __init__(self) -> None:
        self._entries: dict[str, tuple[Pod, Sequence[SelectorSource] | None, HardConstraints]] = {}

    def get(
        self, pod: Pod, sources: Sequence[SelectorSource], build: Callable[[Pod], Sequence[SpreadConstraint]]
    ) -> HardConstraints:
        entry = self._entries.get(pod.key)
        if entry is not None and entry[0] is pod and (entry[1] is None or entry[1] is sources):
            return entry[2]
        found = HardConstraints(build(pod))
        if len(self._entries) >= _CACHE_LIMIT:
            self._entries.clear()
        self._entries[pod.key] = (pod, None if pod.spec.topology_spread_constraints else sources, found)
        return found


def _typed(kind: type, old: Any, new: Any) -> bool:
    """util.As: each side is missing or of the kind, and one is there (anything else is an error: Queue)."""
    return (old is not None or new is not None) and all(side is None or isinstance(side, kind) for side in (old, new))


def _involved(other: Pod, pod: Pod) -> bool:
    """involvedInTopologySpreading: the pod itself, or a pod bound to a node in its namespace."""
    return other.metadata.uid == pod.metadata.uid or (bool(other.spec.node_name) and other.namespace == pod.namespace)


def after_pod_change(pod: Pod, old: Any, new: Any, constraints_of: Callable[[Pod], HardConstraints]) -> QueueingHint:
    """isSchedulableAfterPodChange: an assigned pod of the namespace that the constraints select came
    or went, or changed labels so that some selector's verdict flipped; or the pod itself changed such
    labels or got a toleration while a constraint honours taints."""
    if not _typed(Pod, old, new):
        return QUEUE
    if (new is not None and not _involved(new, pod)) or (old is not None and not _involved(old, pod)):
        return SKIP
    hard = constraints_of(pod)
    if old is not None and new is not None:
        if new.metadata.uid == pod.metadata.uid and new.spec.tolerations != old.spec.tolerations and hard.honors_taints:
            return QUEUE
        if new.labels == old.labels:
            return SKIP
        return QUEUE if hard.selection_changed(old.labels, new.labels) else SKIP
    changed: Pod = new if new is not None else old
    return QUEUE if hard.any_selects(changed.labels) else SKIP


def after_node_change(pod: Pod, old: Any, new: Any, constraints_of: Callable[[Pod], HardConstraints]) -> QueueingHint:
    """isSchedulableAfterNodeChange: a node carrying every topology key came or went, gained or lost
    one of the keys, or (still carrying them all) moved domain or changed taints."""
    if not _typed(Node, old, new):
        return QUEUE
    hard = constraints_of(pod)
    was_eligible = old is not None and node_has_keys(old.labels, hard.keys)
    is_eligible = new is not None and node_has_keys(new.labels, hard.keys)
    if old is not None and new is not None:
        if was_eligible != is_eligible:
            return QUEUE
        moved = hard.topology_changed(old.labels, new.labels) or old.spec.taints != new.spec.taints
        return QUEUE if is_eligible and moved else SKIP
    return QUEUE if (is_eligible if new is not None else was_eligible) else SKIP
