"""What the volume plugins read of the cluster's storage objects (the PVC, PV and StorageClass
listers of the scheduler's informers), and the two writes VolumeBinding's PreBind makes (a PV's
claimRef, a PVC's selected-node annotation).

Two implementations: a fixed in-memory set (tests, `explain`) and, in a simulation, the object store
itself (controllers/scheduler_controller.py), so that PreBind's writes reach the PV controller.
"""

from collections.abc import Iterable
from typing import Any, Protocol

from scheduler_core.api.workloads import PersistentVolume, PersistentVolumeClaim, StorageClass

# A lister's NotFound, as the volume plugins report it.
CLAIM_NOT_FOUND = 'persistentvolumeclaim "{}" not found'
PV_NOT_FOUND = 'persistentvolume "{}" not found'


class VolumeLister(Protocol):
    def claim(self, namespace: str, name: str) -> PersistentVolumeClaim | None: ...

    def volume(self, name: str) -> PersistentVolume | None: ...

    def storage_class(self, name: str) -> StorageClass | None: ...

    def volumes(self) -> list[PersistentVolume]:
        """Every PV, by name."""
        ...

    def update_claim(self, claim: PersistentVolumeClaim) -> PersistentVolumeClaim: ...

    def update_volume(self, volume: PersistentVolume) -> PersistentVolume: ...


class StaticVolumeLister:
    """A fixed set of objects; updates replace them in place."""

    def __init__(
        self,
        claims: Iterable[PersistentVolumeClaim] = (),
        volumes: Iterable[PersistentVolume] = (),
        classes: Iterable[StorageClass] = (),
    ) -> None:
        self._claims = {claim.metadata.key: claim for claim in claims}
        self._volumes = {volume.metadata.name: volume for volume in volumes}
        self._classes = {storage_class.metadata.name: storage_class for storage_class in classes}

    def claim(self, namespace: str, name: str) -> PersistentVolumeClaim | None:
        return self._claims.get(f"{namespace}/{name}")

    def volume(self, name: str) -> PersistentVolume | None:
        return self._volumes.get(name)

    def storage_class(self, name: str) -> StorageClass | None:
        return self._classes.get(name)

    def volumes(self) -> list[PersistentVolume]:
        return [self._volumes[name] for name in sorted(self._volumes)]

    def update_claim(self, claim: PersistentVolumeClaim) -> PersistentVolumeClaim:
        self._claims[claim.metadata.key] = claim
        return claim

    def update_volume(self, volume: PersistentVolume) -> PersistentVolume:
        self._volumes[volume.metadata.name] = volume
        return volume


def lister_of(handle: Any) -> VolumeLister:
    """The handle's listers (the store's, in a simulation), else an empty set."""
    volumes: VolumeLister | None = getattr(handle, "volumes", None)
    return volumes if volumes is not None else StaticVolumeLister()
