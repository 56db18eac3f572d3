"""The workload objects whose selectors the scheduler reads: Services, ReplicationControllers,
ReplicaSets and StatefulSets (the listers behind helper.DefaultSelector, used by PodTopologySpread's
default constraints)."""

from dataclasses import dataclass

from scheduler_core.api.types import LabelSelector


@dataclass(frozen=True, slots=True)
class SelectorSource:
    """One object and its selector.

    A Service's or ReplicationController's plain label map becomes ``match_labels``; ``None`` is a
    missing (nil) selector, which selects nothing.
    """

    kind: str  # Service, ReplicationController, ReplicaSet or StatefulSet
    namespace: str
    name: str
    selector: LabelSelector | None
