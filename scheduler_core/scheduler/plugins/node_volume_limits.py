"""NodeVolumeLimits (plugins/nodevolumelimits, CSILimits): limits come from CSINode objects, which the
simulated cluster does not have, so no node has a limit: it never rejects. Its PreFilter returns
Skip for a pod without claims."""

from collections.abc import Mapping, Sequence
from typing import Any

from scheduler_core.api.types import Pod
from scheduler_core.api.volumes import uses_claims
from scheduler_core.scheduler.framework import (
    SKIP,
    SUCCESS,
    CycleState,
    PreFilterResult,
    Status,
)
from scheduler_core.scheduler.snapshot import NodeInfo


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
