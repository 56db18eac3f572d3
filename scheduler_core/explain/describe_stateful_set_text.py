"""`kubectl describe statefulset` as kubectl v1.34 prints it (describeStatefulSet and
describeVolumeClaimTemplates in k8s.io/kubectl/pkg/describe): the set, its update strategy, its
pods by phase, its pod and claim templates and its events, from the set as the API serves it
(describe_manifest.py)."""

from collections.abc import Mapping

from scheduler_core.api.manifest_writer import timestamps_from
from scheduler_core.api.object_manifest import object_manifest
from scheduler_core.api.workloads import StatefulSet
from scheduler_core.explain.describe_manifest import (
    LEVEL_1,
    Manifest,
    field_list,
    field_map,
    int_or_string,
    label_pairs,
    object_events,
    pod_template_lines,
    pods_status,
    selector_text,
    time_text,
)
from scheduler_core.explain.describe_meta import described_annotations
from scheduler_core.explain.describe_pod_text import EventFields, describe_events, escape_terminal
from scheduler_core.explain.describe_text import annotation_lines, listed
from scheduler_core.explain.tabwriter import tabbed
from scheduler_core.store.cluster import Cluster

STORAGE_CLASS_ANNOTATION = "volume.beta.kubernetes.io/storage-class"  # read before the spec's field


def stateful_set_text(cluster: Cluster, stateful_set: StatefulSet, now: float, epoch: float = 0.0) -> str:
    with timestamps_from(epoch):
        manifest = object_manifest(stateful_set)
        meta = field_map(manifest, "metadata")
        events = object_events(cluster, "StatefulSet", meta)
    status = pods_status(cluster, str(meta.get("namespace", "")), field_map(manifest, "spec"), str(meta.get("uid", "")))
    return describe_stateful_set(manifest, status, events, now + epoch)


def describe_stateful_set(stateful_set: Manifest, pods_status: str, events: list[EventFields], clock: float) -> str:
    meta, spec = field_map(stateful_set, "metadata"), field_map(stateful_set, "spec")
    lines = [
        f"Name:\t{meta.get('name', '')}",
        f"Namespace:\t{meta.get('namespace', '')}",
        f"CreationTimestamp:\t{time_text(meta.get('creationTimestamp'))}",
        f"Selector:\t{selector_text(spec)}",
        *listed("Labels", label_pairs(field_map(meta, "labels"))),
        *annotation_lines("Annotations", described_annotations(field_map(meta, "annotations"))),
        # the API defaults spec.replicas to 1
        f"Replicas:\t{spec.get('replicas', 1)} desired | {field_map(stateful_set, 'status').get('replicas', 0)} total",
        *_strategy_lines(field_map(spec, "updateStrategy")),
        f"Pods Status:\t{pods_status}",
        *pod_template_lines(field_map(spec, "template")),
        *claim_template_lines(field_list(spec, "volumeClaimTemplates")),
        *describe_events(events, clock),
    ]
    return tabbed(escape_terminal("\n".join(lines) + "\n"))


def _strategy_lines(strategy: Manifest) -> list[str]:
    """The type, then a rolling update's partition, and its maxUnavailable only beside a partition."""
    lines = [f"Update Strategy:\t{strategy.get('type', '')}"]
    rolling = strategy.get("rollingUpdate")
    if isinstance(rolling, Mapping) and rolling.get("partition") is not None:
        lines.append(f"{LEVEL_1}Partition:\t{rolling['partition']}")
        if rolling.get("maxUnavailable") is not None:
            lines.append(f"{LEVEL_1}MaxUnavailable:\t{int_or_string(rolling['maxUnavailable'])}")
    return lines


def claim_template_lines(claims: list[Manifest]) -> list[str]:
    """describeVolumeClaimTemplates: annotations print as labels do (key=value, by key)."""
    if not claims:
        return ["Volume Claims:\t<none>"]
    lines = ["Volume Claims:"]
    for claim in claims:
        meta, spec = field_map(claim, "metadata"), field_map(claim, "spec")
        capacity = field_map(field_map(spec, "resources"), "requests").get("storage")
        lines += [
            f"{LEVEL_1}Name:\t{meta.get('name', '')}",
            f"{LEVEL_1}StorageClass:\t{_storage_class(meta, spec)}",
            *_indented_pairs("Labels", label_pairs(field_map(meta, "labels"))),
            *_indented_pairs("Annotations", label_pairs(field_map(meta, "annotations"))),
            f"{LEVEL_1}Capacity:\t{capacity if capacity is not None else '<default>'}",
            # Go's %s of a slice: [ReadWriteOnce ReadOnlyMany]
            f"{LEVEL_1}Access Modes:\t[{' '.join(str(mode) for mode in field_list(spec, 'accessModes'))}]",
        ]
    return lines


def _storage_class(meta: Manifest, spec: Manifest) -> str:
    """storageutil.GetPersistentVolumeClaimClass: the beta annotation, else spec.storageClassName."""
    annotations = field_map(meta, "annotations")
    if STORAGE_CLASS_ANNOTATION in annotations:
        return str(annotations[STORAGE_CLASS_ANNOTATION])
    return str(spec.get("storageClassName") or "")


def _indented_pairs(title: str, items: list[str]) -> list[str]:
    """printLabelsMultilineWithIndent with a level-1 indent: further items under the first."""
    if not items:
        return [f"{LEVEL_1}{title}:\t<none>"]
    return [f"{LEVEL_1}{title}:\t{items[0]}", *(f"{LEVEL_1}\t{item}" for item in items[1:])]
