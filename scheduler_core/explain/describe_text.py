"""The lines every `kubectl describe` text shares (k8s.io/kubectl/pkg/describe): times, labels and
other multi-line lists, annotations, the Events table. Lines carry tabs where kubectl's do; the
describer aligns them at the end with its tabwriter (tabwriter.py).

Times print as kubectl prints them (RFC 1123 with a numeric zone, in UTC), simulated second 0
being 1970-01-01T00:00:00Z as in the manifests the engine writes (api/object_manifest.py); a time
never set prints as Go's zero time.
"""

import time

from scheduler_core.api.manifest_writer import current_epoch
from scheduler_core.explain.describe_meta import Annotation
from scheduler_core.explain.object_events import DescribedEvent

ZERO_TIME = "Mon, 01 Jan 0001 00:00:00 +0000"
INDENT = "  "  # the PrefixWriter's LEVEL_1; LEVEL_n is n of them


def rfc1123z(seconds: float | None) -> str:
    """A simulated time (inside api.manifest_writer.timestamps_from, on that block's clock)."""
    if seconds is None:
        return ZERO_TIME
    return time.strftime("%a, %d %b %Y %H:%M:%S +0000", time.gmtime(seconds + current_epoch()))


def listed(title: str, items: list[str]) -> list[str]:
    """printLabelsMultiline, printNodeTaintsMultiline, printPodTolerationsMultiline: the first item
    on the title's line, the others each on a line of its own, in the title's value column."""
    if not items:
        return [f"{title}:\t<none>"]
    return [f"{title}:\t{items[0]}", *(f"\t{item}" for item in items[1:])]


def annotation_lines(title: str, annotations: list[Annotation]) -> list[str]:
    """printAnnotationsMultiline."""
    if not annotations:
        return [f"{title}:\t<none>"]
    lines = []
    for index, annotation in enumerate(annotations):
        lead = f"{title}:\t" if index == 0 else "\t"
        if annotation.inline:
            lines.append(f"{lead}{annotation.key}: {annotation.lines[0]}")
        else:
            lines.append(f"{lead}{annotation.key}:")
            lines += [f"\t  {line}" for line in annotation.lines]
    return lines


def event_lines(events: list[DescribedEvent]) -> list[str]:
    """DescribeEvents."""
    if not events:
        return ["Events:\t<none>"]
    return [
        "Events:",
        f"{INDENT}Type\tReason\tAge\tFrom\tMessage",
        f"{INDENT}----\t------\t----\t----\t-------",
        *(f"{INDENT}{e.type}\t{e.reason}\t{e.age}\t{e.source}\t{e.message}" for e in events),
    ]
