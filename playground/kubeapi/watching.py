"""`?watch=true`: a stream of WatchEvents that follows the API clock on the served run, and goes on
over a run that an API write made (it continues the same journal: the same versions up to the
write). A run made any other way (an edit in the page) starts another history: the stream ends with
an ERROR event (410 Expired), after which clients list again, as they do against a real server.

The stream is an async generator (one open request holds no thread); each poll reads the run in
Django's sync thread."""

import asyncio
import json
import threading
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import sync_to_async

from playground.kubeapi import live
from playground.models import Run, Scenario
from playground.run_states import FinishedRun
from scheduler_core.kubeapi import status
from scheduler_core.kubeapi.watch import (
    JournalIndex,
    Selection,
    Stream,
    bookmark,
    cluster_hosts,
    error_event,
    initial_events,
    occurrences_of,
    watch_events,
)

POLL_SECONDS = 0.5
DEFAULT_TIMEOUT_SECONDS = 1800  # the API server's --min-request-timeout
BOOKMARK_SECONDS = 60
MAX_WATCHES = 64  # open at once in this process
MAX_EVENTS_PER_POLL = 5000  # a big jump (a long run ready at once) is sent over several polls

_open = 0
_open_lock = threading.Lock()


@dataclass(slots=True)
class Watch:
    scenario: Scenario
    selection: Selection
    as_table: bool
    include_object: str
    timeout: float
    bookmarks: bool
    run_pk: int = 0
    position: int = 0  # in the served run's journal: what was sent
    version: int = 0
    last_time: float = 0.0  # the simulated time of the last frame sent
    pending: list[dict[str, Any]] = field(default_factory=list)

    def start(self, resource_version: str, *, send_initial_events: bool = False) -> None:
        """Where the stream starts: the given version, or now with an ADDED for each object (a
        watch-list, sendInitialEvents, too: the state now is never older than the version asked,
        and a bookmark marks the end of those ADDEDs)."""
        served, snapshot = live.live_snapshot(self.scenario)
        index = _index(served)
        self.run_pk = served.run.pk
        self.last_time = served.now
        if resource_version in ("", "0") or send_initial_events:
            stream = Stream(served.epoch, served.now, self.as_table, self.include_object)
            objects = (
                snapshot.events()
                if self.selection.resource.kind == "Event"
                else snapshot.objects(self.selection.resource)
            )
            versions = (
                (lambda obj: obj.resource_version)
                if self.selection.resource.kind == "Event"
                else (lambda obj: snapshot.version_of(self.selection.resource.kind, obj.metadata.key))
            )
            self.pending = list(initial_events(objects, versions, self.selection, stream))
            self.position = served.kept.boundaries[served.frame - 1] if served.frame else 0
            self.version = snapshot.resource_version
            if send_initial_events:
                self.pending.append(bookmark(self.selection.resource, self.version, initial_events_end=True))
            return
        try:
            self.version = int(resource_version)
        except ValueError:
            raise status.bad_request(f'invalid resourceVersion: "{resource_version[:40]}"') from None
        self.position = index.position_after(self.version)

    def poll(self) -> list[dict[str, Any]]:
        """What happened since the last poll (at most MAX_EVENTS_PER_POLL)."""
        out, self.pending = self.pending, []
        # Read again each time: a write moved the scenario to a new version (and run) meanwhile.
        self.scenario = Scenario.objects.get(pk=self.scenario.pk)
        try:
            served = live.served(self.scenario)
        except status.ApiError as error:
            if error.code == 429:  # the run is being made: nothing new yet
                return out
            raise
        index = _index(served)
        if served.run.pk != self.run_pk:
            if not _continues(served.run, self.last_time):
                raise status.gone("the scenario was changed outside the API: list again")
            self.run_pk = served.run.pk
            self.position = index.position_after(self.version)
        stop = served.kept.boundaries[served.frame - 1] if served.frame else 0
        stop = min(stop, self.position + MAX_EVENTS_PER_POLL)
        if stop > self.position:
            stream = Stream(served.epoch, served.now, self.as_table, self.include_object)
            journal = served.kept.journal
            occurrences = _occurrences(served)
            out += list(
                watch_events(
                    journal,
                    index,
                    self.position,
                    stop,
                    self.selection,
                    stream,
                    lambda: occurrences,
                    cluster_hosts(served.kept.final),
                )
            )
            self.position = stop
            self.version = index.version_at(stop)
        self.last_time = served.now
        return out


def _continues(run: Run, last_time: float) -> bool:
    """A run that an API write made from the clock this stream was on."""
    return (
        run.api_clock_sim is not None and run.api_clock_sim + 1.0 >= last_time - 1.0 and run.api_clock_wall is not None
    )


_indexes: dict[int, JournalIndex] = {}
_occurrence_maps: dict[int, dict[int, Any]] = {}


def _index(served: live.Served) -> JournalIndex:
    return journal_index(served.run.pk, served.kept)


def _occurrences(served: live.Served) -> dict[int, Any]:
    return event_occurrences(served.run.pk, served.kept)


def journal_index(run_pk: int, kept: FinishedRun) -> JournalIndex:
    """The kept run's journal index (cached: a watch asks for it at every poll)."""
    found = _indexes.get(run_pk)
    if found is None:
        found = JournalIndex.of(kept.journal, kept.final.resource_version)
        _indexes.clear() if len(_indexes) > 8 else None
        _indexes[run_pk] = found
    return found


def event_occurrences(run_pk: int, kept: FinishedRun) -> dict[int, Any]:
    found = _occurrence_maps.get(run_pk)
    if found is None:
        found = occurrences_of(kept.final.events)
        _occurrence_maps.clear() if len(_occurrence_maps) > 8 else None
        _occurrence_maps[run_pk] = found
    return found


def has_room() -> bool:
    """Whether a new watch would find a slot (checked before the stream starts, taken by it)."""
    with _open_lock:
        return _open < MAX_WATCHES


def opened() -> bool:
    global _open
    with _open_lock:
        if _open >= MAX_WATCHES:
            return False
        _open += 1
        return True


def closed() -> None:
    global _open
    with _open_lock:
        _open -= 1


async def stream(watch: Watch) -> AsyncIterator[bytes]:
    """The WatchEvents as JSON lines, until the timeout (or an error event). The stream holds one of
    the process's watch slots from its first event to its end, whatever ends it."""
    loop_deadline = time.monotonic() + watch.timeout
    last_bookmark = time.monotonic()
    if not opened():
        yield _line(error_event(status.too_many_requests("too many watches open; try again later", 5)))
        return
    try:
        while time.monotonic() < loop_deadline:
            try:
                events = await sync_to_async(watch.poll)()
            except status.ApiError as error:
                yield _line(error_event(error))
                return
            for event in events:
                yield _line(event)
            if watch.bookmarks and time.monotonic() - last_bookmark >= BOOKMARK_SECONDS:
                last_bookmark = time.monotonic()
                yield _line(bookmark(watch.selection.resource, watch.version))
            await asyncio.sleep(POLL_SECONDS)
    finally:
        closed()


def _line(event: dict[str, Any]) -> bytes:
    return json.dumps(event, separators=(",", ":")).encode() + b"\n"
