"""Import a real cluster: the output of `kubectl get nodes -o yaml` becomes the node board, and
`kubectl get pods -A -o yaml` (optional) becomes bound Pods in the workload, cleaned of what the
scheduler never reads (status, managedFields, volumes...). The engine's parser validates both, so
an import error names the document, the field and the line."""

from dataclasses import dataclass
from typing import Any

import yaml

from playground.scenarios import MAX_NODES, MAX_WORKLOAD_BYTES, InvalidEdit
from scheduler_core.api.manifests import load_manifests
from scheduler_core.errors import ManifestError

# The pod fields that matter for scheduling, kept as they are.
POD_SPEC_KEEP = (
    "nodeName", "nodeSelector", "affinity", "tolerations", "topologySpreadConstraints", "schedulerName",
    "priority", "preemptionPolicy", "overhead", "resources", "hostNetwork", "terminationGracePeriodSeconds",
    "restartPolicy",
)  # fmt: skip
CONTAINER_KEEP = ("name", "image", "resources", "ports", "restartPolicy")


@dataclass(slots=True)
class Imported:
    nodes: list[dict[str, Any]]
    workload_yaml: str
    skipped_pods: int  # finished pods and pods on nodes not imported


def _documents(text: str, what: str) -> list[dict[str, Any]]:
    """Plain mappings of every item (Lists expanded), after the engine has validated them."""
    try:
        load_manifests(text, source=what)
    except ManifestError as error:
        where = f"line {error.line}: " if error.line else ""
        raise InvalidEdit(f"{what}: {where}{error.document} {error.path}: {error.message}".replace("  ", " ")) from None
    items: list[dict[str, Any]] = []
    for document in yaml.safe_load_all(text):
        if isinstance(document, dict) and document.get("kind") == "List":
            items.extend(item for item in document.get("items") or [] if isinstance(item, dict))
        elif isinstance(document, dict):
            items.append(document)
    return items


def _node_row(document: dict[str, Any]) -> dict[str, Any]:
    metadata = document.get("metadata") or {}
    spec = document.get("spec") or {}
    status = document.get("status") or {}
    # What the scheduler fits pods into is allocatable; the board stores it as the node's capacity.
    capacity = status.get("allocatable") or status.get("capacity") or {}
    return {
        "name": metadata["name"],
        "labels": dict(metadata.get("labels") or {}),
        "taints": [
            {key: taint[key] for key in ("key", "value", "effect") if key in taint}
            for taint in spec.get("taints") or []
        ],
        "capacity": {str(name): str(amount) for name, amount in capacity.items()},
        "unschedulable": bool(spec.get("unschedulable")),
    }


def _clean_pod(document: dict[str, Any]) -> dict[str, Any]:
    metadata = document.get("metadata") or {}
    spec = document.get("spec") or {}
    cleaned_meta: dict[str, Any] = {"name": metadata["name"], "namespace": metadata.get("namespace", "default")}
    if metadata.get("labels"):
        cleaned_meta["labels"] = metadata["labels"]
    cleaned_spec: dict[str, Any] = {key: spec[key] for key in POD_SPEC_KEEP if key in spec}
    for key in ("containers", "initContainers"):
        if spec.get(key):
            cleaned_spec[key] = [{k: c[k] for k in CONTAINER_KEEP if k in c} for c in spec[key]]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": cleaned_meta, "spec": cleaned_spec}


def import_cluster(nodes_text: str, pods_text: str = "") -> Imported:
    nodes = [_node_row(doc) for doc in _documents(nodes_text, "nodes") if doc.get("kind") == "Node"]
    if not nodes:
        raise InvalidEdit("nodes: no Node found: paste the output of `kubectl get nodes -o yaml`")
    if len(nodes) > MAX_NODES:
        raise InvalidEdit(f"nodes: {len(nodes)} nodes; a scenario holds at most {MAX_NODES}")
    names = {node["name"] for node in nodes}
    pods: list[dict[str, Any]] = []
    skipped = 0
    if pods_text.strip():
        for document in _documents(pods_text, "pods"):
            if document.get("kind") != "Pod":
                continue
            phase = (document.get("status") or {}).get("phase")
            node_name = (document.get("spec") or {}).get("nodeName")
            if phase in ("Succeeded", "Failed") or not node_name or node_name not in names:
                skipped += 1
                continue
            pods.append(_clean_pod(document))
    workload = "---\n".join(yaml.safe_dump(pod, sort_keys=False) for pod in pods)
    if len(workload.encode()) > MAX_WORKLOAD_BYTES:
        raise InvalidEdit(
            f"pods: the imported pods make {len(workload.encode()) // 1024} KiB of YAML; the limit is"
            f" {MAX_WORKLOAD_BYTES // 1024} KiB (import fewer namespaces)"
        )
    return Imported(nodes=nodes, workload_yaml=workload, skipped_pods=skipped)
