"""The bench's simulation workloads at their small sizes: they do what they are meant to measure
(correctness only; the timing is bench's business, not the test suite's)."""

import json

from scheduler_core import bench
from scheduler_core.api.types import Node, Pod
from scheduler_core.api.workloads import Deployment, ReplicaSet, StatefulSet
from scheduler_core.cli import main
from scheduler_core.controllers.node_lifecycle import NODE_MONITOR_GRACE_PERIOD


def _small(name: str, seed: int = 0) -> bench.SimulationRun:
    workload = bench.SIMULATION_WORKLOADS[name]
    return bench.simulate_workload(workload, workload.small_nodes, seed)


def test_deployment_rollout_replaces_every_pod_with_the_new_image():
    run = _small("DeploymentRollout")
    cluster = run.simulation.cluster
    deployments = cluster.objects(Deployment)
    assert len(deployments) == bench.SIMULATION_WORKLOADS["DeploymentRollout"].small_nodes // 5
    pods = cluster.objects(Pod)
    assert len(pods) == 10 * len(deployments)
    assert all(pod.spec.containers[0].image == bench.SIM_NEW_IMAGE for pod in pods)
    assert all(pod.status.phase == "Running" and pod.status.ready and pod.spec.node_name for pod in pods)
    # Every first pod was replaced: as many created in the rollout as there were, and as many deleted.
    assert run.pods_at_start == len(pods)
    assert run.counter.created == 2 * len(pods)
    assert run.counter.deleted == len(pods)
    for d in deployments:
        assert (d.status.replicas, d.status.updated_replicas, d.status.available_replicas) == (10, 10, 10)
        prefix = f"{d.metadata.name}-"
        replica_sets = [rs for rs in cluster.objects(ReplicaSet) if rs.metadata.name.startswith(prefix)]
        assert sorted(rs.spec.replicas for rs in replica_sets) == [0, 10]
    events = cluster.events
    assert not [e for e in events if e.type == "Warning"]
    rollout = events[run.init_events :]
    assert rollout[0].time == bench.ROLLOUT_AT
    assert sum(e.reason == "Killing" for e in rollout) == len(pods)
    # The run ends when the last old pod is gone, after its 30 s grace period.
    assert run.simulation.now > bench.ROLLOUT_AT + 30


def test_node_down_evicts_the_nodes_pods_and_replaces_them_elsewhere():
    run = _small("NodeDown")
    cluster = run.simulation.cluster
    down = "scheduler-perf-0"
    node = cluster.get(Node, down)
    assert not node.status.ready
    assert {t.key for t in node.spec.taints} == {"node.kubernetes.io/unreachable"}
    stranded = cluster.pods_on_node(down)
    assert stranded and all(pod.metadata.deletion_timestamp is not None for pod in stranded)
    assert not any(pod.status.ready for pod in stranded)
    # Every Deployment is whole again on the other nodes.
    for d in cluster.objects(Deployment):
        assert d.status.available_replicas == d.spec.replicas == 100
    live = [pod for pod in cluster.objects(Pod) if pod.metadata.deletion_timestamp is None]
    assert len(live) == run.pods_at_start
    assert all(pod.spec.node_name != down and pod.status.ready for pod in live)
    # The pods spread: no node holds many more than its share.
    per_node: dict[str, int] = {}
    for pod in live:
        per_node[pod.spec.node_name] = per_node.get(pod.spec.node_name, 0) + 1
    assert max(per_node.values()) <= 2 * len(live) / (cluster.count(Node) - 1)
    measured = cluster.events[run.init_events :]
    not_ready_at = bench.NODE_DOWN_AT + NODE_MONITOR_GRACE_PERIOD
    assert (measured[0].time, measured[0].reason, measured[0].object) == (not_ready_at, "NodeNotReady", f"Node/{down}")
    evictions = [e for e in measured if e.reason == "TaintManagerEviction"]
    assert len(evictions) == len(stranded)
    assert {e.time for e in evictions} == {not_ready_at + 300}
    assert run.counter.created - run.init_pods_created == len(stranded)


def test_statefulset_startup_creates_one_ordinal_at_a_time():
    run = _small("StatefulSetStartup")
    cluster = run.simulation.cluster
    replicas = bench.SIMULATION_WORKLOADS["StatefulSetStartup"].small_nodes // 2
    ss = cluster.get(StatefulSet, "default/db")
    assert (ss.status.replicas, ss.status.ready_replicas, ss.status.available_replicas) == (replicas,) * 3
    pods = {pod.name: pod for pod in cluster.objects(Pod)}
    assert sorted(pods) == sorted(f"db-{i}" for i in range(replicas))
    assert all(pod.status.phase == "Running" and pod.status.ready for pod in pods.values())
    created = [e for e in cluster.events if e.reason == "SuccessfulCreate"]
    assert [e.message for e in created] == [f"create Pod db-{i} in StatefulSet db successful" for i in range(replicas)]
    # OrderedReady: each pod is created once the one before has started (1 s of start-up each).
    assert [e.time for e in created] == [bench.STATEFULSET_AT + i for i in range(replicas)]


def test_bench_reports_a_simulation_workload_as_json():
    status = main(["bench", "--workload", "StatefulSetStartup", "--nodes", "20", "-o", "json"], out=(out := _Out()))
    assert status == 0
    (entry,) = json.loads(out.text)["workloads"]
    for key in ("name", "nodes", "pods", "events", "seconds", "target_seconds", "peak_rss_mib"):
        assert key in entry
    assert (entry["name"], entry["nodes"], entry["pods"], entry["events"]) == ("StatefulSetStartup", 20, 10, 50)
    assert entry["target_seconds"] == 2.0 and entry["peak_rss_mib"] > 0


def test_the_default_bench_run_leaves_out_only_the_long_node_down():
    assert set(bench.WORKLOADS) - set(bench.DEFAULT_WORKLOADS) == {"NodeDown"}


class _Out:
    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> int:
        self.text += text
        return len(text)
