"""VolumeRestrictions' EventsToRegister and QueueingHints, after upstream's volume_restrictions_test.go
(Test_isSchedulableAfterPodDeleted, Test_isSchedulableAfterPersistentVolumeClaimChange). The inline
GCE PD / EBS / RBD / iSCSI conflict cases are not ported: the engine's pods have no inline disks."""

from dataclasses import replace
from typing import Any

import pytest

from scheduler_core.api.types import Pod
from scheduler_core.scheduler.cluster_events import ActionType, EventResource, QueueingHint
from scheduler_core.scheduler.plugins.volume_restrictions import VolumeRestrictions
from tests.core.scheduler.plugins.test_volume_binding import claim, pod

QUEUE, SKIP = QueueingHint.QUEUE, QueueingHint.QUEUE_SKIP
PLUGIN = VolumeRestrictions({})


def in_namespace(obj: Any, namespace: str) -> Any:
    return replace(obj, metadata=replace(obj.metadata, namespace=namespace))


def test_events_to_register_with_queueing_hints_on():
    registered = [(r.event.resource, r.event.action, r.hint is not None) for r in PLUGIN.events_to_register()]
    assert registered == [
        (EventResource.POD, ActionType.DELETE, True),
        (EventResource.NODE, ActionType.ADD, False),
        (EventResource.PERSISTENT_VOLUME_CLAIM, ActionType.ADD, True),
    ]


@pytest.mark.parametrize(
    ("case", "p", "deleted", "want"),
    [
        (
            "deleted pod had the same claim",
            pod("claim-rwop", name="pod1"),
            pod("claim-rwop", name="pod2", node_name="node-1"),
            QUEUE,
        ),
        ("no claim in common", pod("claim-1-rwop", name="pod1"), pod("claim-2-rwop", name="pod2"), SKIP),
        # Not upstream's table: the namespace check and objects of the wrong type.
        (
            "same claim name in another namespace",
            pod("claim-rwop", name="pod1"),
            in_namespace(pod("claim-rwop", name="pod2"), "other"),
            SKIP,
        ),
        ("deleted pod without volumes", pod("claim-rwop", name="pod1"), pod(name="pod2"), SKIP),
        ("wrong old object", pod("claim-rwop", name="pod1"), "not-a-pod", QUEUE),
    ],
)
def test_is_schedulable_after_pod_deleted(case: str, p: Pod, deleted: Any, want: QueueingHint):
    assert PLUGIN.is_schedulable_after_pod_deleted(p, deleted, None) is want


WITH_TWO = pod("claim-with-rwx-1", "claim-with-rwx-2", name="pod-with-two-pvcs", node_name="node-1")
WITH_ONE = pod("claim-with-rwx-1", name="pod-with-one-pvc", node_name="node-1")
IN_KUBE_SYSTEM = in_namespace(pod("claim-with-rwx-1", name="pod-with-one-pvc"), "kube-system")
PVC1 = claim("claim-with-rwx-1", modes=("ReadWriteMany",))
PVC2 = claim("claim-with-rwx-2", modes=("ReadWriteMany",))


@pytest.mark.parametrize(
    ("case", "p", "old", "new", "want"),
    [
        ("new claim belongs to the pod", WITH_TWO, None, PVC1, QUEUE),
        ("new claim unused", WITH_ONE, None, PVC2, SKIP),
        ("nil old object", WITH_ONE, None, PVC2, SKIP),
        ("new claim not the pod's", WITH_ONE, None, PVC2, SKIP),
        ("namespace differs from the pod's", IN_KUBE_SYSTEM, None, PVC1, SKIP),
        ("wrong new object", WITH_ONE, None, "not-a-pvc", QUEUE),
    ],
)
def test_is_schedulable_after_claim_added(case: str, p: Pod, old: Any, new: Any, want: QueueingHint):
    assert PLUGIN.is_schedulable_after_claim_added(p, old, new) is want
