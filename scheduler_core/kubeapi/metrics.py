"""What metrics-server would report for a moment of a run (kubectl top): each Running pod's CPU and
memory use, and each node's sum, from the engine's usage model (controllers/horizontal_pod_autoscaler.py):

- CPU: a workload's demand (the timeline's `set-utilization`) split over its serving pods in
  proportion to their requests, exactly as the HPA samples it; a pod of no such workload is idle.
- memory: the `playground.k8s.io/memory-usage` annotation (node_pressure.py), else the requests.

A demand is read from the run's log of demand changes at the moment asked (`demand_at`)."""

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scheduler_core.api.selectors import label_selector_matches
from scheduler_core.api.types import CPU, MEMORY, Node, Pod
from scheduler_core.controllers.horizontal_pod_autoscaler import is_serving, share_demand
from scheduler_core.controllers.node_pressure import pod_memory_usage
from scheduler_core.store.cluster import Cluster


@dataclass(frozen=True, slots=True)
class Usage:
    cpu: int  # millicores
    memory: int  # bytes


def demand_at(log: Sequence[tuple[float, str, float]], time: float) -> dict[str, float]:
    """Each workload's demand as set by the log's changes up to `time`."""
    stop = bisect.bisect_right([entry[0] for entry in log], time)
    demand: dict[str, float] = {}
    for _when, key, value in log[:stop]:
        demand[key] = value
    return demand


def pod_usage(cluster: Cluster, demand: Mapping[str, float]) -> dict[str, Usage]:
    """Running pods' use by namespace/name (metrics-server reports Running pods only)."""
    running = [pod for pod in cluster.objects(Pod) if pod.status.phase == "Running"]
    cpu: dict[str, int] = {}
    for key, millicores in demand.items():
        kind, namespace, name = key.split("/", 2)
        workload = cluster.get(kind, f"{namespace}/{name}")
        selector = getattr(getattr(workload, "spec", None), "selector", None)
        if workload is None or selector is None:
            continue
        serving = [
            pod
            for pod in running
            if pod.metadata.namespace == namespace
            and label_selector_matches(selector, pod.metadata.labels)
            and is_serving(pod)
        ]
        for pod_name, share in share_demand(millicores, serving).items():
            cpu[f"{namespace}/{pod_name}"] = cpu.get(f"{namespace}/{pod_name}", 0) + share
    return {pod.metadata.key: Usage(cpu.get(pod.metadata.key, 0), pod_memory_usage(pod)) for pod in running}


def node_usage(cluster: Cluster, pods: Mapping[str, Usage]) -> dict[str, Usage]:
    """Each node's sum over the Running pods on it."""
    totals = {node.metadata.name: Usage(0, 0) for node in cluster.objects(Node)}
    for pod in cluster.objects(Pod):
        used = pods.get(pod.metadata.key)
        if used is None or pod.spec.node_name not in totals:
            continue
        before = totals[pod.spec.node_name]
        totals[pod.spec.node_name] = Usage(before.cpu + used.cpu, before.memory + used.memory)
    return totals


def allocatable(node: Node) -> Usage:
    resources = node.status.allocatable or node.status.capacity
    return Usage(int(resources.get(CPU, 0)), int(resources.get(MEMORY, 0)))
