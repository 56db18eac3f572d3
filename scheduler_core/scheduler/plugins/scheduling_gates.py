"""SchedulingGates: a pod with spec.schedulingGates waits in the queue until they are removed
(plugins/schedulinggates). It acts at PreEnqueue, before any scheduling cycle."""

from collections.abc import Mapping
from typing import Any

from scheduler_core.api.types import Pod
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
