"""The fast path (scheduler.fast_path) against the generic loops: on random clusters and pods, and on
the bench workloads at 500 nodes, two schedulers with the same seed, one with fast_path=False, take
the same decisions: the same selected node, nodes evaluated, every node's filter status (code,
reasons, plugin), every plugin's normalized score and the totals, the FailedScheduling message and
the preemption outcome, and they leave the random generator and the rotating start index in the
same state."""

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scheduler_core.api.manifests import parse_object
from scheduler_core.api.types import Node, Pod
from scheduler_core.bench import SCHEDULER_WORKLOADS as WORKLOADS
from scheduler_core.bench import _pods, make_nodes
from scheduler_core.scheduler.config import PluginRef, PluginSet, Profile, SchedulerConfiguration
from scheduler_core.scheduler.queue import SchedulingQueue
from scheduler_core.scheduler.schedule_one import Scheduler, ScheduleResult
from scheduler_core.scheduler.selector_source import SelectorSource

ZONES = ("a", "b", "c")
TAINT_KEYS = ("dedicated", "gpu")
EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")
COLORS = ("red", "blue")
HOSTNAME = "kubernetes.io/hostname"
ZONE = "topology.kubernetes.io/zone"
IMAGES = ("nginx", "redis:7", "registry.k8s.io/pause:3.10")


# ---------------------------------------------------------------------------- comparing


def _status(status: Any) -> Any:
    return None if status is None else (status.code, status.reasons, status.plugin)


def _snapshot_of(result: ScheduleResult) -> dict[str, Any]:
    diagnosis = result.diagnosis
    return {
        "selected": result.selected,
        "feasible": list(result.feasible),
        "evaluated": result.evaluated_nodes,
        "statuses": [(name, _status(status)) for name, status in diagnosis.node_statuses.items()],
        "absent": _status(diagnosis.absent_status),
        "unschedulable_plugins": sorted(diagnosis.unschedulable_plugins),
        "pre_filter_message": diagnosis.pre_filter_message,
        "post_filter_message": diagnosis.post_filter_message,
        "scores": [(entry.name, list(entry.scores.items()), entry.total) for entry in result.scores],
        "message": result.message,
        "nominated": result.nominated_node,
        "victims": [victim.key for victim in result.victims],
    }


class Lockstep:
    """A fast and a generic scheduler fed the same cluster and the same pods."""

    def __init__(self, seed: int, configuration: SchedulerConfiguration | None = None) -> None:
        self.fast = Scheduler(configuration, seed=seed)
        self.slow = Scheduler(configuration, seed=seed, fast_path=False)
        self.compared = 0

    def fast_counts(self) -> dict[str, int]:
        """How many cycles the fast scheduler's fused loops ran, and how many they handed back."""
        total: dict[str, int] = {}
        for framework in self.fast.frameworks.values():
            assert framework.fast_path is not None
            for key, value in framework.fast_path.counts.items():
                total[key] = total.get(key, 0) + value
        for framework in self.slow.frameworks.values():
            assert framework.fast_path is None
        return total

    @property
    def both(self) -> tuple[Scheduler, Scheduler]:
        return self.fast, self.slow

    def add_node(self, node: Node) -> None:
        for sched in self.both:
            sched.snapshot.add_node(node)

    def add_pod(self, pod: Pod) -> None:
        for sched in self.both:
            sched.snapshot.add_pod(pod)

    def schedule(self, pod: Pod) -> tuple[ScheduleResult, ScheduleResult]:
        fast = self.fast.schedule_pod(pod)
        slow = self.slow.schedule_pod(pod)
        assert _snapshot_of(fast) == _snapshot_of(slow), pod.key
        assert self.fast.rng.getstate() == self.slow.rng.getstate(), pod.key
        assert self.fast.next_start_node_index == self.slow.next_start_node_index, pod.key
        self.compared += 1
        return fast, slow

    def settle(self, pod: Pod, results: tuple[ScheduleResult, ScheduleResult]) -> Pod | None:
        """Bind, or carry out the preemption; returns the pod to retry (nominated) if any."""
        selected = results[0].selected
        if selected is not None:
            for sched in self.both:
                sched.bind(pod, selected)
            return None
        if results[0].nominated_node:
            retried = [
                sched.apply_preemption(result).preemptor for sched, result in zip(self.both, results, strict=True)
            ]
            assert retried[0] == retried[1]
            return retried[0]
        return None


# ---------------------------------------------------------------------------- random clusters


@st.composite
def node_manifest(draw: Any, index: int) -> dict[str, Any]:
    labels = {HOSTNAME: f"n{index}"}
    if draw(st.integers(0, 5)):
        labels[ZONE] = draw(st.sampled_from(ZONES))
    if draw(st.booleans()):
        labels["disktype"] = draw(st.sampled_from(("ssd", "hdd")))
    taints = draw(
        st.lists(
            st.fixed_dictionaries(
                {"key": st.sampled_from(TAINT_KEYS), "value": st.just("x"), "effect": st.sampled_from(EFFECTS)}
            ),
            max_size=2,
            unique_by=lambda t: (t["key"], t["effect"]),
        )
    )
    capacity = {
        "cpu": f"{draw(st.integers(1, 6))}",
        "memory": f"{draw(st.integers(1, 12))}Gi",
        "pods": f"{draw(st.integers(1, 12))}",
    }
    if draw(st.integers(0, 4)) == 0:
        capacity["example.com/gpu"] = str(draw(st.integers(0, 2)))
    images = [
        {"names": [name], "sizeBytes": draw(st.integers(0, 2000)) * 1024 * 1024}
        for name in draw(st.lists(st.sampled_from(("nginx:latest", "redis:7")), max_size=2, unique=True))
    ]
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": f"n{index}", "labels": labels},
        "spec": {"taints": taints, "unschedulable": draw(st.integers(0, 7)) == 0},
        "status": {"capacity": capacity, "images": images},
    }


def _term(draw: Any, *, anti: bool) -> dict[str, Any]:
    term: dict[str, Any] = {
        "labelSelector": {"matchLabels": {"color": draw(st.sampled_from(COLORS))}},
        "topologyKey": draw(st.sampled_from((HOSTNAME, ZONE))),
    }
    if draw(st.booleans()):
        term["namespaces"] = ["default", "other"]
    return term


@st.composite
def pod_manifest(draw: Any, index: int) -> dict[str, Any]:
    requests = {"cpu": f"{draw(st.integers(0, 2500))}m", "memory": f"{draw(st.integers(0, 3000))}Mi"}
    if draw(st.integers(0, 5)) == 0:
        requests = {}
    elif draw(st.integers(0, 6)) == 0:
        requests["example.com/gpu"] = "1"
    container: dict[str, Any] = {
        "name": "c",
        "image": draw(st.sampled_from(IMAGES)),
        "resources": {"requests": requests},
    }
    if draw(st.integers(0, 5)) == 0:
        container["ports"] = [{"containerPort": 80, "hostPort": draw(st.sampled_from((8080, 9090)))}]
    spec: dict[str, Any] = {"containers": [container], "priority": draw(st.sampled_from((0, 0, 5, 10)))}
    if draw(st.booleans()):
        spec["tolerations"] = [{"key": draw(st.sampled_from(TAINT_KEYS)), "operator": "Exists"}]
    if draw(st.integers(0, 4)) == 0:
        spec["nodeSelector"] = {ZONE: draw(st.sampled_from(ZONES))}
    affinity: dict[str, Any] = {}
    choice = draw(st.integers(0, 5))
    if choice == 1:
        affinity["nodeAffinity"] = {
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {
                    "weight": draw(st.integers(1, 100)),
                    "preference": {"matchExpressions": [{"key": "disktype", "operator": "In", "values": ["ssd"]}]},
                }
            ]
        }
    elif choice == 2:
        affinity["nodeAffinity"] = {
            "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [
                    {"matchExpressions": [{"key": ZONE, "operator": "In", "values": list(ZONES[:2])}]}
                ]
            }
        }
    kind = draw(st.sampled_from((None, None, "podAffinity", "podAntiAffinity")))
    if kind is not None:
        if draw(st.booleans()):
            affinity[kind] = {
                "requiredDuringSchedulingIgnoredDuringExecution": [_term(draw, anti=kind != "podAffinity")]
            }
        else:
            affinity[kind] = {
                "preferredDuringSchedulingIgnoredDuringExecution": [
                    {"weight": draw(st.integers(1, 100)), "podAffinityTerm": _term(draw, anti=kind != "podAffinity")}
                ]
            }
    if affinity:
        spec["affinity"] = affinity
    if draw(st.integers(0, 3)) == 0:
        spec["topologySpreadConstraints"] = [
            {
                "maxSkew": draw(st.integers(1, 2)),
                "topologyKey": draw(st.sampled_from((ZONE, HOSTNAME))),
                "whenUnsatisfiable": draw(st.sampled_from(("DoNotSchedule", "ScheduleAnyway"))),
                "labelSelector": {"matchLabels": {"color": draw(st.sampled_from(COLORS))}},
            }
        ]
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "name": f"p{index}",
            "namespace": draw(st.sampled_from(("default", "default", "other"))),
            "labels": {"app": "web", "color": draw(st.sampled_from(COLORS))},
        },
        "spec": spec,
    }


@st.composite
def cluster(draw: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    nodes = [draw(node_manifest(i)) for i in range(draw(st.integers(1, 9)))]
    pods = [draw(pod_manifest(i)) for i in range(draw(st.integers(1, 16)))]
    return nodes, pods


def _parsed_pod(manifest: dict[str, Any]) -> Pod:
    pod = parse_object(manifest)
    assert isinstance(pod, Pod)
    return pod


HDD = {"key": "disktype", "operator": "In", "values": ["hdd"]}
# A profile of the same plugins with other arguments and weights: still the fast path's.
CUSTOM_PROFILE = Profile(
    multi_point=PluginSet(
        tuple(
            PluginRef(ref.name, 5 if ref.name == "NodeResourcesBalancedAllocation" else ref.weight)
            for ref in Profile().multi_point.enabled
        )
    ),
    plugin_args={
        "NodeResourcesFit": {
            "scoringStrategy": {
                "type": "MostAllocated",
                "resources": [{"name": "cpu", "weight": 3}, {"name": "memory", "weight": 1}],
            }
        },
        "NodeAffinity": {
            "addedAffinity": {
                "preferredDuringSchedulingIgnoredDuringExecution": [
                    {"weight": 7, "preference": {"matchExpressions": [HDD]}}
                ]
            }
        },
    },
)  # fmt: skip


def _run_random(
    nodes: list[dict[str, Any]],
    pods: list[dict[str, Any]],
    seed: int,
    percentage: int,
    services: bool,
    custom: bool = False,
) -> int:
    configuration = SchedulerConfiguration(
        profiles=(CUSTOM_PROFILE if custom else Profile(),), percentage_of_nodes_to_score=percentage
    )
    lock = Lockstep(seed, configuration)
    for manifest in nodes:
        node = parse_object(manifest)
        assert isinstance(node, Node)
        lock.add_node(node)
    if services:
        # A Service selecting app=web gives the pods the system default spreading constraints.
        for sched in lock.both:
            sched.handle.selector_sources.append(SelectorSource("Service", "default", "web", _selector()))
    pending = [_parsed_pod(manifest) for manifest in pods]
    retries = 0
    while pending:
        pod = pending.pop(0)
        retry = lock.settle(pod, lock.schedule(pod))
        if retry is not None and retries < 6:
            retries += 1
            pending.append(retry)
    counts = lock.fast_counts()
    assert counts["filter_fallback"] == 0 and counts["score_fallback"] == 0, counts
    return lock.compared


def _selector() -> Any:
    from scheduler_core.api.types import LabelSelector

    return LabelSelector({"app": "web"})


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(cluster(), st.integers(0, 2**16), st.sampled_from((0, 0, 30, 100)), st.booleans(), st.booleans())
def test_fast_and_generic_paths_agree_on_random_clusters(data, seed, percentage, services, custom):
    nodes, pods = data
    assert _run_random(nodes, pods, seed, percentage, services, custom) >= len(pods)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(pod_manifest(0), min_size=40, max_size=60), st.integers(0, 2**16))
def test_fast_and_generic_paths_agree_with_sampling_over_many_nodes(pods, seed):
    """Above 100 nodes only a share of them is evaluated: the rotation and the early stop must match."""
    nodes = [
        {
            "apiVersion": "v1",
            "kind": "Node",
            "metadata": {"name": f"big{i}", "labels": {HOSTNAME: f"big{i}", ZONE: ZONES[i % 3]}},
            "status": {"capacity": {"cpu": "4", "memory": "8Gi", "pods": "6"}},
        }
        for i in range(160)
    ]
    named = [{**pod, "metadata": {**pod["metadata"], "name": f"p{i}"}} for i, pod in enumerate(pods)]
    assert _run_random(nodes, named, seed, 0, False) >= len(pods)


def test_a_profile_with_unknown_plugins_falls_back_to_the_generic_loops():
    profile = Profile(
        multi_point=PluginSet((PluginRef("PrioritySort"), PluginRef("NodeResourcesFit"), PluginRef("DefaultBinder"))),
        points={"score": PluginSet((PluginRef("NodeResourcesBalancedAllocation", 5),))},
    )
    lock = Lockstep(3, SchedulerConfiguration(profiles=(profile,)))
    for node in make_nodes(30, ("z1", "z2")):
        lock.add_node(node)
    for pod in _pods(WORKLOADS["SchedulingBasic"].measured_pod, 40):
        lock.settle(pod, lock.schedule(pod))
    # NodeResourcesFit alone is covered; a profile's own weights too.
    assert lock.fast_counts()["filter"] == 40 and lock.fast_counts()["score"] == 40


def test_a_pod_with_claims_or_an_unknown_filter_plugin_takes_the_generic_loops():
    from scheduler_core.scheduler.registry import DEFAULT_REGISTRY

    class Picky:
        name = "Picky"

        def filter(self, state: Any, pod: Pod, node: Any) -> Any:
            from scheduler_core.scheduler.framework import SUCCESS, unschedulable

            return unschedulable("picky") if node.name.endswith("3") else SUCCESS

    profile = Profile(
        multi_point=PluginSet((*Profile().multi_point.enabled, PluginRef("Picky"))),
    )
    registry = {**DEFAULT_REGISTRY, "Picky": lambda args, handle: Picky()}
    configuration = SchedulerConfiguration(profiles=(profile,))
    fast = Scheduler(configuration, registry=registry, seed=5)
    slow = Scheduler(configuration, registry=registry, seed=5, fast_path=False)
    for node in make_nodes(40, ("z1", "z2")):
        for sched in (fast, slow):
            sched.snapshot.add_node(node)
    for pod in _pods(WORKLOADS["SchedulingBasic"].measured_pod, 20):
        results = [sched.schedule_pod(pod) for sched in (fast, slow)]
        assert _snapshot_of(results[0]) == _snapshot_of(results[1])
        for sched in (fast, slow):
            sched.bind(pod, results[0].selected or "")
    counts = next(iter(fast.frameworks.values())).fast_path.counts
    assert counts["filter"] == 0 and counts["filter_fallback"] == 20 and counts["score"] == 20


# ---------------------------------------------------------------------------- the bench workloads


def _run_workload(name: str, init_pods: int, measured_pods: int) -> tuple[int, dict[str, int]]:
    workload = WORKLOADS[name]
    lock = Lockstep(0)
    for node in make_nodes(workload.small.nodes, workload.zones):
        lock.add_node(node)
    framework = next(iter(lock.fast.frameworks.values()))
    queue = SchedulingQueue(framework.queue_sort.less)
    clock = 0.0
    for phase in (_pods(workload.init_pod, init_pods), _pods(workload.measured_pod, measured_pods)):
        for pod in phase:
            queue.add(pod, clock)
        while (info := queue.pop(clock)) is not None:
            clock += 0.001
            results = lock.schedule(info.pod)
            retry = lock.settle(info.pod, results)
            if results[0].selected is not None:
                queue.done(info.key)
                continue
            queue.delete(info.key)
            if retry is not None:
                queue.add(retry, clock)
    return lock.compared, lock.fast_counts()


# Upstream's 500-node sizes (bench Workload.small): nodes, init pods, measured pods.
BENCH_SIZES = {name: (workload.small.init_pods, workload.small.measured_pods) for name, workload in WORKLOADS.items()}


@pytest.mark.parametrize("name", sorted(BENCH_SIZES))
def test_fast_and_generic_paths_agree_on_the_bench_workloads(name):
    init, measured = BENCH_SIZES[name]
    assert WORKLOADS[name].small.nodes == 500
    compared, counts = _run_workload(name, init, measured)
    assert compared >= init + measured
    # Every cycle of the bench workloads is the fused loops' own.
    assert counts["filter_fallback"] == 0 and counts["score_fallback"] == 0 and counts["filter"] > 0, counts


def test_lazy_scores_read_like_a_list():
    lock = Lockstep(1)
    for node in make_nodes(20, ("z1",)):
        lock.add_node(node)
    pod = _pods(WORKLOADS["SchedulingBasic"].measured_pod, 1)[0]
    result = lock.fast.schedule_pod(replace(pod))
    assert len(result.scores) == 20 and len(result.feasible) == 20
    assert result.scores is result.scores  # built once


def test_the_snapshot_journal_names_the_nodes_that_changed():
    lock = Lockstep(0)
    nodes = list(make_nodes(3, ("z1",)))
    for node in nodes:
        lock.add_node(node)
    snapshot = lock.fast.snapshot
    epoch, position = snapshot.epoch, snapshot.journal_position()
    assert snapshot.changed_since(epoch, position) == []
    pod = replace(_pods(WORKLOADS["SchedulingBasic"].measured_pod, 1)[0])
    bound = lock.fast.bind(pod, nodes[1].name)
    assert [info.node.name for info in snapshot.changed_since(epoch, position) or []] == [nodes[1].name]
    clone = snapshot.node_infos[nodes[0].name].clone()
    clone.remove_pod(bound.key)
    clone.add_pod(snapshot.node_infos[nodes[1].name].pods[0])
    assert len(snapshot.changed_since(epoch, position) or []) == 1  # clones are not journaled
    snapshot.remove_pod(bound)
    assert len(snapshot.changed_since(epoch, position) or []) == 2
    snapshot.add_node(next(iter(make_nodes(4, ("z2",)))))  # same name as nodes[0]: an update
    assert snapshot.changed_since(epoch, position) is None  # node objects or order changed
    # Readers that fall too far behind are told to start over.
    epoch, position = snapshot.epoch, snapshot.journal_position()
    for _ in range(3000):
        snapshot.add_pod(bound)
        snapshot.remove_pod(bound)
    assert snapshot.changed_since(epoch, position) is None
    assert len(snapshot._journal) <= 4096 + 1
