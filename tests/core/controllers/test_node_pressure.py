"""The kubelet's eviction manager under memory pressure: rank, messages, the MemoryPressure taint."""

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.pod_conditions import DISRUPTION_TARGET, condition_of
from scheduler_core.api.types import NO_SCHEDULE, Node, Pod, Taint
from scheduler_core.controllers.node_pressure import container_usage, rank_for_memory_pressure
from tests.core.controllers.node_health_helpers import NODE, events, find, simulate

MI = 2**20
PRESSURE_TAINT = Taint("node.kubernetes.io/memory-pressure", NO_SCHEDULE)


def test_seed_003_besteffort_goes_first_then_burstable_over_its_request_guaranteed_stays():
    sim = simulate("node_memory_pressure.yaml")
    evicted = [(e.time, e.object) for e in find(sim, "Evicted")]
    assert evicted == [(10.0, "Pod/default/besteffort"), (70.0, "Pod/default/burstable")]
    assert sim.cluster.get(Pod, "default/guaranteed").status.phase == "Running"
    for name in ("besteffort", "burstable"):
        pod = sim.cluster.get(Pod, f"default/{name}")
        assert (pod.status.phase, pod.status.ready) == ("Failed", False)


def test_the_eviction_event_has_upstreams_text():
    sim = simulate("node_memory_pressure.yaml")
    assert events(sim, "Pod/default/besteffort", "Evicted", "Killing") == [
        (
            10.0,
            "Evicted",
            "The node was low on resource: memory. Threshold quantity: 100Mi, available: 24Mi. "
            "Container app was using 300Mi, request is 0, has larger consumption of memory. ",
        ),
        (10.0, "Killing", "Stopping container app"),
    ]
    ((_, _, message),) = events(sim, "Pod/default/burstable", "Evicted")
    assert message == (
        "The node was low on resource: memory. Threshold quantity: 100Mi, available: -176Mi. "
        "Container app was using 900Mi, request is 200Mi, has larger consumption of memory. "
    )
    (event,) = find(sim, "Evicted")[:1]
    assert (event.type, event.source) == ("Warning", "kubelet")


def test_memory_pressure_taints_the_node_until_five_minutes_after_the_last_pressure():
    sim = simulate("node_memory_pressure.yaml", until=30)
    assert PRESSURE_TAINT in sim.cluster.get(Node, "worker1").spec.taints
    sim = simulate("node_memory_pressure.yaml")
    assert PRESSURE_TAINT not in sim.cluster.get(Node, "worker1").spec.taints
    assert events(sim, "Node/worker1", "NodeHasInsufficientMemory", "NodeHasSufficientMemory") == [
        (10.0, "NodeHasInsufficientMemory", "Node worker1 status is now: NodeHasInsufficientMemory"),
        (370.0, "NodeHasSufficientMemory", "Node worker1 status is now: NodeHasSufficientMemory"),
    ]


def test_no_pressure_no_eviction_and_no_extra_time():
    manifests = (
        NODE.format(name="worker1")
        + """---
apiVersion: v1
kind: Pod
metadata: {name: calm, annotations: {playground.k8s.io/memory-usage: 7Gi}}
spec: {nodeName: worker1, containers: [{name: app}]}
"""
    )
    sim = simulate(manifests)
    assert find(sim, "Evicted") == []
    assert sim.now == 1.0


def test_critical_pods_are_never_evicted():
    manifests = (
        NODE.format(name="worker1")
        + """---
apiVersion: v1
kind: Pod
metadata: {name: critical, annotations: {playground.k8s.io/memory-usage: 8Gi}}
spec: {nodeName: worker1, priorityClassName: system-node-critical, containers: [{name: app}]}
---
apiVersion: v1
kind: Pod
metadata: {name: ordinary, annotations: {playground.k8s.io/memory-usage: 10Mi}}
spec: {nodeName: worker1, containers: [{name: app, resources: {requests: {memory: 100Mi}}}]}
"""
    )
    sim = simulate(manifests)  # ends: pressure that nothing can relieve keeps no run going
    assert [e.object for e in find(sim, "Evicted")] == ["Pod/default/ordinary"]
    assert sim.cluster.get(Pod, "default/critical").status.phase == "Running"


def pod(name: str, usage: str | None, containers: str, priority: int = 0):
    annotations = f", annotations: {{playground.k8s.io/memory-usage: '{usage}'}}" if usage is not None else ""
    (manifest,) = load_manifests(
        f"apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}{annotations}}}\n"
        f"spec: {{priority: {priority}, containers: {containers}}}\n"
    )
    return manifest.object


def test_the_usage_annotation_forms():
    two = (
        "[{name: app, resources: {requests: {memory: 100Mi}}}, {name: sidecar, resources: {requests: {memory: 50Mi}}}]"
    )
    usage = {c.name: used for c, used in container_usage(pod("p", None, two))}
    assert usage == {"app": 100 * MI, "sidecar": 50 * MI}
    usage = {c.name: used for c, used in container_usage(pod("p", "500Mi", two))}
    assert usage == {"app": 450 * MI, "sidecar": 50 * MI}
    usage = {c.name: used for c, used in container_usage(pod("p", "sidecar=300Mi", two))}
    assert usage == {"app": 100 * MI, "sidecar": 300 * MI}
    usage = {c.name: used for c, used in container_usage(pod("p", "lots", two))}
    assert usage == {"app": 100 * MI, "sidecar": 50 * MI}


def test_rank_exceeding_requests_then_priority_then_usage_above_request():
    guaranteed = pod("guaranteed", "300Mi", "[{name: app, resources: {requests: {memory: 300Mi}}}]")
    small_over = pod("small-over", "150Mi", "[{name: app, resources: {requests: {memory: 100Mi}}}]")
    big_over = pod("big-over", "400Mi", "[{name: app, resources: {requests: {memory: 100Mi}}}]")
    important_over = pod("important", "900Mi", "[{name: app}]", priority=1000)
    ranked = [p.name for p in rank_for_memory_pressure([guaranteed, important_over, small_over, big_over])]
    assert ranked == ["big-over", "small-over", "important", "guaranteed"]


def test_seed_003_an_evicted_replica_moves_to_another_node():
    manifests = """
apiVersion: v1
kind: Node
metadata: {name: small}
status: {capacity: {cpu: "4", memory: 1Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: big}
spec: {unschedulable: true}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: hungry}
spec:
  replicas: 1
  selector: {matchLabels: {app: hungry}}
  template:
    metadata: {labels: {app: hungry}, annotations: {playground.k8s.io/memory-usage: 2Gi}}
    spec: {containers: [{name: app, image: app}]}
---
apiVersion: playground/v1
kind: Action
spec: {at: 5s, op: uncordon, target: Node/big}
"""
    sim = simulate(manifests)
    pods = sorted(sim.cluster.objects(Pod), key=lambda p: p.metadata.creation_timestamp)
    assert [(p.spec.node_name, p.status.phase) for p in pods] == [("small", "Failed"), ("big", "Running")]
    # The replacement is kept off the node under pressure by its memory-pressure taint.
    assert [e.time for e in find(sim, "Evicted")] == [10.0]


def test_an_evicted_pod_says_why_in_its_status():
    """The eviction manager's status: Failed, reason Evicted, the event's message, and
    DisruptionTarget (TerminationByKubelet) with the same message."""
    sim = simulate("node_memory_pressure.yaml")
    pod = sim.cluster.get(Pod, "default/besteffort")
    ((_, _, message),) = events(sim, "Pod/default/besteffort", "Evicted")
    assert (pod.status.phase, pod.status.reason, pod.status.message) == ("Failed", "Evicted", message)
    target = condition_of(pod.status, DISRUPTION_TARGET)
    assert (target.status, target.reason, target.message, target.last_transition_time) == (
        "True",
        "TerminationByKubelet",
        message,
        10.0,
    )
