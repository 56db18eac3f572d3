"""`kubectl describe deployment` as kubectl prints it: describeDeployment's lines, aligned by its
tabwriter (the shared sections as describe_text.py prints them)."""

from scheduler_core.explain.describe_deployment import DeploymentDescription, ReplicaSetSummary
from scheduler_core.explain.describe_pod_template_text import pod_template_lines
from scheduler_core.explain.describe_text import INDENT, annotation_lines, event_lines, listed, rfc1123z
from scheduler_core.explain.tabwriter import tabbed


def deployment_text(description: DeploymentDescription) -> str:
    lines = [
        f"Name:\t{description.name}",
        f"Namespace:\t{description.namespace}",
        f"CreationTimestamp:\t{rfc1123z(description.creation_timestamp)}",
        *listed("Labels", [f"{key}={value}" for key, value in description.labels]),
        *annotation_lines("Annotations", description.annotations),
        f"Selector:\t{description.selector}",
        f"Replicas:\t{description.replicas}",
        f"StrategyType:\t{description.strategy_type}",
        f"MinReadySeconds:\t{description.min_ready_seconds}",
        *([f"RollingUpdateStrategy:\t{description.rolling_update}"] if description.rolling_update else []),
        *pod_template_lines(description.template),
        *_conditions(description),
        *_replica_sets(description),
        *event_lines(description.events),
    ]
    return tabbed("\n".join(lines) + "\n")


def _conditions(description: DeploymentDescription) -> list[str]:
    if not description.conditions:
        return []
    return [
        "Conditions:",
        f"{INDENT}Type\tStatus\tReason",
        f"{INDENT}----\t------\t------",
        *(f"{INDENT}{c.type} \t{c.status}\t{c.reason}" for c in description.conditions),
    ]


def _replica_sets(description: DeploymentDescription) -> list[str]:
    if not description.has_replica_sets:
        return []
    new = [description.new_replica_set] if description.new_replica_set else []
    return [
        f"OldReplicaSets:\t{replica_sets_text(description.old_replica_sets)}",
        f"NewReplicaSet:\t{replica_sets_text(new)}",
    ]


def replica_sets_text(summaries: list[ReplicaSetSummary]) -> str:
    """printReplicaSetsByLabels: comma-separated, <none> for none."""
    return ", ".join(str(summary) for summary in summaries) or "<none>"
