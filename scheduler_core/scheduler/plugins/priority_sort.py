"""PrioritySort: higher priority first, then the earlier queued (plugins/queuesort)."""

from scheduler_core.scheduler.framework import QueuedPodInfoLike

NAME = "PrioritySort"


class PrioritySort:
    name = NAME

    def less(self, a: QueuedPodInfoLike, b: QueuedPodInfoLike) -> bool:
        pa, pb = a.pod.priority, b.pod.priority
        return pa > pb or (pa == pb and a.timestamp < b.timestamp)
