"""SchedulingGates' registered events and queueing hint, ported from upstream's
schedulinggates/scheduling_gates_test.go (Test_isSchedulableAfterPodChange)."""

from typing import Any

import pytest

from scheduler_core.api.types import ObjectMeta, Pod, PodSpec
from scheduler_core.scheduler.cluster_events import ActionType, ClusterEvent, EventResource, QueueingHint
from scheduler_core.scheduler.plugins.scheduling_gates import SchedulingGates

QUEUE, SKIP = QueueingHint.QUEUE, QueueingHint.QUEUE_SKIP


def pod(name: str, *gates: str, uid: str = "") -> Pod:
    return Pod(ObjectMeta(name, uid=uid), PodSpec(scheduling_gates=gates))


def test_registers_only_the_removal_of_scheduling_gates() -> None:
    registrations = SchedulingGates({}).events_to_register()
    assert [r.event for r in registrations] == [
        ClusterEvent(EventResource.POD, ActionType.UPDATE_POD_SCHEDULING_GATES_ELIMINATED)
    ]
    assert registrations[0].hint is not None


@pytest.mark.parametrize(
    ("target", "old", "new", "expected"),
    [
        pytest.param(Pod(ObjectMeta("")), "not-a-pod", None, QUEUE, id="backoff-wrong-old-object"),
        pytest.param(Pod(ObjectMeta("")), None, "not-a-pod", QUEUE, id="backoff-wrong-new-object"),
        pytest.param(
            pod("p", "foo", "bar", uid="uid0"),
            pod("p1", "foo", "bar", uid="uid1"),
            pod("p1", "foo", uid="uid1"),
            SKIP,
            id="skip-queue-on-other-pod-updated",
        ),
        pytest.param(pod("p", "foo"), pod("p", "foo"), pod("p"), QUEUE, id="queue-on-the-unsched-pod-updated"),
    ],
)
def test_is_schedulable_after_gates_eliminated(target: Pod, old: Any, new: Any, expected: QueueingHint) -> None:
    assert SchedulingGates({}).is_schedulable_after_gates_eliminated(target, old, new) is expected
