"""Shared arithmetic of the resource scoring plugins (plugins/noderesources/resource_allocation.go,
least_allocated.go, most_allocated.go, requested_to_capacity_ratio.go, balanced_allocation.go).

All integer arithmetic truncates as Go's int64 division does; inputs are never negative here.
"""

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scheduler_core.api.types import CPU, EPHEMERAL_STORAGE, MEMORY, PODS, Pod
from scheduler_core.scheduler.framework import MAX_NODE_SCORE
from scheduler_core.scheduler.resources import NON_ZERO_DEFAULTS, pod_requests
from scheduler_core.scheduler.snapshot import NodeInfo

MAX_UTILIZATION = 100
MAX_CUSTOM_PRIORITY_SCORE = 10

Scorer = Callable[[Sequence[int], Sequence[int]], int]


@dataclass(frozen=True, slots=True)
class ResourceSpec:
    name: str
    weight: int


def is_scalar_resource(name: str) -> bool:
    """Extended resources (example.com/foo), hugepages and other prefixed names: schedutil.IsScalarResourceName."""
    return name not in (CPU, MEMORY, EPHEMERAL_STORAGE, PODS) and ("/" in name or name.startswith("hugepages-"))


def pod_request_list(pod: Pod, resources: Sequence[ResourceSpec], *, use_requested: bool) -> list[int]:
    """The pod's request for each scored resource; unless use_requested, missing CPU/memory
    requests count as 100m / 200Mi so that best-effort pods still spread."""
    requests = pod_requests(pod, None if use_requested else NON_ZERO_DEFAULTS)
    return [requests.get(spec.name, 0) for spec in resources]


def allocatable_and_requested(
    node: NodeInfo, resource: str, pod_request: int, *, use_requested: bool
) -> tuple[int, int]:
    """(allocatable, requested including the pod); (0, 0) makes the resource sit this node out."""
    if pod_request == 0 and is_scalar_resource(resource):
        return 0, 0
    if resource == CPU:
        on_node = node.requested.get(CPU, 0) if use_requested else node.non_zero_cpu
        return node.allocatable.get(CPU, 0), on_node + pod_request
    if resource == MEMORY:
        on_node = node.requested.get(MEMORY, 0) if use_requested else node.non_zero_memory
        return node.allocatable.get(MEMORY, 0), on_node + pod_request
    if resource == EPHEMERAL_STORAGE:
        return node.allocatable.get(EPHEMERAL_STORAGE, 0), node.requested.get(EPHEMERAL_STORAGE, 0) + pod_request
    if resource in node.allocatable:
        return node.allocatable[resource], node.requested.get(resource, 0) + pod_request
    return 0, 0


def score_node(
    node: NodeInfo,
    pod_requests_list: Sequence[int],
    resources: Sequence[ResourceSpec],
    scorer: Scorer,
    *,
    use_requested: bool,
) -> int:
    """The scorer over (requested, allocatable) per resource; allocatable_and_requested inlined, as
    this runs for every scored node."""
    count = len(resources)
    requested = [0] * count
    allocatable = [0] * count
    node_allocatable = node.allocatable
    node_requested = node.requested
    for index in range(count):
        name = resources[index].name
        pod_request = pod_requests_list[index]
        if name == CPU:
            alloc = node_allocatable.get(CPU, 0)
            req = (node_requested.get(CPU, 0) if use_requested else node.non_zero_cpu) + pod_request
        elif name == MEMORY:
            alloc = node_allocatable.get(MEMORY, 0)
            req = (node_requested.get(MEMORY, 0) if use_requested else node.non_zero_memory) + pod_request
        else:
            alloc, req = allocatable_and_requested(node, name, pod_request, use_requested=use_requested)
        if alloc == 0:
            continue
        allocatable[index] = alloc
        requested[index] = req
    return scorer(requested, allocatable)


# ---------------------------------------------------------------------------- strategies


def least_requested_score(requested: int, capacity: int) -> int:
    if capacity == 0 or requested > capacity:
        return 0
    return (capacity - requested) * MAX_NODE_SCORE // capacity


def most_requested_score(requested: int, capacity: int) -> int:
    if capacity == 0:
        return 0
    requested = min(requested, capacity)  # an overcommitted node scores as full, not as empty
    return requested * MAX_NODE_SCORE // capacity


def weighted_scorer(resources: Sequence[ResourceSpec], per_resource: Callable[[int, int], int]) -> Scorer:
    weights = [spec.weight for spec in resources]

    def scorer(requested: Sequence[int], allocatable: Sequence[int]) -> int:
        total = weight_sum = 0
        for index, capacity in enumerate(allocatable):
            if capacity == 0:
                continue
            total += per_resource(requested[index], capacity) * weights[index]
            weight_sum += weights[index]
        return total // weight_sum if weight_sum else 0

    return scorer


def broken_linear(shape: Sequence[tuple[int, int]]) -> Callable[[int], int]:
    """helper.BuildBrokenLinearFunction over (utilization, score) points sorted by utilization."""

    def function(utilization: int) -> int:
        for index, (point_utilization, point_score) in enumerate(shape):
            if utilization <= point_utilization:
                if index == 0:
                    return shape[0][1]
                previous_utilization, previous_score = shape[index - 1]
                delta = (point_score - previous_score) * (utilization - previous_utilization)
                return previous_score + _go_div(delta, point_utilization - previous_utilization)
        return shape[-1][1]

    return function


def _go_div(a: int, b: int) -> int:
    """Go's integer division truncates toward zero (Python's floors)."""
    quotient = abs(a) // abs(b)
    return quotient if (a >= 0) == (b > 0) else -quotient


def requested_to_capacity_ratio_scorer(resources: Sequence[ResourceSpec], shape: Sequence[tuple[int, int]]) -> Scorer:
    scale = MAX_NODE_SCORE // MAX_CUSTOM_PRIORITY_SCORE
    function = broken_linear([(utilization, score * scale) for utilization, score in shape])
    weights = [spec.weight for spec in resources]

    def resource_score(requested: int, capacity: int) -> int:
        if capacity == 0 or requested > capacity:
            return function(MAX_UTILIZATION)
        return function(requested * MAX_UTILIZATION // capacity)

    def scorer(requested: Sequence[int], allocatable: Sequence[int]) -> int:
        total = weight_sum = 0
        for index, capacity in enumerate(allocatable):
            if capacity == 0:
                continue
            value = resource_score(requested[index], capacity)
            if value > 0:
                total += value * weights[index]
                weight_sum += weights[index]
        if weight_sum == 0:
            return 0
        return _go_round(total / weight_sum)

    return scorer


def _go_round(value: float) -> int:
    """math.Round: halves away from zero (Python's round() goes to even)."""
    return math.floor(value + 0.5) if value >= 0 else -math.floor(-value + 0.5)


def balanced_resource_scorer(requested: Sequence[int], allocatable: Sequence[int]) -> int:
    """100 x (1 - the standard deviation of the requested fractions): balanced nodes score high."""
    if len(allocatable) == 2 and allocatable[0] and allocatable[1]:
        # The default CPU and memory, both allocatable: the same arithmetic, without the lists.
        deviation = abs((min(requested[0] / allocatable[0], 1.0) - min(requested[1] / allocatable[1], 1.0)) / 2)
        return int((1 - deviation) * MAX_NODE_SCORE)
    fractions = []
    for index, capacity in enumerate(allocatable):
        if capacity == 0:
            continue
        fractions.append(min(requested[index] / capacity, 1.0))
    deviation = 0.0
    if len(fractions) == 2:
        deviation = abs((fractions[0] - fractions[1]) / 2)
    elif len(fractions) > 2:
        mean = sum(fractions) / len(fractions)
        deviation = math.sqrt(sum((f - mean) * (f - mean) for f in fractions) / len(fractions))
    return int((1 - deviation) * MAX_NODE_SCORE)
