"""Two finished simulations side by side: where each pod ended up, and how balanced each cluster is.

`outcome_of(simulation)` reads a simulation's final cluster into an `Outcome` (every pod's node,
per-node and per-zone balance figures, the Pending pods with the scheduler's last word on them);
`compare_outcomes(a, b)` matches the pods of two outcomes and says what changed for each.

Matching pods across runs. Pods a controller creates are named from `metadata.generateName` plus
five random characters drawn from the run's seeded generator (controllers/naming.py). The same
scenario and seed give the same names, but the scheduler draws from that generator too (the
tie-break among equally scored nodes), so under another configuration, or after an edit, the
same pod can get another name. Such pods are matched by what does not depend on chance: their
namespace, controlling owner, generateName prefix and their ordinal among the pods with that
prefix, in creation order. Every other pod (bare pods, StatefulSet pods, whose names are their
ordinals) is matched by namespace/name.
"""

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from scheduler_core.api.pod_conditions import TERMINAL_PHASES
from scheduler_core.api.types import Node, Pod
from scheduler_core.scheduler.resources import Requested, requested_by_node
from scheduler_core.simulation.simulation import Simulation
from scheduler_core.store.cluster import Cluster

ZONE_LABEL = "topology.kubernetes.io/zone"
FAILED_SCHEDULING = "FailedScheduling"
# The scheduler's informer leaves finished pods out (status.phase!=Succeeded,status.phase!=Failed),
# so they take nothing from their node: pkg/scheduler/scheduler.go newPodInformer.


class Change(StrEnum):
    """What happened to one pod between side A and side B."""

    SAME = "same node"
    MOVED = "moved"
    BECAME_PENDING = "became Pending"
    BECAME_SCHEDULED = "became scheduled"
    STILL_PENDING = "still Pending"
    ONLY_IN_A = "only in A"
    ONLY_IN_B = "only in B"


# ---------------------------------------------------------------------------- one side


@dataclass(frozen=True, slots=True)
class PodPlacement:
    """A pod of a final cluster: where it is bound (None while Pending) and in which phase."""

    namespace: str
    name: str
    owner: str  # the controlling owner, "ReplicaSet/web-5d8f7c9b4", or "" for a bare pod
    node: str | None
    phase: str
    identity: tuple[str, ...]  # what matches it with the same pod of another run (see the module doc)

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"

    @property
    def counts_on_node(self) -> bool:
        """Bound and not finished: what the scheduler counts against its node."""
        return self.node is not None and self.phase not in TERMINAL_PHASES


@dataclass(frozen=True, slots=True)
class NodeBalance:
    """What the pods bound to a node request, against what the node can give (allocatable)."""

    name: str
    zone: str | None
    cpu_requested: int  # millicores
    cpu_allocatable: int
    memory_requested: int  # bytes
    memory_allocatable: int
    pods: int
    pods_allocatable: int
    unschedulable: bool
    ready: bool

    @property
    def cpu_share(self) -> float:
        return _share(self.cpu_requested, self.cpu_allocatable)

    @property
    def memory_share(self) -> float:
        return _share(self.memory_requested, self.memory_allocatable)


@dataclass(frozen=True, slots=True)
class ZoneBalance:
    zone: str
    nodes: int
    pods: int


@dataclass(frozen=True, slots=True)
class WorkloadSpread:
    """One owner's pods per zone and its skew (max - min over every zone, empty ones included), the
    figure PodTopologySpread holds to maxSkew for a zone constraint."""

    owner: str
    namespace: str
    per_zone: tuple[tuple[str, int], ...]
    skew: int


@dataclass(frozen=True, slots=True)
class PendingPod:
    namespace: str
    name: str
    owner: str
    message: str | None  # the last FailedScheduling event's message, verbatim; None if never attempted

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"


@dataclass(frozen=True, slots=True)
class Balance:
    nodes: tuple[NodeBalance, ...]
    zones: tuple[ZoneBalance, ...]  # zones of the nodes that carry the zone label, by name
    workload_spreads: tuple[WorkloadSpread, ...]  # owners with pods in a zone, by namespace and owner
    pending: tuple[PendingPod, ...]
    scheduled: int  # pods bound and not finished
    # Nodes running at least one pod other than a DaemonSet's: the cluster autoscaler's measure of
    # an empty node ignores DaemonSet pods, as they run on every node anyway.
    nodes_used: int

    @property
    def zone_spread(self) -> int | None:
        """Max - min pods per zone, or None when no node has a zone label."""
        if not self.zones:
            return None
        counts = [zone.pods for zone in self.zones]
        return max(counts) - min(counts)

    @property
    def cpu_share_stddev(self) -> float:
        """Population standard deviation of the nodes' requested cpu share (0 = perfectly even)."""
        return statistics.pstdev(node.cpu_share for node in self.nodes) if self.nodes else 0.0

    @property
    def memory_share_stddev(self) -> float:
        return statistics.pstdev(node.memory_share for node in self.nodes) if self.nodes else 0.0


@dataclass(frozen=True, slots=True)
class Outcome:
    """A simulation's final state, as the comparison needs it."""

    time: float  # simulated seconds when the run stopped
    pods: tuple[PodPlacement, ...]  # by namespace and name
    balance: Balance


def outcome_of(simulation: Simulation) -> Outcome:
    """The outcome of a simulation that has run (to its end, or to its `until`)."""
    return outcome_of_cluster(simulation.cluster, simulation.now)


def outcome_of_cluster(cluster: Cluster, time: float) -> Outcome:
    pods: list[Pod] = cluster.objects(Pod)  # store order is creation order, which ordinals need
    placements = _placements(pods)
    nodes: list[Node] = sorted(cluster.objects(Node), key=lambda node: node.name)
    return Outcome(
        time=round(time, 6),
        pods=tuple(sorted(placements.values(), key=lambda placement: (placement.namespace, placement.name))),
        balance=_balance(nodes, pods, placements, _last_failures(cluster)),
    )


def _placements(pods: Sequence[Pod]) -> dict[str, PodPlacement]:
    ordinals: dict[tuple[str, str, str], int] = {}
    placements: dict[str, PodPlacement] = {}
    for pod in pods:
        reference = pod.metadata.controller_ref()
        owner = f"{reference.kind}/{reference.name}" if reference else ""
        prefix = pod.metadata.generate_name
        if prefix:
            group = (pod.namespace, owner, prefix)
            ordinal = ordinals.get(group, 0)
            ordinals[group] = ordinal + 1
            identity: tuple[str, ...] = (*group, str(ordinal))
        else:
            identity = (pod.namespace, pod.name)
        placements[pod.key] = PodPlacement(
            namespace=pod.namespace,
            name=pod.name,
            owner=owner,
            node=pod.spec.node_name or None,
            phase=pod.status.phase,
            identity=identity,
        )
    return placements


def _last_failures(cluster: Cluster) -> dict[str, str]:
    """Event object ("Pod/ns/name") -> the message of its last FailedScheduling event."""
    return {event.object: event.message for event in cluster.events if event.reason == FAILED_SCHEDULING}


NOTHING_REQUESTED = Requested()


def _balance(
    nodes: Sequence[Node], pods: Sequence[Pod], placements: dict[str, PodPlacement], failures: dict[str, str]
) -> Balance:
    requested = requested_by_node(pods)
    zone_of = {node.name: node.labels.get(ZONE_LABEL) for node in nodes}
    placed: list[tuple[str, str]] = []
    pending: list[PendingPod] = []
    owner_zones: dict[tuple[str, str], dict[str, int]] = {}
    for pod in pods:
        placement = placements[pod.key]
        if placement.node is None:
            if placement.phase not in TERMINAL_PHASES and pod.metadata.deletion_timestamp is None:
                message = failures.get(f"Pod/{pod.namespace}/{pod.name}")
                pending.append(PendingPod(pod.namespace, pod.name, placement.owner, message))
            continue
        if not placement.counts_on_node:
            continue
        placed.append((placement.node, placement.owner))
        if placement.node not in zone_of:
            continue  # bound to a node that is gone: it counts as scheduled, on no node we show
        zone = zone_of[placement.node]
        if zone is not None and placement.owner:
            per_zone = owner_zones.setdefault((pod.namespace, placement.owner), {})
            per_zone[zone] = per_zone.get(zone, 0) + 1
    node_figures = tuple(
        NodeBalance(
            name=node.name,
            zone=zone_of[node.name],
            cpu_requested=requested.get(node.name, NOTHING_REQUESTED).cpu,
            cpu_allocatable=node.status.allocatable.get("cpu", 0),
            memory_requested=requested.get(node.name, NOTHING_REQUESTED).memory,
            memory_allocatable=node.status.allocatable.get("memory", 0),
            pods=requested.get(node.name, NOTHING_REQUESTED).pods,
            pods_allocatable=node.status.allocatable.get("pods", 0),
            unschedulable=node.spec.unschedulable,
            ready=node.status.ready,
        )
        for node in nodes
    )
    zones = _zones(node_figures)
    zone_names = [zone.zone for zone in zones]
    spreads = tuple(
        _workload_spread(owner, namespace, per_zone, zone_names)
        for (namespace, owner), per_zone in sorted(owner_zones.items())
    )
    return Balance(
        nodes=node_figures,
        zones=zones,
        workload_spreads=spreads,
        pending=tuple(sorted(pending, key=lambda pod: (pod.namespace, pod.name))),
        scheduled=len(placed),
        nodes_used=len({node for node, owner in placed if not owner.startswith("DaemonSet/")}),
    )


def _zones(nodes: Iterable[NodeBalance]) -> tuple[ZoneBalance, ...]:
    node_count: dict[str, int] = {}
    pod_count: dict[str, int] = {}
    for node in nodes:
        if node.zone is None:
            continue
        node_count[node.zone] = node_count.get(node.zone, 0) + 1
        pod_count[node.zone] = pod_count.get(node.zone, 0) + node.pods
    return tuple(ZoneBalance(zone, node_count[zone], pod_count[zone]) for zone in sorted(node_count))


def _workload_spread(owner: str, namespace: str, per_zone: dict[str, int], zones: Sequence[str]) -> WorkloadSpread:
    counts = tuple((zone, per_zone.get(zone, 0)) for zone in zones)
    values = [count for _, count in counts]
    return WorkloadSpread(owner, namespace, counts, max(values) - min(values))


def _share(requested: int, allocatable: int) -> float:
    if allocatable <= 0:
        return 1.0 if requested else 0.0
    return requested / allocatable


# ---------------------------------------------------------------------------- two sides


@dataclass(frozen=True, slots=True)
class PodOutcome:
    """One pod's fate in both runs (a or b is None when it exists on one side only)."""

    a: PodPlacement | None
    b: PodPlacement | None
    change: Change

    @property
    def namespace(self) -> str:
        either = self.a or self.b
        assert either is not None
        return either.namespace

    @property
    def name(self) -> str:
        """The pod's name in A (in B when it exists only there)."""
        either = self.a or self.b
        assert either is not None
        return either.name

    @property
    def renamed(self) -> bool:
        """Matched by owner and ordinal, under another generated name in B."""
        return self.a is not None and self.b is not None and self.a.name != self.b.name


@dataclass(frozen=True, slots=True)
class Comparison:
    a: Outcome
    b: Outcome
    pods: tuple[PodOutcome, ...]  # by namespace and name (A's name first)

    def count(self, change: Change) -> int:
        return sum(1 for pod in self.pods if pod.change is change)

    @property
    def differences(self) -> tuple[PodOutcome, ...]:
        """The pods whose placement differs (neither on the same node nor Pending in both)."""
        return tuple(pod for pod in self.pods if pod.change not in (Change.SAME, Change.STILL_PENDING))


def compare(a: Simulation, b: Simulation) -> Comparison:
    return compare_outcomes(outcome_of(a), outcome_of(b))


def compare_outcomes(a: Outcome, b: Outcome) -> Comparison:
    in_b = {pod.identity: pod for pod in b.pods}
    matched: set[tuple[str, ...]] = set()
    outcomes: list[PodOutcome] = []
    for pod_a in a.pods:
        pod_b = in_b.get(pod_a.identity)
        if pod_b is None:
            outcomes.append(PodOutcome(pod_a, None, Change.ONLY_IN_A))
            continue
        matched.add(pod_a.identity)
        outcomes.append(PodOutcome(pod_a, pod_b, _change(pod_a.node, pod_b.node)))
    outcomes.extend(PodOutcome(None, pod, Change.ONLY_IN_B) for pod in b.pods if pod.identity not in matched)
    outcomes.sort(key=lambda pod: (pod.namespace, pod.name))
    return Comparison(a, b, tuple(outcomes))


def _change(node_a: str | None, node_b: str | None) -> Change:
    if node_a is None:
        return Change.STILL_PENDING if node_b is None else Change.BECAME_SCHEDULED
    if node_b is None:
        return Change.BECAME_PENDING
    return Change.SAME if node_a == node_b else Change.MOVED
