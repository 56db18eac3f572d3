"""NodeVolumeLimits (plugins/nodevolumelimits, CSILimits): limits come from CSINode objects, which the
simulated cluster does not have, so no node has a limit: it never rejects. Its PreFilter returns
Skip for a pod without claims. Its events and QueueingHints are upstream's all the same (csi.go,
v1.34); VolumeAttachment is not an engine object, so that hint reads a plain manifest."""

from collections.abc import Mapping, Sequence
from typing import Any

from scheduler_core.api.types import Pod
from scheduler_core.api.volumes import uses_claims
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
    PreFilterResult,
    Status,
)
from scheduler_core.scheduler.plugins.hint_helpers import claim_names, is_plain_object, plain_field, pod_uses_claim
from scheduler_core.scheduler.snapshot import NodeInfo
from scheduler_core.scheduler.volume_lister import lister_of


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

    # ------------------------------------------------------------------ events (QueueingHints on)

    def events_to_register(self) -> list[ClusterEventWithHint]:
        return [
            # Any new CSINode may bring the limits of the drivers that rejected the pod: no hint.
            ClusterEventWithHint(ClusterEvent(EventResource.CSI_NODE, ActionType.ADD)),
            ClusterEventWithHint(
                ClusterEvent(EventResource.POD, ActionType.DELETE), self.is_schedulable_after_pod_deleted
            ),
            ClusterEventWithHint(
                ClusterEvent(EventResource.PERSISTENT_VOLUME_CLAIM, ActionType.ADD),
                self.is_schedulable_after_claim_added,
            ),
            # A volume counts against the node until its VolumeAttachment is gone (detached).
            ClusterEventWithHint(
                ClusterEvent(EventResource.VOLUME_ATTACHMENT, ActionType.DELETE),
                self.is_schedulable_after_volume_attachment_deleted,
            ),
        ]

    def is_schedulable_after_pod_deleted(self, pod: Pod, old: Any, new: Any) -> QueueingHint:
        """A scheduled pod with an attachable volume went away. Upstream also counts generic
        ephemeral and migratable in-tree inline volumes, which the engine's pods do not have."""
        if not isinstance(old, Pod):
            return QueueingHint.QUEUE
        if not old.spec.volumes or not old.spec.node_name:
            return QueueingHint.QUEUE_SKIP
        return QueueingHint.QUEUE if claim_names(old) else QueueingHint.QUEUE_SKIP

    def is_schedulable_after_claim_added(self, pod: Pod, old: Any, new: Any) -> QueueingHint:
        if not isinstance(new, PersistentVolumeClaim) or not (old is None or isinstance(old, PersistentVolumeClaim)):
            return QueueingHint.QUEUE
        return QueueingHint.QUEUE if pod_uses_claim(pod, new) else QueueingHint.QUEUE_SKIP

    def is_schedulable_after_volume_attachment_deleted(self, pod: Pod, old: Any, new: Any) -> QueueingHint:
        """The deleted attachment was of the PV bound to one of the pod's claims. A claim that cannot
        be read is upstream's lister error: Queue. (An attachment of an inline volume matches the
        pod's migratable in-tree volumes by driver; the engine's pods have none.)"""
        if not is_plain_object(old):
            return QueueingHint.QUEUE
        attached_volume = plain_field(old, "spec", "source", "persistentVolumeName")
        lister = lister_of(self.handle)
        for claim_name in claim_names(pod):
            claim = lister.claim(pod.namespace, claim_name)
            if claim is None:
                return QueueingHint.QUEUE
            if attached_volume is not None and claim.spec.volume_name == attached_volume:
                return QueueingHint.QUEUE
        return QueueingHint.QUEUE_SKIP
