"""DefaultPreemption: the PostFilter that, when no node fits, looks for lower-priority pods whose
eviction would let the pod fit, and nominates that node (plugins/defaultpreemption/default_preemption.go).

The search itself is scheduler_core.scheduler.preemption.Evaluator. A successful decision (node and
victims) is left in the CycleState under PREEMPTION_OUTCOME_KEY for the scheduler to carry out.
Upstream's PreEnqueue (which holds a preemptor back while its victims are deleted asynchronously)
has nothing to do here: the simulation removes the victims at once.
"""

from collections.abc import Mapping
from typing import Any

from scheduler_core.api.errors import ManifestError
from scheduler_core.api.types import Pod
from scheduler_core.scheduler.cluster_events import (
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    EventResource,
    QueueingHint,
)
from scheduler_core.scheduler.config import CONFIG_DOCUMENT
from scheduler_core.scheduler.framework import CycleState, Status
from scheduler_core.scheduler.preemption import MESSAGE_PREFIX, Evaluator
from scheduler_core.scheduler.runtime import Handle

NAME = "DefaultPreemption"
DEFAULT_MIN_CANDIDATE_NODES_PERCENTAGE = 10
DEFAULT_MIN_CANDIDATE_NODES_ABSOLUTE = 100
_WHERE = f"pluginConfig[{NAME}].args"


def _integer_arg(args: Mapping[str, Any], key: str, default: int) -> int:
    value = args.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise ManifestError(CONFIG_DOCUMENT, f"{_WHERE}.{key}", f"Invalid value: {value!r}: must be an integer")
    return value


def validate_args(percentage: int, absolute: int) -> None:
    """ValidateDefaultPreemptionArgs."""
    if not 0 <= percentage <= 100:
        raise ManifestError(
            CONFIG_DOCUMENT,
            f"{_WHERE}.minCandidateNodesPercentage",
            f"Invalid value: {percentage}: not in valid range [0, 100]",
        )
    if absolute < 0:
        raise ManifestError(
            CONFIG_DOCUMENT,
            f"{_WHERE}.minCandidateNodesAbsolute",
            f"Invalid value: {absolute}: not in valid range [0, inf)",
        )
    if percentage == 0 and absolute == 0:
        raise ManifestError(
            CONFIG_DOCUMENT,
            f"{_WHERE}.minCandidateNodesPercentage",
            "Invalid value: 0: cannot be zero at the same time as minCandidateNodesAbsolute",
        )


class DefaultPreemption:
    name = NAME

    def __init__(self, args: Mapping[str, Any], handle: Handle) -> None:
        percentage = _integer_arg(args, "minCandidateNodesPercentage", DEFAULT_MIN_CANDIDATE_NODES_PERCENTAGE)
        absolute = _integer_arg(args, "minCandidateNodesAbsolute", DEFAULT_MIN_CANDIDATE_NODES_ABSOLUTE)
        validate_args(percentage, absolute)
        self.evaluator = Evaluator(NAME, handle, percentage, absolute)

    def post_filter(self, state: CycleState, pod: Pod, statuses: dict[str, Status]) -> tuple[str | None, Status]:
        nominated, status = self.evaluator.preempt(state, pod, statuses)
        if status.message:
            return nominated, Status(status.code, (MESSAGE_PREFIX + status.message,))
        return nominated, status

    def events_to_register(self) -> list[ClusterEventWithHint]:
        # SchedulerAsyncPreemption (on since v1.33): upstream's PreEnqueue holds a preemptor back
        # while its victims are deleted, and registers pod deletions so that the queue looks at it
        # again. Here the plugin never holds a pod back, so this only keeps upstream's registration.
        return [
            ClusterEventWithHint(
                ClusterEvent(EventResource.POD, ActionType.DELETE), self.is_schedulable_after_pod_deleted
            )
        ]

    def is_schedulable_after_pod_deleted(self, pod: Pod, old: Any, new: Any) -> QueueingHint:
        """Always skip: the plugins whose failure the preemption resolves decide when to requeue."""
        return QueueingHint.QUEUE_SKIP
