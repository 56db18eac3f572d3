"""`kubectl describe node` as kubectl prints it: describeNode's lines, aligned by its tabwriter.

Times print as kubectl prints them (RFC 1123 with a numeric zone, in UTC), simulated second 0
being 1970-01-01T00:00:00Z as in the manifests the engine writes (api/object_manifest.py); a time
never set prints as Go's zero time.
"""

import time

from scheduler_core.explain.describe_node import NodeDescription
from scheduler_core.explain.tabwriter import tabbed

ZERO_TIME = "Mon, 01 Jan 0001 00:00:00 +0000"
INDENT = "  "  # the PrefixWriter's LEVEL_1


def rfc1123z(seconds: float | None) -> str:
    if seconds is None:
        return ZERO_TIME
    return time.strftime("%a, %d %b %Y %H:%M:%S +0000", time.gmtime(seconds))


def node_text(description: NodeDescription) -> str:
    lines = [
        f"Name:\t{description.name}",
        f"Roles:\t{','.join(description.roles) or '<none>'}",
        *_listed("Labels", [f"{key}={value}" for key, value in description.labels]),
        *_annotations(description),
        f"CreationTimestamp:\t{rfc1123z(description.creation_timestamp)}",
        *_listed("Taints", description.taints),
        f"Unschedulable:\t{str(description.unschedulable).lower()}",
        *_conditions(description),
        *_resources("Capacity", description.capacity),
        *_resources("Allocatable", description.allocatable),
        *_pods(description),
        *_allocated(description),
        *_events(description),
    ]
    return tabbed("\n".join(lines) + "\n")


def _listed(title: str, items: list[str]) -> list[str]:
    """printLabelsMultiline, printNodeTaintsMultiline: the first on the title's line."""
    if not items:
        return [f"{title}:\t<none>"]
    return [f"{title}:\t{items[0]}", *(f"\t{item}" for item in items[1:])]


def _annotations(description: NodeDescription) -> list[str]:
    """printAnnotationsMultiline."""
    if not description.annotations:
        return ["Annotations:\t<none>"]
    lines = []
    for index, annotation in enumerate(description.annotations):
        lead = "Annotations:\t" if index == 0 else "\t"
        if annotation.inline:
            lines.append(f"{lead}{annotation.key}: {annotation.lines[0]}")
        else:
            lines.append(f"{lead}{annotation.key}:")
            lines += [f"\t  {line}" for line in annotation.lines]
    return lines


def _conditions(description: NodeDescription) -> list[str]:
    if not description.conditions:
        return []
    return [
        "Conditions:",
        f"{INDENT}Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage",
        f"{INDENT}----\t------\t-----------------\t------------------\t------\t-------",
        *(
            f"{INDENT}{c.type} \t{c.status} \t{rfc1123z(c.last_heartbeat_time)} \t"
            f"{rfc1123z(c.last_transition_time)} \t{c.reason} \t{c.message}"
            for c in description.conditions
        ),
    ]


def _resources(title: str, amounts: list[tuple[str, str]]) -> list[str]:
    if not amounts:
        return []
    return [f"{title}:", *(f"{INDENT}{name}:\t{amount}" for name, amount in amounts)]


def _pods(description: NodeDescription) -> list[str]:
    return [
        f"Non-terminated Pods:\t({len(description.pods)} in total)",
        f"{INDENT}Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge",
        f"{INDENT}---------\t----\t\t------------\t----------\t---------------\t-------------\t---",
        *(
            f"{INDENT}{row.namespace}\t{row.name}\t\t{row.cpu_requests}\t{row.cpu_limits}\t"
            f"{row.memory_requests}\t{row.memory_limits}\t{row.age}"
            for row in description.pods
        ),
    ]


def _allocated(description: NodeDescription) -> list[str]:
    return [
        "Allocated resources:",
        f"{INDENT}(Total limits may be over 100 percent, i.e., overcommitted.)",
        f"{INDENT}Resource\tRequests\tLimits",
        f"{INDENT}--------\t--------\t------",
        *(f"{INDENT}{row.resource}\t{row.requests}\t{row.limits}" for row in description.allocated),
    ]


def _events(description: NodeDescription) -> list[str]:
    """DescribeEvents."""
    if not description.events:
        return ["Events:\t<none>"]
    return [
        "Events:",
        f"{INDENT}Type\tReason\tAge\tFrom\tMessage",
        f"{INDENT}----\t------\t----\t----\t-------",
        *(f"{INDENT}{e.type}\t{e.reason}\t{e.age}\t{e.source}\t{e.message}" for e in description.events),
    ]
