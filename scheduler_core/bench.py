"""`bench`: scheduler throughput on workloads built like upstream's test/integration/scheduler_perf,
and whole-simulation workloads (controllers, scheduler, kubelets, every event recorded).

Scheduler workloads: same node template (4 CPU, 32Gi, 110 pods, a hostname label), same init and
measured pod templates (requests 100m / 500Mi unless the template says otherwise), init pods
scheduled but not timed. The figures are pods per second of this engine on one core with no API
server in the loop: upstream's thresholds are end-to-end figures on a many-core machine with an
API server.

Simulation workloads (SIMULATION_WORKLOADS): a scenario run by `Simulation` from an untimed init
phase (the cluster built and settled) to the end of the run; the measured phase starts at a given
simulated time (the timeline action that starts it) and its wall time is reported with the run's
event count and the process's peak RSS. Each runs in a child process of its own, so the peak RSS is
that workload's alone.
"""

import platform
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from scheduler_core.api.manifests import Manifest, describe_document, parse_object
from scheduler_core.api.types import Node, Pod
from scheduler_core.scheduler.queue import SchedulingQueue
from scheduler_core.scheduler.schedule_one import Scheduler
from scheduler_core.simulation.simulation import Simulation
from scheduler_core.store.cluster import Change, ChangeType, StoredObject

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


SCHEDULER_WORKLOADS: dict[str, Workload] = {
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


# ---------------------------------------------------------------------------- simulation workloads

SIM_IMAGE = "registry.k8s.io/pause:3.10"
SIM_NEW_IMAGE = "registry.k8s.io/pause:3.10.1"
SIM_ZONES = ("zone-a", "zone-b", "zone-c")


@dataclass(frozen=True, slots=True)
class Plan:
    """A simulation workload at one size: its documents and when its measured phase starts."""

    manifests: list[Manifest]
    start: float  # simulated seconds: the measured phase runs from here to the end of the run


@dataclass(frozen=True, slots=True)
class SimulationWorkload:
    """A whole-simulation workload: `build(nodes)` gives its scenario at a cluster size."""

    name: str
    nodes: int  # the size the targets are set for
    small_nodes: int  # the size the test suite runs
    build: Callable[[int], Plan]
    target_seconds: float  # wall seconds of the measured phase, one core here
    target_rss_mib: float | None = None  # peak RSS of the whole run, when the workload has a memory target
    default: bool = True  # run by `bench` without --workload


def _manifest(data: dict[str, Any]) -> Manifest:
    return Manifest(
        kind=str(data["kind"]), object=parse_object(data), document=describe_document(data, 1), line=0, source="bench"
    )


def _node_manifests(count: int) -> list[Manifest]:
    return [
        Manifest(kind="Node", object=node, document=f"Node {node.name}", line=0, source="bench")
        for node in make_nodes(count, SIM_ZONES)
    ]


def _pod_template(labels: dict[str, str]) -> dict[str, Any]:
    container = {"name": "app", "image": SIM_IMAGE, "resources": {"requests": dict(DEFAULT_REQUESTS)}}
    return {"metadata": {"labels": labels}, "spec": {"containers": [container]}}


def _deployment(name: str, replicas: int) -> dict[str, Any]:
    labels = {"app": name}
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {"replicas": replicas, "selector": {"matchLabels": labels}, "template": _pod_template(labels)},
    }


def _action(at: float, op: str, target: str, **args: Any) -> dict[str, Any]:
    spec = {"at": f"{at:g}s", "op": op, "target": target, **args}
    return {"apiVersion": "playground/v1", "kind": "Action", "spec": spec}


ROLLOUT_AT = 30.0


def deployment_rollout(nodes: int) -> Plan:
    """Deployments of 10 replicas (one per 5 nodes: 200 on 1,000 nodes) created and settled, then
    all given a new image at the same instant: every one rolls (RollingUpdate 25%/25%), each old
    pod Terminating for its 30 s grace period."""
    deployments = max(1, nodes // 5)
    manifests = _node_manifests(nodes)
    manifests += [_manifest(_deployment(f"rollout-{i}", 10)) for i in range(deployments)]
    manifests += [
        _manifest(_action(ROLLOUT_AT, "set-image", f"Deployment/default/rollout-{i}", image=SIM_NEW_IMAGE))
        for i in range(deployments)
    ]
    return Plan(manifests, ROLLOUT_AT)


NODE_DOWN_AT = 30.0


def node_down(nodes: int) -> Plan:
    """Deployments of 100 replicas, one per 10 nodes (500 x 100 = 50,000 pods on 5,000 nodes),
    spread by the scheduler (LeastAllocated and the default topology spreading); then one node's
    kubelet stops: NotReady after the 50 s grace period, its pods marked not ready, evicted after
    the 300 s toleration and replaced on other nodes (the evicted ones stay Terminating: their
    kubelet cannot confirm)."""
    manifests = _node_manifests(nodes)
    manifests += [_manifest(_deployment(f"app-{i}", 100)) for i in range(max(1, nodes // 10))]
    manifests.append(_manifest(_action(NODE_DOWN_AT, "node-down", "Node/scheduler-perf-0")))
    return Plan(manifests, NODE_DOWN_AT)


STATEFULSET_AT = 10.0


def statefulset_startup(nodes: int) -> Plan:
    """A StatefulSet of one replica per two nodes (500 on 1,000 nodes) with its headless Service,
    applied once the nodes are up: OrderedReady, each pod created once the one before it is Running
    and Ready (1 s start-up each)."""
    replicas = max(1, nodes // 2)
    labels = {"app": "db"}
    service = {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": "db", "namespace": "default"},
        "spec": {"clusterIP": "None", "selector": labels, "ports": [{"port": 5432}]},
    }
    stateful_set = {
        "apiVersion": "apps/v1",
        "kind": "StatefulSet",
        "metadata": {"name": "db", "namespace": "default"},
        "spec": {
            "replicas": replicas,
            "serviceName": "db",
            "selector": {"matchLabels": labels},
            "template": _pod_template(labels),
        },
    }
    manifests = _node_manifests(nodes)
    manifests.append(_manifest(service))
    manifests.append(_manifest(_action(STATEFULSET_AT, "apply", "StatefulSet/default/db", manifest=stateful_set)))
    return Plan(manifests, STATEFULSET_AT)


SIMULATION_WORKLOADS: dict[str, SimulationWorkload] = {
    w.name: w
    for w in (
        SimulationWorkload("DeploymentRollout", 1000, 50, deployment_rollout, 10.0),
        SimulationWorkload("NodeDown", 5000, 100, node_down, 2.0, target_rss_mib=1024.0, default=False),
        SimulationWorkload("StatefulSetStartup", 1000, 60, statefulset_startup, 2.0),
    )
}


# Every workload `bench --workload` takes; without --workload it runs the DEFAULT_WORKLOADS.
WORKLOADS: dict[str, Workload | SimulationWorkload] = {**SCHEDULER_WORKLOADS, **SIMULATION_WORKLOADS}
DEFAULT_WORKLOADS = [name for name, w in WORKLOADS.items() if not isinstance(w, SimulationWorkload) or w.default]


def peak_rss_mib() -> float:
    """The process's peak resident set size (getrusage ru_maxrss: KiB on Linux, bytes on macOS)."""
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024, 1)


@dataclass(slots=True)
class _PodCounter:
    created: int = 0
    deleted: int = 0

    def __call__(self, change: Change[StoredObject]) -> None:
        if change.kind == "Pod":
            if change.type is ChangeType.ADDED:
                self.created += 1
            elif change.type is ChangeType.DELETED:
                self.deleted += 1


@dataclass(slots=True)
class SimulationRun:
    simulation: Simulation
    plan: Plan
    init_seconds: float = 0.0
    init_cpu_seconds: float = 0.0
    seconds: float = 0.0  # the measured phase, wall clock
    cpu_seconds: float = 0.0  # the measured phase, this process's CPU time
    init_events: int = 0
    init_pods_created: int = 0
    pods_at_start: int = 0
    counter: _PodCounter = field(default_factory=_PodCounter)


def simulate_workload(workload: SimulationWorkload, nodes: int | None = None, seed: int = 0) -> SimulationRun:
    """Build and run the workload; time the init and measured phases."""
    plan = workload.build(nodes or workload.nodes)
    simulation = Simulation(plan.manifests, seed=seed)
    outcome = SimulationRun(simulation, plan)
    simulation.cluster.watch(outcome.counter, kinds=("Pod",))
    begin, cpu_begin = time.perf_counter(), time.process_time()
    marks: list[tuple[float, float]] = []

    def measured_phase_starts() -> None:
        # Scheduled before the run applies the documents, so it fires before the actions of that instant.
        marks.append((time.perf_counter(), time.process_time()))
        outcome.init_events = len(simulation.cluster.events)
        outcome.init_pods_created = outcome.counter.created
        outcome.pods_at_start = simulation.cluster.count(Pod)

    simulation.after(plan.start, measured_phase_starts, label="bench: measured phase")
    for _ in simulation.run():
        pass
    end, cpu_end = time.perf_counter(), time.process_time()
    start, cpu_start = marks[0] if marks else (end, cpu_end)
    outcome.init_seconds = start - begin
    outcome.init_cpu_seconds = cpu_start - cpu_begin
    outcome.seconds = end - start
    outcome.cpu_seconds = cpu_end - cpu_start
    return outcome


def run_simulation_workload(name: str, nodes: int | None = None, seed: int = 0) -> dict[str, Any]:
    workload = SIMULATION_WORKLOADS[name]
    outcome = simulate_workload(workload, nodes, seed)
    cluster = outcome.simulation.cluster
    events = cluster.events
    pods = outcome.counter.created
    measured_created = pods - outcome.init_pods_created
    seconds = outcome.seconds
    entry: dict[str, Any] = {
        "name": workload.name,
        "kind": "simulation",
        "nodes": cluster.count(Node),
        "pods": pods,  # created over the whole run
        "events": len(events),
        "seconds": round(seconds, 3),  # wall time of the measured phase
        "target_seconds": workload.target_seconds,
        "peak_rss_mib": peak_rss_mib(),  # of the process that ran this workload alone
        "cpu_seconds": round(outcome.cpu_seconds, 3),
        "init_seconds": round(outcome.init_seconds, 3),
        "init_cpu_seconds": round(outcome.init_cpu_seconds, 3),
        "init_events": outcome.init_events,
        "measured_events": len(events) - outcome.init_events,
        "pods_at_start": outcome.pods_at_start,
        "measured_pods_created": measured_created,
        "pods_deleted": outcome.counter.deleted,
        "simulated_seconds": round(outcome.simulation.now, 3),
    }
    if workload.target_rss_mib is not None:
        entry["target_rss_mib"] = workload.target_rss_mib
    # The scheduler workloads' fields, so that one report reads the same for both kinds: the pods
    # created in the measured phase per second (at the target, as many per target_seconds).
    rate = measured_created / seconds if seconds > 0 else 0.0
    entry.update(
        {
            "init_pods": outcome.pods_at_start,
            "measured_pods": measured_created,
            "pods_per_second": round(rate, 1),
            "window_average_pods_per_second": round(rate, 1),
            "target_pods_per_second": round(measured_created / workload.target_seconds, 1),
            "scheduled": sum(1 for event in events[outcome.init_events :] if event.reason == "Scheduled"),
            "unschedulable": sum(1 for pod in cluster.objects(Pod) if not pod.spec.node_name),
        }
    )
    return entry


def _run_isolated(name: str, nodes: int | None, seed: int) -> dict[str, Any]:
    """A simulation workload in a fresh interpreter: its timing and peak RSS are its own."""
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as pool:
        return pool.submit(run_simulation_workload, name, nodes, seed).result()


def run(names: list[str] | None, nodes: int | None, seed: int = 0) -> dict[str, Any]:
    """The workloads named (default: DEFAULT_WORKLOADS), scheduler ones in this process and
    simulation ones each in a child process of its own."""
    entries = []
    for name in names or DEFAULT_WORKLOADS:
        workload = WORKLOADS[name]
        if isinstance(workload, SimulationWorkload):
            entries.append(_run_isolated(name, nodes, seed))
        else:
            entries.append(run_workload(workload, nodes, seed))
    return {
        "python": platform.python_version(),
        "machine": f"{platform.machine()} {platform.processor() or platform.system()}".strip(),
        "implementation": sys.implementation.name,
        "workloads": entries,
    }
