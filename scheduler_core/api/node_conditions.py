"""A node's status.conditions as its kubelet and the node lifecycle controller write them (v1.34).

The kubelet's status setters (pkg/kubelet/nodestatus/setters.go) post MemoryPressure, DiskPressure,
PIDPressure and Ready, in that order (Ready last). Every post renews each one's lastHeartbeatTime;
a condition's lastTransitionTime moves only when its status flips. Once a kubelet has posted
nothing for the node monitor grace period, the node lifecycle controller (tryUpdateNodeHealth)
turns each of the four that is not Unknown yet to Unknown, NodeStatusUnknown "Kubelet stopped
posting node status.", its lastTransitionTime now and the kubelet's last heartbeat kept.

`NodeStatus.ready` is the Ready condition's status being True: the writers here keep both in step.
A node stores no condition until one is written (`NodeStatus.conditions` is ()): its kubelet posted
the healthy four when the node was created, and `node_conditions` lists them so. The kubelet's
periodic re-posts of an unchanged status (every nodeStatusReportFrequency, 5 minutes) are not
simulated, being updates nobody reacts to: a heartbeat is the last post that changed something.
"""

from collections.abc import Mapping
from dataclasses import dataclass, replace

from scheduler_core.api.types import NODE_CONDITION_HEALTHY_STATUS, Node, NodeCondition

# The taint the node lifecycle controller keeps while MemoryPressure is True (doNoScheduleTaintingPass).
TAINT_NODE_MEMORY_PRESSURE = "node.kubernetes.io/memory-pressure"

READY = "Ready"
MEMORY_PRESSURE = "MemoryPressure"
DISK_PRESSURE = "DiskPressure"
PID_PRESSURE = "PIDPressure"
UNKNOWN = "Unknown"
KUBELET_CONDITIONS = tuple(NODE_CONDITION_HEALTHY_STATUS)  # the setters' order


@dataclass(frozen=True, slots=True)
class ConditionState:
    """What a writer sets of a condition: its status and why, in upstream's words."""

    status: str
    reason: str
    message: str


# The kubelet's setters.
KUBELET_READY = ConditionState("True", "KubeletReady", "kubelet is posting ready status")
SUFFICIENT_MEMORY = ConditionState("False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available")
INSUFFICIENT_MEMORY = ConditionState(
    "True", "KubeletHasInsufficientMemory", "kubelet has insufficient memory available"
)
NO_DISK_PRESSURE = ConditionState("False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure")
SUFFICIENT_PID = ConditionState("False", "KubeletHasSufficientPID", "kubelet has sufficient PID available")
HEALTHY: Mapping[str, ConditionState] = {
    MEMORY_PRESSURE: SUFFICIENT_MEMORY,
    DISK_PRESSURE: NO_DISK_PRESSURE,
    PID_PRESSURE: SUFFICIENT_PID,
    READY: KUBELET_READY,
}
# The node lifecycle controller's, for a kubelet gone quiet.
NODE_STATUS_UNKNOWN = ConditionState(UNKNOWN, "NodeStatusUnknown", "Kubelet stopped posting node status.")


def node_conditions(node: Node) -> tuple[NodeCondition, ...]:
    """status.conditions as the API shows them: the ones written, in their order, then those of the
    kubelet's four not written yet, as it posted them healthy at the node's creation. Ready follows
    `ready` should the two disagree (an object changed by hand): Unknown when not ready."""
    written = node.status.conditions
    created = node.metadata.creation_timestamp
    present = {condition.type for condition in written}
    missing = (_condition(kind, HEALTHY[kind], created, created) for kind in KUBELET_CONDITIONS if kind not in present)
    return tuple(_agreeing(condition, node.status.ready) for condition in (*written, *missing))


def _condition(kind: str, state: ConditionState, heartbeat: float | None, since: float | None) -> NodeCondition:
    return NodeCondition(kind, state.status, state.reason, state.message, heartbeat, since)


def _agreeing(condition: NodeCondition, ready: bool) -> NodeCondition:
    if condition.type != READY or (condition.status == "True") == ready:
        return condition
    state = KUBELET_READY if ready else NODE_STATUS_UNKNOWN
    return _condition(READY, state, condition.last_heartbeat_time, None)


def condition_of(node: Node, kind: str) -> NodeCondition | None:
    return next((condition for condition in node_conditions(node) if condition.type == kind), None)


def has_condition(node: Node, kind: str) -> bool:
    """The condition is True (MemoryPressure True: the node is under memory pressure)."""
    condition = condition_of(node, kind)
    return condition is not None and condition.status == "True"


def with_kubelet_post(node: Node, now: float, states: Mapping[str, ConditionState]) -> Node:
    """The node once its kubelet has posted its status: the conditions named in `states` take those
    (their lastTransitionTime moves to now when their status flips), and each of the kubelet's
    four its heartbeat now."""
    posted = []
    for condition in node_conditions(node):
        if condition.type in KUBELET_CONDITIONS:
            state = states.get(condition.type)
            if state is None or (state.status, state.reason, state.message) == _state(condition):
                condition = replace(condition, last_heartbeat_time=now)
            else:
                since = condition.last_transition_time if state.status == condition.status else now
                condition = _condition(condition.type, state, now, since)
        posted.append(condition)
    return _with_conditions(node, posted)


def with_kubelet_stopped(node: Node, now: float) -> Node:
    """tryUpdateNodeHealth past the grace period: the kubelet's four Unknown, heartbeats kept."""
    marked = [
        _condition(c.type, NODE_STATUS_UNKNOWN, c.last_heartbeat_time, now)
        if c.type in KUBELET_CONDITIONS and c.status != UNKNOWN
        else c
        for c in node_conditions(node)
    ]
    return _with_conditions(node, marked)


def _state(condition: NodeCondition) -> tuple[str, str, str]:
    return condition.status, condition.reason, condition.message


def _with_conditions(node: Node, conditions: list[NodeCondition]) -> Node:
    ready = any(condition.type == READY and condition.status == "True" for condition in conditions)
    return replace(node, status=replace(node.status, conditions=tuple(conditions), ready=ready))
