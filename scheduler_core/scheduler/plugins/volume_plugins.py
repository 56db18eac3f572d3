"""The volume plugins of the default profile: VolumeRestrictions, NodeVolumeLimits, VolumeBinding
and VolumeZone. Each one's PreFilter returns Skip for a pod that uses no PersistentVolumeClaim, as
upstream's do, so for such pods they take no part in filtering or scoring. Pods that use claims
are refused with an explicit status until the volume model lands (VolumeBinding, issue 4)."""

from collections.abc import Mapping, Sequence
from typing import Any

from scheduler_core.api.types import Pod
from scheduler_core.scheduler.framework import SKIP, SUCCESS, CycleState, PreFilterResult, Status, unresolvable
from scheduler_core.scheduler.snapshot import NodeInfo

UNSUPPORTED_CLAIMS = "persistent volume claims are not simulated yet by this playground"


def uses_claims(pod: Pod) -> bool:
    return any(volume.persistent_volume_claim for volume in pod.spec.volumes)


class _ClaimOnlyPlugin:
    name = ""

    def __init__(self, args: Mapping[str, Any], handle: Any = None) -> None:
        self.args = args

    def pre_filter(
        self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]
    ) -> tuple[PreFilterResult | None, Status]:
        if not uses_claims(pod):
            return None, SKIP
        return None, unresolvable(UNSUPPORTED_CLAIMS)

    def filter(self, state: CycleState, pod: Pod, node: NodeInfo) -> Status:
        return SUCCESS


class VolumeRestrictions(_ClaimOnlyPlugin):
    name = "VolumeRestrictions"


class NodeVolumeLimits(_ClaimOnlyPlugin):
    name = "NodeVolumeLimits"


class VolumeBinding(_ClaimOnlyPlugin):
    name = "VolumeBinding"


class VolumeZone(_ClaimOnlyPlugin):
    name = "VolumeZone"
