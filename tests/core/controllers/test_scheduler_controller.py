"""The scheduler in a run: its cache follows the store as upstream's does (every update of an
assigned pod), and what it writes on a pod's status (nomination, PodScheduled) and when."""

import pytest

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.pod_conditions import (
    DISRUPTION_TARGET,
    POD_SCHEDULED,
    PREEMPTION_BY_SCHEDULER,
    PREEMPTION_MESSAGE,
    UNSCHEDULABLE,
    condition_of,
)
from scheduler_core.api.types import Pod, PodCondition
from scheduler_core.explain.explain import explain_in_cluster
from scheduler_core.scheduler.preemption import NOT_ELIGIBLE_TERMINATING_POD
from scheduler_core.simulation.simulation import Simulation
from tests.core.controllers.node_health_helpers import DATA, find, simulate


@pytest.mark.parametrize("seed", range(5))
def test_preemption_sees_the_victims_start_times_in_a_run(seed):
    """Issue #16, item 2: 'early' started at 1 s, 'late' at 11 s, one on each node; the preemptor's
    node is the one whose victims started last, whatever the seed's tie-breaks."""
    sim = simulate("preemption_latest_start_time.yaml", seed=seed)
    (preempted,) = find(sim, "Preempted")
    assert (preempted.time, preempted.object) == (20.0, "Pod/default/late")
    late_node = next(e for e in find(sim, "Scheduled") if e.object == "Pod/default/late").message.rsplit(" ", 1)[1]
    urgent = next(e for e in find(sim, "Scheduled") if e.object == "Pod/default/urgent")
    assert urgent.message.endswith(f"to {late_node}")


def _at_event(source, event):
    """The store right after `event` of a fresh run, as the player's frame at it shows it."""
    text = (DATA / source).read_text()
    cluster = Simulation(load_manifests(text)).cluster_at_event(event.seq, until=120)
    return cluster, {pod.name: pod for pod in cluster.objects(Pod)}


def test_the_preemptor_is_nominated_before_its_victims_are_deleted():
    """Issue #16, item 4: upstream's failure handler writes FailedScheduling and the nomination
    while the preemption goroutine deletes the victims; every frame from the first victim's
    deletion on shows the pod nominated, its victims terminating as targets of the disruption."""
    scenario = "preemption_nominated_while_victims_terminate.yaml"
    sim = simulate(scenario, until=120)
    failed = next(e for e in find(sim, "FailedScheduling") if e.object == "Pod/default/urgent")
    killing = [e for e in find(sim, "Killing") if e.time == 10.0]
    preempted = [e for e in find(sim, "Preempted")]
    assert [e.object for e in killing] == [f"Pod/default/low-{i}" for i in (1, 2, 3)]
    assert failed.seq < killing[0].seq < preempted[0].seq  # each victim: deleted, then Preempted
    cluster, pods = _at_event(scenario, killing[0])
    assert pods["urgent"].status.nominated_node_name == "node-1"
    victim = pods["low-1"]
    assert victim.metadata.deletion_timestamp == 10.0
    target = condition_of(victim.status, DISRUPTION_TARGET)
    message = "default-scheduler: preempting to accommodate a higher priority pod"  # the preemptor's scheduler
    assert message == PREEMPTION_MESSAGE.format(scheduler="default-scheduler")
    assert target == PodCondition(DISRUPTION_TARGET, "True", PREEMPTION_BY_SCHEDULER, message, 10.0)
    # An explanation there is what the scheduler would answer: its victims are still going.
    preemption = explain_in_cluster(cluster, "default/urgent", fixes=False).preemption
    assert preemption is not None
    assert (preemption.eligible, preemption.message) == (False, f"preemption: {NOT_ELIGIBLE_TERMINATING_POD}")


def test_pod_scheduled_says_why_a_pod_waits_and_turns_true_when_it_is_bound():
    sim = simulate("preemption_nominated_while_victims_terminate.yaml", until=120)
    latecomer = sim.cluster.get(Pod, "default/latecomer")
    scheduled = condition_of(latecomer.status, POD_SCHEDULED)
    last = [e for e in find(sim, "FailedScheduling") if e.object == "Pod/default/latecomer"][-1]
    assert (scheduled.status, scheduled.reason, scheduled.message) == ("False", UNSCHEDULABLE, last.message)
    assert scheduled.last_transition_time == 0.0  # False since its first attempt: the message moved, not the status
    urgent = sim.cluster.get(Pod, "default/urgent")
    bound = condition_of(urgent.status, POD_SCHEDULED)
    assert (bound.status, bound.reason, bound.message, bound.last_transition_time) == ("True", "", "", 40.0)
    assert urgent.status.nominated_node_name == ""
