"""The node lifecycle controller: node-down and node-up, NotReady after the grace period."""

from dataclasses import replace

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import NO_EXECUTE, NO_SCHEDULE, Node, Pod, Taint
from scheduler_core.controllers.node_lifecycle import NODE_MONITOR_GRACE_PERIOD
from scheduler_core.simulation.simulation import Simulation
from tests.core.controllers.node_health_helpers import NODE, events, find, simulate

UNREACHABLE = "node.kubernetes.io/unreachable"
# The kubelet's node events when it starts again, in order.
KUBELET_START = (
    "Starting",
    "NodeAllocatableEnforced",
    "NodeHasSufficientMemory",
    "NodeHasNoDiskPressure",
    "NodeHasSufficientPID",
    "NodeReady",
)


def test_the_v1_34_node_monitor_grace_period_is_50_seconds():
    assert NODE_MONITOR_GRACE_PERIOD == 50.0


def test_a_stopped_kubelet_makes_the_node_not_ready_after_the_grace_period():
    sim = simulate("node_down_bare_pods.yaml", until=79)
    node = sim.cluster.get(Node, "worker1")
    assert node.status.ready and node.spec.taints == ()
    sim = simulate("node_down_bare_pods.yaml", until=100)
    node = sim.cluster.get(Node, "worker1")
    assert not node.status.ready
    assert node.spec.taints == (
        Taint(UNREACHABLE, NO_EXECUTE, time_added=80.0),
        Taint(UNREACHABLE, NO_SCHEDULE),
    )
    (event,) = find(sim, "NodeNotReady")[:1]
    assert (event.time, event.object, event.type, event.message, event.source) == (
        80.0,
        "Node/worker1",
        "Normal",
        "Node worker1 status is now: NodeNotReady",
        "node-controller",
    )


def test_the_pods_of_the_node_are_marked_not_ready_with_a_warning_each():
    sim = simulate("node_down_bare_pods.yaml", until=100)
    warned = [(e.time, e.object, e.type, e.message) for e in find(sim, "NodeNotReady") if e.object.startswith("Pod/")]
    assert warned == [
        (80.0, "Pod/default/web", "Warning", "Node is not ready"),
        (80.0, "Pod/default/impatient", "Warning", "Node is not ready"),
        (80.0, "Pod/default/patient", "Warning", "Node is not ready"),
    ]
    assert not sim.cluster.get(Pod, "default/web").status.ready
    assert sim.cluster.get(Pod, "default/elsewhere").status.ready


def test_the_kubelet_coming_back_makes_the_node_ready_and_untainted():
    sim = simulate("node_down_bare_pods.yaml")
    node = sim.cluster.get(Node, "worker1")
    assert node.status.ready and node.spec.taints == ()
    assert [(t, r) for t, r, _ in events(sim, "Node/worker1", *KUBELET_START)] == [(600.0, r) for r in KUBELET_START]
    assert events(sim, "Node/worker1", "NodeReady") == [(600.0, "NodeReady", "Node worker1 status is now: NodeReady")]
    # The pods evicted while it was away are stopped now and gone after their grace period.
    assert (600.0, "Killing", "Stopping container nginx") in events(sim, "Pod/default/web", "Killing")
    assert sorted(p.name for p in sim.cluster.objects(Pod)) == ["elsewhere", "patient"]
    assert sim.cluster.get(Pod, "default/patient").status.ready
    assert sim.now == 630.0


def test_a_kubelet_back_within_the_grace_period_leaves_no_trace():
    manifests = (
        NODE.format(name="worker1")
        + """---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec: {nodeName: worker1, containers: [{name: app}]}
---
apiVersion: playground/v1
kind: Action
spec: {at: 10s, op: node-down, target: Node/worker1}
---
apiVersion: playground/v1
kind: Action
spec: {at: 40s, op: node-up, target: Node/worker1}
"""
    )
    sim = simulate(manifests)
    assert find(sim, "NodeNotReady") == []
    assert find(sim, "NodeReady") == []
    assert sim.cluster.get(Pod, "default/web").status.ready


def test_a_node_reporting_ready_false_gets_the_not_ready_taints():
    manifests = """
apiVersion: v1
kind: Node
metadata: {name: broken}
status:
  capacity: {cpu: "4", memory: 8Gi, pods: "110"}
  conditions: [{type: Ready, status: "False"}]
"""
    sim = simulate(manifests)
    taints = sim.cluster.get(Node, "broken").spec.taints
    assert [(t.key, t.effect) for t in taints] == [
        ("node.kubernetes.io/not-ready", NO_EXECUTE),
        ("node.kubernetes.io/not-ready", NO_SCHEDULE),
    ]


def test_node_actions_on_a_missing_node_fail_visibly():
    manifests = (
        NODE.format(name="worker1")
        + """---
apiVersion: playground/v1
kind: Action
spec: {at: 1s, op: node-down, target: Node/ghost}
"""
    )
    (event,) = find(simulate(manifests), "FailedAction")
    assert event.message == "node-down: Node/ghost not found"


def test_seed_000_ha_replicas_survive_a_node_going_down_and_the_lost_one_moves_to_a_free_node():
    sim = simulate("node_down_deployment.yaml", until=379)
    pods = {p.name: p for p in sim.cluster.objects(Pod)}
    by_node = {p.spec.node_name: p for p in pods.values()}
    assert sorted(by_node) == ["worker1", "worker2", "worker3"]
    # The two other replicas keep serving while worker1 is NotReady.
    assert not by_node["worker1"].status.ready
    assert by_node["worker2"].status.ready and by_node["worker3"].status.ready
    lost = by_node["worker1"].name

    sim = simulate("node_down_deployment.yaml")
    assert events(sim, f"Pod/default/{lost}", "TaintManagerEviction") == [
        (380.0, "TaintManagerEviction", f"Marking for deletion Pod default/{lost}")
    ]
    running = {p.spec.node_name: p for p in sim.cluster.objects(Pod) if p.metadata.deletion_timestamp is None}
    assert sorted(running) == ["worker2", "worker3", "worker4"]
    replacement = running["worker4"]
    assert (380.0, "Scheduled") in [
        (e.time, e.reason) for e in sim.cluster.events if e.object.endswith(replacement.name)
    ]
    # The evicted pod cannot be confirmed gone while its kubelet is down: it stays Terminating.
    assert sim.cluster.get(Pod, f"default/{lost}").metadata.deletion_timestamp == 380.0


def test_a_node_that_reports_not_ready_later_is_recorded_and_its_pods_marked():
    manifests = (
        NODE.format(name="worker1")
        + """---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec: {nodeName: worker1, containers: [{name: app}]}
"""
    )
    sim = Simulation(load_manifests(manifests))

    def kubelet_reports_not_ready() -> None:  # as a kubelet posting Ready False would
        node = sim.cluster.get(Node, "worker1")
        sim.cluster.update(replace(node, status=replace(node.status, ready=False)))

    sim.after(10, kubelet_reports_not_ready)
    sim.run_to_end()
    assert [(e.time, e.object, e.message) for e in find(sim, "NodeNotReady")] == [
        (10.0, "Node/worker1", "Node worker1 status is now: NodeNotReady"),
        (10.0, "Pod/default/web", "Node is not ready"),
    ]
    assert [t.key for t in sim.cluster.get(Node, "worker1").spec.taints] == ["node.kubernetes.io/not-ready"] * 2
