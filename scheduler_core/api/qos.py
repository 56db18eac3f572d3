"""A pod's QoS class, computed as the kubelet does (pkg/apis/core/v1/helper/qos GetPodQOS).

Only CPU and memory count. Guaranteed: every container sets limits for both, and requests equal
limits. BestEffort: no container requests or limits either. Burstable: everything in between.
Pod-level resources, when set, decide on their own.
"""

from scheduler_core.api.types import CPU, MEMORY, Pod, ResourceRequirements

GUARANTEED = "Guaranteed"
BURSTABLE = "Burstable"
BEST_EFFORT = "BestEffort"
_COMPUTE = (CPU, MEMORY)


def _class_of(requirements: list[ResourceRequirements]) -> str:
    requests: dict[str, int] = {}
    limits: dict[str, int] = {}
    guaranteed = True
    for resources in requirements:
        for name in _COMPUTE:
            if resources.requests.get(name, 0) > 0:
                requests[name] = requests.get(name, 0) + resources.requests[name]
            if resources.limits.get(name, 0) > 0:
                limits[name] = limits.get(name, 0) + resources.limits[name]
        if not all(resources.limits.get(name, 0) > 0 for name in _COMPUTE):
            guaranteed = False
    if not requests and not limits:
        return BEST_EFFORT
    if (
        guaranteed
        and len(requests) == len(limits)
        and all(limits.get(name) == amount for name, amount in requests.items())
    ):
        return GUARANTEED
    return BURSTABLE


def qos_class(pod: Pod) -> str:
    if pod.spec.resources is not None:
        return _class_of([pod.spec.resources])
    containers = pod.spec.containers + pod.spec.init_containers
    return _class_of([container.resources for container in containers])
