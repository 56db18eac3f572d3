"""VolumeBinding's EventsToRegister and QueueingHints, after upstream's volume_binding_test.go
(TestIsSchedulableAfter{CSINode,PersistentVolumeClaim,StorageClass,CSIStorageCapacity,CSIDriver}Change).
CSINode, CSIDriver and CSIStorageCapacity are plain manifests: the engine has no such objects."""

from dataclasses import replace
from typing import Any

import pytest

from scheduler_core.api.types import Pod
from scheduler_core.scheduler.cluster_events import (
    ActionType,
    ClusterEvent,
    EventResource,
    QueueingHint,
    build_queueing_hint_map,
)
from scheduler_core.scheduler.plugins.volume_binding import VolumeBinding
from scheduler_core.scheduler.plugins.volume_binding_events import (
    MIGRATED_PLUGINS_ANNOTATION,
    is_schedulable_after_claim_change,
    is_schedulable_after_csi_driver_change,
    is_schedulable_after_csi_node_change,
    is_schedulable_after_csi_storage_capacity_change,
    is_schedulable_after_storage_class_change,
    storage_capacity_disabled,
)
from scheduler_core.scheduler.queue import QueuedPodInfo, SchedulingQueue
from tests.core.scheduler.plugins.test_volume_binding import claim, pod, storage_class

QUEUE, SKIP = QueueingHint.QUEUE, QueueingHint.QUEUE_SKIP
ADD_OR_UPDATE = ActionType.ADD | ActionType.UPDATE


def in_namespace(p: Pod, namespace: str) -> Pod:
    return replace(p, metadata=replace(p.metadata, namespace=namespace))


# ------------------------------------------------------------------ registration


def test_events_to_register_with_queueing_hints_on():
    registered = [
        (r.event.resource, r.event.action, r.hint is not None) for r in VolumeBinding({}).events_to_register()
    ]
    assert registered == [
        (EventResource.STORAGE_CLASS, ADD_OR_UPDATE, True),
        (EventResource.PERSISTENT_VOLUME_CLAIM, ADD_OR_UPDATE, True),
        (EventResource.PERSISTENT_VOLUME, ADD_OR_UPDATE, False),
        (EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_LABEL, False),
        (EventResource.CSI_NODE, ADD_OR_UPDATE, True),
        (EventResource.CSI_DRIVER, ActionType.UPDATE, True),
        (EventResource.CSI_STORAGE_CAPACITY, ADD_OR_UPDATE, True),
    ]


def test_a_parked_pod_is_requeued_by_an_update_of_its_own_claim_only():
    hints = build_queueing_hint_map({"VolumeBinding": VolumeBinding({})})
    queue = SchedulingQueue(lambda a, b: False, hint_maps={"default-scheduler": hints})
    waiting = pod("pvc-a")
    queue.add(waiting, 0.0)
    info = queue.pop(0.0)
    assert isinstance(info, QueuedPodInfo)
    queue.add_unschedulable(info, 0.0, {"VolumeBinding"})
    update = ClusterEvent(EventResource.PERSISTENT_VOLUME_CLAIM, ActionType.UPDATE)
    assert queue.move_all_to_active_or_backoff(update, 100.0, claim("pvc-b"), claim("pvc-b")) == 0
    assert queue.location(waiting.key) == "unschedulable"
    assert queue.move_all_to_active_or_backoff(update, 100.0, claim("pvc-a"), claim("pvc-a")) == 1
    assert queue.location(waiting.key) != "unschedulable"


# ------------------------------------------------------------------ PersistentVolumeClaim


@pytest.mark.parametrize(
    ("case", "p", "old", "new", "want"),
    [
        ("pod has no pvc volumes", pod(), claim("pvc-b", "sc-a"), claim("pvc-b", "sc-a"), SKIP),
        (
            "same-named pvc in another namespace",
            in_namespace(pod("pvc-a", "pvc-b"), "ns-a"),
            None,
            claim("pvc-b", None),
            SKIP,
        ),
        ("pod has no pvc that is being modified", pod("pvc-a", "pvc-c"), claim("pvc-b"), claim("pvc-b"), SKIP),
        ("pod has the pvc that is being modified", pod("pvc-a", "pvc-b"), claim("pvc-b"), claim("pvc-b"), QUEUE),
        ("a new pvc the pod uses", pod("pvc-a"), None, claim("pvc-a"), QUEUE),
        ("type conversion error", pod("pvc-a"), object(), object(), QUEUE),
    ],
)
def test_is_schedulable_after_claim_change(case: str, p: Pod, old: Any, new: Any, want: QueueingHint):
    assert is_schedulable_after_claim_change(p, old, new) is want


# ------------------------------------------------------------------ StorageClass


@pytest.mark.parametrize(
    ("case", "old", "new", "want"),
    [
        ("a new StorageClass", None, storage_class("sc-a"), QUEUE),
        ("no change to the StorageClass", storage_class("sc-a"), storage_class("sc-a"), SKIP),
        # allowedTopologies is not modelled: no other field's change queues the pod.
        ("provisioner changed", storage_class("sc-a"), storage_class("sc-a", provisioner="example.com/x"), SKIP),
        ("type conversion error", object(), object(), QUEUE),
    ],
)
def test_is_schedulable_after_storage_class_change(case: str, old: Any, new: Any, want: QueueingHint):
    assert is_schedulable_after_storage_class_change(pod("pvc-a"), old, new) is want


# ------------------------------------------------------------------ CSINode (plain manifests)


def csi_node(migrated: str | None = None) -> dict[str, Any]:
    annotations = {MIGRATED_PLUGINS_ANNOTATION: migrated} if migrated is not None else {}
    return {"metadata": {"name": "csinode-a", "annotations": annotations}}


@pytest.mark.parametrize(
    ("case", "old", "new", "want"),
    [
        ("unexpected objects", object(), object(), QUEUE),
        ("CSINode is newly created", None, csi_node(), QUEUE),
        ("migrated-plugins annotation is added to", csi_node("test1"), csi_node("test1, test2"), QUEUE),
        ("migrated-plugins annotation is updated", csi_node("test1"), csi_node("test2"), QUEUE),
        ("migrated-plugins annotation first set", csi_node(), csi_node("test1"), QUEUE),
        ("migrated-plugins annotation unchanged", csi_node("test1"), csi_node("test1"), SKIP),
    ],
)
def test_is_schedulable_after_csi_node_change(case: str, old: Any, new: Any, want: QueueingHint):
    assert is_schedulable_after_csi_node_change(pod(), old, new) is want


# ------------------------------------------------------------------ CSIStorageCapacity (plain manifests)


def capacity(total: Any = None, maximum: Any = None) -> dict[str, Any]:
    manifest: dict[str, Any] = {"metadata": {"name": "cap-a"}}
    if total is not None:
        manifest["capacity"] = total
    if maximum is not None:
        manifest["maximumVolumeSize"] = maximum
    return manifest


@pytest.mark.parametrize(
    ("case", "old", "new", "want"),
    [
        ("a new CSIStorageCapacity", None, capacity(), QUEUE),
        ("limit increased: capacity set", capacity(), capacity(100), QUEUE),
        ("limit increased: maximumVolumeSize set", capacity(), capacity(maximum=100), QUEUE),
        ("limit increased: capacity grew", capacity(50), capacity(100), QUEUE),
        ("limit increased: maximumVolumeSize unset", capacity(100, 50), capacity(100), QUEUE),
        ("limit increased: maximumVolumeSize grew", capacity(100, 50), capacity(100, 60), QUEUE),
        ("no change", capacity(100, 50), capacity(100, 50), SKIP),
        ("limit equal: capacity", capacity(100), capacity(100), SKIP),
        ("limit equal: maximumVolumeSize unset", capacity(100, 50), capacity(50), SKIP),
        ("limit decreased: capacity", capacity(100), capacity(90), SKIP),
        ("limit decreased: maximumVolumeSize", capacity(maximum=100), capacity(maximum=90), SKIP),
        ("quantities as strings", capacity("1Gi"), capacity("2Gi"), QUEUE),
        ("type conversion error", object(), object(), QUEUE),
        ("malformed quantity", capacity(100), capacity("lots"), QUEUE),
    ],
)
def test_is_schedulable_after_csi_storage_capacity_change(case: str, old: Any, new: Any, want: QueueingHint):
    assert is_schedulable_after_csi_storage_capacity_change(pod(), old, new) is want


# ------------------------------------------------------------------ CSIDriver (plain manifests)


def csi_driver(name: str, storage_capacity: bool | None) -> dict[str, Any]:
    spec = {"storageCapacity": storage_capacity} if storage_capacity is not None else {}
    return {"metadata": {"name": name}, "spec": spec}


def test_csi_driver_change_skips_a_pod_without_inline_csi_volumes():
    # The engine's pod volumes are all claims: upstream's "pod has no CSIDriver" case.
    assert (
        is_schedulable_after_csi_driver_change(pod("pvc-a"), csi_driver("test1", None), csi_driver("test1", True))
        is SKIP
    )


def test_csi_driver_change_with_unexpected_objects_queues():
    assert is_schedulable_after_csi_driver_change(pod(), object(), object()) is QUEUE


@pytest.mark.parametrize(
    ("case", "before", "after", "disabled"),
    [
        ("original StorageCapacity is nil", None, None, False),
        ("original StorageCapacity is false", False, False, False),
        ("modified StorageCapacity is nil", True, None, True),
        ("modified StorageCapacity is true", True, True, False),
        ("modified StorageCapacity is false", True, False, True),
    ],
)
def test_storage_capacity_disabled(case: str, before: bool | None, after: bool | None, disabled: bool):
    """The CSIDriver hint's rule for a pod with an inline CSI volume of the driver (upstream's
    withCSI cases, which the engine's pods cannot express)."""
    assert storage_capacity_disabled(csi_driver("test1", before), csi_driver("test1", after)) is disabled
