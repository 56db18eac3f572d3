"""DefaultBinder: binds the pod to the chosen node. The binding itself is the caller's store write."""

from scheduler_core.api.types import Pod
from scheduler_core.scheduler.framework import SUCCESS, CycleState, Status

NAME = "DefaultBinder"


class DefaultBinder:
    name = NAME

    def bind(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        return SUCCESS
