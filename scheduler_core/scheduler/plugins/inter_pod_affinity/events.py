"""InterPodAffinity's EventsToRegister and QueueingHints (interpodaffinity/plugin.go, v1.34 with
SchedulerQueueingHints on): which pod and node changes may let a pod this plugin rejected fit now.

The hints read only the pod's own required terms, as upstream builds them there (GetAffinityTerms):
the namespaceSelector is not merged into names and is matched against no labels (terms.unmerged_term),
and existing pods' anti-affinity towards the pod is not looked at. Terms are kept per pod version,
as hints run for every parked pod on every pod and node event.
"""

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
from scheduler_core.scheduler.plugins.inter_pod_affinity.filtering import matches_all
from scheduler_core.scheduler.plugins.inter_pod_affinity.terms import terms_error, unmerged_term
from scheduler_core.scheduler.snapshot import PodInfo

QUEUE, SKIP = QueueingHint.QUEUE, QueueingHint.QUEUE_SKIP

POD_ACTIONS = ActionType.ADD | ActionType.UPDATE_POD_LABEL | ActionType.DELETE
# With queueing hints on there is no preCheck, so no UpdateNodeTaint (the framework still adds it
# for every plugin registering Node/Add: buildQueueingHintMap's mitigation for kubernetes#109437).
NODE_ACTIONS = ActionType.ADD | ActionType.UPDATE_NODE_LABEL

_CACHE_LIMIT = 1 << 16  # pods remembered; past it the cache starts over


def events_to_register(pod_hint: QueueingHintFn, node_hint: QueueingHintFn) -> list[ClusterEventWithHint]:
    return [
        ClusterEventWithHint(ClusterEvent(EventResource.POD, POD_ACTIONS), pod_hint),
        ClusterEventWithHint(ClusterEvent(EventResource.NODE, NODE_ACTIONS), node_hint),
    ]


class RequiredTerms:
    """A pod's required affinity and anti-affinity terms as the hints read them."""

    __slots__ = ("affinity", "affinity_keys", "anti_affinity", "anti_affinity_keys", "broken")

    def __init__(self, pod: Pod) -> None:
        info = PodInfo(pod)
        affinity, anti_affinity = info.required_affinity_terms, info.required_anti_affinity_terms
        # GetAffinityTerms fails on a selector that does not parse; the hint then queues.
        self.broken = terms_error(affinity) is not None or terms_error(anti_affinity) is not None
        self.affinity = tuple(unmerged_term(term) for term in affinity)
        self.anti_affinity = tuple(unmerged_term(term) for term in anti_affinity)
        # Terms sharing a topology key answer the node hint alike: each key is looked at once.
        self.affinity_keys = tuple(dict.fromkeys(term.topology_key for term in self.affinity))
        self.anti_affinity_keys = tuple(dict.fromkeys(term.topology_key for term in self.anti_affinity))


class RequiredTermsByPod:
    """RequiredTerms per pod, kept while the pod object stays the same."""

    __slots__ = ("_entries",)

    def __init__(self) -> None:
        self._entries: dict[str, tuple[Pod, RequiredTerms]] = {}

    def get(self, pod: Pod) -> RequiredTerms:
        entry = self._entries.get(pod.key)
        if entry is not None and entry[0] is pod:
            return entry[1]
        found = RequiredTerms(pod)
        if len(self._entries) >= _CACHE_LIMIT:
            self._entries.clear()
        self._entries[pod.key] = (pod, found)
        return found


def _typed(kind: type, old: Any, new: Any) -> bool:
    """util.As: each side is missing or of the kind, and one is there (anything else is an error: Queue)."""
    return (old is not None or new is not None) and all(side is None or isinstance(side, kind) for side in (old, new))


def after_pod_change(pod: Pod, old: Any, new: Any, terms: RequiredTermsByPod) -> QueueingHint:
    """isSchedulableAfterPodChange, for assigned pods only: one added that matches every affinity
    term, one updated into matching them all or out of matching every anti-affinity term, or one
    deleted that matched every anti-affinity term."""
    if not _typed(Pod, old, new):
        return QUEUE
    if (new is not None and not new.spec.node_name) or (old is not None and not old.spec.node_name):
        return SKIP
    required = terms.get(pod)
    if required.broken:
        return QUEUE
    if old is not None and new is not None:
        if not matches_all(required.affinity, old) and matches_all(required.affinity, new):
            return QUEUE  # now matches every affinity term
        no_longer_repels = matches_all(required.anti_affinity, old) and not matches_all(required.anti_affinity, new)
        return QUEUE if no_longer_repels else SKIP
    if new is not None:
        return QUEUE if matches_all(required.affinity, new) else SKIP
    return QUEUE if matches_all(required.anti_affinity, old) else SKIP


def after_node_change(pod: Pod, old: Any, new: Any, terms: RequiredTermsByPod) -> QueueingHint:
    """isSchedulableAfterNodeChange: for affinity, a node added with a term's topology key, or one
    that gained the key or changed its value; for anti-affinity, any node added, or one that lost a
    term's key or changed its value."""
    if not _typed(Node, old, new) or new is None:
        return QUEUE  # Node/Delete is not registered: upstream would fail on the missing node
    required = terms.get(pod)
    if required.broken:
        return QUEUE
    after = new.labels
    if old is None:
        if any(key in after for key in required.affinity_keys) or required.anti_affinity_keys:
            return QUEUE
        return SKIP
    before = old.labels
    for key in required.affinity_keys:
        if key in after and before.get(key) != after[key]:  # gained the key, or its value changed
            return QUEUE
    for key in required.anti_affinity_keys:
        if key in before and before[key] != after.get(key):  # lost the key, or its value changed
            return QUEUE
    return SKIP
