"""NodeResourcesFit: the pod's requests must fit in what the node has left; scoring by the
configured strategy (LeastAllocated by default) (plugins/noderesources/fit.go)."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from scheduler_core.api.errors import ManifestError
from scheduler_core.api.types import CPU, EPHEMERAL_STORAGE, MEMORY, PODS, Node, Pod
from scheduler_core.scheduler.cluster_events import (
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    EventResource,
    QueueingHint,
)
from scheduler_core.scheduler.config import CONFIG_DOCUMENT
from scheduler_core.scheduler.framework import SUCCESS, Code, CycleState, PreFilterResult, Status
from scheduler_core.scheduler.plugins.resource_allocation import (
    ResourceSpec,
    Scorer,
    is_scalar_resource,
    least_requested_score,
    most_requested_score,
    pod_request_list,
    requested_to_capacity_ratio_scorer,
    score_node,
    weighted_scorer,
)
from scheduler_core.scheduler.resources import pod_requests
from scheduler_core.scheduler.snapshot import NodeInfo

NAME = "NodeResourcesFit"
PRE_FILTER_KEY = "PreFilter" + NAME
PRE_SCORE_KEY = "PreScore" + NAME
TOO_MANY_PODS = "Too many pods"
DEFAULT_RESOURCES = (ResourceSpec(CPU, 1), ResourceSpec(MEMORY, 1))
DEFAULT_SHAPE = ((0, 10), (100, 0))


@dataclass(frozen=True, slots=True)
class InsufficientResource:
    resource: str
    reason: str
    requested: int
    used: int
    capacity: int
    unresolvable: bool = False


def parse_resource_specs(raw: Any, where: str) -> tuple[ResourceSpec, ...]:
    if not raw:
        return DEFAULT_RESOURCES
    specs = []
    for item in raw:
        if not isinstance(item, Mapping) or not isinstance(item.get("name"), str):
            raise ManifestError(CONFIG_DOCUMENT, where, "each resource needs a name")
        weight = item.get("weight", 1)
        if isinstance(weight, bool) or not isinstance(weight, int) or not 1 <= weight <= 100:
            raise ManifestError(
                CONFIG_DOCUMENT, where, f"resource weight of {item['name']} not in valid range [1, 100]"
            )
        specs.append(ResourceSpec(item["name"], weight))
    return tuple(specs)


def build_scorer(strategy: Mapping[str, Any]) -> tuple[tuple[ResourceSpec, ...], Scorer]:
    where = "pluginConfig[NodeResourcesFit].args.scoringStrategy"
    kind = strategy.get("type", "LeastAllocated")
    resources = parse_resource_specs(strategy.get("resources"), where + ".resources")
    if kind == "LeastAllocated":
        return resources, weighted_scorer(resources, least_requested_score)
    if kind == "MostAllocated":
        return resources, weighted_scorer(resources, most_requested_score)
    if kind == "RequestedToCapacityRatio":
        config = strategy.get("requestedToCapacityRatio") or {}
        points = config.get("shape") or [{"utilization": u, "score": s} for u, s in DEFAULT_SHAPE]
        shape = []
        for point in points:
            utilization, score = point.get("utilization"), point.get("score")
            if not isinstance(utilization, int) or not 0 <= utilization <= 100:
                raise ManifestError(CONFIG_DOCUMENT, where + ".shape", "utilization values must be in [0, 100]")
            if not isinstance(score, int) or not 0 <= score <= 10:
                raise ManifestError(CONFIG_DOCUMENT, where + ".shape", "score values must be in [0, 10]")
            shape.append((utilization, score))
        if any(b[0] <= a[0] for a, b in pairwise(shape)):
            raise ManifestError(
                CONFIG_DOCUMENT, where + ".shape", "utilization values must be sorted in increasing order"
            )
        return resources, requested_to_capacity_ratio_scorer(resources, shape)
    raise ManifestError(
        CONFIG_DOCUMENT, where + ".type",
        f'Unsupported value: "{kind}": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"',
    )  # fmt: skip


def fits_request(
    requests: Mapping[str, int], node: NodeInfo, ignored: frozenset[str], ignored_groups: frozenset[str]
) -> list[InsufficientResource]:
    """Every resource the node lacks, in upstream's order: pods, cpu, memory, ephemeral-storage, then scalars."""
    insufficient: list[InsufficientResource] = []
    allocatable, requested = node.allocatable, node.requested
    allowed_pods = allocatable.get(PODS, 0)
    if len(node.pods) + 1 > allowed_pods:
        insufficient.append(InsufficientResource(PODS, TOO_MANY_PODS, 1, len(node.pods), allowed_pods))
    if not any(requests.values()):
        return insufficient
    standard = 0  # how many of the requests are pods, cpu, memory or ephemeral-storage
    for name in _STANDARD_RESOURCES:
        want = requests.get(name, 0)
        if name in requests:
            standard += 1
        if want == 0 or name == PODS:
            continue
        have = allocatable.get(name, 0)
        used = requested.get(name, 0)
        if have < want + used:
            insufficient.append(InsufficientResource(name, f"Insufficient {name}", want, used, have, want > have))
    if len(requests) == standard:
        return insufficient  # no extended resources, hugepages or other scalars requested
    for name in sorted(requests):
        want = requests[name]
        if want == 0 or not is_scalar_resource(name):
            continue
        if name in ignored or name.split("/", 1)[0] in ignored_groups:
            continue
        have = allocatable.get(name, 0)
        used = requested.get(name, 0)
        if have < want + used:
            insufficient.append(InsufficientResource(name, f"Insufficient {name}", want, used, have, want > have))
    return insufficient


# Checked in this order, before the scalar resources; PODS is only counted (the pod count is checked above).
_STANDARD_RESOURCES = (CPU, MEMORY, EPHEMERAL_STORAGE, PODS)
_NOTHING_IGNORED: frozenset[str] = frozenset()


def is_compared_resource(name: str) -> bool:
    """A request fits_request compares with what the node has left: cpu, memory, ephemeral-storage
    and the scalar resources (the pod count is counted, never requested)."""
    return name in (CPU, MEMORY, EPHEMERAL_STORAGE) or is_scalar_resource(name)


def fits_empty_node(pod: Pod, node: Node) -> bool:
    """isFit: the pod would fit the node if nothing ran there. As upstream's Fits, no resource is
    ignored (the plugin's ignoredResources do not apply)."""
    return not fits_request(pod_requests(pod), NodeInfo(node), _NOTHING_IGNORED, _NOTHING_IGNORED)


def requested_resources_increased(pod: Pod, old: Node, new: Node) -> bool:
    """haveAnyRequestedResourcesIncreased: the node can take more pods, or has more of something
    the pod requests."""
    if new.status.allocatable.get(PODS, 0) > old.status.allocatable.get(PODS, 0):
        return True
    before, after = old.status.allocatable, new.status.allocatable
    return any(
        amount > 0 and is_compared_resource(name) and after.get(name, 0) > before.get(name, 0)
        for name, amount in pod_requests(pod).items()
    )


def scale_down_frees_requested(target: Pod, old: Pod, new: Pod) -> bool:
    """isSchedulableAfterPodScaleDown: the target pod itself shrank, or an assigned pod now requests
    less of something the target requests."""
    if new.metadata.uid == target.metadata.uid:
        return True
    if not new.spec.node_name:
        return False  # an unscheduled pod holds nothing
    before, after = pod_requests(old), pod_requests(new)
    return any(
        amount > 0 and is_compared_resource(name) and before.get(name, 0) > after.get(name, 0)
        for name, amount in pod_requests(target).items()
    )


class NodeResourcesFit:
    name = NAME

    def __init__(self, args: Mapping[str, Any], handle: Any = None) -> None:
        self.ignored = frozenset(args.get("ignoredResources") or ())
        self.ignored_groups = frozenset(args.get("ignoredResourceGroups") or ())
        strategy = args.get("scoringStrategy") or {"type": "LeastAllocated"}
        self.resources, self.scorer = build_scorer(strategy)
        # RequestedToCapacityRatio and MostAllocated score the same non-zero requests as LeastAllocated.
        self.use_requested = False

    def pre_filter(
        self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]
    ) -> tuple[PreFilterResult | None, Status]:
        state.write(PRE_FILTER_KEY, pod_requests(pod))
        return None, SUCCESS

    def filter(self, state: CycleState, pod: Pod, node: NodeInfo) -> Status:
        requests: Mapping[str, int] | None = state.get(PRE_FILTER_KEY)
        if requests is None:
            requests = pod_requests(pod)
        insufficient = fits_request(requests, node, self.ignored, self.ignored_groups)
        if not insufficient:
            return SUCCESS  # the shared constant: no Status is built on the success path
        code = Code.UnschedulableAndUnresolvable if any(r.unresolvable for r in insufficient) else Code.Unschedulable
        return Status(code, tuple(r.reason for r in insufficient))

    def pre_score(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> Status:
        state.write(PRE_SCORE_KEY, pod_request_list(pod, self.resources, use_requested=self.use_requested))
        return SUCCESS

    def score(self, state: CycleState, pod: Pod, node: NodeInfo) -> tuple[int, Status]:
        requests = state.get(PRE_SCORE_KEY)
        if requests is None:
            requests = pod_request_list(pod, self.resources, use_requested=self.use_requested)
        return score_node(node, requests, self.resources, self.scorer, use_requested=self.use_requested), SUCCESS

    def events_to_register(self) -> list[ClusterEventWithHint]:
        # InPlacePodVerticalScaling on: a pod scaled down frees resources. Queueing hints on: only
        # the node updates that change allocatable (the label and taint ones were for preCheck).
        return [
            ClusterEventWithHint(
                ClusterEvent(EventResource.POD, ActionType.DELETE | ActionType.UPDATE_POD_SCALE_DOWN),
                self.is_schedulable_after_pod_event,
            ),
            ClusterEventWithHint(
                ClusterEvent(EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_ALLOCATABLE),
                self.is_schedulable_after_node_change,
            ),
        ]

    def is_schedulable_after_pod_event(self, pod: Pod, old: Any, new: Any) -> QueueingHint:
        """Queue when a pod that held resources (assigned, or nominated) is deleted, or a scale-down
        frees something this pod requests."""
        if not isinstance(old, Pod | None) or not isinstance(new, Pod | None):
            return QueueingHint.QUEUE  # upstream's hint errors on other objects, and an error queues
        if new is None:
            if old is None or old.spec.node_name or old.status.nominated_node_name:
                return QueueingHint.QUEUE
            return QueueingHint.QUEUE_SKIP  # an unscheduled pod's deletion frees nothing
        if old is None or scale_down_frees_requested(pod, old, new):
            return QueueingHint.QUEUE
        return QueueingHint.QUEUE_SKIP

    def is_schedulable_after_node_change(self, pod: Pod, old: Any, new: Any) -> QueueingHint:
        """Queue for a node added that the pod fits when empty, or updated so that it fits and has
        more of what the pod requests."""
        if not isinstance(new, Node | None) or not isinstance(old, Node | None):
            return QueueingHint.QUEUE
        if new is None or not fits_empty_node(pod, new):
            return QueueingHint.QUEUE_SKIP
        if old is None or requested_resources_increased(pod, old, new):
            return QueueingHint.QUEUE
        return QueueingHint.QUEUE_SKIP
