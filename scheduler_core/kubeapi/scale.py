"""The `scale` subresource: an autoscaling/v1 Scale of a Deployment, ReplicaSet or StatefulSet, as
the API server writes it (spec.replicas, status.replicas and the selector as a string)."""

from typing import Any

from scheduler_core.explain.selector_text import selector_string
from scheduler_core.kubeapi.objects import ApiSnapshot
from scheduler_core.kubeapi.resources import Resource


def scale_of(snapshot: ApiSnapshot, resource: Resource, workload: Any) -> dict[str, Any]:
    metadata = snapshot.manifest(workload)["metadata"]
    selector = workload.spec.selector
    return {
        "kind": "Scale",
        "apiVersion": "autoscaling/v1",
        "metadata": {
            key: metadata[key]
            for key in ("name", "namespace", "uid", "resourceVersion", "creationTimestamp")
            if key in metadata
        },
        "spec": {"replicas": workload.spec.replicas},
        "status": {"replicas": workload.status.replicas, "selector": selector_string(selector) if selector else ""},
    }
