"""A pod's conditions: Ready and availability as every controller reads them, the conditions others
write (PodScheduled, DisruptionTarget), and the whole list as the API shows it."""

from dataclasses import replace
from pathlib import Path

import pytest

from scheduler_core.admission.chain import scheduling_gated
from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.pod_conditions import (
    DISRUPTION_TARGET,
    POD_SCHEDULED,
    UNSCHEDULABLE,
    conditions_of,
    is_pod_available,
    ready_changed_at,
    with_condition,
    with_ready,
)
from scheduler_core.api.types import Container, ObjectMeta, Pod, PodCondition, PodSpec, PodStatus
from scheduler_core.simulation.simulation import Simulation

DATA = Path(__file__).parents[1] / "data"


def pod(*, ready: bool, changed: float | None = None, created: float = 0.0) -> Pod:
    return Pod(
        ObjectMeta("web", "default", creation_timestamp=created), status=PodStatus(ready=ready, ready_changed=changed)
    )


def test_the_transition_time_moves_only_when_ready_flips():
    status = PodStatus(phase="Running")
    ready = with_ready(status, True, 12.0)
    assert (ready.ready, ready.ready_changed) == (True, 12.0)
    assert with_ready(ready, True, 30.0) is ready  # already Ready: lastTransitionTime stays
    unready = with_ready(ready, False, 41.0)
    assert (unready.ready, unready.ready_changed, unready.phase) == (False, 41.0, "Running")


def test_a_pod_created_ready_has_been_since_its_creation_and_one_never_ready_has_no_transition():
    assert ready_changed_at(pod(ready=True, created=7.0)) == 7.0
    assert ready_changed_at(pod(ready=False, created=7.0)) is None
    assert ready_changed_at(pod(ready=False, changed=9.0, created=7.0)) == 9.0


@pytest.mark.parametrize(
    ("ready", "min_ready", "now", "available"),
    [
        (False, 0, 100.0, False),  # never available while not Ready
        (True, 0, 10.0, True),  # minReadySeconds 0: Ready is available
        (True, 5, 14.9, False),  # Ready at 10 s, not for 5 s yet
        (True, 5, 15.0, True),  # the instant it has been: a requeue at exactly minReadySeconds sees it
        (True, 5, 60.0, True),
    ],
)
def test_available_is_ready_for_min_ready_seconds(ready: bool, min_ready: int, now: float, available: bool):
    assert is_pod_available(pod(ready=ready, changed=10.0), min_ready, now) is available


def test_the_kubelet_stamps_when_each_pod_became_ready():
    simulation = Simulation(load_manifests((DATA / "sim_basic.yaml").read_text()))
    simulation.run_to_end(600.0)
    ready = [p for p in simulation.cluster.objects(Pod) if p.status.ready]
    assert ready and all(p.status.ready_changed is not None for p in ready)
    assert all(p.status.ready_changed >= (p.status.start_time or 0.0) for p in ready)


def test_a_condition_keeps_its_transition_time_while_its_status_stays():
    """UpdatePodCondition: a new message is an update, lastTransitionTime moves only on a flip,
    and an identical condition changes nothing (the same object: the writer skips the update)."""
    status = PodStatus()
    failed = with_condition(
        status, POD_SCHEDULED, False, 3.0, UNSCHEDULABLE, "0/1 nodes are available: 1 Insufficient cpu."
    )
    assert failed.conditions == (
        PodCondition(POD_SCHEDULED, "False", UNSCHEDULABLE, "0/1 nodes are available: 1 Insufficient cpu.", 3.0),
    )
    assert with_condition(failed, POD_SCHEDULED, False, 9.0, UNSCHEDULABLE, failed.conditions[0].message) is failed
    reworded = with_condition(failed, POD_SCHEDULED, False, 9.0, UNSCHEDULABLE, "another message")
    assert (reworded.conditions[0].message, reworded.conditions[0].last_transition_time) == ("another message", 3.0)
    bound = with_condition(reworded, POD_SCHEDULED, True, 12.0)
    assert bound.conditions == (PodCondition(POD_SCHEDULED, "True", "", "", 12.0),)
    marked = with_condition(bound, DISRUPTION_TARGET, True, 20.0, "PreemptionByScheduler", "m")
    assert [c.type for c in marked.conditions] == [POD_SCHEDULED, DISRUPTION_TARGET]


def _running(**status: object) -> Pod:
    spec = PodSpec(containers=(Container("app", "nginx"), Container("log", "busybox")), node_name="w1")
    return Pod(ObjectMeta("web", "default"), spec, PodStatus(**status))  # type: ignore[arg-type]


def test_conditions_as_the_api_shows_them():
    """The kubelet's order (kubectl describe prints them so): PodReadyToStartContainers,
    Initialized, Ready, ContainersReady, PodScheduled, then DisruptionTarget."""
    scheduled = (PodCondition(POD_SCHEDULED, "True", last_transition_time=1.0),)
    ready = _running(phase="Running", start_time=2.0, ready=True, ready_changed=5.0, conditions=scheduled)
    assert [(c.type, c.status) for c in conditions_of(ready)] == [
        ("PodReadyToStartContainers", "True"),
        ("Initialized", "True"),
        ("Ready", "True"),
        ("ContainersReady", "True"),
        (POD_SCHEDULED, "True"),
    ]
    assert conditions_of(ready)[2].last_transition_time == 5.0
    starting = _running(phase="Running", start_time=2.0, conditions=scheduled)
    not_ready = conditions_of(starting)[2]
    assert (not_ready.status, not_ready.reason, not_ready.message) == (
        "False",
        "ContainersNotReady",
        "containers with unready status: [app, log]",
    )
    # Given a nodeName, no binding wrote PodScheduled: the kubelet writes it True.
    pinned = _running(phase="Running", start_time=2.0, ready=True)
    assert conditions_of(pinned)[-1] == PodCondition(POD_SCHEDULED, "True", last_transition_time=2.0)
    evicting = with_condition(
        ready.status, DISRUPTION_TARGET, True, 9.0, "EvictionByEvictionAPI", "Eviction API: evicting"
    )
    # Synced by the kubelet, the conditions it does not own come first (mergePodStatus).
    assert [c.type for c in conditions_of(replace(ready, status=evicting))][:2] == [
        DISRUPTION_TARGET,
        "PodReadyToStartContainers",
    ]


def test_a_pending_pod_shows_what_was_written_and_a_gated_one_is_created_saying_so():
    """applySchedulingGatedCondition: the API server adds PodScheduled=False (SchedulingGated) to a
    pod created with gates, unless it has a PodScheduled condition already; the scheduler takes it
    from there once the gates are gone."""
    waiting = Pod(ObjectMeta("web", "default"), status=PodStatus())
    assert conditions_of(waiting) == []
    gated = Pod(ObjectMeta("web", "default"), PodSpec(scheduling_gates=("example.com/wait",)))
    created = scheduling_gated(gated, None)  # the cluster is not read
    assert conditions_of(created) == [
        PodCondition(
            POD_SCHEDULED, "False", "SchedulingGated", "Scheduling is blocked due to non-empty scheduling gates"
        )
    ]
    assert scheduling_gated(created, None) is created
    assert scheduling_gated(waiting, None) is waiting
    sim = Simulation(load_manifests((DATA / "scheduling_gates.yaml").read_text()))
    sim.run_to_end(1)
    stored = sim.cluster.get(Pod, "default/gated")
    assert [(c.type, c.status, c.reason) for c in stored.status.conditions] == [
        (POD_SCHEDULED, "False", "SchedulingGated")
    ]
