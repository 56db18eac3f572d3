"""The PersistentVolume controller's binder (pkg/controller/volume/persistentvolume, kubernetes v1.34)
and a stand-in for an external provisioner.

A claim binds to a PV both ways: the PV's claimRef names the claim, the claim's volumeName names the
PV (and carries pv.kubernetes.io/bind-completed). Immediate claims are bound here as soon as a
matching Available PV exists (the smallest one that is large enough, of the claim's class and with
its access modes; a PV pre-bound to the claim wins), or else provisioned when their StorageClass has
a provisioner. WaitForFirstConsumer claims are left to the scheduler: the PV controller only reports
that it waits ("waiting for first consumer to be created before binding", or, when an unscheduled pod
already uses the claim, "waiting for pod web-0 to be scheduled"). When the scheduler has picked a PV
(it writes the PV's claimRef) the binding is finished here; when it wants a new volume (it writes the
claim's volume.kubernetes.io/selected-node) the claim is provisioned with a node affinity on that
node (the way local-volume provisioners pin a volume to its node).

The provisioner: every StorageClass provisioner that is not in-tree is served by one simulated
external provisioner (sig-storage-lib-external-provisioner's events: Provisioning, then
ProvisioningSucceeded). It provisions at once; the PV is named pvc-<claim uid>. kubernetes.io/
provisioners have no plugin here, as in v1.34 where no in-tree provisioner is left
("no volume plugin matched name: kubernetes.io/no-provisioner").

When a bound claim goes away its PV is Released and reclaimed: Retain keeps it (Released: it does not
bind again), Delete deletes a provisioned PV (a static one has no deleter: Failed), Recycle has no
recycler (Failed). The DefaultStorageClass admission plugin is played here too: a claim created
without storageClassName gets the default class at its first sync.

Not modelled: the 15 s periodic resync. Instead a waiting claim is synced again when something that
may help it appears (an unclaimed PV for an Immediate claim, a StorageClass), at once rather than at
the next resync, and events are not repeated while a claim waits. Nor volume modes and selectors,
resizing, the pvc-protection finalizer.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

from scheduler_core.api.pod_conditions import TERMINAL_PHASES
from scheduler_core.api.types import Node, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, ObjectMeta, Pod
from scheduler_core.api.volumes import (
    ANN_BETA_STORAGE_CLASS,
    ANN_BETA_STORAGE_PROVISIONER,
    ANN_BIND_COMPLETED,
    ANN_BOUND_BY_CONTROLLER,
    ANN_DYNAMICALLY_PROVISIONED,
    ANN_SELECTED_NODE,
    ANN_STORAGE_PROVISIONER,
    CLAIM_BOUND,
    CLAIM_LOST,
    CLAIM_PENDING,
    HOSTNAME_LABEL,
    VOLUME_AVAILABLE,
    VOLUME_BOUND,
    VOLUME_FAILED,
    VOLUME_PENDING,
    VOLUME_RELEASED,
    check_access_modes,
    claim_class,
    claim_key,
    default_storage_class,
    find_matching_volume,
    is_delay_binding_mode,
    is_volume_bound_to_claim,
    volume_class,
)
from scheduler_core.api.workloads import (
    PersistentVolume,
    PersistentVolumeClaim,
    PersistentVolumeClaimStatus,
    PersistentVolumeSpec,
    StorageClass,
)
from scheduler_core.controllers.base import Context, DirtyKeys, record
from scheduler_core.store.cluster import Change, ChangeType, StoredObject

NAME = "persistentvolume-binder"
SOURCE = "persistentvolume-controller"

# Event reasons (pkg/controller/volume/events) and messages (pv_controller.go).
WAIT_FOR_FIRST_CONSUMER_REASON = "WaitForFirstConsumer"
WAIT_FOR_FIRST_CONSUMER_MESSAGE = "waiting for first consumer to be created before binding"
WAIT_FOR_POD_SCHEDULED = "WaitForPodScheduled"
WAIT_FOR_POD_MESSAGE = "waiting for pod {} to be scheduled"
WAIT_FOR_PODS_MESSAGE = "waiting for pods {} to be scheduled"
FAILED_BINDING = "FailedBinding"
NO_VOLUMES_NO_CLASS = "no persistent volumes available for this claim and no storage class is set"
ALREADY_BOUND_ELSEWHERE = 'volume "{}" already bound to a different claim.'
VOLUME_MISMATCH = "VolumeMismatch"
CANNOT_BIND_REQUESTED = 'Cannot bind to requested volume "{}": {}'
CLAIM_LOST_REASON = "ClaimLost"
CLAIM_LOST_REFERENCE = "Bound claim has lost reference to PersistentVolume. Data on the volume is lost!"
CLAIM_LOST_VOLUME = "Bound claim has lost its PersistentVolume. Data on the volume is lost!"
CLAIM_MISBOUND = "ClaimMisbound"
CLAIM_MISBOUND_MESSAGE = "Two claims are bound to the same volume, this one is bound incorrectly"
EXTERNAL_PROVISIONING = "ExternalProvisioning"
EXTERNAL_PROVISIONING_MESSAGE = (
    "Waiting for a volume to be created either by the external provisioner '{}' or manually by the system "
    "administrator. If volume creation is delayed, please verify that the provisioner is running and correctly "
    "registered."
)
PROVISIONING_FAILED = "ProvisioningFailed"
CLASS_NOT_FOUND = 'storageclass.storage.k8s.io "{}" not found'
NO_PLUGIN_MATCHED = "no volume plugin matched name: {}"
VOLUME_FAILED_DELETE = "VolumeFailedDelete"
NO_DELETER = 'error getting deleter volume plugin for volume "{}": no deletable volume plugin matched'
VOLUME_FAILED_RECYCLE = "VolumeFailedRecycle"
NO_RECYCLER = "No recycler plugin found for the volume!"

# The external provisioner's events (sig-storage-lib-external-provisioner controller.go).
PROVISIONING = "Provisioning"
PROVISIONING_MESSAGE = 'External provisioner is provisioning volume for claim "{}"'
PROVISIONING_SUCCEEDED = "ProvisioningSucceeded"
PROVISIONING_SUCCEEDED_MESSAGE = "Successfully provisioned volume {}"

IN_TREE_PREFIX = "kubernetes.io/"


def _mode_sets(volumes: list[PersistentVolume], wanted: tuple[str, ...]) -> list[list[PersistentVolume]]:
    """The PV index's access-mode groups that offer every wanted mode, fewest modes first
    (allPossibleMatchingAccessModes, listByAccessModes)."""
    groups: dict[frozenset[str], list[PersistentVolume]] = {}
    for volume in volumes:
        groups.setdefault(frozenset(volume.spec.access_modes), []).append(volume)
    usable = [modes for modes in groups if set(wanted) <= modes]
    usable.sort(key=lambda modes: (len(modes), sorted(modes)))
    return [groups[modes] for modes in usable]


def _claim_ref_has_uid(volume: PersistentVolume) -> bool:
    """Whether upstream's claimRef would carry the claim's UID: it does once a controller (the PV
    controller, the scheduler, a provisioner) bound the PV; a claimRef written by the PV's author
    names the claim only (the engine keeps no UIDs in claimRefs, see api/volumes.py)."""
    annotations = volume.metadata.annotations
    return (
        volume.phase in (VOLUME_BOUND, VOLUME_RELEASED, VOLUME_FAILED)
        or ANN_BOUND_BY_CONTROLLER in annotations
        or ANN_DYNAMICALLY_PROVISIONED in annotations
    )


class PersistentVolumeController:
    name = NAME
    # The kinds on_change reacts to.
    watch_kinds = frozenset({"Pod", "PersistentVolumeClaim", "PersistentVolume", "StorageClass"})

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.claims = DirtyKeys()
        self.volumes = DirtyKeys()
        self._writing = 0
        self._pods_by_claim: dict[str, dict[str, None]] = {}  # claim key -> keys of pods that use it
        # For each claim, the unscheduled pods using it when the controller last saw it change: the
        # events name the consumers the controller knew of then (the claim of a new StatefulSet pod
        # is seen before its pod, as upstream's informers usually see them).
        self._consumers_seen: dict[str, list[str]] = {}

    # ------------------------------------------------------------------ watching

    def on_change(self, change: Change[StoredObject]) -> None:
        if (pod_change := change.of(Pod)) is not None:
            self._index_pod(pod_change)
            return
        if self._writing:
            return  # our own write: the follow-up is done where it was written
        if change.kind == "PersistentVolumeClaim":
            if change.type is ChangeType.DELETED:
                self._consumers_seen.pop(change.key, None)
                for volume in self.ctx.cluster.objects(PersistentVolume):
                    if volume.spec.claim_ref == change.key:
                        self.volumes.mark(volume.metadata.name)
                return
            self._consumers_seen[change.key] = self._unscheduled_consumers(change.key)
            self.claims.mark(change.key)
        elif (volume_change := change.of(PersistentVolume)) is not None:
            if change.type is ChangeType.DELETED:
                for claim in self.ctx.cluster.objects(PersistentVolumeClaim):
                    if claim.spec.volume_name == volume_change.previous.metadata.name:
                        self.claims.mark(claim.metadata.key)
                return
            self.volumes.mark(change.key)
            if not volume_change.latest.spec.claim_ref:
                # Stands in for the periodic resync: an unbound Immediate claim may match this PV now.
                for claim in self.ctx.cluster.objects(PersistentVolumeClaim):
                    if ANN_BIND_COMPLETED not in claim.metadata.annotations and not is_delay_binding_mode(
                        claim, self._class
                    ):
                        self.claims.mark(claim.metadata.key)
        elif change.kind == "StorageClass" and change.type is ChangeType.ADDED:
            # Stands in for the periodic resync that retries waiting claims.
            for claim in self.ctx.cluster.objects(PersistentVolumeClaim):
                if ANN_BIND_COMPLETED not in claim.metadata.annotations:
                    self.claims.mark(claim.metadata.key)

    def _index_pod(self, change: Change[Pod]) -> None:
        for pod, add in ((change.old, False), (change.new, True)):
            if pod is None:
                continue
            for volume in pod.spec.volumes:
                if not volume.persistent_volume_claim:
                    continue
                claim = f"{pod.namespace}/{volume.persistent_volume_claim}"
                users = self._pods_by_claim.setdefault(claim, {})
                if add and change.type is not ChangeType.DELETED:
                    users[pod.key] = None
                else:
                    users.pop(pod.key, None)

    def _unscheduled_consumers(self, claim: str) -> list[str]:
        """findNonScheduledPodsByPVC: active pods using the claim that are not on a node yet."""
        names = []
        for key in self._pods_by_claim.get(claim, {}):
            pod: Pod | None = self.ctx.cluster.get(Pod, key)
            if pod is not None and pod.status.phase not in TERMINAL_PHASES and not pod.spec.node_name:
                names.append(pod.name)
        return names

    @contextmanager
    def _own_write(self) -> Iterator[None]:
        self._writing += 1
        try:
            yield
        finally:
            self._writing -= 1

    def _update_claim(self, claim: PersistentVolumeClaim) -> PersistentVolumeClaim:
        with self._own_write():
            stored: PersistentVolumeClaim = self.ctx.cluster.update(claim)
        return stored

    def _update_volume(self, volume: PersistentVolume) -> PersistentVolume:
        with self._own_write():
            stored: PersistentVolume = self.ctx.cluster.update(volume)
        return stored

    def _event(
        self, obj: StoredObject, reason: str, message: str, *, warning: bool = False, source: str = SOURCE
    ) -> None:
        record(self.ctx, obj, reason, message, warning=warning, source=source)

    # ------------------------------------------------------------------ syncing

    def sync(self) -> bool:
        busy = False
        for name in self.volumes.take():
            busy = True
            self._sync_volume(name)
        for key in self.claims.take():
            busy = True
            self._sync_claim(key)
        return busy

    def _class(self, name: str) -> StorageClass | None:
        storage_class: StorageClass | None = self.ctx.cluster.get(StorageClass, name)
        return storage_class

    # ------------------------------------------------------------------ claims

    def _sync_claim(self, key: str) -> None:
        claim: PersistentVolumeClaim | None = self.ctx.cluster.get(PersistentVolumeClaim, key)
        if claim is None:
            return
        if ANN_BIND_COMPLETED in claim.metadata.annotations:
            self._sync_bound_claim(claim)
        else:
            self._sync_unbound_claim(claim)

    def _admit_default_class(self, claim: PersistentVolumeClaim) -> PersistentVolumeClaim:
        """The DefaultStorageClass admission plugin (and assignDefaultStorageClass): a claim that names
        no class gets the default one."""
        if claim.spec.storage_class_name is not None or ANN_BETA_STORAGE_CLASS in claim.metadata.annotations:
            return claim
        default = default_storage_class(self.ctx.cluster.objects(StorageClass))
        if default is None:
            return claim
        spec = replace(claim.spec, storage_class_name=default.metadata.name)
        return self._update_claim(replace(claim, spec=spec))

    def _find_best_match(self, claim: PersistentVolumeClaim, delay_binding: bool) -> PersistentVolume | None:
        volumes = sorted(self.ctx.cluster.objects(PersistentVolume), key=lambda v: v.metadata.name)
        for group in _mode_sets(volumes, claim.spec.access_modes):
            volume = find_matching_volume(claim, group, None, (), delay_binding)
            if volume is not None:
                return volume
        return None

    def _sync_unbound_claim(self, claim: PersistentVolumeClaim) -> None:
        if not claim.spec.volume_name:
            claim = self._admit_default_class(claim)
            delay = is_delay_binding_mode(claim, self._class)
            match = self._find_best_match(claim, delay)
            if match is not None:
                self._bind(match, claim)
                return
            if delay and ANN_SELECTED_NODE not in claim.metadata.annotations:
                self._emit_waiting(claim)
            elif claim_class(claim):
                self._provision(claim)
                return
            else:
                self._event(claim, FAILED_BINDING, NO_VOLUMES_NO_CLASS)
            self._set_claim_phase(claim, CLAIM_PENDING)
            return
        volume: PersistentVolume | None = self.ctx.cluster.get(PersistentVolume, claim.spec.volume_name)
        if volume is None:
            self._set_claim_phase(claim, CLAIM_PENDING)  # the requested PV does not exist (yet)
        elif not volume.spec.claim_ref:
            problem = self._unsatisfied(volume, claim)
            if problem:
                message = CANNOT_BIND_REQUESTED.format(volume.metadata.name, problem)
                self._event(claim, VOLUME_MISMATCH, message, warning=True)
                self._set_claim_phase(claim, CLAIM_PENDING)
            else:
                self._bind(volume, claim)
        elif is_volume_bound_to_claim(volume, claim):
            self._bind(volume, claim)
        else:
            self._event(claim, FAILED_BINDING, ALREADY_BOUND_ELSEWHERE.format(volume.metadata.name), warning=True)
            if ANN_BOUND_BY_CONTROLLER not in claim.metadata.annotations:
                self._set_claim_phase(claim, CLAIM_PENDING)

    @staticmethod
    def _unsatisfied(volume: PersistentVolume, claim: PersistentVolumeClaim) -> str:
        """checkVolumeSatisfyClaim."""
        if volume.metadata.deletion_timestamp is not None:
            return f'the volume is marked for deletion "{volume.metadata.name}"'
        if volume.spec.storage < claim.spec.storage:
            return "requested PV is too small"
        if volume_class(volume) != claim_class(claim):
            return "storageClassName does not match"
        if not check_access_modes(claim, volume):
            return "incompatible accessMode"
        return ""

    def _emit_waiting(self, claim: PersistentVolumeClaim) -> None:
        """emitEventForUnboundDelayBindingClaim."""
        pods = self._consumers_seen.get(claim.metadata.key, [])
        if not pods:
            self._event(claim, WAIT_FOR_FIRST_CONSUMER_REASON, WAIT_FOR_FIRST_CONSUMER_MESSAGE)
        elif len(pods) == 1:
            self._event(claim, WAIT_FOR_POD_SCHEDULED, WAIT_FOR_POD_MESSAGE.format(pods[0]))
        else:
            self._event(claim, WAIT_FOR_POD_SCHEDULED, WAIT_FOR_PODS_MESSAGE.format(",".join(pods)))

    def _sync_bound_claim(self, claim: PersistentVolumeClaim) -> None:
        if not claim.spec.volume_name:
            self._set_claim_phase(claim, CLAIM_LOST, (CLAIM_LOST_REASON, CLAIM_LOST_REFERENCE))
            return
        volume: PersistentVolume | None = self.ctx.cluster.get(PersistentVolume, claim.spec.volume_name)
        if volume is None:
            self._set_claim_phase(claim, CLAIM_LOST, (CLAIM_LOST_REASON, CLAIM_LOST_VOLUME))
        elif not volume.spec.claim_ref or is_volume_bound_to_claim(volume, claim):
            self._bind(volume, claim)
        else:
            self._set_claim_phase(claim, CLAIM_LOST, (CLAIM_MISBOUND, CLAIM_MISBOUND_MESSAGE))

    def _set_claim_phase(
        self, claim: PersistentVolumeClaim, phase: str, event: tuple[str, str] | None = None
    ) -> PersistentVolumeClaim:
        """updateClaimStatus (with an event only when the phase changes, as updateClaimStatusWithEvent)."""
        if claim.status.phase == phase:
            return claim
        capacity = claim.status.capacity if phase != CLAIM_PENDING else 0
        stored = self._update_claim(replace(claim, status=PersistentVolumeClaimStatus(phase=phase, capacity=capacity)))
        if event is not None:
            self._event(stored, event[0], event[1], warning=True)
        return stored

    def _bind(self, volume: PersistentVolume, claim: PersistentVolumeClaim) -> None:
        """bind: the PV to the claim (claimRef, Bound), then the claim to the PV (volumeName,
        bind-completed, Bound with the PV's capacity)."""
        annotations = dict(volume.metadata.annotations)
        if not is_volume_bound_to_claim(volume, claim):
            annotations.setdefault(ANN_BOUND_BY_CONTROLLER, "yes")
        bound_volume = replace(
            volume,
            metadata=replace(volume.metadata, annotations=annotations),
            spec=replace(volume.spec, claim_ref=claim_key(claim)),
            phase=VOLUME_BOUND,
        )
        if bound_volume != volume:
            volume = self._update_volume(bound_volume)
        claim_annotations = dict(claim.metadata.annotations)
        spec = claim.spec
        if claim.spec.volume_name != volume.metadata.name:
            spec = replace(spec, volume_name=volume.metadata.name)
            claim_annotations.setdefault(ANN_BOUND_BY_CONTROLLER, "yes")
        claim_annotations.setdefault(ANN_BIND_COMPLETED, "yes")
        status = claim.status
        if status.phase != CLAIM_BOUND:
            status = PersistentVolumeClaimStatus(phase=CLAIM_BOUND, capacity=volume.spec.storage)
        bound_claim = replace(
            claim, metadata=replace(claim.metadata, annotations=claim_annotations), spec=spec, status=status
        )
        if bound_claim != claim:
            self._update_claim(bound_claim)

    # ------------------------------------------------------------------ provisioning

    def _provision(self, claim: PersistentVolumeClaim) -> None:
        """provisionClaim: an external provisioner is asked (annotations, ExternalProvisioning); the
        simulated one answers at once."""
        class_name = claim_class(claim)
        storage_class = self._class(class_name)
        if storage_class is None:
            self._event(claim, PROVISIONING_FAILED, CLASS_NOT_FOUND.format(class_name), warning=True)
            return
        provisioner = storage_class.provisioner
        if provisioner.startswith(IN_TREE_PREFIX) or not provisioner:
            self._event(claim, PROVISIONING_FAILED, NO_PLUGIN_MATCHED.format(provisioner), warning=True)
            return
        annotations = dict(claim.metadata.annotations)
        annotations[ANN_BETA_STORAGE_PROVISIONER] = provisioner
        annotations[ANN_STORAGE_PROVISIONER] = provisioner
        if annotations != claim.metadata.annotations:
            claim = self._update_claim(replace(claim, metadata=replace(claim.metadata, annotations=annotations)))
        self._event(claim, EXTERNAL_PROVISIONING, EXTERNAL_PROVISIONING_MESSAGE.format(provisioner))
        self._external_provision(claim, storage_class)

    def _external_provision(self, claim: PersistentVolumeClaim, storage_class: StorageClass) -> None:
        """The external provisioner: a PV for the claim, pre-bound to it, on the selected node."""
        name = f"pvc-{claim.metadata.uid}"
        if self.ctx.cluster.get(PersistentVolume, name) is not None:
            return
        provisioner = storage_class.provisioner
        self._event(claim, PROVISIONING, PROVISIONING_MESSAGE.format(claim_key(claim)), source=provisioner)
        affinity = None
        selected = claim.metadata.annotations.get(ANN_SELECTED_NODE)
        if selected:
            node = self.ctx.cluster.get(Node, selected)
            hostname = node.labels.get(HOSTNAME_LABEL, selected) if node is not None else selected
            requirement = NodeSelectorRequirement(HOSTNAME_LABEL, "In", (hostname,))
            affinity = NodeSelector((NodeSelectorTerm(match_expressions=(requirement,)),))
        volume = PersistentVolume(
            metadata=ObjectMeta(name=name, annotations={ANN_DYNAMICALLY_PROVISIONED: provisioner}),
            spec=PersistentVolumeSpec(
                storage=claim.spec.storage,
                access_modes=claim.spec.access_modes,
                storage_class_name=claim_class(claim),
                node_affinity=affinity,
                claim_ref=claim_key(claim),
                reclaim_policy=storage_class.reclaim_policy,
            ),
            phase=VOLUME_PENDING,
        )
        with self._own_write():
            volume = self.ctx.cluster.create(volume)
        self._event(claim, PROVISIONING_SUCCEEDED, PROVISIONING_SUCCEEDED_MESSAGE.format(name), source=provisioner)
        self._sync_volume(name)

    # ------------------------------------------------------------------ volumes

    def _sync_volume(self, name: str) -> None:
        volume: PersistentVolume | None = self.ctx.cluster.get(PersistentVolume, name)
        if volume is None:
            return
        if not volume.spec.claim_ref or not _claim_ref_has_uid(volume):
            # Unused, or pre-bound by its author to a claim the claim's sync will bind.
            self._set_volume_phase(volume, VOLUME_AVAILABLE)
            return
        claim: PersistentVolumeClaim | None = self.ctx.cluster.get(PersistentVolumeClaim, volume.spec.claim_ref)
        if volume.phase in (VOLUME_RELEASED, VOLUME_FAILED) or claim is None:
            if volume.phase not in (VOLUME_RELEASED, VOLUME_FAILED):
                volume = self._set_volume_phase(volume, VOLUME_RELEASED)
            self._reclaim(volume)
        elif not claim.spec.volume_name:
            self._sync_claim(claim.metadata.key)  # finish the binding the PV asks for
        elif claim.spec.volume_name == volume.metadata.name:
            self._set_volume_phase(volume, VOLUME_BOUND)
        elif ANN_DYNAMICALLY_PROVISIONED in volume.metadata.annotations and volume.spec.reclaim_policy == "Delete":
            self._reclaim(self._set_volume_phase(volume, VOLUME_RELEASED))
        else:
            self._unbind(volume)

    def _set_volume_phase(self, volume: PersistentVolume, phase: str) -> PersistentVolume:
        if volume.phase == phase:
            return volume
        return self._update_volume(replace(volume, phase=phase))

    def _unbind(self, volume: PersistentVolume) -> None:
        """unbindVolume: a PV the controller bound is freed; one the user pre-bound stays pre-bound."""
        if ANN_BOUND_BY_CONTROLLER in volume.metadata.annotations:
            annotations = {k: v for k, v in volume.metadata.annotations.items() if k != ANN_BOUND_BY_CONTROLLER}
            volume = replace(
                volume,
                metadata=replace(volume.metadata, annotations=annotations),
                spec=replace(volume.spec, claim_ref=""),
            )
        self._update_volume(replace(volume, phase=VOLUME_AVAILABLE))

    def _reclaim(self, volume: PersistentVolume) -> None:
        """reclaimVolume."""
        policy = volume.spec.reclaim_policy
        if policy == "Retain" or volume.phase == VOLUME_FAILED:
            return
        if policy == "Recycle":
            self._set_volume_phase(volume, VOLUME_FAILED)
            self._event(volume, VOLUME_FAILED_RECYCLE, NO_RECYCLER, warning=True)
            return
        provisioner = volume.metadata.annotations.get(ANN_DYNAMICALLY_PROVISIONED, "")
        if provisioner and not provisioner.startswith(IN_TREE_PREFIX):
            with self._own_write():
                self.ctx.cluster.delete(PersistentVolume, volume.metadata.name)  # the external deleter
            return
        failed = self._set_volume_phase(volume, VOLUME_FAILED)
        self._event(failed, VOLUME_FAILED_DELETE, NO_DELETER.format(volume.metadata.name), warning=True)
