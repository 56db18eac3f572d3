"""The cluster as `simulate` reports it: nodes and pods, in a stable order.

Optional keys, present only when the cluster has such objects (older readers can ignore them):
"services": every Service with its type and endpoints (pod, node, ready, serving, terminating),
as the endpoints controller computes them. How traffic splits over those endpoints is not part
of this state: the web app asks scheduler_core.explain.traffic.traffic_state for it.
"""

from typing import Any

from scheduler_core.api.qos import qos_class
from scheduler_core.api.types import Node, Pod
from scheduler_core.api.workloads import Service
from scheduler_core.controllers.endpoints import compute_endpoints
from scheduler_core.store.cluster import Cluster

# The one serializer of nodes and pods: `simulate` prints these, and the web app's run frames
# (playground/runs.py) extend them with what the board needs.


def node_state(node: Node) -> dict[str, Any]:
    return {
        "name": node.name,
        "labels": dict(node.labels),
        "taints": [{"key": t.key, "value": t.value, "effect": t.effect} for t in node.spec.taints],
        "unschedulable": node.spec.unschedulable,
        "ready": node.status.ready,
    }


def owner_of(pod: Pod) -> str | None:
    """The pod's controller as Kind/name, if it has one."""
    owner = pod.metadata.controller_ref()
    return f"{owner.kind}/{owner.name}" if owner else None


def pod_placement(pod: Pod) -> dict[str, Any]:
    """Where the pod is and how it is doing: what every view of a pod starts from."""
    return {
        "name": pod.name,
        "namespace": pod.namespace,
        "node": pod.spec.node_name or None,
        "phase": pod.status.phase,
        "ready": pod.status.ready,
    }


def pod_state(pod: Pod) -> dict[str, Any]:
    state = {
        "namespace": pod.namespace,  # first, as `simulate` has always printed it
        **pod_placement(pod),
        "owner": owner_of(pod),
        "qosClass": qos_class(pod),
        "image": pod.spec.containers[0].image if pod.spec.containers else "",
        "startTime": pod.status.start_time,
    }
    if pod.status.reason:  # a pod the kubelet rejected (OutOfcpu...), or one evicted
        state["reason"], state["message"] = pod.status.reason, pod.status.message
    return state


def service_state(cluster: Cluster, service: Service) -> dict[str, Any]:
    return {
        "namespace": service.metadata.namespace,
        "name": service.metadata.name,
        "type": service.spec.type,
        "endpoints": [endpoint.as_dict() for endpoint in compute_endpoints(cluster, service)],
    }


def cluster_state(cluster: Cluster, time: float) -> dict[str, Any]:
    nodes = sorted(cluster.objects(Node), key=lambda n: n.name)
    pods = sorted(cluster.objects(Pod), key=lambda p: (p.namespace, p.name))
    state = {"time": round(time, 6), "nodes": [node_state(n) for n in nodes], "pods": [pod_state(p) for p in pods]}
    services = sorted(cluster.objects(Service), key=lambda s: (s.metadata.namespace, s.metadata.name))
    if services:
        state["services"] = [service_state(cluster, service) for service in services]
    return state
