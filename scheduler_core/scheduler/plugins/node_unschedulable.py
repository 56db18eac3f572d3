"""NodeUnschedulable: cordoned nodes take only pods that tolerate the unschedulable taint."""

from typing import Any

from scheduler_core.api.types import NO_SCHEDULE, Node, Pod, Taint, tolerates_taint
from scheduler_core.scheduler.cluster_events import (
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    EventResource,
    QueueingHint,
)
from scheduler_core.scheduler.framework import SUCCESS, CycleState, Status, unresolvable
from scheduler_core.scheduler.snapshot import NodeInfo

NAME = "NodeUnschedulable"
ERR_REASON_UNSCHEDULABLE = "node(s) were unschedulable"
UNSCHEDULABLE_TAINT = Taint(key="node.kubernetes.io/unschedulable", effect=NO_SCHEDULE)


def tolerates_unschedulable(pod: Pod) -> bool:
    """A pod that tolerates the unschedulable taint also tolerates spec.unschedulable."""
    return tolerates_taint(pod.spec.tolerations, UNSCHEDULABLE_TAINT)


class NodeUnschedulable:
    name = NAME

    def filter(self, state: CycleState, pod: Pod, node: NodeInfo) -> Status:
        if not node.node.spec.unschedulable or tolerates_unschedulable(pod):
            return SUCCESS
        return unresolvable(ERR_REASON_UNSCHEDULABLE)

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
        """Queue for a node added schedulable, or updated from unschedulable to schedulable."""
        if not isinstance(new, Node) or not isinstance(old, Node | None):
            return QueueingHint.QUEUE  # upstream's hint errors on other objects, and an error queues
        was_unschedulable = True if old is None else old.spec.unschedulable
        if was_unschedulable and not new.spec.unschedulable:
            return QueueingHint.QUEUE
        return QueueingHint.QUEUE_SKIP

    def is_schedulable_after_pod_toleration_change(self, pod: Pod, old: Any, new: Any) -> QueueingHint:
        """Queue when the rejected pod itself now tolerates the unschedulable taint. Tolerations can
        only be added, and a pod this plugin rejected did not tolerate it before, so the old pod
        needs no look."""
        if not isinstance(new, Pod) or not isinstance(old, Pod | None):
            return QueueingHint.QUEUE
        if new.metadata.uid == pod.metadata.uid and tolerates_unschedulable(new):
            return QueueingHint.QUEUE
        return QueueingHint.QUEUE_SKIP
