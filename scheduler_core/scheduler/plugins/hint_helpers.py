"""What the QueueingHints of the storage and DRA plugins share.

The pod-and-claim tests every storage hint makes, and the reading of the objects the engine does
not model (CSINode, CSIDriver, CSIStorageCapacity, VolumeAttachment, ResourceClaim): those arrive
as plain manifests (mappings shaped like the API object), so a hint reads them by field path.
"""

from collections.abc import Mapping
from typing import Any

from scheduler_core.api.types import Pod
from scheduler_core.api.workloads import PersistentVolumeClaim


def claim_names(pod: Pod) -> list[str]:
    """The PersistentVolumeClaims the pod's volumes name. Upstream also counts a generic ephemeral
    volume's claim (`<pod>-<volume>`); the engine's pods have no ephemeral volumes."""
    return [volume.persistent_volume_claim for volume in pod.spec.volumes if volume.persistent_volume_claim]


def pod_uses_claim(pod: Pod, claim: PersistentVolumeClaim) -> bool:
    """The claim lives in the pod's namespace and one of the pod's volumes names it."""
    return claim.metadata.namespace == pod.namespace and claim.metadata.name in claim_names(pod)


def is_plain_object(obj: Any) -> bool:
    """A manifest-shaped mapping: the form objects the engine does not model arrive in."""
    return isinstance(obj, Mapping)


def plain_field(obj: Mapping[str, Any], *path: str) -> Any:
    """The value at `path` in a manifest-shaped mapping, None where any step is missing."""
    value: Any = obj
    for key in path:
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return value
