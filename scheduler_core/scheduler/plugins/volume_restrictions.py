"""VolumeRestrictions (plugins/volumerestrictions): the pod's claims must exist; a ReadWriteOncePod
claim already used by a scheduled pod makes the pod Unschedulable (preemption may free it). The
inline GCE PD / EBS / RBD / iSCSI disk conflicts are not modelled (pods have no inline volumes).
Its PreFilter returns Skip for a pod without claims."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scheduler_core.api.types import Pod
from scheduler_core.api.workloads import PersistentVolumeClaim
from scheduler_core.scheduler.cluster_events import (
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    EventResource,
    QueueingHint,
)
from scheduler_core.scheduler.framework import (
    SKIP,
    SUCCESS,
    CycleState,
    PodInfoLike,
    PreFilterResult,
    Status,
    error,
    unresolvable,
    unschedulable,
)
from scheduler_core.scheduler.plugins.hint_helpers import claim_names, pod_uses_claim
from scheduler_core.scheduler.snapshot import NodeInfo
from scheduler_core.scheduler.volume_lister import (
    CLAIM_NOT_FOUND,
    lister_of,
)

READ_WRITE_ONCE_POD = "ReadWriteOncePod"


ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT = (
    "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode"
)


@dataclass(slots=True)
class _RestrictionsState:
    read_write_once_pod_claims: frozenset[str]
    conflicting_claim_refs: int

    def clone(self) -> "_RestrictionsState":
        return _RestrictionsState(self.read_write_once_pod_claims, self.conflicting_claim_refs)

    def conflicts_of(self, pod: Pod) -> int:
        return sum(1 for v in pod.spec.volumes if v.persistent_volume_claim in self.read_write_once_pod_claims)


class VolumeRestrictions:
    name = "VolumeRestrictions"
    state_key = "PreFilterVolumeRestrictions"

    def __init__(self, args: Mapping[str, Any], handle: Any = None) -> None:
        self.handle = handle

    def pre_filter(
        self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]
    ) -> tuple[PreFilterResult | None, Status]:
        lister = lister_of(self.handle)
        rwop: set[str] = set()
        for volume in pod.spec.volumes:
            if not volume.persistent_volume_claim:
                continue
            claim = lister.claim(pod.namespace, volume.persistent_volume_claim)
            if claim is None:
                return None, unresolvable(CLAIM_NOT_FOUND.format(volume.persistent_volume_claim))
            if READ_WRITE_ONCE_POD in claim.spec.access_modes:
                rwop.add(claim.metadata.name)
        conflicts = sum(1 for name in rwop if self._claim_used_by_pods(pod.namespace, name))
        if conflicts == 0:
            return None, SKIP  # no inline disks are modelled: nothing else to check
        state.write(self.state_key, _RestrictionsState(frozenset(rwop), conflicts))
        return None, SUCCESS

    def _claim_used_by_pods(self, namespace: str, name: str) -> bool:
        """StorageInfos().IsPVCUsedByPods: a scheduled pod uses the claim."""
        snapshot = getattr(self.handle, "snapshot", None)
        if snapshot is None:
            return False
        return any(
            info.pod.namespace == namespace and any(v.persistent_volume_claim == name for v in info.pod.spec.volumes)
            for node in snapshot.nodes()
            for info in node.pods
        )

    def add_pod(self, state: CycleState, pod_to_schedule: Pod, pod_to_add: PodInfoLike, node: NodeInfo) -> Status:
        data = state.get(self.state_key)
        if not isinstance(data, _RestrictionsState):
            return error(f'cannot read "{self.state_key}" from cycleState')
        if pod_to_add.pod.namespace == pod_to_schedule.namespace:
            data.conflicting_claim_refs += data.conflicts_of(pod_to_add.pod)
        return SUCCESS

    def remove_pod(self, state: CycleState, pod_to_schedule: Pod, pod_to_remove: PodInfoLike, node: NodeInfo) -> Status:
        data = state.get(self.state_key)
        if not isinstance(data, _RestrictionsState):
            return error(f'cannot read "{self.state_key}" from cycleState')
        if pod_to_remove.pod.namespace == pod_to_schedule.namespace:
            data.conflicting_claim_refs -= data.conflicts_of(pod_to_remove.pod)
        return SUCCESS

    def filter(self, state: CycleState, pod: Pod, node: NodeInfo) -> Status:
        data = state.get(self.state_key)
        if not isinstance(data, _RestrictionsState):
            return error(f'cannot read "{self.state_key}" from cycleState')
        if data.conflicting_claim_refs > 0:
            return unschedulable(ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT)
        return SUCCESS

    # ------------------------------------------------------------------ events (QueueingHints on)

    def events_to_register(self) -> list[ClusterEventWithHint]:
        """Node Add only: no node update changes this plugin's verdict (UpdateNodeTaint/Label served
        the preCheck that QueueingHints retired)."""
        return [
            # A deleted pod releases its volumes; spec.volumes is immutable, so updates never do.
            ClusterEventWithHint(
                ClusterEvent(EventResource.POD, ActionType.DELETE), self.is_schedulable_after_pod_deleted
            ),
            ClusterEventWithHint(ClusterEvent(EventResource.NODE, ActionType.ADD)),
            # The claim must exist for its access modes to be read.
            ClusterEventWithHint(
                ClusterEvent(EventResource.PERSISTENT_VOLUME_CLAIM, ActionType.ADD),
                self.is_schedulable_after_claim_added,
            ),
        ]

    def is_schedulable_after_claim_added(self, pod: Pod, old: Any, new: Any) -> QueueingHint:
        if not isinstance(new, PersistentVolumeClaim) or not (old is None or isinstance(old, PersistentVolumeClaim)):
            return QueueingHint.QUEUE
        return QueueingHint.QUEUE if pod_uses_claim(pod, new) else QueueingHint.QUEUE_SKIP

    def is_schedulable_after_pod_deleted(self, pod: Pod, old: Any, new: Any) -> QueueingHint:
        """A deleted pod of the namespace that shared a claim with the pod. Upstream queues on any
        shared claim without reading its access modes (too costly for a hint); the inline disk
        conflicts it also checks are not modelled."""
        if not isinstance(old, Pod):
            return QueueingHint.QUEUE
        if old.namespace != pod.namespace:
            return QueueingHint.QUEUE_SKIP
        shared = set(claim_names(pod)) & set(claim_names(old))
        return QueueingHint.QUEUE if shared else QueueingHint.QUEUE_SKIP
