"""The order `kubectl events` prints events in (kubectl v1.34, pkg/cmd/events/events.go): the
API's list order, then sort.Sort by each event's time as the API serialized it. The sort is Go's
unstable one, so events of one instant (most of a scenario's, to the second) come out in the
order Go's algorithm leaves them, which go_sort reproduces."""

from datetime import UTC, datetime, timedelta
from typing import Any

from scheduler_core.explain.go_sort import go_sort
from scheduler_core.kubeapi import reads
from scheduler_core.kubeapi.objects import ApiEvent, ApiSnapshot
from scheduler_core.kubeapi.resources import RESOURCES

UNIX_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
NANOS = 10**9
EVENTS = next(resource for resource in RESOURCES if resource.kind == "Event" and resource.group == "")
GO_ZERO = (datetime(1, 1, 1, tzinfo=UTC) - UNIX_EPOCH) // timedelta(seconds=1) * NANOS  # time.Time{}


def kubectl_events(snapshot: ApiSnapshot, namespace: str, involved: tuple[str, str], types: set[str]) -> list[ApiEvent]:
    """What `kubectl events` prints, in its order: the namespace's events ("" for every one) as the
    API lists them (kubectl pages by 500 and joins the pages: the same list), those about the
    `involved` (kind, name) if given and of the `types` (lowercase; none for all), sorted by time."""
    listed = reads.selected(snapshot, EVENTS, reads.ListQuery(namespace=namespace))
    kept = [event for event in listed if _about(event, involved) and _of_type(event, types)]
    return kubectl_event_order(snapshot, kept)


def _about(event: ApiEvent, involved: tuple[str, str]) -> bool:
    kind, name = involved
    object_kind, _, rest = event.last.object.partition("/")
    return not kind or (object_kind == kind and rest.rpartition("/")[2] == name)


def _of_type(event: ApiEvent, types: set[str]) -> bool:
    return not types or event.last.type.lower() in types


def kubectl_event_order(snapshot: ApiSnapshot, events: list[ApiEvent]) -> list[ApiEvent]:
    """`events` (in the API's list order, filtered) as kubectl's SortableEvents sorts them."""
    timed = [(event_time(snapshot.event_manifest(event)), event) for event in events]
    go_sort(timed, lambda one, other: one[0] < other[0])  # Less: eventTime(i).Before(eventTime(j))
    return [event for _, event in timed]


def event_time(manifest: dict[str, Any]) -> int:
    """kubectl's eventTime: the series' last observation, else lastTimestamp unless zero, else
    eventTime; in nanoseconds since the Unix epoch, as Go compares them."""
    series = manifest.get("series")
    if series is not None:
        return instant(series.get("lastObservedTime"))
    last = instant(manifest.get("lastTimestamp"))
    return last if last != GO_ZERO else instant(manifest.get("eventTime"))


def instant(text: str | None) -> int:
    """An RFC 3339 time as Go parses it (any fraction kept, to the nanosecond); null is Go's zero time."""
    if not text:
        return GO_ZERO
    whole, dot, rest = text.partition(".")
    fraction = ""
    if dot:
        digits = len(rest) - len(rest.lstrip("0123456789"))
        fraction, whole = rest[:digits], whole + rest[digits:]
    seconds = (datetime.fromisoformat(whole) - UNIX_EPOCH) // timedelta(seconds=1)
    return seconds * NANOS + int(fraction[:9].ljust(9, "0"))
