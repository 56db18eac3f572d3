"""What a pod asks of a node: k8s.io/component-helpers/resource PodRequests.

Regular containers run together, so their requests add up. Init containers run one at a time
before them, so only the largest counts, except sidecars (init containers with restartPolicy
Always), which keep running and add to everything started after them. Pod-level requests
(spec.resources) replace the containers' sum for CPU and memory, and overhead is added on top.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from scheduler_core.api.pod_conditions import is_pod_terminal
from scheduler_core.api.quantity import add_amounts, keep_max_amounts
from scheduler_core.api.types import CPU, MEMORY, Container, Pod

# pkg/scheduler/util: requests assumed for a container that sets none, for scoring only.
DEFAULT_MILLI_CPU_REQUEST = 100
DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024
NON_ZERO_DEFAULTS: Mapping[str, int] = {CPU: DEFAULT_MILLI_CPU_REQUEST, MEMORY: DEFAULT_MEMORY_REQUEST}
POD_LEVEL_RESOURCES = (CPU, MEMORY)  # plus every hugepages-<size>


def is_pod_level_resource(name: str) -> bool:
    return name in POD_LEVEL_RESOURCES or name.startswith("hugepages-")


def _container_requests(container: Container, non_missing: Mapping[str, int] | None) -> Mapping[str, int]:
    requests = container.resources.requests
    if not non_missing:
        return requests
    missing = [name for name in non_missing if name not in requests]
    if not missing:
        return requests
    filled = dict(requests)
    for name in missing:
        filled[name] = non_missing[name]
    return filled


def pod_requests(pod: Pod, non_missing: Mapping[str, int] | None = None) -> dict[str, int]:
    """The pod's effective requests. ``non_missing`` fills in requests a container leaves out."""
    requests: dict[str, int] = {}
    for container in pod.spec.containers:
        add_amounts(requests, _container_requests(container, non_missing))

    sidecars: dict[str, int] = {}
    init_peak: dict[str, int] = {}
    for container in pod.spec.init_containers:
        container_requests = _container_requests(container, non_missing)
        if container.restart_policy == "Always":
            add_amounts(requests, container_requests)
            add_amounts(sidecars, container_requests)
            keep_max_amounts(init_peak, sidecars)
        else:
            running = dict(container_requests)
            add_amounts(running, sidecars)
            keep_max_amounts(init_peak, running)
    keep_max_amounts(requests, init_peak)

    pod_level = pod.spec.resources
    if pod_level is not None and pod_level.requests:
        for name, amount in pod_level.requests.items():
            if is_pod_level_resource(name):
                requests[name] = amount

    add_amounts(requests, pod.spec.overhead)
    return requests


def non_zero_requests(pod: Pod) -> tuple[int, int]:
    """(millicores, bytes) used by the scoring plugins: defaults stand in for missing requests."""
    requests = pod_requests(pod, NON_ZERO_DEFAULTS)
    return requests.get(CPU, 0), requests.get(MEMORY, 0)


@dataclass(slots=True)
class Requested:
    """What a node has given out: the requests of the pods that hold resources on it."""

    cpu: int = 0  # millicores
    memory: int = 0  # bytes
    pods: int = 0


def holds_resources(pod: Pod) -> bool:
    """Bound and not terminal: what NodeResourcesFit counts against its node (a Terminating pod
    too, until it is gone), as `kubectl describe node` sums its Allocated resources."""
    return bool(pod.spec.node_name) and not is_pod_terminal(pod)


def requested_by_node(pods: Iterable[Pod]) -> dict[str, Requested]:
    """Node name -> what the pods holding resources there request, for every node one is bound to."""
    by_node: dict[str, Requested] = {}
    for pod in pods:
        if not holds_resources(pod):
            continue
        requests = pod_requests(pod)
        totals = by_node.get(pod.spec.node_name)
        if totals is None:
            totals = by_node[pod.spec.node_name] = Requested()
        totals.cpu += requests.get(CPU, 0)
        totals.memory += requests.get(MEMORY, 0)
        totals.pods += 1
    return by_node
