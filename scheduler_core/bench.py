"""`bench`: scheduler throughput on workloads built like upstream's test/integration/scheduler_perf.

Same node template (4 CPU, 32Gi, 110 pods, a hostname label), same init and measured pod templates
(requests 100m / 500Mi unless the template says otherwise), init pods scheduled but not timed.
The figures are pods per second of this engine on one core with no API server in the loop:
upstream's thresholds are end-to-end figures on a many-core machine with an API server.
"""

import platform
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from scheduler_core.api.manifests import parse_object
from scheduler_core.api.types import Node, Pod
from scheduler_core.scheduler.queue import SchedulingQueue
from scheduler_core.scheduler.schedule_one import Scheduler

NODE_CAPACITY = {"cpu": "4", "memory": "32Gi", "pods": "110"}
DEFAULT_REQUESTS = {"cpu": "100m", "memory": "500Mi"}
ZONE = "topology.kubernetes.io/zone"
HOSTNAME = "kubernetes.io/hostname"


@dataclass(frozen=True, slots=True)
class Size:
    nodes: int
    init_pods: int
    measured_pods: int


@dataclass(frozen=True, slots=True)
class Workload:
    name: str
    large: Size  # the size the targets are set for
    small: Size  # upstream's 500-node size, run by the test suite
    zones: tuple[str, ...]  # zone labels applied round-robin; empty for none
    init_pod: Callable[[int], dict[str, Any]]
    measured_pod: Callable[[int], dict[str, Any]]
    target: float  # pods/s on one core here

    def size(self, nodes: int | None) -> Size:
        if nodes is None or nodes == self.large.nodes:
            return self.large
        if nodes == self.small.nodes:
            return self.small
        scale = nodes / self.large.nodes
        return Size(nodes, max(1, round(self.large.init_pods * scale)), max(1, round(self.large.measured_pods * scale)))


def _container(requests: dict[str, str]) -> dict[str, Any]:
    return {
        "name": "pause",
        "image": "registry.k8s.io/pause:3.10",
        "ports": [{"containerPort": 80}],
        "resources": {"requests": dict(requests), "limits": dict(requests)},
    }


def _pod(name: str, namespace: str, spec: dict[str, Any], labels: dict[str, str] | None = None) -> dict[str, Any]:
    metadata: dict[str, Any] = {"name": name, "namespace": namespace}
    if labels:
        metadata["labels"] = labels
    return {"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": spec}


def default_pod(prefix: str, namespace: str = "default") -> Callable[[int], dict[str, Any]]:
    return lambda i: _pod(f"{prefix}-{i}", namespace, {"containers": [_container(DEFAULT_REQUESTS)]})


def node_affinity_pod(prefix: str) -> Callable[[int], dict[str, Any]]:
    affinity = {
        "nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [
                    {"matchExpressions": [{"key": ZONE, "operator": "In", "values": ["zone1", "zone2"]}]}
                ]
            }
        }
    }
    return lambda i: _pod(
        f"{prefix}-{i}", "default", {"affinity": affinity, "containers": [_container(DEFAULT_REQUESTS)]}
    )


def pod_affinity_pod(prefix: str, namespace: str, *, anti: bool) -> Callable[[int], dict[str, Any]]:
    color = "green" if anti else "blue"
    term = {
        "labelSelector": {"matchLabels": {"color": color}},
        "topologyKey": HOSTNAME if anti else ZONE,
        "namespaces": ["sched-1", "sched-0"],
    }
    kind = "podAntiAffinity" if anti else "podAffinity"
    affinity = {kind: {"requiredDuringSchedulingIgnoredDuringExecution": [term]}}
    spec = {"affinity": affinity, "containers": [_container(DEFAULT_REQUESTS)]}
    return lambda i: _pod(f"{prefix}-{i}", namespace, spec, {"color": color})


def spreading_pod(prefix: str) -> Callable[[int], dict[str, Any]]:
    constraint = {
        "maxSkew": 5,
        "topologyKey": ZONE,
        "whenUnsatisfiable": "DoNotSchedule",
        "labelSelector": {"matchLabels": {"color": "blue"}},
    }
    spec = {"topologySpreadConstraints": [constraint], "containers": [_container(DEFAULT_REQUESTS)]}
    return lambda i: _pod(f"{prefix}-{i}", "default", spec, {"color": "blue"})


def priority_pod(prefix: str, *, high: bool) -> Callable[[int], dict[str, Any]]:
    requests = {"cpu": "3000m" if high else "900m", "memory": "500Mi"}
    spec: dict[str, Any] = {"containers": [_container(requests)], "terminationGracePeriodSeconds": 0}
    if high:
        spec["priority"] = 10
    return lambda i: _pod(f"{prefix}-{i}", "default", spec)


WORKLOADS: dict[str, Workload] = {
    w.name: w
    for w in (
        Workload(
            "SchedulingBasic", Size(5000, 1000, 10000), Size(500, 500, 1000), (),
            default_pod("init"), default_pod("measured"), 680,
        ),
        Workload(
            "SchedulingNodeAffinity", Size(5000, 5000, 10000), Size(500, 500, 1000), ("zone1",),
            node_affinity_pod("init"), node_affinity_pod("measured"), 600,
        ),
        Workload(
            "TopologySpreading", Size(5000, 5000, 5000), Size(500, 1000, 1000), ("moon-1", "moon-2", "moon-3"),
            default_pod("init"), spreading_pod("measured"), 460,
        ),
        Workload(
            "SchedulingPodAntiAffinity", Size(5000, 1000, 2000), Size(500, 100, 400), (),
            pod_affinity_pod("init", "sched-0", anti=True), pod_affinity_pod("measured", "sched-1", anti=True), 430,
        ),
        Workload(
            "SchedulingPodAffinity", Size(5000, 5000, 5000), Size(500, 500, 1000), ("zone1",),
            pod_affinity_pod("init", "sched-0", anti=False), pod_affinity_pod("measured", "sched-1", anti=False), 400,
        ),
        Workload(
            "PreemptionBasic", Size(1000, 4000, 1000), Size(500, 2000, 500), (),
            priority_pod("low", high=False), priority_pod("high", high=True), 100,
        ),
    )
}  # fmt: skip


def make_nodes(count: int, zones: tuple[str, ...]) -> Iterator[Node]:
    for i in range(count):
        name = f"scheduler-perf-{i}"
        labels = {HOSTNAME: name}
        if zones:
            labels[ZONE] = zones[i % len(zones)]
        node = parse_object(
            {
                "apiVersion": "v1",
                "kind": "Node",
                "metadata": {"name": name, "labels": labels},
                "status": {"capacity": NODE_CAPACITY},
            }
        )
        assert isinstance(node, Node)
        yield node


@dataclass(slots=True)
class RunResult:
    scheduled: int = 0
    unschedulable: int = 0
    finish_times: list[float] = field(default_factory=list)  # perf_counter at each measured bind


class PodRunner:
    """Drives pods through the queue and the scheduler, applying preemption as kube-scheduler does:
    victims go, the preemptor waits nominated and is scheduled in a later cycle."""

    def __init__(self, scheduler: Scheduler) -> None:
        self.scheduler = scheduler
        framework = next(iter(scheduler.frameworks.values()))
        self.queue = SchedulingQueue(framework.queue_sort.less)
        self.clock = 0.0

    def run(self, pods: list[Pod], result: RunResult, *, timed: bool) -> None:
        for pod in pods:
            self.queue.add(pod, self.clock)
        while True:
            info = self.queue.pop(self.clock)
            if info is None:
                break
            self.clock += 0.001
            outcome = self.scheduler.schedule_pod(info.pod)
            if outcome.selected is not None:
                self.scheduler.bind(info.pod, outcome.selected)
                self.queue.done(info.key)
                result.scheduled += 1
                if timed:
                    result.finish_times.append(time.perf_counter())
                continue
            if outcome.nominated_node:
                # Victims are evicted at once (no grace period here); the preemptor is retried,
                # nominated to the node its victims freed.
                applied = self.scheduler.apply_preemption(outcome)
                self.queue.delete(info.key)
                self.queue.add(applied.preemptor, self.clock)
                continue
            result.unschedulable += 1
            self.queue.delete(info.key)


def _pods(factory: Callable[[int], dict[str, Any]], count: int) -> list[Pod]:
    pods = []
    for i in range(count):
        pod = parse_object(factory(i))
        assert isinstance(pod, Pod)
        pods.append(replace(pod, spec=replace(pod.spec, priority=pod.spec.priority or 0)))
    return pods


def window_average(start: float, finish_times: list[float]) -> float:
    """scheduler_perf's throughput: pods bound per 1-second window, averaged over the windows of the
    measured phase (the last window counts for the fraction of a second it lasted)."""
    if not finish_times:
        return 0.0
    end = finish_times[-1] - start
    windows = int(end) + 1
    counts = [0] * windows
    for moment in finish_times:
        counts[min(int(moment - start), windows - 1)] += 1
    rates = [float(count) for count in counts[:-1]]
    last_length = end - (windows - 1)
    if last_length > 0:
        rates.append(counts[-1] / last_length)
    return sum(rates) / len(rates) if rates else 0.0


def run_workload(workload: Workload, nodes: int | None = None, seed: int = 0) -> dict[str, Any]:
    size = workload.size(nodes)
    scheduler = Scheduler(seed=seed)
    for node in make_nodes(size.nodes, workload.zones):
        scheduler.snapshot.add_node(node)
    runner = PodRunner(scheduler)
    init = RunResult()
    runner.run(_pods(workload.init_pod, size.init_pods), init, timed=False)
    measured_pods = _pods(workload.measured_pod, size.measured_pods)
    measured = RunResult()
    start = time.perf_counter()
    runner.run(measured_pods, measured, timed=True)
    elapsed = time.perf_counter() - start
    return {
        "name": workload.name,
        "nodes": size.nodes,
        "init_pods": size.init_pods,
        "measured_pods": size.measured_pods,
        "pods_per_second": round(measured.scheduled / elapsed, 1) if elapsed > 0 else 0.0,
        "window_average_pods_per_second": round(window_average(start, measured.finish_times), 1),
        "scheduled": measured.scheduled,
        "unschedulable": measured.unschedulable,
        "init_scheduled": init.scheduled,
        "target_pods_per_second": workload.target,
        "seconds": round(elapsed, 3),
    }


def run(names: list[str] | None, nodes: int | None, seed: int = 0) -> dict[str, Any]:
    selected = [WORKLOADS[name] for name in names] if names else list(WORKLOADS.values())
    return {
        "python": platform.python_version(),
        "machine": f"{platform.machine()} {platform.processor() or platform.system()}".strip(),
        "implementation": sys.implementation.name,
        "workloads": [run_workload(workload, nodes, seed) for workload in selected],
    }
