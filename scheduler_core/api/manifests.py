"""Multi-document YAML to engine objects: kind dispatch, Lists, and errors that name the document."""

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from scheduler_core.api import parse_workloads as pw
from scheduler_core.api.errors import ManifestError
from scheduler_core.api.fields import Fields
from scheduler_core.api.parse import (
    parse_namespace,
    parse_node,
    parse_pod,
    parse_pod_disruption_budget,
    parse_priority_class,
)
from scheduler_core.api.timeline import parse_action
from scheduler_core.api.yaml_loader import load_documents

Parser = Callable[[Fields], Any]
CLUSTER_SCOPED_KINDS = frozenset(
    {"Node", "Namespace", "PriorityClass", "PersistentVolume", "StorageClass", "Action", "List"}
)


APPS = frozenset({"apps/v1"})
BATCH = frozenset({"batch/v1"})

# kind -> (accepted apiVersions, parser).
KINDS: dict[str, tuple[frozenset[str], Parser]] = {
    "Deployment": (APPS, pw.parse_deployment),
    "ReplicaSet": (APPS, pw.parse_replica_set),
    "StatefulSet": (APPS, pw.parse_stateful_set),
    "DaemonSet": (APPS, pw.parse_daemon_set),
    "Job": (BATCH, pw.parse_job),
    "CronJob": (BATCH, pw.parse_cron_job),
    "HorizontalPodAutoscaler": (frozenset({"autoscaling/v2"}), pw.parse_hpa),
    "Service": (frozenset({"v1"}), pw.parse_service),
    "Ingress": (frozenset({"networking.k8s.io/v1"}), pw.parse_ingress),
    "PersistentVolumeClaim": (frozenset({"v1"}), pw.parse_persistent_volume_claim),
    "PersistentVolume": (frozenset({"v1"}), pw.parse_persistent_volume),
    "StorageClass": (frozenset({"storage.k8s.io/v1"}), pw.parse_storage_class),
    "LimitRange": (frozenset({"v1"}), pw.parse_limit_range),
    "ResourceQuota": (frozenset({"v1"}), pw.parse_resource_quota),
    "Action": (frozenset({"playground/v1"}), parse_action),
    "Node": (frozenset({"v1"}), parse_node),
    "Pod": (frozenset({"v1"}), parse_pod),
    "Namespace": (frozenset({"v1"}), parse_namespace),
    "PriorityClass": (frozenset({"scheduling.k8s.io/v1"}), parse_priority_class),
    "PodDisruptionBudget": (frozenset({"policy/v1"}), parse_pod_disruption_budget),
}


@dataclass(frozen=True, slots=True)
class Manifest:
    kind: str
    object: Any
    document: str  # "Pod default/web", as errors and events name it
    line: int
    source: str


def describe_document(data: Mapping[str, Any], index: int) -> str:
    """ "Kind namespace/name" when the document says so, else its position."""
    raw_kind = data.get("kind")
    kind = raw_kind if isinstance(raw_kind, str) else None
    raw_metadata = data.get("metadata")
    metadata: Mapping[str, Any] = raw_metadata if isinstance(raw_metadata, Mapping) else {}
    name = metadata.get("name") if isinstance(metadata.get("name"), str) else None
    namespace = metadata.get("namespace") if isinstance(metadata.get("namespace"), str) else None
    if kind and name:
        if kind not in CLUSTER_SCOPED_KINDS and not namespace:
            namespace = "default"
        return f"{kind} {namespace}/{name}" if namespace else f"{kind} {name}"
    if kind:
        return f"{kind} (document {index})"
    return f"document {index}"


def parse_object(data: Mapping[str, Any], document: str = "") -> Any:
    """One manifest (already a mapping) to its engine object."""
    manifests = list(_objects(data, 1, 0, "input", ""))
    if len(manifests) != 1:
        raise ManifestError(document or describe_document(data, 1), "", "expected exactly one object")
    return manifests[0].object


def load_manifests(text: str, source: str = "input") -> list[Manifest]:
    """Every object in the text, in document order (items of a v1 List in their order)."""
    manifests: list[Manifest] = []
    for document in load_documents(text, source):
        if not isinstance(document.data, Mapping):
            raise ManifestError(
                f"document {document.index}", "", "must be a mapping with apiVersion and kind", document.line
            )
        manifests.extend(_objects(document.data, document.index, document.line, source, ""))
    return manifests


def _objects(data: Mapping[str, Any], index: int, line: int, source: str, path: str) -> Iterator[Manifest]:
    label = describe_document(data, index)
    fields = Fields(data, path, label, line)
    kind = fields.string("kind")
    if not kind:
        raise fields.error("kind", "Required value: every document needs a kind")
    if kind == "List":
        fields.reject_unknown({"apiVersion", "kind", "metadata", "items"})
        for item in fields.objects("items"):
            yield from _objects(item.data, index, item.line or line, source, item.path)
        return
    if kind not in KINDS:
        supported = ", ".join(sorted(KINDS))
        raise fields.error("kind", f'kind "{kind}" is not supported here (supported: {supported}, List)')
    versions, parser = KINDS[kind]
    api_version = fields.string("apiVersion")
    if api_version not in versions:
        expected = " or ".join(sorted(versions))
        raise fields.error("apiVersion", f'apiVersion "{api_version}" does not serve kind {kind} (use {expected})')
    yield Manifest(kind=kind, object=parser(fields), document=label, line=fields.line or line, source=source)
