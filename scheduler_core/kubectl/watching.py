"""`kubectl get -w` in the page's console: after the list, a row for every change of a selected
object as the player moves on, as kubectl prints a watch's Table rows: each row through its own
tabwriter flush (so rows are aligned on their own, not with the header), with no header again.

The changes are the run's journal between two frames (kubeapi/watch.py, as the API's watch streams
them), each row printed at its frame's time (ages as the API server prints them then)."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from scheduler_core.explain.tabwriter import tabbed
from scheduler_core.kubeapi import status
from scheduler_core.kubeapi.query_selectors import (
    SelectorError,
    check_field_selector,
    parse_field_selector,
    parse_label_selector,
)
from scheduler_core.kubeapi.watch import JournalIndex, Selection, Stream, watch_events
from scheduler_core.kubectl.flags import GET_FLAGS, CommandError, Parsed, parse, split
from scheduler_core.kubectl.names import object_name, targets
from scheduler_core.kubectl.table_printer import MIN_WIDTH, PADDING, PrintOptions, table_lines
from scheduler_core.store.cluster import Change
from scheduler_core.store.event_correlation import Occurrence
from scheduler_core.store.events import Event


@dataclass(frozen=True, slots=True)
class Frames:
    """A run's journal and where its frames end in it, with their times."""

    journal: Sequence[Change[Any] | Event]
    index: JournalIndex
    boundaries: Sequence[int]  # frame N covers journal[: boundaries[N - 1]]
    times: Sequence[float]
    epoch: float
    occurrences: Callable[[], dict[int, tuple[Event, Occurrence]]]
    hosts: Callable[[Event], str]


def selection_of(parsed: Parsed) -> tuple[Selection, PrintOptions, bool]:
    """What a `get -w` watches: one type (a name narrows it), its namespace and selectors; how its
    rows print; whether only names are printed (-o name)."""
    wanted = targets(parsed.args)
    resources = {target.resource for target in wanted}
    if len(resources) != 1:
        raise CommandError(
            "error: watch is only supported on individual resources and resource collections, but "
            f"{len(resources)} resources were found"
        )
    resource = wanted[0].resource
    names = [target.name for target in wanted if target.name]
    every = parsed.flag("all-namespaces")
    namespace = "" if every or not resource.namespaced else parsed.value("namespace", "default")
    field_text = parsed.value("field-selector")
    if len(names) == 1:
        field_text = ",".join(part for part in (field_text, f"metadata.name={names[0]}") if part)
    try:
        labels = parse_label_selector(parsed.value("selector"))
        fields = parse_field_selector(field_text)
        check_field_selector(resource.kind, fields, resource.version)
    except SelectorError as error:
        raise status.bad_request(str(error)) from None
    selection = Selection(resource, namespace, labels, fields, bool(fields.requirements()))
    options = PrintOptions(
        wide=parsed.value("output") == "wide",
        with_namespace=every and resource.namespaced,
        show_labels=parsed.flag("show-labels"),
        no_headers=True,
    )
    return selection, options, parsed.value("output") == "name"


def watched_rows(line: str, frames: Frames, after: int, upto: int) -> str:
    """The rows kubectl prints for the changes of frames after+1..upto, for a `get -w` line
    (CommandError, UsageError or ApiError if the line is not one)."""
    words = split(line)
    if words[:1] != ["get"]:
        raise CommandError("error: only kubectl get -w follows a run")
    parsed = parse(words[1:], GET_FLAGS)
    if not parsed.flag("watch"):
        raise CommandError("error: only kubectl get -w follows a run")
    selection, options, names_only = selection_of(parsed)
    out: list[str] = []
    for frame in range(after + 1, min(upto, len(frames.boundaries)) + 1):
        start = frames.boundaries[frame - 2] if frame > 1 else 0
        stop = frames.boundaries[frame - 1]
        if stop <= start:
            continue
        stream = Stream(frames.epoch, frames.times[frame - 1], as_table=not names_only)
        for event in watch_events(
            frames.journal, frames.index, start, stop, selection, stream, frames.occurrences, frames.hosts
        ):
            if names_only:
                name = event["object"]["metadata"]["name"]
                out.append(f"{object_name(selection.resource, name)}\n")
                continue
            for line in table_lines(event["object"], options):
                out.append(tabbed(line, minwidth=MIN_WIDTH, padding=PADDING) + "\n")
    return "".join(out)
