"""How much a scenario may cost the engine, from what it declares: runs' and previews' bounds grow
with its pods and nodes, up to the scenario limit the product promises. Free of Django, so that a
preview's own process (playground/preview_compute.py) can use it."""

from scheduler_core.api.manifests import Manifest

REPLICATED = ("Deployment", "ReplicaSet", "StatefulSet", "ReplicationController")
# Budgets are sized for a base number of pods and nodes and grow in proportion past it (the
# engine's cost is about linear in the pods: 2 to 4 ms a pod at 5,000 nodes with a zone spread).
# Past the limit the product promises (5,000 nodes, 50,000 pods), a scenario gets no more than the
# base: a hundred million replicas stop as soon as a small scenario would.
MOST_SCALED_PODS = 55_000


def declared_pods(manifests: list[Manifest]) -> int:
    """The pods a scenario declares (Pods, the replicas of replicated workloads, a DaemonSet's pod
    per node, a Job's parallelism), and its nodes."""
    nodes = sum(1 for manifest in manifests if manifest.kind == "Node")
    pods = 0
    for manifest in manifests:
        spec = getattr(manifest.object, "spec", None)
        if manifest.kind == "Pod":
            pods += 1
        elif manifest.kind in REPLICATED:
            pods += max(1, int(getattr(spec, "replicas", 1) or 1))
        elif manifest.kind == "DaemonSet":
            pods += max(1, nodes)
        elif manifest.kind in ("Job", "CronJob"):
            pods += max(1, int(getattr(spec, "parallelism", 1) or 1))
    return pods + nodes


def budget_scale(manifests: list[Manifest], base_pods: int, most: float) -> float:
    """How many times a budget sized for `base_pods` pods and nodes this scenario gets (1 to `most`)."""
    declared = declared_pods(manifests)
    if declared > MOST_SCALED_PODS:
        return 1.0
    return min(most, max(1.0, declared / base_pods))
