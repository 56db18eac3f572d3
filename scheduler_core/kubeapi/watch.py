"""Watch: the changes of a run's journal as the API server streams them (`?watch=true`), one
WatchEvent per change of a selected object: ADDED, MODIFIED, DELETED, each with the object at that
change and its resourceVersion. A change that takes an object into a selection is an ADDED, out of
it a DELETED, as the API server's filtered watch sends them. Events (the Event kind) are streamed
as their rows change: ADDED for a new row, MODIFIED when a repeat is counted on it.

A resourceVersion is a position in the journal (objects.py): the store's version after the
journal's first N changes. A version older than the journal's start is gone (410 Expired)."""

import bisect
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from scheduler_core.api.manifest_writer import timestamps_from
from scheduler_core.api.object_manifest import object_manifest
from scheduler_core.kubeapi import printers, status
from scheduler_core.kubeapi.objects import ApiEvent, event_host, event_manifest
from scheduler_core.kubeapi.query_selectors import FieldQuery, LabelQuery, selectable_fields
from scheduler_core.kubeapi.reads import EVENT_COLUMNS, event_cells, table_document, table_row
from scheduler_core.kubeapi.resources import Resource
from scheduler_core.store.cluster import Change, Cluster
from scheduler_core.store.event_correlation import Occurrence, correlate
from scheduler_core.store.events import Event


@dataclass(frozen=True, slots=True)
class JournalIndex:
    """Where each change of a journal is, for versions to and from journal positions."""

    base: int  # the store's version before the journal
    change_positions: list[int]  # the journal index of each change, in order

    @classmethod
    def of(cls, journal: Sequence[Change[Any] | Event], final_version: int) -> "JournalIndex":
        positions = [index for index, item in enumerate(journal) if isinstance(item, Change)]
        return cls(final_version - len(positions), positions)

    def position_after(self, version: int) -> int:
        """The journal position right after the change that made `version`."""
        if version < self.base:
            raise status.gone(f"too old resource version: {version} ({self.base})")
        changes = version - self.base
        if changes == 0:
            return 0
        if changes > len(self.change_positions):
            return len(self.change_positions) and self.change_positions[-1] + 1
        return self.change_positions[changes - 1] + 1

    def version_at(self, position: int) -> int:
        """The store's version after journal[:position]."""
        return self.base + bisect.bisect_left(self.change_positions, position)


@dataclass(frozen=True, slots=True)
class Selection:
    resource: Resource
    namespace: str  # "" for every namespace
    labels: LabelQuery
    fields: FieldQuery
    has_fields: bool


@dataclass(frozen=True, slots=True)
class Stream:
    """How events are written: as objects or as Table rows (kubectl get -w), on which clock."""

    epoch: float
    now: float
    as_table: bool
    include_object: str = "Metadata"


def watch_events(
    journal: Sequence[Change[Any] | Event],
    index: JournalIndex,
    start: int,
    stop: int,
    selection: Selection,
    stream: Stream,
    occurrences: Callable[[], dict[int, tuple[Event, Occurrence]]],
    hosts: Callable[[Event], str],
) -> Iterator[dict[str, Any]]:
    """The watch events of journal[start:stop] for the selection."""
    kind = selection.resource.kind
    for position in range(start, stop):
        item = journal[position]
        version = index.version_at(position + 1)
        if isinstance(item, Change):
            if item.kind == kind:
                yield from _object_event(item, version, selection, stream)
        elif kind == "Event":
            yield from _event_event(item, version, selection, stream, occurrences(), hosts)


def initial_events(
    objects: list[Any], versions: Callable[[Any], int], selection: Selection, stream: Stream
) -> Iterator[dict[str, Any]]:
    """A watch from no version starts with an ADDED for every selected object, as the API's does."""
    for obj in objects:
        manifest = _manifest(obj, versions(obj), stream.epoch)
        if _selected(selection, obj, manifest):
            yield _watch_event("ADDED", obj, manifest, stream, selection.resource)


def _object_event(change: Change[Any], version: int, selection: Selection, stream: Stream) -> Iterator[dict[str, Any]]:
    new, old = change.new, change.old
    new_manifest = _manifest(new, version, stream.epoch) if new is not None else None
    old_manifest = _manifest(old, version, stream.epoch) if old is not None else None
    now_in = new is not None and _selected(selection, new, new_manifest)
    was_in = old is not None and _selected(selection, old, old_manifest)
    if now_in and new_manifest is not None:
        yield _watch_event("MODIFIED" if was_in else "ADDED", new, new_manifest, stream, selection.resource)
    elif was_in and old_manifest is not None:  # deleted, or changed out of the selection: its last state
        yield _watch_event("DELETED", old, old_manifest, stream, selection.resource)


def _event_event(
    event: Event,
    version: int,
    selection: Selection,
    stream: Stream,
    occurrences: dict[int, tuple[Event, Occurrence]],
    hosts: Callable[[Event], str],
) -> Iterator[dict[str, Any]]:
    seen = occurrences.get(event.seq)
    if seen is None or seen[1].dropped:
        return
    occurrence = seen[1]
    first = occurrences.get(occurrence.first_seq, (event, occurrence))[0]
    row = ApiEvent(first, event, occurrence.count, occurrence.message, hosts(first), version)
    with timestamps_from(stream.epoch):
        manifest = event_manifest(row)
    if not _selected(selection, row, manifest):
        return
    kind = "ADDED" if occurrence.first_seq == event.seq else "MODIFIED"
    yield _watch_event(kind, row, manifest, stream, selection.resource)


def _manifest(obj: Any, version: int, epoch: float) -> dict[str, Any]:
    with timestamps_from(epoch):
        manifest = object_manifest(obj)
    manifest["metadata"]["resourceVersion"] = str(version)
    return manifest


def _selected(selection: Selection, obj: Any, manifest: dict[str, Any] | None) -> bool:
    if manifest is None:
        return False
    namespace = manifest.get("metadata", {}).get("namespace", "")
    if selection.namespace and selection.resource.namespaced and namespace != selection.namespace:
        return False
    labels = manifest.get("metadata", {}).get("labels") or {}
    if not selection.labels.matches(labels):
        return False
    return not selection.has_fields or selection.fields.matches(selectable_fields(selection.resource.kind, manifest))


def _watch_event(kind: str, obj: Any, manifest: dict[str, Any], stream: Stream, resource: Resource) -> dict[str, Any]:
    if not stream.as_table:
        return {"type": kind, "object": manifest}
    columns: tuple[printers.Column, ...]
    if isinstance(obj, ApiEvent):
        columns, cells = EVENT_COLUMNS, event_cells(obj, stream.now)
    else:
        columns = printers.printed_columns(resource.kind) or printers.DEFAULT_COLUMNS
        with timestamps_from(stream.epoch):
            cells = printers.printed_cells(obj, stream.now)
    row = table_row(cells, manifest, stream.include_object)
    table = table_document(columns, [row], {"resourceVersion": manifest["metadata"].get("resourceVersion", "")})
    return {"type": kind, "object": table}


def occurrences_of(events: list[Event]) -> dict[int, tuple[Event, Occurrence]]:
    return {event.seq: (event, occurrence) for event, occurrence in correlate(events)}


INITIAL_EVENTS_END = "k8s.io/initial-events-end"


def bookmark(resource: Resource, version: int, *, initial_events_end: bool = False) -> dict[str, Any]:
    """A BOOKMARK; a watch-list's first one (sendInitialEvents) says the initial ADDEDs are over."""
    metadata: dict[str, Any] = {"resourceVersion": str(version)}
    if initial_events_end:
        metadata["annotations"] = {INITIAL_EVENTS_END: "true"}
    return {
        "type": "BOOKMARK",
        "object": {"kind": resource.kind, "apiVersion": resource.group_version, "metadata": metadata},
    }


def watch_list_problems(send_initial_events: str, version_match: str, bookmarks: bool) -> list[status.Cause]:
    """What makes a watch with sendInitialEvents invalid (apimachinery's ValidateListOptions)."""
    if send_initial_events == "":
        return []
    causes = []
    if version_match != "NotOlderThan":
        causes.append(
            status.Cause(
                "FieldValueForbidden",
                "Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
                "resourceVersionMatch",
            )
        )
    if not bookmarks:
        causes.append(
            status.Cause(
                "FieldValueForbidden",
                "Forbidden: sendInitialEvents requires setting allowWatchBookmarks to true",
                "allowWatchBookmarks",
            )
        )
    return causes


def error_event(error: status.ApiError) -> dict[str, Any]:
    return {"type": "ERROR", "object": error.status()}


def cluster_hosts(cluster: Cluster) -> Callable[[Event], str]:
    return lambda event: event_host(cluster, event)
