"""NodeName: a pod with spec.nodeName only fits that node (plugins/nodename)."""

from scheduler_core.api.types import Pod
from scheduler_core.scheduler.framework import SUCCESS, CycleState, Status, unresolvable
from scheduler_core.scheduler.snapshot import NodeInfo

NAME = "NodeName"
ERR_REASON = "node(s) didn't match the requested node name"


class NodeName:
    name = NAME

    def filter(self, state: CycleState, pod: Pod, node: NodeInfo) -> Status:
        if pod.spec.node_name and pod.spec.node_name != node.name:
            return unresolvable(ERR_REASON)
        return SUCCESS
