"""What `kubectl describe node` counts a pod for: k8s.io/kubectl/pkg/util/resource PodRequestsAndLimits.

kubectl's own simplified copy of the API's pod resource helpers: regular containers add up, init
containers count by their peak (a sidecar, an init container with restartPolicy Always, keeps
running and adds to every container started after it), overhead adds to the requests and to the
limits that are set. Unlike the scheduler (scheduler/resources.py), it does not read pod-level
resources (spec.resources).
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from scheduler_core.api.quantity import add_amounts, keep_max_amounts
from scheduler_core.api.types import Container, Pod, ResourceList


@dataclass(frozen=True, slots=True)
class PodAmounts:
    """A pod as `kubectl describe node` lists it: who it is, since when, and what it asks for."""

    namespace: str
    name: str
    created: float  # simulated seconds
    requests: ResourceList
    limits: ResourceList

    @classmethod
    def of(cls, pod: Pod) -> "PodAmounts":
        requests, limits = pod_requests_and_limits(pod)
        return cls(pod.namespace, pod.name, pod.metadata.creation_timestamp, requests, limits)


def pod_requests_and_limits(pod: Pod) -> tuple[dict[str, int], dict[str, int]]:
    """PodRequestsAndLimits: the pod's requests and limits, by resource."""
    requests = _total(pod, lambda container: container.resources.requests)
    for name, amount in pod.spec.overhead.items():
        requests[name] = requests.get(name, 0) + amount
    limits = _total(pod, lambda container: container.resources.limits)
    for name, amount in pod.spec.overhead.items():
        if limits.get(name):  # overhead adds to a limit that is set, never creates one
            limits[name] += amount
    return requests, limits


def _total(pod: Pod, amounts_of: Callable[[Container], Mapping[str, int]]) -> dict[str, int]:
    total: dict[str, int] = {}
    for container in pod.spec.containers:
        add_amounts(total, amounts_of(container))
    sidecars: dict[str, int] = {}
    peak: dict[str, int] = {}
    for container in pod.spec.init_containers:
        if container.restart_policy == "Always":
            add_amounts(total, amounts_of(container))
            add_amounts(sidecars, amounts_of(container))
            keep_max_amounts(peak, sidecars)
        else:
            running = dict(amounts_of(container))
            add_amounts(running, sidecars)
            keep_max_amounts(peak, running)
    keep_max_amounts(total, peak)
    return total
