"""A node as `kubectl describe node` shows it (k8s.io/kubectl/pkg/describe describeNode), at one
moment of a run: its roles, labels, taints, conditions as the kubelet and the node lifecycle
controller wrote them, capacity, the pods on it with what they ask as shares of its allocatable
(describeNodeResource), and its events counted as kubectl lists them.

What the engine does not keep is left out: the node's Lease, Addresses, System Info and PodCIDRs.
Quantities print as api/quantity.py formats them, the canonical form kubectl prints for an amount.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from scheduler_core.api.node_conditions import node_conditions
from scheduler_core.api.pod_conditions import TERMINAL_PHASES
from scheduler_core.api.quantity import format_quantity
from scheduler_core.api.types import CPU, EPHEMERAL_STORAGE, MEMORY, PODS, Node, NodeCondition
from scheduler_core.explain.describe_meta import Annotation, described_annotations, sorted_labels
from scheduler_core.explain.kubectl_resources import PodAmounts
from scheduler_core.explain.object_events import DescribedEvent, described_events
from scheduler_core.store.cluster import Cluster
from scheduler_core.store.event_correlation import human_duration

ROLE_LABEL_PREFIX = "node-role.kubernetes.io/"  # node-role.kubernetes.io/<role>
ROLE_LABEL = "kubernetes.io/role"  # kubernetes.io/role=<role>
HUGE_PAGES_PREFIX = "hugepages-"
STANDARD_CONTAINER_RESOURCES = frozenset({CPU, MEMORY, EPHEMERAL_STORAGE})  # and hugepages-*
ABSENT = "\u2013"  # an en dash, where a resource has a capacity and no allocatable or the reverse


@dataclass(frozen=True, slots=True)
class PodRow:
    """A row of Non-terminated Pods: each amount with its share of the node's allocatable."""

    namespace: str
    name: str
    cpu_requests: str  # "100m (5%)"
    cpu_limits: str
    memory_requests: str
    memory_limits: str
    age: str


@dataclass(frozen=True, slots=True)
class AllocatedRow:
    """A row of Allocated resources: the node's pods' total requests and limits of one resource."""

    resource: str
    requests: str  # "1 (25%)"; an extended resource's without a share
    limits: str


@dataclass(slots=True)
class NodeDescription:
    name: str
    roles: list[str]  # sorted; kubectl prints <none> for none
    labels: list[tuple[str, str]]  # by key
    annotations: list[Annotation]  # by key
    creation_timestamp: float
    taints: list[str]  # key=value:Effect, by effect then key
    unschedulable: bool
    conditions: tuple[NodeCondition, ...]
    capacity: list[tuple[str, str]]  # by resource name
    allocatable: list[tuple[str, str]]
    pods: list[PodRow]  # by namespace and name, as the API lists them
    allocated: list[AllocatedRow]
    at: float  # the simulated time the ages count to
    events: list[DescribedEvent] = field(default_factory=list)

    def resource_rows(self) -> list[tuple[str, str, str]]:
        """Capacity and Allocatable side by side: (resource, capacity, allocatable), a dash where absent."""
        capacity, allocatable = dict(self.capacity), dict(self.allocatable)
        return [
            (name, capacity.get(name, ABSENT), allocatable.get(name, ABSENT)) for name in sorted(capacity | allocatable)
        ]

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "roles": self.roles,
            "labels": dict(self.labels),
            "annotations": {annotation.key: "\n".join(annotation.lines) for annotation in self.annotations},
            "creationTimestamp": self.creation_timestamp,
            "taints": self.taints,
            "unschedulable": self.unschedulable,
            "conditions": [
                {
                    "type": c.type,
                    "status": c.status,
                    "lastHeartbeatTime": c.last_heartbeat_time,
                    "lastTransitionTime": c.last_transition_time,
                    "reason": c.reason,
                    "message": c.message,
                }
                for c in self.conditions
            ],
            "capacity": dict(self.capacity),
            "allocatable": dict(self.allocatable),
            "nonTerminatedPods": [
                {
                    "namespace": row.namespace,
                    "name": row.name,
                    "cpuRequests": row.cpu_requests,
                    "cpuLimits": row.cpu_limits,
                    "memoryRequests": row.memory_requests,
                    "memoryLimits": row.memory_limits,
                    "age": row.age,
                }
                for row in self.pods
            ],
            "allocatedResources": [
                {"resource": row.resource, "requests": row.requests, "limits": row.limits} for row in self.allocated
            ],
            "at": self.at,
            "events": [event.as_dict() for event in self.events],
        }


def describe_node(cluster: Cluster, node: Node, now: float) -> NodeDescription:
    """`kubectl describe node` at simulated time `now`: the node's own pods (the store's index of
    them, not a scan of every pod) and its events."""
    pods = [PodAmounts.of(pod) for pod in cluster.pods_on_node(node.name) if pod.status.phase not in TERMINAL_PHASES]
    events = described_events(cluster, "Node", "", node.name, node.metadata.uid, now)
    return node_description(node, pods, events, now)


def node_description(
    node: Node, pods: Iterable[PodAmounts], events: list[DescribedEvent], now: float
) -> NodeDescription:
    """The description from the node, its non-terminated pods' amounts and its events."""
    allocatable = node.status.allocatable or node.status.capacity
    listed = sorted(pods, key=lambda pod: (pod.namespace, pod.name))
    return NodeDescription(
        name=node.name,
        roles=node_roles(node.labels),
        labels=sorted_labels(node.labels),
        annotations=described_annotations(node.metadata.annotations),
        creation_timestamp=node.metadata.creation_timestamp,
        taints=[str(taint) for taint in sorted(node.spec.taints, key=lambda t: f"{t.effect},{t.key}")],
        unschedulable=node.spec.unschedulable,
        conditions=node_conditions(node),
        capacity=_quantities(node.status.capacity),
        allocatable=_quantities(node.status.allocatable),
        pods=[_pod_row(pod, allocatable, now) for pod in listed],
        allocated=_allocated(listed, allocatable),
        at=now,
        events=events,
    )


def node_roles(labels: Mapping[str, str]) -> list[str]:
    """findNodeRoles: node-role.kubernetes.io/<role> labels, and kubernetes.io/role's value."""
    roles = set()
    for key, value in labels.items():
        if key.startswith(ROLE_LABEL_PREFIX) and key != ROLE_LABEL_PREFIX:
            roles.add(key.removeprefix(ROLE_LABEL_PREFIX))
        elif key == ROLE_LABEL and value:
            roles.add(value)
    return sorted(roles)


def _quantities(amounts: Mapping[str, int]) -> list[tuple[str, str]]:
    return [(name, format_quantity(name, amount)) for name, amount in sorted(amounts.items())]


def share(amount: int, of: int) -> int:
    """int64(float64(amount) / float64(of) * 100), as kubectl prints a percentage. Of nothing, 0:
    kubectl's Allocated resources says so; its pod rows print the int64 of a division by zero."""
    return int(float(amount) / float(of) * 100) if of else 0


def _with_share(resource: str, amount: int, allocatable: Mapping[str, int]) -> str:
    return f"{format_quantity(resource, amount)} ({share(amount, allocatable.get(resource, 0))}%)"


def _pod_row(pod: PodAmounts, allocatable: Mapping[str, int], now: float) -> PodRow:
    return PodRow(
        pod.namespace,
        pod.name,
        _with_share(CPU, pod.requests.get(CPU, 0), allocatable),
        _with_share(CPU, pod.limits.get(CPU, 0), allocatable),
        _with_share(MEMORY, pod.requests.get(MEMORY, 0), allocatable),
        _with_share(MEMORY, pod.limits.get(MEMORY, 0), allocatable),
        human_duration(now - pod.created),
    )


def _allocated(pods: list[PodAmounts], allocatable: Mapping[str, int]) -> list[AllocatedRow]:
    """cpu, memory and ephemeral-storage, then the node's huge page sizes, with their shares; then
    its extended resources, without (getPodsTotalRequestsAndLimits, describeNodeResource)."""
    requests: dict[str, int] = {}
    limits: dict[str, int] = {}
    for pod in pods:
        for total, amounts in ((requests, pod.requests), (limits, pod.limits)):
            for name, amount in amounts.items():
                total[name] = total.get(name, 0) + amount
    huge_pages = sorted(name for name in allocatable if name.startswith(HUGE_PAGES_PREFIX))
    extended = sorted(
        name
        for name in allocatable
        if name not in STANDARD_CONTAINER_RESOURCES and not name.startswith(HUGE_PAGES_PREFIX) and name != PODS
    )
    rows = [
        AllocatedRow(
            name,
            _with_share(name, requests.get(name, 0), allocatable),
            _with_share(name, limits.get(name, 0), allocatable),
        )
        for name in (CPU, MEMORY, EPHEMERAL_STORAGE, *huge_pages)
    ]
    rows += [
        AllocatedRow(name, format_quantity(name, requests.get(name, 0)), format_quantity(name, limits.get(name, 0)))
        for name in extended
    ]
    return rows
