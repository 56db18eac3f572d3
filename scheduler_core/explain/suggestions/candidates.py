"""What a fix is before it is verified: a candidate change, its kind, its scope, its target."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from scheduler_core.api.types import Node, Pod
from scheduler_core.api.workloads import PersistentVolume
from scheduler_core.explain.inputs import SchedulingInputs
from scheduler_core.scheduler.snapshot import NodeInfo, Snapshot

# Fix kinds.
ADD_TOLERATION = "add-toleration"
REMOVE_TAINT = "remove-taint"
UNCORDON = "uncordon"
CHANGE_NODE_SELECTOR = "change-node-selector"
RELAX_NODE_SELECTOR = "relax-node-selector"
RELAX_AFFINITY_TERM = "relax-affinity-term"
LABEL_NODE = "label-node"
LOWER_REQUEST = "lower-request"
ADD_NODE = "add-node"
FREE_HOST_PORT = "free-host-port"
RELAX_SPREAD = "relax-spread"
ADD_VOLUME = "add-volume"

HOSTNAME_LABEL = "kubernetes.io/hostname"
MEBIBYTE = 1024 * 1024
MAX_PORT = 65535

# Scopes, in the order fixes are offered: the pod itself, existing nodes, new objects.
SCOPE_POD, SCOPE_NODES, SCOPE_NEW = 0, 1, 2

PodChange = Callable[[Pod], Pod]
NodeChange = Callable[[Node], Node]


@dataclass(slots=True)
class Candidate:
    kind: str
    action: str  # "Add a toleration for dedicated=gpu:NoSchedule to the pod"
    change: Any  # the change as YAML data, rendered only for the fixes kept
    target: str
    scope: int
    group: str  # alternatives of one change: the first that verifies is kept, at most MAX_ALTERNATIVES tried
    command: str = ""
    pod_change: PodChange | None = None
    node_changes: dict[str, NodeChange] = field(default_factory=dict)
    added_nodes: tuple[Node, ...] = ()
    added_volumes: tuple[PersistentVolume, ...] = ()
    rank: int = 0  # the rejecting plugin's rank (most rejected nodes first)


# A plugin's fixes: from the inputs, the pod, the nodes it rejected and why, the snapshot.
@dataclass(frozen=True, slots=True)
class Rejection:
    """What a plugin's candidates start from: the pod, the nodes the plugin rejected it on (with
    each node's reasons), the scheduling inputs and the snapshot of the attempt."""

    inputs: SchedulingInputs
    pod: Pod
    nodes: list[NodeInfo]
    reasons: Mapping[str, tuple[str, ...]]
    snapshot: Snapshot


Generator = Callable[[Rejection], list[Candidate]]


def pod_target(pod: Pod) -> str:
    return f"Pod {pod.key}"
