"""A pod's Ready condition and availability, as every controller now reads them from the pod."""

from pathlib import Path

import pytest

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.pod_conditions import is_pod_available, ready_changed_at, with_ready
from scheduler_core.api.types import ObjectMeta, Pod, PodStatus
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
