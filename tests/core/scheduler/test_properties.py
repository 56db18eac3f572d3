"""Invariants over random clusters: whatever the input, the scheduler keeps upstream's contracts."""

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scheduler_core.api.manifests import parse_object
from scheduler_core.scheduler.framework import CycleState
from scheduler_core.scheduler.schedule_one import Scheduler

ZONES = ("a", "b", "c")
TAINT_KEYS = ("dedicated", "gpu")
EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")


@st.composite
def node_manifest(draw: Any, index: int) -> dict[str, Any]:
    labels = {"kubernetes.io/hostname": f"n{index}", "topology.kubernetes.io/zone": draw(st.sampled_from(ZONES))}
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
        "cpu": f"{draw(st.integers(1, 8))}",
        "memory": f"{draw(st.integers(1, 16))}Gi",
        "pods": f"{draw(st.integers(1, 20))}",
    }
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": f"n{index}", "labels": labels},
        "spec": {"taints": taints, "unschedulable": draw(st.booleans()) and draw(st.booleans())},
        "status": {"capacity": capacity},
    }


@st.composite
def pod_manifest(draw: Any, index: int) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "containers": [
            {
                "name": "c",
                "image": draw(st.sampled_from(("nginx", "redis:7", "registry.k8s.io/pause:3.10"))),
                "resources": {
                    "requests": {"cpu": f"{draw(st.integers(0, 3000))}m", "memory": f"{draw(st.integers(0, 4096))}Mi"}
                },
            }
        ]
    }
    if draw(st.booleans()):
        spec["tolerations"] = [{"key": draw(st.sampled_from(TAINT_KEYS)), "operator": "Exists"}]
    if draw(st.booleans()):
        spec["nodeSelector"] = {"topology.kubernetes.io/zone": draw(st.sampled_from(ZONES))}
    if draw(st.booleans()):
        spec["affinity"] = {
            "nodeAffinity": {
                "preferredDuringSchedulingIgnoredDuringExecution": [
                    {
                        "weight": draw(st.integers(1, 100)),
                        "preference": {"matchExpressions": [{"key": "disktype", "operator": "In", "values": ["ssd"]}]},
                    }
                ]
            }
        }
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": f"p{index}", "labels": {"app": "web"}},
        "spec": spec,
    }


@st.composite
def cluster(draw: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    nodes = [draw(node_manifest(i)) for i in range(draw(st.integers(1, 8)))]
    pods = [draw(pod_manifest(i)) for i in range(draw(st.integers(1, 12)))]
    return nodes, pods


def _schedule_all(
    nodes: list[dict[str, Any]], pods: list[dict[str, Any]], seed: int
) -> list[tuple[str, str | None, str]]:
    scheduler = Scheduler(seed=seed)
    for node in nodes:
        scheduler.snapshot.add_node(parse_object(node))
    outcomes = []
    for manifest in pods:
        pod = parse_object(manifest)
        result = scheduler.schedule_pod(pod)
        framework = scheduler.framework_for(pod)
        assert framework is not None
        if result.selected is not None:
            # The chosen node passes every Filter, evaluated afresh.
            state = CycleState()
            _, status, _ = framework.run_pre_filter(state, pod, scheduler.snapshot.nodes())
            assert status.is_success
            assert framework.run_filter(state, pod, scheduler.snapshot.node_infos[result.selected]).is_success
            for entry in result.scores:
                assert all(0 <= score <= 100 for score in entry.scores.values())
                assert entry.total == sum(score * framework.score_weights[name] for name, score in entry.scores.items())
            if result.scores:
                best = max(entry.total for entry in result.scores)
                assert next(e for e in result.scores if e.name == result.selected).total == best
            scheduler.bind(pod, result.selected)
        else:
            assert result.message.startswith(f"0/{len(nodes)} nodes are available")
        outcomes.append((pod.key, result.selected, result.message))
    return outcomes


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cluster(), st.integers(0, 2**16))
def test_selected_nodes_pass_every_filter_and_scores_stay_in_range(data, seed):
    nodes, pods = data
    _schedule_all(nodes, pods, seed)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cluster(), st.integers(0, 2**16))
def test_the_same_cluster_and_seed_replay_identically(data, seed):
    nodes, pods = data
    assert _schedule_all(nodes, pods, seed) == _schedule_all(nodes, pods, seed)
