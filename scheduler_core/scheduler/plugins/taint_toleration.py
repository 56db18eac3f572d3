"""TaintToleration: NoSchedule/NoExecute taints must be tolerated; untolerated PreferNoSchedule
taints lower a node's score (plugins/tainttoleration)."""

from collections.abc import Sequence
from typing import Any

from scheduler_core.api.types import (
    NO_EXECUTE,
    NO_SCHEDULE,
    PREFER_NO_SCHEDULE,
    Node,
    Pod,
    Taint,
    Toleration,
    tolerates_taint,
)
from scheduler_core.scheduler.cluster_events import (
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    EventResource,
    QueueingHint,
)
from scheduler_core.scheduler.framework import SUCCESS, CycleState, NodeScore, Status, unresolvable
from scheduler_core.scheduler.plugins.helpers import default_normalize_score
from scheduler_core.scheduler.snapshot import NodeInfo

NAME = "TaintToleration"
PRE_SCORE_KEY = "PreScore" + NAME


def untolerated_taint_reason(key: str, value: str) -> str:
    return f"node(s) had untolerated taint {{{key}: {value}}}"


def find_untolerated_taint(taints: Sequence[Taint], tolerations: tuple[Toleration, ...]) -> Taint | None:
    """The first NoSchedule or NoExecute taint none of the tolerations tolerates
    (FindMatchingUntoleratedTaint with DoNotScheduleTaintsFilterFunc)."""
    for taint in taints:
        if taint.effect in (NO_SCHEDULE, NO_EXECUTE) and not tolerates_taint(tolerations, taint):
            return taint
    return None


class TaintToleration:
    name = NAME

    def filter(self, state: CycleState, pod: Pod, node: NodeInfo) -> Status:
        taint = find_untolerated_taint(node.node.spec.taints, pod.spec.tolerations)
        if taint is None:
            return SUCCESS
        return unresolvable(untolerated_taint_reason(taint.key, taint.value))

    def events_to_register(self) -> list[ClusterEventWithHint]:
        # Queueing hints on: no UpdateNodeLabel (only needed for preCheck), and the pod's own
        # toleration updates come through Pod/UpdatePodToleration.
        return [
            ClusterEventWithHint(
                ClusterEvent(EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_TAINT),
                self.is_schedulable_after_node_change,
            ),
            ClusterEventWithHint(
                ClusterEvent(EventResource.POD, ActionType.UPDATE_POD_TOLERATIONS),
                self.is_schedulable_after_pod_toleration_change,
            ),
        ]

    def is_schedulable_after_node_change(self, pod: Pod, old: Any, new: Any) -> QueueingHint:
        """Queue when the node went from having a taint the pod does not tolerate (or not existing)
        to having none."""
        if not isinstance(new, Node) or not isinstance(old, Node | None):
            return QueueingHint.QUEUE  # upstream's hint errors on other objects, and an error queues
        tolerations = pod.spec.tolerations
        was_untolerated = old is None or find_untolerated_taint(old.spec.taints, tolerations) is not None
        if was_untolerated and find_untolerated_taint(new.spec.taints, tolerations) is None:
            return QueueingHint.QUEUE
        return QueueingHint.QUEUE_SKIP

    def is_schedulable_after_pod_toleration_change(self, pod: Pod, old: Any, new: Any) -> QueueingHint:
        """Queue when the rejected pod itself got a toleration (any: it may tolerate the taint that
        rejected it); another pod's tolerations never matter to it."""
        if not isinstance(new, Pod) or not isinstance(old, Pod | None):
            return QueueingHint.QUEUE
        return QueueingHint.QUEUE if new.metadata.uid == pod.metadata.uid else QueueingHint.QUEUE_SKIP

    def pre_score(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> Status:
        prefer_no_schedule = tuple(t for t in pod.spec.tolerations if t.effect in ("", PREFER_NO_SCHEDULE))
        state.write(PRE_SCORE_KEY, prefer_no_schedule)
        return SUCCESS

    def score(self, state: CycleState, pod: Pod, node: NodeInfo) -> tuple[int, Status]:
        tolerations: tuple[Toleration, ...] = state.read(PRE_SCORE_KEY)
        if not node.node.spec.taints:
            return 0, SUCCESS
        count = sum(
            1
            for taint in node.node.spec.taints
            if taint.effect == PREFER_NO_SCHEDULE and not tolerates_taint(tolerations, taint)
        )
        return count, SUCCESS

    def normalize_score(self, state: CycleState, pod: Pod, scores: list[NodeScore]) -> Status:
        default_normalize_score(scores, reverse=True)
        return SUCCESS
