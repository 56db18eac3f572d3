"""The Events section of `kubectl describe` (DescribeEvents): one object's events, its repeats
counted on one row as the reporters' event libraries count them, with their ages at a moment."""

from dataclasses import dataclass

from scheduler_core.store.cluster import Cluster
from scheduler_core.store.event_correlation import EventCorrelator, EventRow, event_rows, last_seen
from scheduler_core.store.events import object_ref


@dataclass(frozen=True, slots=True)
class DescribedEvent:
    """A row of the Events table: Type, Reason, Age, From, Message."""

    type: str
    reason: str
    age: str  # "5s", or "5s (x3 over 2m)"
    source: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"type": self.type, "reason": self.reason, "age": self.age, "from": self.source, "message": self.message}


def described_events(
    cluster: Cluster, kind: str, namespace: str, name: str, uid: str, now: float
) -> list[DescribedEvent]:
    """The object's (this UID's) events by last seen. Their repeats are counted on their own, which
    is the whole run's count unless more than 4,096 other objects' events came between two of them
    (the reporters' caches, store/event_correlation.py)."""
    ref = object_ref(kind, namespace, name)
    correlator = EventCorrelator()
    own = [event for event in cluster.events if event.object == ref and event.uid in (uid, "")]
    return [_described(row, now) for row in event_rows([(event, correlator.observe(event)) for event in own])]


def _described(row: EventRow, now: float) -> DescribedEvent:
    # kubectl trims the message (strings.TrimSpace): the eviction manager's ends with a space.
    return DescribedEvent(row.last.type, row.last.reason, last_seen(row, now), row.last.source, row.message.strip())
