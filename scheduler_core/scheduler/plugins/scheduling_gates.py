"""SchedulingGates: a pod with spec.schedulingGates waits in the queue until they are removed
(plugins/schedulinggates). It acts at PreEnqueue, before any scheduling cycle."""

from collections.abc import Mapping
from typing import Any

from scheduler_core.api.types import Pod
from scheduler_core.scheduler.cluster_events import (
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    EventResource,
    QueueingHint,
)
from scheduler_core.scheduler.framework import SUCCESS, Code, Status

NAME = "SchedulingGates"


class SchedulingGates:
    name = NAME

    def __init__(self, args: Mapping[str, Any], handle: Any = None) -> None:
        pass

    def pre_enqueue(self, pod: Pod) -> Status:
        gates = pod.spec.scheduling_gates
        if not gates:
            return SUCCESS
        return Status(Code.UnschedulableAndUnresolvable, (f"waiting for scheduling gates: [{' '.join(gates)}]",))

    def events_to_register(self) -> list[ClusterEventWithHint]:
        # Gates can only be removed, never added back: their removal is the one event that helps.
        return [
            ClusterEventWithHint(
                ClusterEvent(EventResource.POD, ActionType.UPDATE_POD_SCHEDULING_GATES_ELIMINATED),
                self.is_schedulable_after_gates_eliminated,
            )
        ]

    def is_schedulable_after_gates_eliminated(self, pod: Pod, old: Any, new: Any) -> QueueingHint:
        """Queue when it is this pod whose gates are gone; another pod's gates never matter."""
        if not isinstance(new, Pod) or not isinstance(old, Pod | None):
            return QueueingHint.QUEUE  # upstream's hint errors on other objects, and an error queues
        return QueueingHint.QUEUE if new.metadata.uid == pod.metadata.uid else QueueingHint.QUEUE_SKIP
