"""A node's conditions as its kubelet and the node lifecycle controller write them (v1.34 texts of
pkg/kubelet/nodestatus/setters.go and pkg/controller/nodelifecycle), read from manifests and
written back, and what the scheduler sees change."""

import json
from dataclasses import replace

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.node_conditions import (
    INSUFFICIENT_MEMORY,
    KUBELET_READY,
    MEMORY_PRESSURE,
    has_condition,
    node_conditions,
    with_kubelet_post,
    with_kubelet_stopped,
)
from scheduler_core.api.object_manifest import object_manifest
from scheduler_core.api.types import Node, NodeCondition, NodeStatus, ObjectMeta
from scheduler_core.scheduler.cluster_events import ActionType, node_scheduling_properties_change
from tests.core.controllers.node_health_helpers import simulate

HEALTHY = [
    ("MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
    ("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
    ("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
    ("Ready", "True", "KubeletReady", "kubelet is posting ready status"),
]
UNKNOWN = ("Unknown", "NodeStatusUnknown", "Kubelet stopped posting node status.")


def texts(node: Node) -> list[tuple[str, str, str, str]]:
    return [(c.type, c.status, c.reason, c.message) for c in node_conditions(node)]


def times(node: Node) -> list[tuple[float | None, float | None]]:
    return [(c.last_heartbeat_time, c.last_transition_time) for c in node_conditions(node)]


def fresh(created: float = 5.0) -> Node:
    return Node(ObjectMeta("n1", creation_timestamp=created))


def test_a_node_nobody_wrote_a_condition_of_has_the_kubelets_four_healthy_since_its_creation():
    node = fresh()
    assert node.status.conditions == ()
    assert texts(node) == HEALTHY
    assert times(node) == [(5.0, 5.0)] * 4


def test_a_kubelet_post_renews_every_heartbeat_and_moves_a_transition_only_on_a_flip():
    node = with_kubelet_post(fresh(), 30.0, {MEMORY_PRESSURE: INSUFFICIENT_MEMORY})
    assert texts(node)[0] == (
        "MemoryPressure",
        "True",
        "KubeletHasInsufficientMemory",
        "kubelet has insufficient memory available",
    )
    assert times(node) == [(30.0, 30.0), (30.0, 5.0), (30.0, 5.0), (30.0, 5.0)]
    assert has_condition(node, MEMORY_PRESSURE) and node.status.ready
    again = with_kubelet_post(node, 40.0, {MEMORY_PRESSURE: INSUFFICIENT_MEMORY})
    assert times(again)[0] == (40.0, 30.0)  # still True: the transition stays


def test_a_kubelet_gone_quiet_leaves_its_conditions_unknown_with_its_last_heartbeat():
    posted = with_kubelet_post(fresh(), 30.0, {})
    stopped = with_kubelet_stopped(posted, 80.0)
    assert texts(stopped) == [(kind, *UNKNOWN) for kind, *_ in HEALTHY]
    assert times(stopped) == [(30.0, 80.0)] * 4
    assert not stopped.status.ready
    assert with_kubelet_stopped(stopped, 90.0) == stopped  # Unknown already: nothing moves
    back = with_kubelet_post(stopped, 200.0, {"Ready": KUBELET_READY})
    assert texts(back)[3] == HEALTHY[3] and back.status.ready
    assert times(back)[3] == (200.0, 200.0)


def test_ready_follows_the_ready_flag_when_the_two_disagree():
    flipped = replace(fresh(), status=replace(fresh().status, ready=False))
    assert texts(flipped)[3] == ("Ready", *UNKNOWN)
    assert flipped.status.condition_statuses()["Ready"] == "Unknown"


def test_the_statuses_the_scheduler_compares_are_the_ones_listed():
    nodes = [
        fresh(),
        with_kubelet_post(fresh(), 30.0, {MEMORY_PRESSURE: INSUFFICIENT_MEMORY}),
        with_kubelet_stopped(fresh(), 80.0),
        replace(fresh(), status=NodeStatus(ready=False)),
        replace(fresh(), status=NodeStatus(conditions=(NodeCondition("NetworkUnavailable", "False"),))),
    ]
    for node in nodes:
        assert node.status.condition_statuses() == {c.type: c.status for c in node_conditions(node)}


def test_a_pressure_condition_flipping_is_a_node_condition_update_for_the_scheduler():
    old = fresh()
    pressed = with_kubelet_post(old, 30.0, {MEMORY_PRESSURE: INSUFFICIENT_MEMORY})
    actions = [event.action for event in node_scheduling_properties_change(pressed, old)]
    assert actions == [ActionType.UPDATE_NODE_CONDITION]
    heartbeat_only = with_kubelet_post(pressed, 40.0, {})
    assert node_scheduling_properties_change(heartbeat_only, pressed) == []
    # The kubelet writing down the healthy conditions it had posted at creation changes nothing.
    assert node_scheduling_properties_change(with_kubelet_post(old, 10.0, {}), old) == []


NODE_WITH_CONDITIONS = """
apiVersion: v1
kind: Node
metadata: {name: n1}
status:
  capacity: {cpu: "2", memory: 4Gi, pods: "110"}
  conditions:
  - {type: NetworkUnavailable, status: "False", reason: RouteCreated, message: RouteController created a route,
     lastHeartbeatTime: "2024-01-02T15:04:05Z", lastTransitionTime: "2024-01-02T15:04:05Z"}
  - {type: Ready, status: "False", reason: KubeletNotReady, message: container runtime is down,
     lastHeartbeatTime: "2024-01-02T15:05:00Z", lastTransitionTime: "2024-01-02T15:00:00Z"}
"""


def test_a_pasted_nodes_conditions_are_read_as_written_and_written_back():
    (manifest,) = load_manifests(NODE_WITH_CONDITIONS)
    node = manifest.object
    assert not node.status.ready
    assert [(c.type, c.status, c.reason) for c in node.status.conditions] == [
        ("NetworkUnavailable", "False", "RouteCreated"),
        ("Ready", "False", "KubeletNotReady"),
    ]
    written = object_manifest(node)["status"]["conditions"]
    assert written[1] == {
        "type": "Ready",
        "status": "False",
        "lastHeartbeatTime": "2024-01-02T15:05:00Z",
        "lastTransitionTime": "2024-01-02T15:00:00Z",
        "reason": "KubeletNotReady",
        "message": "container runtime is down",
    }
    assert [c["type"] for c in written] == [
        "NetworkUnavailable",
        "Ready",
        "MemoryPressure",
        "DiskPressure",
        "PIDPressure",
    ]
    (again,) = load_manifests(json.dumps(object_manifest(node)))
    assert again.object.status.conditions == node_conditions(node)


def test_the_eviction_manager_writes_memory_pressure_on_the_node_and_clears_it():
    sim = simulate("node_memory_pressure.yaml", until=30)
    node = sim.cluster.get(Node, "worker1")
    pressure = node_conditions(node)[0]
    assert (pressure.type, pressure.status, pressure.reason, pressure.message) == (
        "MemoryPressure", "True", "KubeletHasInsufficientMemory", "kubelet has insufficient memory available",
    )  # fmt: skip
    assert (pressure.last_heartbeat_time, pressure.last_transition_time) == (10.0, 10.0)
    sim = simulate("node_memory_pressure.yaml")  # evicted down to what fits; cleared 5 minutes after the last pressure
    cleared = node_conditions(sim.cluster.get(Node, "worker1"))[0]
    assert (cleared.status, cleared.reason) == ("False", "KubeletHasSufficientMemory")
    cleared_event = [e for e in sim.cluster.events if e.reason == "NodeHasSufficientMemory"]
    assert cleared.last_transition_time == cleared_event[-1].time


def test_a_downed_node_turns_unknown_and_a_node_up_posts_healthy_again():
    sim = simulate("node_up_cancels_eviction.yaml", until=100)
    node = sim.cluster.get(Node, "worker1")
    assert texts(node) == [(kind, *UNKNOWN) for kind, *_ in HEALTHY]
    assert times(node) == [(0.0, 60.0)] * 4  # down at 10 s, 50 s of grace; the heartbeat of its creation
    sim = simulate("node_up_cancels_eviction.yaml", until=250)
    node = sim.cluster.get(Node, "worker1")
    assert texts(node) == HEALTHY and node.status.ready
    assert times(node) == [(200.0, 200.0)] * 4


def test_the_memory_pressure_taint_follows_the_condition_across_a_node_going_down_and_up():
    """doNoScheduleTaintingPass derives the taint from MemoryPressure: none while it is Unknown
    (the node down), and none once the node is back without pressure; never two of it."""
    pressure = "node.kubernetes.io/memory-pressure"

    def taints_at(until: float) -> list[str]:
        node = simulate("node_pressure_down_up.yaml", until=until).cluster.get(Node, "worker1")
        return [taint.key for taint in node.spec.taints]

    assert pressure in taints_at(14)  # under pressure before it goes down
    assert pressure not in taints_at(90)  # down: its conditions are Unknown
    after = taints_at(1200)
    assert after.count(pressure) == 0
