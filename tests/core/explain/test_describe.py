"""`kubectl describe pod` at a moment of a run (issue #16, item 7): status, conditions in the
kubelet's order, and the pod's events counted as kubectl lists them."""

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import Pod
from scheduler_core.explain.describe import describe_pod
from scheduler_core.simulation.simulation import Simulation
from tests.core.controllers.node_health_helpers import DATA

SCENARIO = (DATA / "preemption_nominated_while_victims_terminate.yaml").read_text()


def at_event(reason: str, obj: str):
    """The store right after the first event of that reason about that object."""
    run = Simulation(load_manifests(SCENARIO))
    run.run_to_end(120)
    event = next(e for e in run.cluster.events if e.reason == reason and e.object == obj)
    return Simulation(load_manifests(SCENARIO)).cluster_at_event(event.seq, until=120), event.time


def test_a_pending_pod_says_why_with_its_repeated_events_on_one_row():
    run = Simulation(load_manifests(SCENARIO))
    run.run_to_end(120)
    described = describe_pod(run.cluster, run.cluster.get(Pod, "default/latecomer"), run.now)
    assert (described.status, described.node, described.qos_class, described.nominated_node) == (
        "Pending",
        "<none>",
        "Burstable",
        "",
    )
    assert [(c.type, c.status, c.reason) for c in described.conditions] == [("PodScheduled", "False", "Unschedulable")]
    assert described.containers == []  # no kubelet has it: no container status
    (event,) = described.events
    assert (event.type, event.reason, event.age, event.source) == (
        "Warning",
        "FailedScheduling",
        "5s (x4 over 45s)",
        "default-scheduler",
    )
    assert event.message.startswith("0/1 nodes are available: 1 Insufficient cpu.")


def test_a_victim_terminating_and_the_pod_nominated_in_its_place():
    cluster, now = at_event("Killing", "Pod/default/low-1")
    victim = describe_pod(cluster, cluster.get(Pod, "default/low-1"), now)
    # kubectl counts from the API's deletionTimestamp (the request plus the grace period), still
    # ahead while the grace period runs: it prints <invalid>, as against a real cluster.
    assert (victim.status, victim.termination_grace_period) == ("Terminating (lasts <invalid>)", 30)
    assert [c.type for c in victim.conditions] == [
        "DisruptionTarget",
        "PodReadyToStartContainers",
        "Initialized",
        "Ready",
        "ContainersReady",
        "PodScheduled",
    ]
    assert victim.conditions[0].reason == "PreemptionByScheduler"
    assert [(c.name, c.image, c.state, c.ready) for c in victim.containers] == [
        ("c", "pause", "Running (since t=2s)", True)
    ]
    later = describe_pod(cluster, cluster.get(Pod, "default/low-1"), now + 45)
    assert later.status == "Terminating (lasts 15s)"  # overdue by then, as kubectl would say
    assert [(e.reason, e.age, e.source) for e in victim.events] == [
        ("Pulled", "8s", "kubelet"),
        ("Created", "8s", "kubelet"),
        ("Started", "8s", "kubelet"),
        ("Killing", "0s", "kubelet"),
    ]
    urgent = describe_pod(cluster, cluster.get(Pod, "default/urgent"), now)
    assert (urgent.nominated_node, urgent.priority, urgent.priority_class_name) == ("node-1", 1000, "high")
    assert [(e.reason, e.age) for e in urgent.events] == [("FailedScheduling", "0s")]


def test_labels_are_listed_by_key_whatever_their_names():
    run = Simulation(load_manifests(SCENARIO))
    run.run_to_end(120)
    pod = run.cluster.get(Pod, "default/low-0")
    labelled = Pod(
        pod.metadata.__class__(pod.name, pod.namespace, labels={"z": "1", "items": "2"}), pod.spec, pod.status
    )
    assert describe_pod(run.cluster, labelled, run.now).labels == [("items", "2"), ("z", "1")]


def test_a_pod_recreated_under_the_same_name_describes_its_own_events_only():
    run = Simulation(load_manifests(SCENARIO))
    run.run_to_end(120)
    pod = run.cluster.get(Pod, "default/low-0")
    stranger = pod.metadata.__class__(pod.name, pod.namespace, uid="another-uid")
    other = describe_pod(run.cluster, Pod(stranger, pod.spec, pod.status), run.now)
    assert other.events == []
