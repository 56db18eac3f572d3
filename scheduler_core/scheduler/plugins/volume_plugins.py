"""VolumeRestrictions, NodeVolumeLimits and VolumeZone, the volume plugins of the default profile
besides VolumeBinding (plugins/volume_binding.py). Each one's PreFilter returns Skip for a pod that
has nothing for it to check, so for such pods they take no part in filtering.

- VolumeRestrictions (plugins/volumerestrictions): the pod's claims must exist; a ReadWriteOncePod
  claim already used by a scheduled pod makes the pod Unschedulable (preemption may free it). The
  inline GCE PD / EBS / RBD / iSCSI disk conflicts are not modelled (pods have no inline volumes).
- NodeVolumeLimits (plugins/nodevolumelimits, CSILimits): limits come from CSINode objects, which the
  simulated cluster does not have, so no node has a limit: it never rejects.
- VolumeZone (plugins/volumezone): a bound claim's PV carrying zone/region labels only fits nodes in
  that zone/region; nodes without any topology label fit (single-zone clusters).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scheduler_core.api.types import Pod
from scheduler_core.api.volumes import WAIT_FOR_FIRST_CONSUMER, claim_class
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
from scheduler_core.scheduler.snapshot import NodeInfo
from scheduler_core.scheduler.volume_lister import StaticVolumeLister, VolumeLister

READ_WRITE_ONCE_POD = "ReadWriteOncePod"
ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT = (
    "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode"
)
ERR_REASON_VOLUME_ZONE_CONFLICT = "node(s) had no available volume zone"
CLAIM_NOT_FOUND = 'persistentvolumeclaim "{}" not found'
CLASS_NOT_FOUND = 'storageclass.storage.k8s.io "{}" not found'
PV_NOT_FOUND = 'persistentvolume "{}" not found'
CLAIM_HAD_NO_NAME = "PersistentVolumeClaim had no name"
CLAIM_HAD_NO_PV_NOR_CLASS = "PersistentVolumeClaim had no pv name and storageClass name"
PV_HAD_NO_NAME = "PersistentVolume had no name"

# v1.LabelFailureDomainBetaZone, ...BetaRegion, LabelTopologyZone, LabelTopologyRegion, in upstream's order.
TOPOLOGY_LABELS = (
    "failure-domain.beta.kubernetes.io/zone",
    "failure-domain.beta.kubernetes.io/region",
    "topology.kubernetes.io/zone",
    "topology.kubernetes.io/region",
)
_GA_LABEL = {
    "failure-domain.beta.kubernetes.io/zone": "topology.kubernetes.io/zone",
    "failure-domain.beta.kubernetes.io/region": "topology.kubernetes.io/region",
}
MULTI_ZONE_DELIMITER = "__"


def uses_claims(pod: Pod) -> bool:
    return any(volume.persistent_volume_claim for volume in pod.spec.volumes)


def _lister(handle: Any) -> VolumeLister:
    volumes: VolumeLister | None = getattr(handle, "volumes", None)
    return volumes if volumes is not None else StaticVolumeLister()


# ---------------------------------------------------------------------------- VolumeRestrictions


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
        lister = _lister(self.handle)
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


# ---------------------------------------------------------------------------- NodeVolumeLimits


class NodeVolumeLimits:
    name = "NodeVolumeLimits"

    def __init__(self, args: Mapping[str, Any], handle: Any = None) -> None:
        self.handle = handle

    def pre_filter(
        self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]
    ) -> tuple[PreFilterResult | None, Status]:
        return (None, SUCCESS) if uses_claims(pod) else (None, SKIP)

    def filter(self, state: CycleState, pod: Pod, node: NodeInfo) -> Status:
        return SUCCESS  # no CSINode, hence no attach limit, on any simulated node


# ---------------------------------------------------------------------------- VolumeZone


@dataclass(frozen=True, slots=True)
class _PVTopology:
    pv_name: str
    key: str
    values: frozenset[str]


def _label_zones_to_set(value: str) -> frozenset[str] | None:
    """LabelZonesToSet: "zone-a__zone-b" to a set; an empty part makes the label unusable (None)."""
    zones = set()
    for part in value.split(MULTI_ZONE_DELIMITER):
        zone = part.strip()
        if not zone:
            return None
        zones.add(zone)
    return frozenset(zones)


class VolumeZone:
    name = "VolumeZone"
    state_key = "PreFilterVolumeZone"

    def __init__(self, args: Mapping[str, Any], handle: Any = None) -> None:
        self.handle = handle

    def _topologies(self, pod: Pod) -> tuple[list[_PVTopology], Status]:
        lister = _lister(self.handle)
        topologies: list[_PVTopology] = []
        for volume in pod.spec.volumes:
            if not volume.persistent_volume_claim:
                continue
            claim = lister.claim(pod.namespace, volume.persistent_volume_claim)
            if claim is None:
                return [], unresolvable(CLAIM_NOT_FOUND.format(volume.persistent_volume_claim))
            pv_name = claim.spec.volume_name
            if not pv_name:
                class_name = claim_class(claim)
                if not class_name:
                    return [], unresolvable(CLAIM_HAD_NO_PV_NOR_CLASS)
                storage_class = lister.storage_class(class_name)
                if storage_class is None:
                    return [], unresolvable(CLASS_NOT_FOUND.format(class_name))
                if storage_class.volume_binding_mode == WAIT_FOR_FIRST_CONSUMER:
                    continue  # unbound delay-binding volumes are VolumeBinding's business
                return [], unresolvable(PV_HAD_NO_NAME)
            pv = lister.volume(pv_name)
            if pv is None:
                return [], unresolvable(PV_NOT_FOUND.format(pv_name))
            for key in TOPOLOGY_LABELS:
                value = pv.metadata.labels.get(key)
                if value is None:
                    continue
                zones = _label_zones_to_set(value)
                if zones is not None:
                    topologies.append(_PVTopology(pv.metadata.name, key, zones))
        return topologies, SUCCESS

    def pre_filter(
        self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]
    ) -> tuple[PreFilterResult | None, Status]:
        topologies, status = self._topologies(pod)
        if not status.is_success:
            return None, status
        if not topologies:
            return None, SKIP
        state.write(self.state_key, tuple(topologies))
        return None, SUCCESS

    def filter(self, state: CycleState, pod: Pod, node: NodeInfo) -> Status:
        if not pod.spec.volumes:
            return SUCCESS
        stored = state.get(self.state_key)
        if stored is None:
            topologies, status = self._topologies(pod)
            if not status.is_success:
                return status
        else:
            topologies = list(stored)
        labels = node.node.labels
        if not any(key in labels for key in TOPOLOGY_LABELS):
            return SUCCESS  # a node without topology labels: single-zone cluster
        for topology in topologies:
            value = labels.get(topology.key)
            if value is None:
                value = labels.get(_GA_LABEL.get(topology.key, topology.key))
            if value is None or value not in topology.values:
                return unresolvable(ERR_REASON_VOLUME_ZONE_CONFLICT)
        return SUCCESS
