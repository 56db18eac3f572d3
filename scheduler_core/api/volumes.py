"""Helpers on PersistentVolumes and PersistentVolumeClaims shared by the PV controller and the
scheduler's volume plugins (k8s.io/component-helpers/storage/volume, pkg/volume/util).

The engine's PersistentVolume keeps its claimRef as "namespace/name" without the claim's UID. Upstream
tells a PV still bound to a claim from one left over by a deleted claim of the same name by the UID;
here a PV whose claim went away is Released (the PV controller marks it so), and a Released PV is
never taken as bound to a claim again, which gives the same outcomes.
"""

from collections.abc import Callable, Iterable, Mapping

from scheduler_core.api.selectors import node_selector_matches
from scheduler_core.api.types import Pod
from scheduler_core.api.workloads import PersistentVolume, PersistentVolumeClaim, StorageClass

# Annotations (component-helpers/storage/volume/helpers.go, pv_helpers.go).
ANN_BIND_COMPLETED = "pv.kubernetes.io/bind-completed"
ANN_BOUND_BY_CONTROLLER = "pv.kubernetes.io/bound-by-controller"
ANN_SELECTED_NODE = "volume.kubernetes.io/selected-node"
ANN_STORAGE_PROVISIONER = "volume.kubernetes.io/storage-provisioner"
ANN_BETA_STORAGE_PROVISIONER = "volume.beta.kubernetes.io/storage-provisioner"
ANN_DYNAMICALLY_PROVISIONED = "pv.kubernetes.io/provisioned-by"
ANN_BETA_STORAGE_CLASS = "volume.beta.kubernetes.io/storage-class"
NOT_SUPPORTED_PROVISIONER = "kubernetes.io/no-provisioner"

WAIT_FOR_FIRST_CONSUMER = "WaitForFirstConsumer"
HOSTNAME_LABEL = "kubernetes.io/hostname"

# Phases.
CLAIM_PENDING, CLAIM_BOUND, CLAIM_LOST = "Pending", "Bound", "Lost"
VOLUME_PENDING, VOLUME_AVAILABLE, VOLUME_BOUND = "Pending", "Available", "Bound"
VOLUME_RELEASED, VOLUME_FAILED = "Released", "Failed"

ClassLookup = Callable[[str], StorageClass | None]


def claim_key(claim: PersistentVolumeClaim) -> str:
    return f"{claim.metadata.namespace}/{claim.metadata.name}"


def claim_class(claim: PersistentVolumeClaim) -> str:
    """GetPersistentVolumeClaimClass: the beta annotation wins over spec.storageClassName; none is ""."""
    annotated = claim.metadata.annotations.get(ANN_BETA_STORAGE_CLASS)
    if annotated is not None:
        return annotated
    return claim.spec.storage_class_name or ""


def volume_class(volume: PersistentVolume) -> str:
    annotated = volume.metadata.annotations.get(ANN_BETA_STORAGE_CLASS)
    if annotated is not None:
        return annotated
    return volume.spec.storage_class_name


def is_fully_bound(claim: PersistentVolumeClaim) -> bool:
    """The claim names a volume and the PV controller finished binding it (bind-completed)."""
    return bool(claim.spec.volume_name) and ANN_BIND_COMPLETED in claim.metadata.annotations


def is_volume_bound_to_claim(volume: PersistentVolume, claim: PersistentVolumeClaim) -> bool:
    """IsVolumeBoundToClaim: the PV's claimRef names this claim (see the module note on UIDs)."""
    return bool(volume.spec.claim_ref) and volume.spec.claim_ref == claim_key(claim) and volume.phase != VOLUME_RELEASED


def check_node_affinity(volume: PersistentVolume, node_labels: Mapping[str, str]) -> bool:
    """CheckNodeAffinity: no required node affinity matches every node; upstream matches the terms
    against a node that has only the labels (no name), so matchFields never match."""
    required = volume.spec.node_affinity
    if required is None:
        return True
    return node_selector_matches(required, "", node_labels)


def check_access_modes(claim: PersistentVolumeClaim, volume: PersistentVolume) -> bool:
    """Every access mode the claim asks for is one the volume offers."""
    offered = set(volume.spec.access_modes)
    return all(mode in offered for mode in claim.spec.access_modes)


def is_delay_binding_mode(claim: PersistentVolumeClaim, lookup: ClassLookup) -> bool:
    """IsDelayBindingMode: the claim's class exists and binds WaitForFirstConsumer."""
    name = claim_class(claim)
    if not name:
        return False
    storage_class = lookup(name)
    return storage_class is not None and storage_class.volume_binding_mode == WAIT_FOR_FIRST_CONSUMER


def find_matching_volume(
    claim: PersistentVolumeClaim,
    volumes: Iterable[PersistentVolume],
    node_labels: Mapping[str, str] | None,
    excluded: Iterable[str],
    delay_binding: bool,
) -> PersistentVolume | None:
    """FindMatchingVolume: a volume pre-bound to the claim if there is one that is large enough (and,
    on the scheduler's path, fits the node), else the smallest Available volume of the claim's class
    that is large enough, unclaimed and fits the node. `node_labels` is None on the PV controller's
    path, where a delay-binding claim only takes pre-bound volumes."""
    excluded_names = set(excluded)
    requested = claim.spec.storage
    requested_class = claim_class(claim)
    smallest: PersistentVolume | None = None
    for volume in volumes:
        if volume.metadata.name in excluded_names or volume.metadata.deletion_timestamp is not None:
            continue
        affinity_valid = node_labels is None or check_node_affinity(volume, node_labels)
        if is_volume_bound_to_claim(volume, claim):
            if volume.spec.storage < requested:
                continue
            if not affinity_valid:
                return None
            return volume
        if node_labels is None and delay_binding:
            continue  # the scheduler binds delay-binding claims
        if volume.phase != VOLUME_AVAILABLE or volume.spec.claim_ref:
            continue
        if volume_class(volume) != requested_class or not affinity_valid:
            continue
        if node_labels is not None and not check_access_modes(claim, volume):
            continue
        if volume.spec.storage >= requested and (smallest is None or volume.spec.storage < smallest.spec.storage):
            smallest = volume
    return smallest


def default_storage_class(classes: Iterable[StorageClass]) -> StorageClass | None:
    """GetDefaultClass: among classes annotated as default, the newest (ties: the name that sorts first)."""
    defaults = [storage_class for storage_class in classes if storage_class.is_default]
    if not defaults:
        return None
    return min(defaults, key=lambda c: (-c.metadata.creation_timestamp, c.metadata.name))


def uses_claims(pod: Pod) -> bool:
    """Whether the pod mounts any PersistentVolumeClaim."""
    return any(volume.persistent_volume_claim for volume in pod.spec.volumes)
