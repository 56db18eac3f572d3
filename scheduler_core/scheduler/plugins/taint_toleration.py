"""TaintToleration: NoSchedule/NoExecute taints must be tolerated; untolerated PreferNoSchedule
taints lower a node's score (plugins/tainttoleration)."""

from collections.abc import Sequence

from scheduler_core.api.types import NO_EXECUTE, NO_SCHEDULE, PREFER_NO_SCHEDULE, Pod, Toleration, tolerates_taint
from scheduler_core.scheduler.framework import SUCCESS, CycleState, NodeScore, Status, unresolvable
from scheduler_core.scheduler.plugins.helpers import default_normalize_score
from scheduler_core.scheduler.snapshot import NodeInfo

NAME = "TaintToleration"
PRE_SCORE_KEY = "PreScore" + NAME


def untolerated_taint_reason(key: str, value: str) -> str:
    return f"node(s) had untolerated taint {{{key}: {value}}}"


class TaintToleration:
    name = NAME

    def filter(self, state: CycleState, pod: Pod, node: NodeInfo) -> Status:
        for taint in node.node.spec.taints:
            if taint.effect in (NO_SCHEDULE, NO_EXECUTE) and not tolerates_taint(pod.spec.tolerations, taint):
                return unresolvable(untolerated_taint_reason(taint.key, taint.value))
        return SUCCESS

    def pre_score(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> Status:
        prefer_no_schedule = tuple(t for t in pod.spec.tolerations if t.effect in ("", PREFER_NO_SCHEDULE))
        state.write(PRE_SCORE_KEY, prefer_no_schedule)
        return SUCCESS

    def score(self, state: CycleState, pod: Pod, node: NodeInfo) -> tuple[int, Status]:
        tolerations: tuple[Toleration, ...] = state.read(PRE_SCORE_KEY)
        if not node.node.spec.taints:
            return 0, SUCCESS
        count = sum(
            1
            for taint in node.node.spec.taints
            if taint.effect == PREFER_NO_SCHEDULE and not tolerates_taint(tolerations, taint)
        )
        return count, SUCCESS

    def normalize_score(self, state: CycleState, pod: Pod, scores: list[NodeScore]) -> Status:
        default_normalize_score(scores, reverse=True)
        return SUCCESS
