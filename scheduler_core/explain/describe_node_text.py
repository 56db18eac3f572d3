"""`kubectl describe node` as kubectl prints it: describeNode's lines, aligned by its tabwriter
(times and the shared sections as describe_text.py prints them)."""

from scheduler_core.explain.describe_node import NodeDescription
from scheduler_core.explain.describe_text import INDENT, annotation_lines, event_lines, listed, rfc1123z
from scheduler_core.explain.tabwriter import tabbed


def node_text(description: NodeDescription) -> str:
    lines = [
        f"Name:\t{description.name}",
        f"Roles:\t{','.join(description.roles) or '<none>'}",
        *listed("Labels", [f"{key}={value}" for key, value in description.labels]),
        *annotation_lines("Annotations", description.annotations),
        f"CreationTimestamp:\t{rfc1123z(description.creation_timestamp)}",
        *listed("Taints", description.taints),
        f"Unschedulable:\t{str(description.unschedulable).lower()}",
        *_conditions(description),
        *_resources("Capacity", description.capacity),
        *_resources("Allocatable", description.allocatable),
        *_pods(description),
        *_allocated(description),
        *event_lines(description.events),
    ]
    return tabbed("\n".join(lines) + "\n")


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
