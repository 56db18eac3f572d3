"""VolumeBinding's EventsToRegister and QueueingHints (volumebinding/volume_binding.go, v1.34).

A hint answers QUEUE where upstream's returns an error (objects of an unexpected type). CSINode,
CSIDriver and CSIStorageCapacity are not engine objects: their hints read plain manifests.
"""

import math
from typing import Any

from scheduler_core.api.errors import QuantityError
from scheduler_core.api.quantity import parse_quantity
from scheduler_core.api.types import Pod
from scheduler_core.api.workloads import PersistentVolumeClaim, StorageClass
from scheduler_core.scheduler.cluster_events import (
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    EventResource,
    QueueingHint,
)
from scheduler_core.scheduler.plugins.hint_helpers import claim_names, is_plain_object, plain_field

# v1.MigratedPluginsAnnotationKey: the in-tree plugins a node's CSINode says are migrated to CSI.
MIGRATED_PLUGINS_ANNOTATION = "storage.alpha.kubernetes.io/migrated-plugins"
ADD_OR_UPDATE = ActionType.ADD | ActionType.UPDATE


def volume_binding_events() -> list[ClusterEventWithHint]:
    """EventsToRegister with QueueingHints on: Node Add and label updates only (no UpdateNodeTaint,
    which upstream registers only for the preCheck that QueueingHints retired)."""
    return [
        # A missing or mis-configured class (allowedTopologies) may be fixed.
        _with(EventResource.STORAGE_CLASS, ADD_OR_UPDATE, is_schedulable_after_storage_class_change),
        # Claims and volumes get bound: any change may help.
        _with(EventResource.PERSISTENT_VOLUME_CLAIM, ADD_OR_UPDATE, is_schedulable_after_claim_change),
        _with(EventResource.PERSISTENT_VOLUME, ADD_OR_UPDATE),
        # A node's labels decide a PV's node affinity and a class's allowed topologies.
        _with(EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_LABEL),
        # In-tree PVs are translated to CSI after the node's CSINode.
        _with(EventResource.CSI_NODE, ADD_OR_UPDATE, is_schedulable_after_csi_node_change),
        _with(EventResource.CSI_DRIVER, ActionType.UPDATE, is_schedulable_after_csi_driver_change),
        _with(EventResource.CSI_STORAGE_CAPACITY, ADD_OR_UPDATE, is_schedulable_after_csi_storage_capacity_change),
    ]


def _with(resource: EventResource, action: ActionType, hint: Any = None) -> ClusterEventWithHint:
    return ClusterEventWithHint(ClusterEvent(resource, action), hint)


def is_schedulable_after_claim_change(pod: Pod, old: Any, new: Any) -> QueueingHint:
    """A new or changed claim the pod uses: nearly every change to it (bound, provisioned,
    selected-node reset) may make the pod schedulable."""
    if not isinstance(new, PersistentVolumeClaim) or not (old is None or isinstance(old, PersistentVolumeClaim)):
        return QueueingHint.QUEUE
    if new.metadata.namespace != pod.namespace:
        return QueueingHint.QUEUE_SKIP
    return QueueingHint.QUEUE if new.metadata.name in claim_names(pod) else QueueingHint.QUEUE_SKIP


def is_schedulable_after_storage_class_change(pod: Pod, old: Any, new: Any) -> QueueingHint:
    """Any new class; of an update, only a change of allowedTopologies (volumeBindingMode is immutable)."""
    if not isinstance(new, StorageClass) or not (old is None or isinstance(old, StorageClass)):
        return QueueingHint.QUEUE
    if old is None:
        return QueueingHint.QUEUE
    return QueueingHint.QUEUE if _allowed_topologies(old) != _allowed_topologies(new) else QueueingHint.QUEUE_SKIP


def _allowed_topologies(storage_class: StorageClass) -> Any:
    """The engine's StorageClass does not model allowedTopologies (provisioning is possible on every
    node): absent on both sides, an update never changes them."""
    return getattr(storage_class, "allowed_topologies", None)


def is_schedulable_after_csi_node_change(pod: Pod, old: Any, new: Any) -> QueueingHint:
    """A new CSINode, or a change of the plugins it says are migrated to CSI."""
    if old is None:
        return QueueingHint.QUEUE
    if not (is_plain_object(old) and is_plain_object(new)):
        return QueueingHint.QUEUE
    before = plain_field(old, "metadata", "annotations", MIGRATED_PLUGINS_ANNOTATION)
    after = plain_field(new, "metadata", "annotations", MIGRATED_PLUGINS_ANNOTATION)
    return QueueingHint.QUEUE if before != after else QueueingHint.QUEUE_SKIP


def is_schedulable_after_csi_driver_change(pod: Pod, old: Any, new: Any) -> QueueingHint:
    """A driver of one of the pod's inline CSI volumes stopped publishing storage capacity."""
    if not (is_plain_object(old) and is_plain_object(new)):
        return QueueingHint.QUEUE
    if not _uses_inline_csi_driver(pod, plain_field(new, "metadata", "name")):
        return QueueingHint.QUEUE_SKIP
    return QueueingHint.QUEUE if storage_capacity_disabled(old, new) else QueueingHint.QUEUE_SKIP


def _uses_inline_csi_driver(pod: Pod, driver: Any) -> bool:
    """Whether a pod volume is an inline CSI volume of that driver: the engine's pod volumes are all
    PersistentVolumeClaims, so none is."""
    return False


def storage_capacity_disabled(old: Any, new: Any) -> bool:
    """spec.storageCapacity went from true to false or unset."""
    was_on = plain_field(old, "spec", "storageCapacity") is True
    return was_on and plain_field(new, "spec", "storageCapacity") is not True


def is_schedulable_after_csi_storage_capacity_change(pod: Pod, old: Any, new: Any) -> QueueingHint:
    """A new CSIStorageCapacity, or a larger volume limit (capacity and maximumVolumeSize are the
    only mutable fields)."""
    if not is_plain_object(new) or not (old is None or is_plain_object(old)):
        return QueueingHint.QUEUE
    if old is None:
        return QueueingHint.QUEUE
    try:
        before, after = volume_limit(old), volume_limit(new)
    except QuantityError:
        return QueueingHint.QUEUE
    grew = after is not None and (before is None or after > before)
    return QueueingHint.QUEUE if grew else QueueingHint.QUEUE_SKIP


def volume_limit(capacity: Any) -> int | None:
    """volumeLimit: maximumVolumeSize when set (the more precise), else capacity, as Value() reads it
    (rounded up to a whole byte); None without either."""
    for name in ("maximumVolumeSize", "capacity"):
        value = plain_field(capacity, name)
        if value is not None:
            return math.ceil(parse_quantity(value))
    return None
