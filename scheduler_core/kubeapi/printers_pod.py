"""The Pod and Node rows of upstream's printers.go (printPod, printNode; Kubernetes v1.34.1).

A pod's containers are read as object_manifest writes them (api/container_states.py, and its
conditions from api/pod_conditions.conditions_of), so the row agrees with the pod's manifest; a
node's conditions likewise (api/node_conditions.node_conditions).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scheduler_core.api.container_states import RUNNING, TERMINATED, WAITING, ContainerState
from scheduler_core.api.node_conditions import node_conditions
from scheduler_core.api.pod_conditions import POD_SCHEDULED, SCHEDULING_GATED, TERMINAL_PHASES
from scheduler_core.api.types import Node, Pod, PodCondition
from scheduler_core.kubeapi.printers_common import NONE, UNKNOWN, Cell, age

POD_INITIALIZING = "PodInitializing"  # the kubelet's waiting reason that says nothing of its own
NODE_LOST = "NodeLost"  # k8s.io/kubernetes/pkg/util/node NodeUnreachablePodReason
NODE_ROLE_PREFIX = "node-role.kubernetes.io/"
NODE_ROLE_LABEL = "kubernetes.io/role"


@dataclass(frozen=True, slots=True)
class PodSummary:
    """What printPod makes of a pod's containers: READY's two numbers, STATUS, RESTARTS."""

    ready: int
    total: int
    reason: str
    restarts: int


def pod_cells(
    pod: Pod,
    init_states: Sequence[ContainerState],
    states: Sequence[ContainerState],
    conditions: Sequence[PodCondition],
    now: float,
) -> list[Cell]:
    """printPod, wide (the API server always prints wide)."""
    summary = pod_summary(pod, init_states, states, conditions)
    # The engine keeps no container's lastState, so no restart has a time to show.
    return [
        pod.metadata.name,
        f"{summary.ready}/{summary.total}",
        summary.reason,
        restarts_cell(summary.restarts, None, now),
        age(pod.metadata.creation_timestamp, now),
        NONE,  # podIP: the engine assigns none
        pod.spec.node_name or NONE,
        pod.status.nominated_node_name or NONE,
        readiness_gates_cell((), conditions),  # the engine keeps no spec.readinessGates
    ]


def pod_summary(
    pod: Pod,
    init_states: Sequence[ContainerState],
    states: Sequence[ContainerState],
    conditions: Sequence[PodCondition],
) -> PodSummary:
    """printPod's reading of the container statuses, in its order: the phase (or status.reason),
    SchedulingGated, the first init container not done, then the containers from last to first,
    then Terminating (or Unknown for a pod lost with its node) for a pod being deleted."""
    reason = pod.status.reason or pod.status.phase
    if any(c.type == POD_SCHEDULED and c.reason == SCHEDULING_GATED for c in conditions):
        reason = SCHEDULING_GATED
    sidecars = {c.name for c in pod.spec.init_containers if c.restart_policy == "Always"}
    init = _init_containers(init_states, sidecars, len(pod.spec.init_containers))
    ready, restarts = init.ready, init.restarts
    if init.reason is not None:
        reason = init.reason
    if init.reason is None or _condition_true(conditions, "Initialized"):
        reason, running_ready, containers_restarts, has_running = _containers(states, reason)
        ready += running_ready
        # Once initialization is over only the sidecars' restarts count with the containers'.
        restarts = init.sidecar_restarts + containers_restarts
        if reason == "Completed" and has_running:
            reason = "Running" if _condition_true(conditions, "Ready") else "NotReady"
    if pod.metadata.deletion_timestamp is not None:
        if pod.status.reason == NODE_LOST:
            reason = "Unknown"
        elif pod.status.phase not in TERMINAL_PHASES:
            reason = "Terminating"
    return PodSummary(ready, len(pod.spec.containers) + len(sidecars), reason, restarts)


@dataclass(frozen=True, slots=True)
class _InitSummary:
    reason: str | None  # the first init container not done yet ("Init:1/2"), None when all are
    ready: int  # started sidecars that are ready
    restarts: int
    sidecar_restarts: int


def _init_containers(states: Sequence[ContainerState], sidecars: set[str], count: int) -> _InitSummary:
    """The init containers in order, up to the first one neither done nor a started sidecar."""
    ready = restarts = sidecar_restarts = 0
    for index, state in enumerate(states):
        restarts += state.restart_count
        sidecar = state.name in sidecars
        if sidecar:
            sidecar_restarts += state.restart_count
        if state.state == TERMINATED and (state.exit_code or 0) == 0:
            continue
        if sidecar and state.started:
            ready += 1 if state.ready else 0
            continue
        return _InitSummary(_init_reason(state, index, count), ready, restarts, sidecar_restarts)
    return _InitSummary(None, ready, restarts, sidecar_restarts)


def _init_reason(state: ContainerState, index: int, count: int) -> str:
    if state.state == TERMINATED:
        # The engine's runtime reports no signal: a terminated container without a reason has an exit code.
        return f"Init:{state.reason}" if state.reason else f"Init:ExitCode:{state.exit_code or 0}"
    if state.state == WAITING and state.reason and state.reason != POD_INITIALIZING:
        return f"Init:{state.reason}"
    return f"Init:{index}/{count}"


def _containers(states: Sequence[ContainerState], reason: str) -> tuple[str, int, int, bool]:
    """The containers from last to first (so the first one's state wins): the reason, how many run
    ready, their restarts, and whether one runs ready."""
    ready = restarts = 0
    has_running = False
    for state in reversed(states):
        restarts += state.restart_count
        if state.state in (WAITING, TERMINATED) and state.reason:
            reason = state.reason
        elif state.state == TERMINATED:
            reason = f"ExitCode:{state.exit_code or 0}"
        elif state.ready and state.state == RUNNING:
            has_running = True
            ready += 1
    return reason, ready, restarts, has_running


def _condition_true(conditions: Sequence[PodCondition], condition_type: str) -> bool:
    """The first condition of the type is True (isPodInitializedConditionTrue, hasPodReadyCondition)."""
    return next((c.status == "True" for c in conditions if c.type == condition_type), False)


def restarts_cell(restarts: int, last_restart: float | None, now: float) -> str:
    """RESTARTS: the count, with how long ago the last container restarted when that is known."""
    if restarts == 0 or last_restart is None:
        return str(restarts)
    return f"{restarts} ({age(last_restart, now)} ago)"


def readiness_gates_cell(gates: Sequence[str], conditions: Sequence[PodCondition]) -> str:
    """READINESS GATES: how many of the gates' conditions are True, of how many; "<none>" without gates."""
    if not gates:
        return NONE
    statuses: dict[str, str] = {}
    for condition in conditions:
        statuses.setdefault(condition.type, condition.status)
    met = sum(1 for gate in gates if statuses.get(gate) == "True")
    return f"{met}/{len(gates)}"


# ---------------------------------------------------------------------------- nodes


def node_cells(node: Node, now: float) -> list[Cell]:
    """printNode. The engine keeps no status.nodeInfo nor addresses: VERSION is empty and the wide
    columns print upstream's words for none."""
    return [
        node.metadata.name,
        node_status(node),
        ",".join(node_roles(node.metadata.labels)) or NONE,
        age(node.metadata.creation_timestamp, now),
        "",  # status.nodeInfo.kubeletVersion
        NONE,  # InternalIP address
        NONE,  # ExternalIP address
        UNKNOWN,  # osImage
        UNKNOWN,  # kernelVersion
        UNKNOWN,  # containerRuntimeVersion
    ]


def node_status(node: Node) -> str:
    """Ready or NotReady as the (last) Ready condition says, Unknown without one; then
    SchedulingDisabled for a cordoned node."""
    ready = None
    for condition in node_conditions(node):
        if condition.type == "Ready":
            ready = condition
    words = ["Unknown"] if ready is None else ["Ready" if ready.status == "True" else "NotReady"]
    if node.spec.unschedulable:
        words.append("SchedulingDisabled")
    return ",".join(words)


def node_roles(labels: Mapping[str, str]) -> list[str]:
    """findNodeRoles: node-role.kubernetes.io/<role> labels and a kubernetes.io/role=<role> label, sorted."""
    roles = set()
    for key, value in labels.items():
        if key.startswith(NODE_ROLE_PREFIX) and key != NODE_ROLE_PREFIX:
            roles.add(key.removeprefix(NODE_ROLE_PREFIX))
        elif key == NODE_ROLE_LABEL and value:
            roles.add(value)
    return sorted(roles)
