"""GET on a collection or an object, as the API server answers it: a typed List or the object, or,
when the client asks for one (`Accept: application/json;as=Table;g=meta.k8s.io;v=v1`, as kubectl
get does), a meta.k8s.io/v1 Table printed on the server (printers.py), with `labelSelector`,
`fieldSelector`, `limit` and `continue` applied as the API server applies them."""

import base64
import binascii
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from scheduler_core.api.manifest_writer import timestamps_from
from scheduler_core.kubeapi import printers, status
from scheduler_core.kubeapi.objects import ApiEvent, ApiSnapshot
from scheduler_core.kubeapi.query_selectors import (
    SelectorError,
    check_field_selector,
    parse_field_selector,
    parse_label_selector,
    selectable_fields,
)
from scheduler_core.kubeapi.resources import Resource
from scheduler_core.store.event_correlation import SCHEDULER_SOURCES, human_duration

NAME_DESCRIPTION = printers.DEFAULT_COLUMNS[0].description
EVENT_COLUMNS = (
    printers.Column(
        "Last Seen", "string", "", "The time at which the most recent occurrence of this event was recorded.", 0
    ),
    printers.Column(
        "Type", "string", "", "Type of this event (Normal, Warning), new types could be added in the future", 0
    ),
    printers.Column(
        "Reason",
        "string",
        "",
        "This should be a short, machine understandable string that gives the reason for the transition into the "
        "object's current status.",
        0,
    ),
    printers.Column("Object", "string", "", "The object that this event is about.", 0),
    printers.Column(
        "Subobject",
        "string",
        "",
        "If referring to a piece of an object instead of an entire object, this string should contain a valid "
        "JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object "
        'reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where '
        '"name" refers to the name of the container that triggered the event) or if no container name is specified '
        '"spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some '
        "well-defined way of referencing a part of an object.",
        1,
    ),
    printers.Column(
        "Source",
        "string",
        "",
        "The component reporting this event. Should be a short machine understandable string.",
        1,
    ),
    printers.Column("Message", "string", "", "A human-readable description of the status of this operation.", 0),
    printers.Column(
        "First Seen",
        "string",
        "",
        "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)",
        1,
    ),
    printers.Column("Count", "string", "", "The number of times this event has occurred.", 1),
    printers.Column("Name", "string", "name", NAME_DESCRIPTION, 1),
)
MAX_LIMIT = (
    5000  # a page's most items, whatever `limit` asks (the API server has no cap; a page of 50,000 pods is 100 MB)
)


@dataclass(frozen=True, slots=True)
class ListQuery:
    namespace: str = ""  # "" for every namespace
    label_selector: str = ""
    field_selector: str = ""
    limit: int = 0
    continue_token: str = ""
    as_table: bool = False
    include_object: str = "Metadata"  # Table rows: None | Metadata | Object


def list_collection(snapshot: ApiSnapshot, resource: Resource, query: ListQuery) -> dict[str, Any]:
    items = _selected(snapshot, resource, query)
    start = _continue_from(query.continue_token, snapshot.resource_version)
    # Without a limit the whole list, as the API server answers (ListOptions.limit); a client that
    # pages (kubectl asks 500 at a time) gets at most MAX_LIMIT a page.
    limit = min(query.limit, MAX_LIMIT) if query.limit > 0 else max(len(items), 1)
    page = items[start : start + limit]
    metadata: dict[str, Any] = {"resourceVersion": str(snapshot.resource_version)}
    if start + limit < len(items):
        metadata["continue"] = _continue_token(snapshot.resource_version, start + limit)
        metadata["remainingItemCount"] = len(items) - start - limit
    if query.as_table:
        return _table(snapshot, resource, page, metadata, query.include_object)
    body: dict[str, Any] = {"kind": resource.list_kind, "apiVersion": resource.group_version, "metadata": metadata}
    body["items"] = [_manifest(snapshot, resource, item, with_type=False) for item in page]
    return body


def get_object(
    snapshot: ApiSnapshot,
    resource: Resource,
    namespace: str,
    name: str,
    *,
    as_table: bool = False,
    include_object: str = "Metadata",
) -> dict[str, Any]:
    found = find(snapshot, resource, namespace, name)
    if as_table:
        return _table(snapshot, resource, [found], {"resourceVersion": str(snapshot.resource_version)}, include_object)
    return _manifest(snapshot, resource, found)


def find(snapshot: ApiSnapshot, resource: Resource, namespace: str, name: str) -> Any:
    """The object, or the API server's NotFound."""
    if resource.kind == "Event":
        found = next((e for e in snapshot.events() if e.name == name and e.namespace == namespace), None)
    else:
        found = snapshot.get(resource, namespace, name)
    if found is None:
        raise status.not_found(resource, name)
    return found


def selected(snapshot: ApiSnapshot, resource: Resource, query: ListQuery) -> list[Any]:
    """The objects (or Event rows) a list would return, whole: for a client in the engine (kubectl)."""
    return _selected(snapshot, resource, query)


def manifest_of(snapshot: ApiSnapshot, resource: Resource, item: Any) -> dict[str, Any]:
    return _manifest(snapshot, resource, item)


def table_of(snapshot: ApiSnapshot, resource: Resource, items: list[Any]) -> dict[str, Any]:
    return _table(snapshot, resource, items, {"resourceVersion": str(snapshot.resource_version)}, "Metadata")


def _manifest(snapshot: ApiSnapshot, resource: Resource, item: Any, *, with_type: bool = True) -> dict[str, Any]:
    if isinstance(item, ApiEvent):
        return snapshot.event_manifest(item, with_type=with_type)
    return snapshot.manifest(item, with_type=with_type)


def _selected(snapshot: ApiSnapshot, resource: Resource, query: ListQuery) -> list[Any]:
    try:
        labels = parse_label_selector(query.label_selector)
        fields = parse_field_selector(query.field_selector)
        check_field_selector(resource.kind, fields, resource.version)
    except SelectorError as error:
        raise status.bad_request(str(error)) from None
    candidates: Iterable[Any]
    if resource.kind == "Event":
        candidates = sorted(snapshot.events(), key=lambda event: (event.namespace, event.name))
    else:
        candidates = snapshot.objects(resource)
    namespace = query.namespace if resource.namespaced else ""
    needs_fields = bool(fields.requirements())
    chosen = []
    for item in candidates:
        if namespace and _namespace_of(item) != namespace:
            continue
        if query.label_selector and not labels.matches(_labels_of(item)):
            continue
        if needs_fields and not fields.matches(selectable_fields(resource.kind, _manifest(snapshot, resource, item))):
            continue
        chosen.append(item)
    return chosen


def _namespace_of(item: Any) -> str:
    return item.namespace if isinstance(item, ApiEvent) else str(item.metadata.namespace)


def _labels_of(item: Any) -> dict[str, str]:
    return {} if isinstance(item, ApiEvent) else dict(item.metadata.labels)


def _continue_token(version: int, start: int) -> str:
    raw = json.dumps({"v": "meta.k8s.io/v1", "rv": version, "start": start}, separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode()


def _continue_from(token: str, version: int) -> int:
    if not token:
        return 0
    try:
        decoded = json.loads(base64.urlsafe_b64decode(token.encode()))
        start, token_version = int(decoded["start"]), int(decoded["rv"])
    except (ValueError, KeyError, TypeError, binascii.Error):
        raise status.bad_request(
            "continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)"
        ) from None
    if token_version != version:
        raise status.gone(
            "The provided continue parameter is too old to display a consistent list result. You can start a new "
            "list without the continue parameter, or use the continue token in this response to retrieve the "
            "remainder of the results. Continuing with the provided token results in an inconsistent list - "
            "objects that were created, modified, or deleted between the time the first chunk was returned and "
            "now may show up in the list."
        )
    return max(0, start)


# ---------------------------------------------------------------------------- tables


def _table(
    snapshot: ApiSnapshot, resource: Resource, items: list[Any], metadata: dict[str, Any], include: str
) -> dict[str, Any]:
    columns, cells = _printer(snapshot, resource)
    rows = [table_row(cells(item), _manifest(snapshot, resource, item), include) for item in items]
    return table_document(columns, rows, metadata)


def table_row(cells: list[Any], manifest: dict[str, Any], include: str) -> dict[str, Any]:
    """A Table row with its object as `includeObject` asks: None, Metadata (the default) or Object."""
    row: dict[str, Any] = {"cells": cells}
    if include == "Object":
        row["object"] = manifest
    elif include != "None":
        row["object"] = {
            "kind": "PartialObjectMetadata",
            "apiVersion": "meta.k8s.io/v1",
            "metadata": manifest["metadata"],
        }
    return row


def table_document(
    columns: tuple[printers.Column, ...], rows: list[dict[str, Any]], metadata: dict[str, Any]
) -> dict[str, Any]:
    return {
        "kind": "Table",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": metadata,
        "columnDefinitions": [
            {"name": c.name, "type": c.type, "format": c.format, "description": c.description, "priority": c.priority}
            for c in columns
        ],
        "rows": rows,
    }


type Cells = Callable[[Any], list[Any]]


def _printer(snapshot: ApiSnapshot, resource: Resource) -> tuple[tuple[printers.Column, ...], Cells]:
    now = snapshot.now
    if resource.kind == "Event":
        return EVENT_COLUMNS, lambda event: event_cells(event, snapshot.now)
    columns = printers.printed_columns(resource.kind) or printers.DEFAULT_COLUMNS

    def cells(obj: Any) -> list[Any]:
        with timestamps_from(snapshot.epoch):  # the default table's Created At is a timestamp
            return printers.printed_cells(obj, now)

    return columns, cells


def event_cells(event: ApiEvent, now: float) -> list[Any]:
    """printEvent (wide, as the API server prints): LAST SEEN and FIRST SEEN are ages."""
    first_seen = human_duration(now - event.first.time)
    last_seen = human_duration(now - event.last.time)
    kind, _, rest = event.first.object.partition("/")
    target = f"{kind.lower()}/{rest.rsplit('/', 1)[-1]}"
    # formatEventSource: the source's component and host, else the reporting controller and instance
    component = event.first.source
    instance = f"{component}-playground" if component in SCHEDULER_SOURCES else event.host
    source = f"{component}, {instance}" if component and instance else component or "<unknown>"
    return [
        last_seen,
        event.first.type,
        event.first.reason,
        target,
        "",
        source,
        event.message.strip(),
        first_seen,
        event.count,
        event.name,
    ]
