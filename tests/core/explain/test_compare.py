"""Comparing two finished simulations: the same workload under two scheduler configurations, two
seeds, or two versions of a scenario."""

import pytest

from scheduler_core.api.manifests import load_manifests
from scheduler_core.explain.compare import Change, Comparison, compare, outcome_of
from scheduler_core.scheduler.config import parse_configuration
from scheduler_core.simulation.simulation import Simulation

UNTIL = 3600.0


def node(name: str, zone: str, cpu: str = "4", memory: str = "8Gi") -> str:
    return (
        "apiVersion: v1\nkind: Node\n"
        f"metadata: {{name: {name}, labels: {{kubernetes.io/hostname: {name}, topology.kubernetes.io/zone: {zone}}}}}\n"
        f"status: {{capacity: {{cpu: '{cpu}', memory: {memory}, pods: '110'}}}}\n"
    )


def bare_pod(name: str, cpu: str = "1", memory: str = "1Gi", extra: str = "") -> str:
    return (
        f"apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\n"
        f"spec: {{{extra}containers: [{{name: c, image: app, "
        f"resources: {{requests: {{cpu: '{cpu}', memory: {memory}}}}}}}]}}\n"
    )


def deployment(name: str, replicas: int, cpu: str) -> str:
    return f"""apiVersion: apps/v1
kind: Deployment
metadata: {{name: {name}}}
spec:
  replicas: {replicas}
  selector: {{matchLabels: {{app: {name}}}}}
  template:
    metadata: {{labels: {{app: {name}}}}}
    spec: {{containers: [{{name: c, image: {name}, resources: {{requests: {{cpu: '{cpu}', memory: 512Mi}}}}}}]}}
"""


THREE_ZONES = [node("node-a", "zone-a"), node("node-b", "zone-b"), node("node-c", "zone-c")]
BIN_PACKING = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy: {type: MostAllocated}
"""
SPREAD_HARD = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: PodTopologySpread
    args:
      defaultingType: List
      defaultConstraints:
      - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule}
"""


def simulate(documents: list[str], config: str = "", seed: int = 0) -> Simulation:
    simulation = Simulation(
        load_manifests("---\n".join(documents)), parse_configuration(config) if config else None, seed=seed
    )
    simulation.run_to_end(UNTIL)
    return simulation


def placements(comparison: Comparison) -> dict[str, tuple[str | None, str | None, Change]]:
    return {
        pod.name: (pod.a.node if pod.a else None, pod.b.node if pod.b else None, pod.change) for pod in comparison.pods
    }


def test_most_allocated_packs_the_pods_that_least_allocated_spread_onto_one_node():
    scenario = [*THREE_ZONES, bare_pod("one"), bare_pod("two"), bare_pod("three")]
    comparison = compare(simulate(scenario), simulate(scenario, BIN_PACKING))
    # LeastAllocated puts each pod on the emptiest node; MostAllocated follows the first one.
    assert placements(comparison) == {
        "one": ("node-b", "node-b", Change.SAME),
        "three": ("node-c", "node-b", Change.MOVED),
        "two": ("node-a", "node-b", Change.MOVED),
    }
    assert [pod.name for pod in comparison.differences] == ["three", "two"]
    assert comparison.count(Change.MOVED) == 2
    spread, packed = comparison.a.balance, comparison.b.balance
    assert [(n.name, n.cpu_share, n.pods) for n in spread.nodes] == [
        ("node-a", 0.25, 1),
        ("node-b", 0.25, 1),
        ("node-c", 0.25, 1),
    ]
    assert [(n.name, n.cpu_share, n.memory_share, n.pods) for n in packed.nodes] == [
        ("node-a", 0.0, 0.0, 0),
        ("node-b", 0.75, 0.375, 3),
        ("node-c", 0.0, 0.0, 0),
    ]
    assert (spread.nodes_used, packed.nodes_used) == (3, 1)
    assert spread.cpu_share_stddev == 0.0
    assert packed.cpu_share_stddev == pytest.approx(0.353553, abs=1e-6)  # pstdev(0, 0.75, 0)
    assert [(z.zone, z.nodes, z.pods) for z in packed.zones] == [("zone-a", 1, 0), ("zone-b", 1, 3), ("zone-c", 1, 0)]
    assert (spread.zone_spread, packed.zone_spread) == (0, 3)
    assert spread.pending == packed.pending == ()


def test_default_spreading_still_spreads_a_deployment_under_most_allocated():
    # The system default PodTopologySpread constraints (weight 2) outweigh MostAllocated (weight 1)
    # for the Deployment's pods, while the bare pods, which have none, are packed.
    scenario = [*THREE_ZONES, bare_pod("one"), bare_pod("two"), bare_pod("three"), deployment("web", 3, "500m")]
    comparison = compare(simulate(scenario), simulate(scenario, BIN_PACKING))
    for side in (comparison.a, comparison.b):
        (web,) = side.balance.workload_spreads
        assert web.owner.startswith("ReplicaSet/web-")
        assert web.per_zone == (("zone-a", 1), ("zone-b", 1), ("zone-c", 1))
        assert web.skew == 0
    assert comparison.b.balance.nodes[1].cpu_share == 0.875  # node-b: the three bare pods and one web pod
    assert comparison.count(Change.ONLY_IN_A) == comparison.count(Change.ONLY_IN_B) == 0


def test_a_hard_zone_spread_leaves_the_pod_that_would_break_max_skew_pending_with_the_schedulers_message():
    scenario = [node("small-a", "zone-a", cpu="1"), node("big-b", "zone-b", cpu="8"), deployment("api", 4, "1")]
    comparison = compare(simulate(scenario), simulate(scenario, SPREAD_HARD))
    soft, hard = comparison.a.balance, comparison.b.balance
    assert (soft.workload_spreads[0].per_zone, soft.workload_spreads[0].skew) == ((("zone-a", 1), ("zone-b", 3)), 2)
    assert (hard.workload_spreads[0].per_zone, hard.workload_spreads[0].skew) == ((("zone-a", 1), ("zone-b", 2)), 1)
    assert soft.pending == ()
    (pending,) = hard.pending
    assert pending.owner.startswith("ReplicaSet/api-")
    assert pending.message is not None
    assert pending.message.startswith(
        "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match pod topology spread constraints."
    )
    (became_pending,) = [pod for pod in comparison.pods if pod.change is Change.BECAME_PENDING]
    assert became_pending.b is not None and became_pending.b.name == pending.name
    assert (hard.scheduled, soft.scheduled) == (3, 4)


def test_the_pending_message_is_the_last_failed_scheduling_event_verbatim():
    simulation = simulate([*THREE_ZONES, bare_pod("huge", cpu="16")])
    (pending,) = outcome_of(simulation).balance.pending
    failures = [e.message for e in simulation.cluster.events if e.reason == "FailedScheduling"]
    assert pending.message == failures[-1]
    assert pending.message.startswith("0/3 nodes are available: 3 Insufficient cpu.")


def test_a_pod_for_a_scheduler_that_does_not_exist_is_pending_without_a_message():
    simulation = simulate([*THREE_ZONES, bare_pod("elsewhere", extra="schedulerName: my-scheduler, ")])
    (pending,) = outcome_of(simulation).balance.pending
    assert (pending.name, pending.message) == ("elsewhere", None)


def test_controller_pods_are_matched_by_owner_and_ordinal_when_their_generated_names_differ():
    scenario = [*THREE_ZONES, deployment("web", 3, "500m")]
    comparison = compare(simulate(scenario, seed=0), simulate(scenario, seed=1))
    # Another seed draws other name suffixes: the pods still pair up, none is only on one side.
    assert len(comparison.pods) == 3
    assert all(pod.renamed for pod in comparison.pods)
    assert comparison.count(Change.ONLY_IN_A) == comparison.count(Change.ONLY_IN_B) == 0
    for pod in comparison.pods:
        assert pod.a is not None and pod.b is not None
        assert pod.a.owner == pod.b.owner
        assert pod.a.identity == pod.b.identity


def test_the_same_scenario_and_seed_give_the_same_names_and_no_difference():
    scenario = [*THREE_ZONES, deployment("web", 3, "500m"), bare_pod("one")]
    comparison = compare(simulate(scenario), simulate(scenario))
    assert not comparison.differences
    assert not any(pod.renamed for pod in comparison.pods)
    assert comparison.count(Change.SAME) == 4


def test_pods_added_or_removed_between_two_versions_are_only_on_one_side():
    before = [*THREE_ZONES, bare_pod("kept"), bare_pod("removed")]
    after = [*THREE_ZONES, bare_pod("kept"), bare_pod("added", cpu="16")]
    comparison = compare(simulate(before), simulate(after))
    changes = {pod.name: pod.change for pod in comparison.pods}
    assert changes == {"added": Change.ONLY_IN_B, "kept": Change.SAME, "removed": Change.ONLY_IN_A}
    assert [pod.name for pod in comparison.b.balance.pending] == ["added"]


def test_finished_pods_take_nothing_from_their_node():
    job = """apiVersion: batch/v1
kind: Job
metadata: {name: once}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: busybox, resources: {requests: {cpu: '2'}}}]
"""
    outcome = outcome_of(simulate([node("only", "zone-a"), job]))
    (pod,) = outcome.pods
    assert pod.phase == "Succeeded" and pod.node == "only"
    (only,) = outcome.balance.nodes
    assert (only.cpu_requested, only.pods) == (0, 0)
    assert outcome.balance.scheduled == 0
    assert outcome.balance.pending == ()


def test_daemonset_pods_do_not_make_a_node_used():
    daemonset = """apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: c, image: agent, resources: {requests: {cpu: 100m}}}]}
"""
    balance = outcome_of(simulate([*THREE_ZONES, daemonset, bare_pod("one")])).balance
    assert [node.pods for node in balance.nodes] == [1, 2, 1]  # an agent everywhere, "one" on node-b
    assert balance.scheduled == 4
    assert balance.nodes_used == 1
