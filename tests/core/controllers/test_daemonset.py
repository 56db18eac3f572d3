"""The DaemonSet controller: one pod per eligible node, placed by the default scheduler."""

import re
from pathlib import Path

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import LabelSelector, Node, NodeSpec, ObjectMeta, Pod, PodSpec, Taint, Toleration
from scheduler_core.api.workloads import DaemonSet, DaemonSetSpec, DaemonSetStatus, PodTemplateSpec
from scheduler_core.controllers.daemonset import daemon_pod_tolerations, node_should_run_daemon_pod
from scheduler_core.simulation.simulation import Simulation

DATA = Path(__file__).parent.parent / "data"
NODE = """
apiVersion: v1
kind: Node
metadata: {{name: {name}}}
status: {{capacity: {{cpu: "2", memory: 4Gi, pods: "110"}}}}
"""


def simulate(source: str, seed: int = 0, until: float | None = None) -> Simulation:
    text = (DATA / source).read_text() if source.endswith(".yaml") else source
    simulation = Simulation(load_manifests(text), seed=seed)
    simulation.run_to_end(until)
    return simulation


def events(sim: Simulation, obj: str, *reasons: str) -> list[tuple[float, str, str]]:
    return [(e.time, e.reason, e.message) for e in sim.cluster.events if e.object == obj and e.reason in reasons]


def pods_of(sim: Simulation, owner: str) -> dict[str, str]:
    """Pod name -> node, for the pods whose controller is the DaemonSet."""
    return {
        pod.name: pod.spec.node_name
        for pod in sim.cluster.objects(Pod)
        if (ref := pod.metadata.controller_ref()) is not None and ref.name == owner
    }


def test_a_daemonset_runs_one_pod_per_worker_but_none_on_the_tainted_control_plane():
    sim = simulate("ds_control_plane.yaml")
    assert sorted(pods_of(sim, "fluentd").values()) == ["worker1", "worker2"]
    # The DaemonSet that tolerates the control-plane taint runs there too.
    assert sorted(pods_of(sim, "node-exporter").values()) == ["control-plane", "worker1", "worker2"]
    fluentd = sim.cluster.get(DaemonSet, "default/fluentd")
    assert fluentd.status == DaemonSetStatus(
        desired_number_scheduled=2,
        current_number_scheduled=2,
        number_ready=2,
        number_available=2,
        updated_number_scheduled=2,
        number_misscheduled=0,
        number_unavailable=0,
        observed_generation=1,
    )
    assert sim.cluster.get(DaemonSet, "default/node-exporter").status.desired_number_scheduled == 3


def test_daemon_pods_are_bound_by_the_default_scheduler_through_a_node_name_affinity():
    sim = simulate("ds_control_plane.yaml")
    created = events(sim, "DaemonSet/default/fluentd", "SuccessfulCreate")
    assert [(time, reason) for time, reason, _ in created] == [(0.0, "SuccessfulCreate")] * 2
    for name, node in pods_of(sim, "fluentd").items():
        assert f"Created pod: {name}" in [message for *_, message in created]
        assert re.fullmatch(r"fluentd-[bcdfghjklmnpqrstvwxz2456789]{5}", name)
        pod = sim.cluster.get(Pod, f"default/{name}")
        (term,) = pod.spec.affinity.node_affinity.required.node_selector_terms
        (requirement,) = term.match_fields
        assert (requirement.key, requirement.operator, requirement.values) == ("metadata.name", "In", (node,))
        scheduled = [e for e in sim.cluster.events if e.object == f"Pod/default/{name}" and e.reason == "Scheduled"]
        assert scheduled[0].message == f"Successfully assigned default/{name} to {node}"
        assert scheduled[0].source == "default-scheduler"
        assert pod.labels["app"] == "fluentd"
        assert pod.labels["pod-template-generation"] == "1"
        assert pod.labels["controller-revision-hash"]
        ref = pod.metadata.controller_ref()
        assert (ref.kind, ref.name, ref.api_version) == ("DaemonSet", "fluentd", "apps/v1")


def test_daemon_pods_get_the_tolerations_upstream_adds():
    spec = PodSpec(tolerations=(Toleration(key="node-role.kubernetes.io/control-plane", operator="Exists"),))
    keys = [(t.key, t.operator, t.effect, t.toleration_seconds) for t in daemon_pod_tolerations(spec)]
    assert keys == [
        ("node-role.kubernetes.io/control-plane", "Exists", "", None),
        ("node.kubernetes.io/not-ready", "Exists", "NoExecute", None),
        ("node.kubernetes.io/unreachable", "Exists", "NoExecute", None),
        ("node.kubernetes.io/disk-pressure", "Exists", "NoSchedule", None),
        ("node.kubernetes.io/memory-pressure", "Exists", "NoSchedule", None),
        ("node.kubernetes.io/pid-pressure", "Exists", "NoSchedule", None),
        ("node.kubernetes.io/unschedulable", "Exists", "NoSchedule", None),
    ]
    host_network = daemon_pod_tolerations(PodSpec(host_network=True))
    assert host_network[-1] == Toleration(
        key="node.kubernetes.io/network-unavailable", operator="Exists", effect="NoSchedule"
    )
    # A matching toleration the user wrote (say with tolerationSeconds) is replaced, not duplicated.
    mine = Toleration(key="node.kubernetes.io/not-ready", operator="Exists", effect="NoExecute", toleration_seconds=60)
    replaced = daemon_pod_tolerations(PodSpec(tolerations=(mine,)))
    assert [t.key for t in replaced].count("node.kubernetes.io/not-ready") == 1
    assert replaced[0].toleration_seconds is None


def _daemon_set(**spec: object) -> DaemonSet:
    template = PodTemplateSpec(labels={"app": "a"}, spec=PodSpec(**spec))  # type: ignore[arg-type]
    return DaemonSet(ObjectMeta("a", "default"), DaemonSetSpec(LabelSelector({"app": "a"}), template))


def test_node_should_run_daemon_pod_follows_selectors_and_taints():
    plain = _daemon_set()
    node = Node(ObjectMeta("n1", labels={"disk": "ssd"}))
    assert node_should_run_daemon_pod(node, plain) == (True, True)
    no_schedule = Node(ObjectMeta("n1"), NodeSpec(taints=(Taint("dedicated", "NoSchedule", "db"),)))
    assert node_should_run_daemon_pod(no_schedule, plain) == (False, True)  # a running pod may stay
    no_execute = Node(ObjectMeta("n1"), NodeSpec(taints=(Taint("dedicated", "NoExecute", "db"),)))
    assert node_should_run_daemon_pod(no_execute, plain) == (False, False)
    # Daemon pods tolerate the node-condition taints, and a cordoned node's.
    pressure = Node(ObjectMeta("n1"), NodeSpec(taints=(Taint("node.kubernetes.io/disk-pressure", "NoSchedule"),)))
    assert node_should_run_daemon_pod(pressure, plain) == (True, True)
    prefer = Node(ObjectMeta("n1"), NodeSpec(taints=(Taint("dedicated", "PreferNoSchedule"),)))
    assert node_should_run_daemon_pod(prefer, plain) == (True, True)
    assert node_should_run_daemon_pod(node, _daemon_set(node_selector={"disk": "hdd"})) == (False, False)
    assert node_should_run_daemon_pod(node, _daemon_set(node_name="n2")) == (False, False)


def test_nodes_added_labelled_and_tainted_later():
    sim = simulate("ds_node_changes.yaml")
    fluentd = "DaemonSet/default/fluentd"
    created = events(sim, fluentd, "SuccessfulCreate")
    assert [time for time, *_ in created] == [0.0, 0.0, 30.0]  # worker3 joins at 30s
    gpu = events(sim, "DaemonSet/default/gpu-plugin", "SuccessfulCreate", "SuccessfulDelete")
    assert [(time, reason) for time, reason, _ in gpu] == [(40.0, "SuccessfulCreate"), (120.0, "SuccessfulDelete")]
    # The NoSchedule taint at 60s leaves worker1's pod alone; the NoExecute one at 90s removes worker2's.
    deleted = events(sim, fluentd, "SuccessfulDelete")
    assert [time for time, *_ in deleted] == [90.0]
    assert sorted(pods_of(sim, "fluentd").values()) == ["worker1", "worker3"]
    assert pods_of(sim, "gpu-plugin") == {}
    status = sim.cluster.get(DaemonSet, "default/fluentd").status
    # worker1 still runs its pod though no new one would go there: counted as misscheduled.
    assert (status.desired_number_scheduled, status.current_number_scheduled, status.number_misscheduled) == (1, 1, 1)


def test_daemon_pods_still_land_on_a_cordoned_node():
    manifests = (
        NODE.format(name="worker1")
        + "---\n"
        + NODE.format(name="worker2")
        + """---
apiVersion: playground/v1
kind: Action
spec: {at: 5s, op: cordon, target: Node/worker2}
---
apiVersion: playground/v1
kind: Action
spec:
  at: 10s
  op: apply
  manifest:
    apiVersion: apps/v1
    kind: DaemonSet
    metadata: {name: agent}
    spec:
      selector: {matchLabels: {app: agent}}
      template:
        metadata: {labels: {app: agent}}
        spec: {containers: [{name: agent, image: agent}]}
"""
    )
    sim = simulate(manifests)
    # Cordoning does not keep daemon pods off: they tolerate node.kubernetes.io/unschedulable.
    assert sorted(pods_of(sim, "agent").values()) == ["worker1", "worker2"]


def test_rolling_update_replaces_one_pod_at_a_time_or_surges_first():
    sim = simulate("ds_rolling_update.yaml")
    agent = [(t, r) for t, r, _ in events(sim, "DaemonSet/default/agent", "SuccessfulCreate", "SuccessfulDelete")]
    assert agent[3:] == [
        (30.0, "SuccessfulDelete"),  # maxUnavailable 1: one old pod goes...
        (40.0, "SuccessfulCreate"),  # ...its node gets the new one when it is gone (10s grace)
        (41.0, "SuccessfulDelete"),  # the next old pod goes when the new one is available
        (51.0, "SuccessfulCreate"),
        (52.0, "SuccessfulDelete"),
        (62.0, "SuccessfulCreate"),
    ]
    surge = [(t, r) for t, r, _ in events(sim, "DaemonSet/default/surge", "SuccessfulCreate", "SuccessfulDelete")]
    assert surge[3:] == [
        (30.0, "SuccessfulCreate"),  # maxSurge 1: the new pod first...
        (31.0, "SuccessfulDelete"),  # ...the old one goes once the new one is available
        (31.0, "SuccessfulCreate"),
        (32.0, "SuccessfulDelete"),
        (32.0, "SuccessfulCreate"),
        (33.0, "SuccessfulDelete"),
    ]
    for name in ("agent", "surge"):
        pods = [sim.cluster.get(Pod, f"default/{pod}") for pod in pods_of(sim, name)]
        assert sorted(pod.spec.node_name for pod in pods) == ["worker1", "worker2", "worker3"]
        assert {pod.spec.containers[0].image for pod in pods} == {"agent:v2"}
        assert {pod.labels["pod-template-generation"] for pod in pods} == {"2"}
        assert len({pod.labels["controller-revision-hash"] for pod in pods}) == 1
        assert sim.cluster.get(DaemonSet, f"default/{name}").status.updated_number_scheduled == 3


def test_on_delete_strategy_waits_for_the_user():
    manifests = (
        NODE.format(name="worker1")
        + """---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  updateStrategy: {type: OnDelete}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: agent, image: agent:v1}]}
---
apiVersion: playground/v1
kind: Action
spec: {at: 10s, op: set-image, target: DaemonSet/agent, image: agent:v2}
"""
    )
    sim = simulate(manifests)
    (pod,) = sim.cluster.objects(Pod)
    assert pod.spec.containers[0].image == "agent:v1"
    status = sim.cluster.get(DaemonSet, "default/agent").status
    assert (status.current_number_scheduled, status.updated_number_scheduled) == (1, 0)


def test_deleting_a_daemonset_removes_its_pods():
    manifests = (
        NODE.format(name="worker1")
        + "---\n"
        + NODE.format(name="worker2")
        + """---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {terminationGracePeriodSeconds: 3, containers: [{name: agent, image: agent}]}
---
apiVersion: playground/v1
kind: Action
spec: {at: 10s, op: delete, target: DaemonSet/agent}
"""
    )
    sim = simulate(manifests, until=12.9)
    assert sim.cluster.objects(DaemonSet) == []
    # The garbage collector deletes the pods gracefully: Terminating for their 3s grace period.
    assert [(e.time, e.reason) for e in sim.cluster.events if e.reason == "Killing"] == [(10.0, "Killing")] * 2
    assert all(pod.metadata.deletion_timestamp == 10.0 for pod in sim.cluster.objects(Pod))
    assert len(sim.cluster.objects(Pod)) == 2
    assert simulate(manifests, until=13.1).cluster.objects(Pod) == []


def test_a_refused_pod_is_a_failed_create_retried_with_backoff_until_it_is_admitted():
    manifests = (
        NODE.format(name="worker1")
        + """---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {priorityClassName: node-agents, containers: [{name: agent, image: agent}]}
---
apiVersion: playground/v1
kind: Action
spec:
  at: 10s
  op: apply
  manifest: {apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: node-agents}, value: 1000}
"""
    )
    sim = simulate(manifests)
    failed = [e for e in sim.cluster.events if e.reason == "FailedCreate"]
    # Admission refuses before the API server generates the name: the message names the prefix.
    assert {(e.type, e.object, e.message) for e in failed} == {
        (
            "Warning",
            "DaemonSet/default/agent",
            'Error creating: pods "agent-" is forbidden: no PriorityClass with name node-agents was found',
        )
    }
    # The failed sync is retried with the controller rate limiter's backoff (5 ms doubling).
    assert [e.time for e in failed][2:5] == [0.005, 0.025, 0.065]
    (created,) = events(sim, "DaemonSet/default/agent", "SuccessfulCreate")
    assert 10.0 < created[0] < 11.0  # the first retry after the PriorityClass exists
    (pod,) = sim.cluster.objects(Pod)
    assert pod.spec.priority == 1000


def test_same_scenario_and_seed_replay_event_for_event():
    first = [e.as_dict() for e in simulate("ds_node_changes.yaml", seed=7).cluster.events]
    second = [e.as_dict() for e in simulate("ds_node_changes.yaml", seed=7).cluster.events]
    assert first == second
    other = [e.as_dict() for e in simulate("ds_node_changes.yaml", seed=8).cluster.events]
    assert [e["reason"] for e in other] == [e["reason"] for e in first]  # only the generated names differ


def test_a_rolling_update_with_min_ready_seconds_waits_past_them_then_a_second():
    """Available means Ready for longer than minReadySeconds (upstream's Before), and the controller
    looks again a second after: each node's turn comes 5 s + 1 s after its new pod is Ready. (An
    engine that counted the instant itself replaced the pods at 46/56/62/72 s.)"""
    text = (DATA / "ds_rolling_update.yaml").read_text()
    text = text.replace("metadata: {name: agent}\nspec:\n", "metadata: {name: agent}\nspec:\n  minReadySeconds: 5\n", 1)
    sim = simulate(text, until=600.0)
    turns = [
        (t, reason) for t, reason, _ in events(sim, "DaemonSet/default/agent", "SuccessfulCreate", "SuccessfulDelete")
    ]
    assert turns[3:] == [
        (30.0, "SuccessfulDelete"),
        (40.0, "SuccessfulCreate"),
        (51.0, "SuccessfulDelete"),
        (61.0, "SuccessfulCreate"),
        (72.0, "SuccessfulDelete"),
        (82.0, "SuccessfulCreate"),
    ]
