"""NodeUnschedulable: cordoned nodes take only pods that tolerate the unschedulable taint."""

from scheduler_core.api.types import NO_SCHEDULE, Pod, Taint, tolerates_taint
from scheduler_core.scheduler.framework import SUCCESS, CycleState, Status, unresolvable
from scheduler_core.scheduler.snapshot import NodeInfo

NAME = "NodeUnschedulable"
ERR_REASON_UNSCHEDULABLE = "node(s) were unschedulable"
UNSCHEDULABLE_TAINT = Taint(key="node.kubernetes.io/unschedulable", effect=NO_SCHEDULE)


class NodeUnschedulable:
    name = NAME

    def filter(self, state: CycleState, pod: Pod, node: NodeInfo) -> Status:
        if not node.node.spec.unschedulable:
            return SUCCESS
        if tolerates_taint(pod.spec.tolerations, UNSCHEDULABLE_TAINT):
            return SUCCESS
        return unresolvable(ERR_REASON_UNSCHEDULABLE)
