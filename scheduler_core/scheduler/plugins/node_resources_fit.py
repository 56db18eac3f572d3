"""NodeResourcesFit: the pod's requests must fit in what the node has left; scoring by the
configured strategy (LeastAllocated by default) (plugins/noderesources/fit.go)."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from scheduler_core.api.errors import ManifestError
from scheduler_core.api.types import CPU, EPHEMERAL_STORAGE, MEMORY, PODS, Pod
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
