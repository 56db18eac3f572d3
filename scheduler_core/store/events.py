"""Event records (core/v1 Event, as `kubectl get events` shows them): what the simulation yields."""

from dataclasses import dataclass
from typing import Any

NORMAL = "Normal"
WARNING = "Warning"


@dataclass(frozen=True, slots=True)
class Event:
    seq: int
    time: float  # simulated seconds since the start of the run
    type: str  # Normal or Warning
    reason: str
    object: str  # "Pod/default/web-0", "Node/worker1", "Deployment/default/web"
    message: str
    source: str = ""  # the component that reports it: default-scheduler, kubelet, replicaset-controller...
    # The object's UID: tells apart two objects of the same name one after the other (a StatefulSet
    # pod recreated), as counting repeats needs (store/event_correlation.py). Not printed.
    uid: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "time": self.time,
            "type": self.type,
            "reason": self.reason,
            "object": self.object,
            "message": self.message,
        }


def object_ref(kind: str, namespace: str, name: str) -> str:
    return f"{kind}/{namespace}/{name}" if namespace else f"{kind}/{name}"
