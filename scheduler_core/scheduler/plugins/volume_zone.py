"""VolumeZone (plugins/volumezone): a bound claim's PV carrying zone/region labels only fits nodes in
that zone/region; nodes without any topology label fit (single-zone clusters). Its PreFilter
returns Skip for a pod without claims."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scheduler_core.api.types import Pod
from scheduler_core.api.volumes import WAIT_FOR_FIRST_CONSUMER, claim_class
from scheduler_core.api.workloads import PersistentVolume, PersistentVolumeClaim, StorageClass
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
    PreFilterResult,
    Status,
    unresolvable,
)
from scheduler_core.scheduler.plugins.hint_helpers import pod_uses_claim
from scheduler_core.scheduler.snapshot import NodeInfo
from scheduler_core.scheduler.volume_lister import (
    CLAIM_NOT_FOUND,
    PV_NOT_FOUND,
    lister_of,
)

ERR_REASON_VOLUME_ZONE_CONFLICT = "node(s) had no available volume zone"


CLASS_NOT_FOUND = 'storageclass.storage.k8s.io "{}" not found'


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


def _pv_topologies(pv: PersistentVolume) -> list[_PVTopology]:
    """getPVTopologies: the PV's zone/region labels in TOPOLOGY_LABELS order; an unparsable value is
    ignored. nodeAffinity is not read (immutable, and NodeAffinity's business)."""
    topologies = []
    for key in TOPOLOGY_LABELS:
        value = pv.metadata.labels.get(key)
        if value is None:
            continue
        zones = _label_zones_to_set(value)
        if zones is not None:
            topologies.append(_PVTopology(pv.metadata.name, key, zones))
    return topologies


class VolumeZone:
    name = "VolumeZone"
    state_key = "PreFilterVolumeZone"

    def __init__(self, args: Mapping[str, Any], handle: Any = None) -> None:
        self.handle = handle

    def _topologies(self, pod: Pod) -> tuple[list[_PVTopology], Status]:
        lister = lister_of(self.handle)
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
            topologies.extend(_pv_topologies(pv))
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

    # ------------------------------------------------------------------ events (QueueingHints on)

    def events_to_register(self) -> list[ClusterEventWithHint]:
        """Node Add and label updates (no UpdateNodeTaint: that served the preCheck QueueingHints retired)."""
        add_or_update = ActionType.ADD | ActionType.UPDATE
        return [
            # volumeBindingMode is immutable: only a new WaitForFirstConsumer class can help.
            ClusterEventWithHint(
                ClusterEvent(EventResource.STORAGE_CLASS, ActionType.ADD), self.is_schedulable_after_storage_class_added
            ),
            ClusterEventWithHint(ClusterEvent(EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_LABEL)),
            # A new claim, or one whose volumeName got filled.
            ClusterEventWithHint(
                ClusterEvent(EventResource.PERSISTENT_VOLUME_CLAIM, add_or_update),
                self.is_schedulable_after_claim_change,
            ),
            # A new PV, or a change of a PV's zone labels.
            ClusterEventWithHint(
                ClusterEvent(EventResource.PERSISTENT_VOLUME, add_or_update), self.is_schedulable_after_volume_change
            ),
        ]

    def is_schedulable_after_claim_change(self, pod: Pod, old: Any, new: Any) -> QueueingHint:
        if not isinstance(new, PersistentVolumeClaim) or not (old is None or isinstance(old, PersistentVolumeClaim)):
            return QueueingHint.QUEUE
        return QueueingHint.QUEUE if pod_uses_claim(pod, new) else QueueingHint.QUEUE_SKIP

    def is_schedulable_after_storage_class_added(self, pod: Pod, old: Any, new: Any) -> QueueingHint:
        if not isinstance(new, StorageClass):
            return QueueingHint.QUEUE
        waits = new.volume_binding_mode == WAIT_FOR_FIRST_CONSUMER
        return QueueingHint.QUEUE if waits else QueueingHint.QUEUE_SKIP

    def is_schedulable_after_volume_change(self, pod: Pod, old: Any, new: Any) -> QueueingHint:
        if not isinstance(new, PersistentVolume) or not (old is None or isinstance(old, PersistentVolume)):
            return QueueingHint.QUEUE
        if old is None:
            return QueueingHint.QUEUE
        changed = _pv_topologies(old) != _pv_topologies(new)
        return QueueingHint.QUEUE if changed else QueueingHint.QUEUE_SKIP
