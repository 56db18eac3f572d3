"""`kubectl describe daemonset` as kubectl v1.34 prints it (describeDaemonSet in
k8s.io/kubectl/pkg/describe): the set, its node counts, its pods by phase, its template and
events, from the set as the API serves it (describe_manifest.py). The counts' lines have no tab:
kubectl writes them with a plain space, so they break the column of the lines around them."""

from scheduler_core.api.manifest_writer import timestamps_from
from scheduler_core.api.object_manifest import object_manifest
from scheduler_core.api.workloads import DaemonSet
from scheduler_core.explain.describe_manifest import (
    Manifest,
    field_map,
    format_labels,
    label_pairs,
    object_events,
    pod_template_lines,
    pods_status,
    selector_text,
)
from scheduler_core.explain.describe_meta import described_annotations
from scheduler_core.explain.describe_pod_text import EventFields, describe_events, escape_terminal
from scheduler_core.explain.describe_text import annotation_lines, listed
from scheduler_core.explain.tabwriter import tabbed
from scheduler_core.store.cluster import Cluster


def daemon_set_text(cluster: Cluster, daemon_set: DaemonSet, now: float, epoch: float = 0.0) -> str:
    with timestamps_from(epoch):
        manifest = object_manifest(daemon_set)
        meta = field_map(manifest, "metadata")
        events = object_events(cluster, "DaemonSet", meta)
    status = pods_status(cluster, str(meta.get("namespace", "")), field_map(manifest, "spec"), str(meta.get("uid", "")))
    return describe_daemon_set(manifest, status, events, now + epoch)


def describe_daemon_set(daemon_set: Manifest, pods_status: str, events: list[EventFields], clock: float) -> str:
    meta, spec = field_map(daemon_set, "metadata"), field_map(daemon_set, "spec")
    status, template = field_map(daemon_set, "status"), field_map(spec, "template")
    lines = [
        f"Name:\t{meta.get('name', '')}",
        f"Namespace:\t{meta.get('namespace', '')}",
        f"Selector:\t{selector_text(spec)}",
        f"Node-Selector:\t{format_labels(field_map(field_map(template, 'spec'), 'nodeSelector'))}",
        *listed("Labels", label_pairs(field_map(meta, "labels"))),
        *annotation_lines("Annotations", described_annotations(field_map(meta, "annotations"))),
        f"Desired Number of Nodes Scheduled: {status.get('desiredNumberScheduled', 0)}",
        f"Current Number of Nodes Scheduled: {status.get('currentNumberScheduled', 0)}",
        f"Number of Nodes Scheduled with Up-to-date Pods: {status.get('updatedNumberScheduled', 0)}",
        f"Number of Nodes Scheduled with Available Pods: {status.get('numberAvailable', 0)}",
        f"Number of Nodes Misscheduled: {status.get('numberMisscheduled', 0)}",
        f"Pods Status:\t{pods_status}",
        *pod_template_lines(template),
        *describe_events(events, clock),
    ]
    return tabbed(escape_terminal("\n".join(lines) + "\n"))
