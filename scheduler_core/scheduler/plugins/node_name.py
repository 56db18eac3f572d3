"""NodeName: a pod with spec.nodeName only fits that node (plugins/nodename)."""

from scheduler_core.api.types import Pod
from scheduler_core.scheduler.cluster_events import NODE_ADD, ClusterEventWithHint
from scheduler_core.scheduler.framework import SUCCESS, CycleState, Status, unresolvable
from scheduler_core.scheduler.snapshot import NodeInfo

NAME = "NodeName"
ERR_REASON = "node(s) didn't match the requested node name"


def fits(pod: Pod, node: NodeInfo) -> bool:
    """nodename.Fits: no nodeName, or this node's (the kubelet's admission asks it too)."""
    return not pod.spec.node_name or pod.spec.node_name == node.name


class NodeName:
    name = NAME

    def filter(self, state: CycleState, pod: Pod, node: NodeInfo) -> Status:
        return SUCCESS if fits(pod, node) else unresolvable(ERR_REASON)

    def events_to_register(self) -> list[ClusterEventWithHint]:
        # Only a new node can be the one the pod names; no hint, so every node added queues the pod.
        return [ClusterEventWithHint(NODE_ADD)]
