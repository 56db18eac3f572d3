"""VolumeZone's EventsToRegister and QueueingHints, after upstream's volume_zone_test.go
(TestIsSchedulableAfterPersistentVolumeClaimAdded, ...StorageClassAdded, ...PersistentVolumeChange)."""

from dataclasses import replace
from typing import Any

import pytest

from scheduler_core.api.types import ObjectMeta, Pod
from scheduler_core.api.workloads import StorageClass
from scheduler_core.scheduler.cluster_events import ActionType, EventResource, QueueingHint
from scheduler_core.scheduler.plugins.volume_zone import VolumeZone
from tests.core.scheduler.plugins.test_volume_binding import claim, pod, storage_class, volume

QUEUE, SKIP = QueueingHint.QUEUE, QueueingHint.QUEUE_SKIP
BETA_ZONE = "failure-domain.beta.kubernetes.io/zone"
ZONE = "topology.kubernetes.io/zone"
PLUGIN = VolumeZone({})


def in_namespace(obj: Any, namespace: str) -> Any:
    return replace(obj, metadata=replace(obj.metadata, namespace=namespace))


def test_events_to_register_with_queueing_hints_on():
    registered = [(r.event.resource, r.event.action, r.hint is not None) for r in PLUGIN.events_to_register()]
    add_or_update = ActionType.ADD | ActionType.UPDATE
    assert registered == [
        (EventResource.STORAGE_CLASS, ActionType.ADD, True),
        (EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_LABEL, False),
        (EventResource.PERSISTENT_VOLUME_CLAIM, add_or_update, True),
        (EventResource.PERSISTENT_VOLUME, add_or_update, True),
    ]


@pytest.mark.parametrize(
    ("case", "p", "old", "new", "want"),
    [
        ("wrong new object", pod("pvc-1"), None, "not-a-pvc", QUEUE),
        ("pvc added, pod refers to no pvc", pod(), None, claim("pvc-1", bound="vol-1"), SKIP),
        ("pvc added, pod uses another pvc", pod("pvc-2"), None, claim("pvc-1", bound="vol-1"), SKIP),
        (
            "pvc added, same name in another namespace",
            pod("pvc-1"),
            None,
            in_namespace(claim("pvc-1", bound="vol-1"), "ns1"),
            SKIP,
        ),
        ("pvc added, pod uses it", pod("pvc-1"), None, claim("pvc-1", bound="vol-1"), QUEUE),
        ("pvc updated, pod uses it", pod("pvc-1"), claim("pvc-1"), claim("pvc-1", bound="vol-1"), QUEUE),
        ("pvc updated, pod refers to no pvc", pod(), claim("pvc-1"), claim("pvc-1", bound="vol-1"), SKIP),
    ],
)
def test_is_schedulable_after_claim_change(case: str, p: Pod, old: Any, new: Any, want: QueueingHint):
    assert PLUGIN.is_schedulable_after_claim_change(p, old, new) is want


@pytest.mark.parametrize(
    ("case", "new", "want"),
    [
        ("wrong new object", "not-a-storageclass", QUEUE),
        ("class without volumeBindingMode (Immediate)", StorageClass(ObjectMeta("sc-1")), SKIP),
        ("class binding Immediate", storage_class("sc-1", mode="Immediate"), SKIP),
        ("class binding WaitForFirstConsumer", storage_class("sc-1"), QUEUE),
    ],
)
def test_is_schedulable_after_storage_class_added(case: str, new: Any, want: QueueingHint):
    assert PLUGIN.is_schedulable_after_storage_class_added(pod("pvc-1"), None, new) is want


@pytest.mark.parametrize(
    ("case", "old", "new", "want"),
    [
        ("wrong new object", None, "not-a-pv", QUEUE),
        ("wrong old object", "not-a-pv", volume("vol-1"), QUEUE),
        ("new pv", None, volume("vol-1", labels={BETA_ZONE: "us-west1-b"}), QUEUE),
        (
            "topology changed",
            volume("vol-1", labels={BETA_ZONE: "us-west1-a"}),
            volume("vol-1", labels={BETA_ZONE: "us-west1-b"}),
            QUEUE,
        ),
        (
            "topology label added",
            volume("vol-1", labels={BETA_ZONE: "us-west1-a"}),
            volume("vol-1", labels={BETA_ZONE: "us-west1-a", ZONE: "zone"}),
            QUEUE,
        ),
        (
            "topology unchanged",
            volume("vol-1", labels={BETA_ZONE: "us-west1-a", ZONE: "zone"}),
            volume("vol-1", labels={BETA_ZONE: "us-west1-a", ZONE: "zone"}),
            SKIP,
        ),
        # Not upstream's table: other labels and unparsable zone values are not topology.
        (
            "only a non-topology label changed",
            volume("vol-1", labels={ZONE: "zone", "team": "a"}),
            volume("vol-1", labels={ZONE: "zone", "team": "b"}),
            SKIP,
        ),
        (
            "an unparsable zone value is ignored",
            volume("vol-1", labels={ZONE: "zone"}),
            volume("vol-1", labels={ZONE: "zone", BETA_ZONE: "a____b"}),
            SKIP,
        ),
    ],
)
def test_is_schedulable_after_volume_change(case: str, old: Any, new: Any, want: QueueingHint):
    assert PLUGIN.is_schedulable_after_volume_change(pod("pvc-1"), old, new) is want
