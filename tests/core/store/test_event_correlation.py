"""Repeated events counted as `kubectl events` shows them.

The correlator's cases follow client-go's TestEventCorrelator and TestEventSpamFilter
(staging/src/k8s.io/client-go/tools/record/events_cache_test.go, kubernetes v1.34), in the
engine's terms: simulated seconds instead of a ticking clock, and the row each event joins.
"""

import pytest

from scheduler_core.store.event_correlation import (
    AGGREGATE_INTERVAL_SECONDS,
    AGGREGATE_MAX_EVENTS,
    COMBINED_PREFIX,
    LRU_CACHE_ENTRIES,
    SPAM_BURST,
    EventCorrelator,
    correlate,
    event_rows,
    human_duration,
    last_seen,
)
from scheduler_core.store.events import Event

POD = "Pod/my-ns/my-pod"


class Recorder:
    """Events of one component, `interval` seconds apart."""

    def __init__(self, interval: float = 5.0, source: str = "kubelet") -> None:
        self.correlator = EventCorrelator()
        self.interval = interval
        self.source = source
        self.seq = 0
        self.time = 0.0

    def record(self, reason: str, message: str, obj: str = POD, uid: str = "u1", type_: str = "Normal"):
        self.seq += 1
        self.time += self.interval
        event = Event(self.seq, self.time, type_, reason, obj, message, self.source, uid)
        return self.correlator.observe(event)


def test_a_single_event_is_a_row_of_one():
    occurrence = Recorder().record("first", "i am first")
    assert (occurrence.first_seq, occurrence.count, occurrence.message, occurrence.dropped) == (
        1,
        1,
        "i am first",
        False,
    )


def test_the_same_event_just_counts_even_past_the_aggregation_threshold():
    recorder = Recorder(interval=30)  # slow enough never to meet the spam filter
    for _ in range(AGGREGATE_MAX_EVENTS):
        recorder.record("duplicate", "me again")
    occurrence = recorder.record("duplicate", "me again")
    assert (occurrence.first_seq, occurrence.count, occurrence.message) == (1, AGGREGATE_MAX_EVENTS + 1, "me again")


def test_the_same_event_too_often_is_dropped_by_the_spam_filter():
    recorder = Recorder(interval=1)
    accepted = [not recorder.record("duplicate", "me again").dropped for _ in range(SPAM_BURST + 2)]
    assert accepted == [True] * SPAM_BURST + [False, False]
    # The count goes on under the filter: the next accepted event shows every one of them.
    recorder.interval = 300
    occurrence = recorder.record("duplicate", "me again")
    assert (occurrence.dropped, occurrence.count) == (False, SPAM_BURST + 3)


def test_the_spam_filter_counts_events_of_any_reason_about_the_object():
    recorder = Recorder(interval=1)
    for index in range(SPAM_BURST):
        recorder.record("original", f"message {index % 3}")
    assert recorder.record("duplicate", "me again").dropped  # another reason, same source and object
    assert not recorder.record("duplicate", "me again", obj="Pod/my-ns/other").dropped


def test_many_unique_events_stay_rows_of_their_own():
    recorder = Recorder()
    for index in range(30):
        recorder.record(f"unique-{index}", f"snowflake {index}")
    occurrence = recorder.record("unique", "snowflake")
    assert (occurrence.count, occurrence.message) == (1, "snowflake")


def test_the_tenth_distinct_message_of_a_reason_is_combined_and_then_counted():
    recorder = Recorder()
    for index in range(AGGREGATE_MAX_EVENTS - 1):
        assert recorder.record("similar", f"similar message {index}").message == f"similar message {index}"
    combined = recorder.record("similar", "similar message")
    assert (combined.first_seq, combined.count, combined.message) == (10, 1, COMBINED_PREFIX + "similar message")
    again = recorder.record("similar", "similar message 0")
    assert (again.first_seq, again.count, again.message) == (10, 2, COMBINED_PREFIX + "similar message 0")


def test_similar_events_further_apart_than_the_interval_are_not_combined():
    recorder = Recorder(interval=AGGREGATE_INTERVAL_SECONDS)
    for index in range(AGGREGATE_MAX_EVENTS - 1):
        recorder.record("similar", f"similar message {index}")
    occurrence = recorder.record("similar", "similar message")
    assert (occurrence.count, occurrence.message) == (1, "similar message")


def test_a_recreated_object_of_the_same_name_starts_new_rows():
    recorder = Recorder()
    recorder.record("Started", "Started container app", uid="first")
    occurrence = recorder.record("Started", "Started container app", uid="second")
    assert (occurrence.first_seq, occurrence.count) == (2, 1)


def test_the_scheduler_counts_a_series_until_its_message_changes():
    """events.k8s.io/v1: an isomorphic event joins the series of the first; a new message comes
    with a new resourceVersion of the pod (the scheduler patched PodScheduled), so a new series.
    A series ends 6 minutes after its last event."""
    cpu, memory = "0/3 nodes are available: 3 Insufficient cpu.", "0/3 nodes are available: 3 Insufficient memory."
    recorder = Recorder(interval=30, source="default-scheduler")
    recorder.record("FailedScheduling", cpu, type_="Warning")
    second = recorder.record("FailedScheduling", cpu, type_="Warning")
    assert (second.first_seq, second.count, second.message) == (1, 2, cpu)
    other = recorder.record("FailedScheduling", memory, type_="Warning")
    assert (other.first_seq, other.count, other.message) == (3, 1, memory)
    assert recorder.record("FailedScheduling", memory, type_="Warning").count == 2
    recorder.interval = 360
    later = recorder.record("FailedScheduling", memory, type_="Warning")
    assert (later.first_seq, later.count) == (5, 1)


def test_preempted_events_are_told_apart_by_their_preemptor():
    recorder = Recorder(source="default-scheduler")
    recorder.record("Preempted", "Preempted by pod aaa on node n1")
    assert recorder.record("Preempted", "Preempted by pod bbb on node n1").count == 1
    assert recorder.record("Preempted", "Preempted by pod aaa on node n1").count == 2


def test_rows_by_last_seen_with_kubectls_interval():
    events = [
        Event(
            1, 0.0, "Warning", "FailedScheduling", "Pod/default/web", "0/1 nodes are available.", "default-scheduler"
        ),
        Event(2, 10.0, "Normal", "Pulled", "Pod/default/db", "pulled", "kubelet"),
        Event(
            3, 150.0, "Warning", "FailedScheduling", "Pod/default/web", "0/1 nodes are available.", "default-scheduler"
        ),
    ]
    rows = event_rows(correlate(events))
    assert [(row.first.seq, row.last.seq, row.count, row.message) for row in rows] == [
        (2, 2, 1, "pulled"),
        (1, 3, 2, "0/1 nodes are available."),
    ]
    assert [last_seen(row, 155.0) for row in rows] == ["2m25s", "5s (x2 over 2m35s)"]


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (-5, "<invalid>"),
        (-0.5, "0s"),
        (0, "0s"),
        (119, "119s"),
        (120, "2m"),
        (125, "2m5s"),
        (599, "9m59s"),
        (600, "10m"),
        (3 * 3600 - 1, "179m"),
        (3 * 3600, "3h"),
        (3 * 3600 + 60, "3h1m"),
        (8 * 3600, "8h"),
        (48 * 3600, "2d"),
        (49 * 3600, "2d1h"),
        (8 * 86400, "8d"),
        (2 * 365 * 86400, "2y"),
        (2 * 365 * 86400 + 86400, "2y1d"),
        (8 * 365 * 86400, "8y"),
    ],
)
def test_human_duration_is_kubectls(seconds, shown):
    """duration.HumanDuration (k8s.io/apimachinery/pkg/util/duration, duration_test.go's cases)."""
    assert human_duration(seconds) == shown


def test_a_reporters_caches_keep_their_4096_most_recent_entries():
    """lru.Cache of maxLruCacheEntries: a repeat after 4,096 other objects starts a new row, as
    upstream's does, and the caches never grow past that."""
    recorder = Recorder(interval=0.001)
    recorder.record("Started", "Started container app", obj="Pod/default/first")
    for index in range(LRU_CACHE_ENTRIES):
        recorder.record("Started", "Started container app", obj=f"Pod/default/p{index}")
    again = recorder.record("Started", "Started container app", obj="Pod/default/first")
    assert (again.first_seq, again.count) == (recorder.seq, 1)
    kept = recorder.correlator._recorders["kubelet"]
    assert all(len(cache._entries) == LRU_CACHE_ENTRIES for cache in (kept.aggregates, kept.rows, kept.buckets))


def test_finished_series_leave_the_schedulers_cache():
    recorder = Recorder(interval=1, source="default-scheduler")
    for index in range(100):
        recorder.record("FailedScheduling", "no", obj=f"Pod/default/p{index}")
    recorder.interval = 400
    recorder.record("FailedScheduling", "no", obj="Pod/default/late")
    assert list(recorder.correlator._series) == [
        ("default-scheduler", "Pod/default/late", "u1", "FailedScheduling", "", "no")
    ]
