"""DynamicResources (DRA, GA and on by default in v1.34): for pods without resource claims it only
takes part in PostFilter, where it runs before preemption and reports that it has no claims to
deallocate. That is why v1.34's FailedScheduling messages read "... no new claims to deallocate,
preemption: ...". Pods that use resource claims are refused with an explicit status: devices are
not simulated."""

from collections.abc import Mapping, Sequence
from typing import Any

from scheduler_core.api.types import Pod
from scheduler_core.scheduler.framework import (
    SKIP,
    Code,
    CycleState,
    PreFilterResult,
    Status,
    error,
    unresolvable,
)
from scheduler_core.scheduler.snapshot import NodeInfo

NAME = "DynamicResources"
STATE_KEY = NAME
NO_NEW_CLAIMS_TO_DEALLOCATE = "no new claims to deallocate"
CLAIMS_NOT_SIMULATED = "resource claims (DRA) are not simulated by this playground"
NOT_FOUND = "not found"  # framework.ErrNotFound, when PreFilter never ran for this pod


class DynamicResources:
    name = NAME

    def __init__(self, args: Mapping[str, Any], handle: Any = None) -> None:
        pass

    def pre_filter(
        self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]
    ) -> tuple[PreFilterResult | None, Status]:
        state.write(STATE_KEY, ())  # the pod's claims: none
        if pod.spec.resource_claims:
            return None, unresolvable(CLAIMS_NOT_SIMULATED)
        return None, SKIP

    def filter(self, state: CycleState, pod: Pod, node: NodeInfo) -> Status:
        return Status()

    def post_filter(self, state: CycleState, pod: Pod, statuses: dict[str, Status]) -> tuple[str | None, Status]:
        claims = state.get(STATE_KEY)
        if claims is None:
            return None, error(NOT_FOUND)
        return None, Status(Code.Unschedulable, (NO_NEW_CLAIMS_TO_DEALLOCATE,))
