"""Events as `kubectl events` lists them: repeats counted on one row, as the reporters' event
libraries do before an event reaches the API server.

Two libraries, as in v1.34:

- Controllers and the kubelet record core/v1 Events through client-go's EventCorrelator
  (tools/record/events_cache.go). Its aggregator counts the distinct messages of one source about
  one object with one type and reason; from the 10th distinct message within 10 minutes of the
  previous such event, it reports "(combined from similar events): <message>" on one row of its
  own. Its logger then counts identical events (same source, object, type, reason, message) on one
  row (count, firstTimestamp, lastTimestamp). Its spam filter lets a source report 25 events about
  one object at once, then one every 5 minutes (a token bucket); the others are dropped, though
  the logger has counted them.
- kube-scheduler records events.k8s.io/v1 Events (tools/events): an event isomorphic to one seen
  before (same reporter, action, reason, related object and `regarding` reference) becomes an
  EventSeries of that first event: its count and lastObservedTime grow. The reference carries the
  pod's resourceVersion, which the scheduler's own status patch moves exactly when its
  FailedScheduling message changes (it skips the patch otherwise): so a new message starts a new
  series, and the engine keys series by their note as well. A series ends once nothing joined it
  for 6 minutes (the library looks every 6 minutes; here it is exactly 6 minutes after the last,
  so a replay is the same). The count here is the library's own: the API server gets it at the
  second event, then when the series ends or every 30 minutes, so a `kubectl events` read in
  between shows x2 where this shows more.

Intervals are compared as the engine compares its clock elsewhere: an event exactly 10 (or 6)
minutes after the last is past the window, as upstream's clock, read a moment later, finds it.

The raw events are kept as they were recorded; `Occurrence` says how each one shows in the list.
An object is told apart by its UID, as upstream does: a StatefulSet pod recreated under the same
name starts new rows. Each reporter (event source) has its caches of 4096 entries, as each
component's correlator has; the kubelets of all nodes share one here (upstream, each node's has
its own), which only matters past 4096 pods repeating kubelet events at once.
"""

import re
from dataclasses import dataclass, field

from scheduler_core.store.events import Event

SCHEDULER_SOURCES = frozenset({"default-scheduler"})  # reporters on the events.k8s.io/v1 library

AGGREGATE_MAX_EVENTS = 10  # defaultAggregateMaxEvents
AGGREGATE_INTERVAL_SECONDS = 600  # defaultAggregateIntervalInSeconds
COMBINED_PREFIX = "(combined from similar events): "  # EventAggregatorByReasonMessageFunc
SPAM_BURST = 25  # defaultSpamBurst
SPAM_QPS = 1 / 300  # defaultSpamQPS: one more event every 5 minutes
SERIES_FINISH_SECONDS = 360  # tools/events finishTime
LRU_CACHE_ENTRIES = 4096  # maxLruCacheEntries of each cache of a reporter's correlator

# The scheduler's Preempted event is related to the preemptor ("Preempted by pod <uid> on node <n>").
_PREEMPTOR = re.compile(r"^Preempted by pod (\S+)")


# The keys Occurrence.as_dict adds to a raw event's dict.
OCCURRENCE_KEYS = frozenset({"count", "firstSeq", "shownMessage", "droppedBySpamFilter"})


def recorded(event: dict[str, object]) -> dict[str, object]:
    """A raw event's dict without how `kubectl events` counts it: the event as the engine recorded it."""
    return {key: value for key, value in event.items() if key not in OCCURRENCE_KEYS}


@dataclass(frozen=True, slots=True)
class Occurrence:
    """How one raw event shows in the list of events."""

    first_seq: int  # the seq of the first event of its row (its own seq when it starts the row)
    count: int  # the row's count once this event is in it
    message: str  # the row's message once this event is in it
    dropped: bool = False  # refused by the spam filter: counted, but the row was not updated

    def as_dict(self, event: Event) -> dict[str, object]:
        """What `simulate -o json` adds to a raw event: nothing for a row of one."""
        extra: dict[str, object] = {}
        if self.count > 1 or self.first_seq != event.seq:
            extra["count"] = self.count
            extra["firstSeq"] = self.first_seq
        if self.message != event.message:
            extra["shownMessage"] = self.message
        if self.dropped:
            extra["droppedBySpamFilter"] = True
        return extra


@dataclass(slots=True)
class _Row:
    first_seq: int
    count: int
    message: str
    last_time: float


@dataclass(slots=True)
class _Aggregate:
    messages: dict[str, None] = field(default_factory=dict)  # insertion-ordered set
    last_time: float = 0.0


@dataclass(slots=True)
class _Bucket:
    tokens: float
    at: float


class _Lru[V]:
    """client-go's lru.Cache: the least recently used entry goes past `size` (a dict keeps order)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: dict[tuple[str, ...], V] = {}

    def get(self, key: tuple[str, ...]) -> V | None:
        value = self._entries.pop(key, None)
        if value is not None:
            self._entries[key] = value
        return value

    def add(self, key: tuple[str, ...], value: V) -> V:
        self._entries.pop(key, None)
        self._entries[key] = value
        if len(self._entries) > self.size:
            del self._entries[next(iter(self._entries))]
        return value


@dataclass(slots=True)
class _Recorder:
    """One reporter's caches (each component has its own EventCorrelator, of 4096 entries each)."""

    aggregates: _Lru[_Aggregate] = field(default_factory=lambda: _Lru(LRU_CACHE_ENTRIES))
    rows: _Lru[_Row] = field(default_factory=lambda: _Lru(LRU_CACHE_ENTRIES))
    buckets: _Lru[_Bucket] = field(default_factory=lambda: _Lru(LRU_CACHE_ENTRIES))


class EventCorrelator:
    """Feed it every event in order (`observe`); it answers how each one shows."""

    def __init__(self) -> None:
        self._recorders: dict[str, _Recorder] = {}
        self._series: dict[tuple[str, ...], _Row] = {}
        self._series_swept = 0.0

    def observe(self, event: Event) -> Occurrence:
        if event.source in SCHEDULER_SOURCES:
            return self._in_series(event)
        recorder = self._recorders.get(event.source)
        if recorder is None:
            recorder = self._recorders[event.source] = _Recorder()
        return _correlate(recorder, event)

    def _in_series(self, event: Event) -> Occurrence:
        if event.time - self._series_swept >= SERIES_FINISH_SECONDS:
            # finishSeries, every 6 minutes: series nothing joined for 6 minutes leave the cache.
            self._series_swept = event.time
            self._series = {
                k: row for k, row in self._series.items() if event.time - row.last_time < SERIES_FINISH_SECONDS
            }
        related = ""
        if event.reason == "Preempted" and (match := _PREEMPTOR.match(event.message)):
            related = match.group(1)
        key = (event.source, event.object, event.uid, event.reason, related, event.message)
        row = self._series.get(key)
        if row is None or event.time - row.last_time >= SERIES_FINISH_SECONDS:
            row = self._series[key] = _Row(event.seq, 0, event.message, event.time)
        row.count += 1
        row.last_time = event.time
        return Occurrence(row.first_seq, row.count, row.message)


def _correlate(recorder: _Recorder, event: Event) -> Occurrence:
    """EventCorrelate: the aggregator, the logger, then the spam filter."""
    # EventAggregator: a row of its own for many distinct messages of the same kind.
    similar = (event.object, event.uid, event.type, event.reason)
    aggregate = recorder.aggregates.get(similar)
    if aggregate is None or event.time - aggregate.last_time >= AGGREGATE_INTERVAL_SECONDS:
        aggregate = recorder.aggregates.add(similar, _Aggregate())
    aggregate.messages[event.message] = None
    aggregate.last_time = event.time
    key: tuple[str, ...]
    if len(aggregate.messages) < AGGREGATE_MAX_EVENTS:
        key, message = (*similar, event.message), event.message
    else:
        del aggregate.messages[next(iter(aggregate.messages))]  # keeps the set at its maximum
        key, message = similar, COMBINED_PREFIX + event.message
    # EventLogger: identical events count on one row, which takes the latest message.
    row = recorder.rows.get(key) or recorder.rows.add(key, _Row(event.seq, 0, message, event.time))
    row.count += 1
    row.message = message
    row.last_time = event.time
    dropped = not _accepts(recorder, (event.object, event.uid), event.time)
    return Occurrence(row.first_seq, row.count, message, dropped)


def _accepts(recorder: _Recorder, key: tuple[str, ...], now: float) -> bool:
    """EventSourceObjectSpamFilter: a token bucket per source and object."""
    bucket = recorder.buckets.get(key) or recorder.buckets.add(key, _Bucket(SPAM_BURST, now))
    bucket.tokens = min(SPAM_BURST, bucket.tokens + (now - bucket.at) * SPAM_QPS)
    bucket.at = now
    if bucket.tokens < 1:
        return False
    bucket.tokens -= 1
    return True


def correlate(events: list[Event]) -> list[tuple[Event, Occurrence]]:
    """Every event with its occurrence, in order."""
    correlator = EventCorrelator()
    return [(event, correlator.observe(event)) for event in events]


@dataclass(frozen=True, slots=True)
class EventRow:
    """One row of `kubectl events`."""

    first: Event
    last: Event  # the latest event shown in the row
    count: int
    message: str


def event_rows(seen: list[tuple[Event, Occurrence]]) -> list[EventRow]:
    """The rows as `kubectl events` lists them: by last seen, the dropped events left out of their
    row (a row whose every event was dropped is not there)."""
    rows: dict[int, EventRow] = {}
    firsts = {event.seq: event for event, _ in seen}
    for event, occurrence in seen:
        if occurrence.dropped:
            continue
        first = firsts.get(occurrence.first_seq, event)
        rows[occurrence.first_seq] = EventRow(first, event, occurrence.count, occurrence.message)
    return sorted(rows.values(), key=lambda row: (row.last.time, row.last.seq))


def human_duration(seconds: float) -> str:
    """k8s.io/apimachinery duration.HumanDuration: how kubectl prints an age."""
    whole = int(seconds)
    if whole < -1:
        return "<invalid>"
    if whole < 0:
        return "0s"
    if whole < 120:
        return f"{whole}s"
    minutes = whole // 60
    if minutes < 10:
        rest = whole % 60
        return f"{minutes}m{rest}s" if rest else f"{minutes}m"
    if minutes < 180:
        return f"{minutes}m"
    hours = whole // 3600
    if hours < 8:
        rest = minutes % 60
        return f"{hours}h{rest}m" if rest else f"{hours}h"
    if hours < 48:
        return f"{hours}h"
    if hours < 24 * 8:
        rest = hours % 24
        return f"{hours // 24}d{rest}h" if rest else f"{hours // 24}d"
    if hours < 24 * 365 * 2:
        return f"{hours // 24}d"
    if hours < 24 * 365 * 8:
        rest = (hours // 24) % 365
        return f"{hours // 24 // 365}y{rest}d" if rest else f"{hours // 24 // 365}y"
    return f"{hours // 24 // 365}y"


def last_seen(row: EventRow, now: float) -> str:
    """The LAST SEEN cell: "5s", or "5s (x3 over 2m)" for a row of more than one."""
    last = human_duration(now - row.last.time)
    if row.count > 1:
        return f"{last} (x{row.count} over {human_duration(now - row.first.time)})"
    return last
