"""`kubectl describe replicaset` as kubectl v1.34 prints it (describeReplicaSet in
k8s.io/kubectl/pkg/describe): the set, its pods by phase, its template, conditions and events,
from the set as the API serves it (describe_manifest.py)."""

from scheduler_core.api.manifest_writer import timestamps_from
from scheduler_core.api.object_manifest import object_manifest
from scheduler_core.api.workloads import ReplicaSet
from scheduler_core.explain.describe_manifest import (
    LEVEL_1,
    Manifest,
    controller_line,
    field_list,
    field_map,
    formatted_selector,
    label_pairs,
    object_events,
    pod_template_lines,
    pods_status,
)
from scheduler_core.explain.describe_meta import described_annotations
from scheduler_core.explain.describe_pod_text import EventFields, describe_events, escape_terminal
from scheduler_core.explain.describe_text import annotation_lines, listed
from scheduler_core.explain.tabwriter import tabbed
from scheduler_core.store.cluster import Cluster


def replica_set_text(cluster: Cluster, replica_set: ReplicaSet, now: float, epoch: float = 0.0) -> str:
    with timestamps_from(epoch):
        manifest = object_manifest(replica_set)
        meta = field_map(manifest, "metadata")
        events = object_events(cluster, "ReplicaSet", meta)
    status = pods_status(cluster, str(meta.get("namespace", "")), field_map(manifest, "spec"), str(meta.get("uid", "")))
    return describe_replica_set(manifest, status, events, now + epoch)


def describe_replica_set(replica_set: Manifest, pods_status: str, events: list[EventFields], clock: float) -> str:
    meta, spec = field_map(replica_set, "metadata"), field_map(replica_set, "spec")
    status = field_map(replica_set, "status")
    lines = [
        f"Name:\t{meta.get('name', '')}",
        f"Namespace:\t{meta.get('namespace', '')}",
        f"Selector:\t{formatted_selector(spec)}",
        *listed("Labels", label_pairs(field_map(meta, "labels"))),
        *annotation_lines("Annotations", described_annotations(field_map(meta, "annotations"))),
        *controller_line(meta),
        # the API defaults spec.replicas to 1
        f"Replicas:\t{status.get('replicas', 0)} current / {spec.get('replicas', 1)} desired",
        f"Pods Status:\t{pods_status}",
        *pod_template_lines(field_map(spec, "template")),
        *condition_lines(field_list(status, "conditions")),
        *describe_events(events, clock),
    ]
    return tabbed(escape_terminal("\n".join(lines) + "\n"))


def condition_lines(conditions: list[Manifest]) -> list[str]:
    """A ReplicaSet's (and a Deployment's) Conditions table; a space ends the Type cell."""
    if not conditions:
        return []
    return [
        "Conditions:",
        f"{LEVEL_1}Type\tStatus\tReason",
        f"{LEVEL_1}----\t------\t------",
        *(f"{LEVEL_1}{c.get('type', '')} \t{c.get('status', '')}\t{c.get('reason', '')}" for c in conditions),
    ]
