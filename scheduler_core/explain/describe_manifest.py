"""What kubectl v1.34's workload and policy describers share (k8s.io/kubectl/pkg/describe:
DescribePodTemplate, getPodStatusForController, searchEvents, the selector and label printers),
read from the objects as the API serves them (api/object_manifest.py), as describe_pod_text.py
reads a pod: the console and a real kubectl against the API print the same text.

Build the manifest and its events inside api.manifest_writer.timestamps_from(epoch), so their
times are the API's; print outside it, as describe_pod_text does (rfc1123z adds a block's epoch).
"""

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from scheduler_core.api.selectors import label_selector_matches
from scheduler_core.api.types import LabelSelector, LabelSelectorRequirement, Pod
from scheduler_core.explain.describe_meta import described_annotations
from scheduler_core.explain.describe_pod_text import (
    EventFields,
    _event_fields,
    containers_lines,
    spread_constraint_lines,
    tolerations_text,
    volume_lines,
)
from scheduler_core.explain.describe_text import INDENT, annotation_lines, listed, rfc1123z
from scheduler_core.explain.selector_text import format_label_selector, selector_string
from scheduler_core.store.cluster import Cluster
from scheduler_core.store.event_correlation import EventCorrelator, event_rows
from scheduler_core.store.events import object_ref

Manifest = Mapping[str, Any]
LEVEL_1, LEVEL_2 = INDENT, INDENT * 2


def field_map(parent: Manifest, key: str) -> Manifest:
    value = parent.get(key)
    return value if isinstance(value, Mapping) else {}


def field_list(parent: Manifest, key: str) -> list[Any]:
    value = parent.get(key)
    return value if isinstance(value, list) else []


def label_pairs(labels: Manifest) -> list[str]:
    """printLabelsMultiline's `key=value` items, by key."""
    return [f"{key}={value}" for key, value in sorted(labels.items())]


def format_labels(labels: Manifest) -> str:
    """labels.FormatLabels: `k=v,k2=v2` by key, <none> for none."""
    return ",".join(label_pairs(labels)) or "<none>"


def time_text(text: object) -> str:
    """A metav1.Time as describe prints it (time.RFC1123Z), Go's zero time when absent."""
    seconds = datetime.fromisoformat(text).timestamp() if isinstance(text, str) and text else None
    return rfc1123z(seconds)


def int_or_string(value: object) -> str:
    """intstr.IntOrString's String(): the number or the text as it is."""
    return str(value)


def label_selector(selector: Manifest) -> LabelSelector:
    expressions = tuple(
        LabelSelectorRequirement(str(e.get("key", "")), str(e.get("operator", "")), tuple(e.get("values") or ()))
        for e in field_list(selector, "matchExpressions")
    )
    return LabelSelector(dict(field_map(selector, "matchLabels")), expressions)


def selector_text(spec: Manifest) -> str:
    """labels.Selector's String() of spec.selector (LabelSelectorAsSelector): empty for a selector
    that selects everything and for none."""
    selector = spec.get("selector")
    return selector_string(label_selector(selector)) if isinstance(selector, Mapping) else ""


def formatted_selector(spec: Manifest) -> str:
    """metav1.FormatLabelSelector of spec.selector: <none> where selector_text is empty."""
    selector = spec.get("selector")
    return format_label_selector(label_selector(selector) if isinstance(selector, Mapping) else None)


def controller_line(meta: Manifest) -> list[str]:
    """printController: the owner reference marked controller, as Kind/name."""
    for ref in field_list(meta, "ownerReferences"):
        if ref.get("controller") is True:
            return [f"Controlled By:\t{ref.get('kind', '')}/{ref.get('name', '')}"]
    return []


def object_events(cluster: Cluster, kind: str, meta: Manifest) -> list[EventFields]:
    """searchEvents: the events the API lists for the object's name, namespace, kind and UID, in
    the API's order (as describe_pod_text.pod_events reads a pod's)."""
    namespace, uid = str(meta.get("namespace", "")), str(meta.get("uid", ""))
    ref = object_ref(kind, namespace, str(meta.get("name", "")))
    own = [event for event in cluster.events if event.object == ref and (event.uid == uid or not uid)]
    correlator = EventCorrelator()
    rows = event_rows([(event, correlator.observe(event)) for event in own])
    return [_event_fields(row) for row in sorted(rows, key=lambda row: row.first.seq)]


def pods_status(cluster: Cluster, namespace: str, spec: Manifest, uid: str) -> str:
    """getPodStatusForController: the pods the selector lists in the namespace whose controller
    is this object (by UID), counted by phase."""
    selector = spec.get("selector")
    counts = dict.fromkeys(("Running", "Pending", "Succeeded", "Failed"), 0)
    if isinstance(selector, Mapping):
        wanted = label_selector(selector)
        for pod in cluster.objects(Pod):
            ref = pod.metadata.controller_ref()
            if pod.namespace != namespace or ref is None or ref.uid != uid:
                continue
            if label_selector_matches(wanted, pod.metadata.labels) and pod.status.phase in counts:
                counts[pod.status.phase] += 1
    return (
        f"{counts['Running']} Running / {counts['Pending']} Waiting / {counts['Succeeded']} Succeeded / "
        f"{counts['Failed']} Failed"
    )


def pod_template_lines(template: Manifest) -> list[str]:
    """DescribePodTemplate of a template as the API serves it; a pod template's containers and
    volumes one space further in than a pod's."""
    meta, spec = field_map(template, "metadata"), field_map(template, "spec")
    lines = ["Pod Template:", *listed(f"{LEVEL_1}Labels", label_pairs(field_map(meta, "labels")))]
    if field_map(meta, "annotations"):
        lines += annotation_lines(f"{LEVEL_1}Annotations", described_annotations(field_map(meta, "annotations")))
    if spec.get("serviceAccountName"):
        lines.append(f"{LEVEL_1}Service Account:\t{spec['serviceAccountName']}")
    if field_list(spec, "initContainers"):
        lines += containers_lines("Init Containers", field_list(spec, "initContainers"), [], {}, LEVEL_1)
    lines += containers_lines("Containers", field_list(spec, "containers"), [], {}, LEVEL_1)
    lines += volume_lines(field_list(spec, "volumes"), LEVEL_1)
    lines += [f"{LEVEL_1}{line}" for line in spread_constraint_lines(field_list(spec, "topologySpreadConstraints"))]
    if spec.get("priorityClassName"):
        lines.append(f"{LEVEL_1}Priority Class Name:\t{spec['priorityClassName']}")
    lines += listed(f"{LEVEL_1}Node-Selectors", label_pairs(field_map(spec, "nodeSelector")))
    lines += listed(f"{LEVEL_1}Tolerations", tolerations_text(field_list(spec, "tolerations")))
    return lines
