"""The cluster as `simulate` reports it: nodes and pods, in a stable order."""

from typing import Any

from scheduler_core.api.qos import qos_class
from scheduler_core.api.types import Node, Pod
from scheduler_core.cluster import Cluster


def node_state(node: Node) -> dict[str, Any]:
    return {
        "name": node.name,
        "labels": dict(node.labels),
        "taints": [{"key": t.key, "value": t.value, "effect": t.effect} for t in node.spec.taints],
        "unschedulable": node.spec.unschedulable,
        "ready": node.status.ready,
    }


def pod_state(pod: Pod) -> dict[str, Any]:
    owner = pod.metadata.controller_ref()
    return {
        "namespace": pod.namespace,
        "name": pod.name,
        "node": pod.spec.node_name or None,
        "phase": pod.status.phase,
        "ready": pod.status.ready,
        "owner": f"{owner.kind}/{owner.name}" if owner else None,
        "qosClass": qos_class(pod),
        "image": pod.spec.containers[0].image if pod.spec.containers else "",
        "startTime": pod.status.start_time,
    }


def cluster_state(cluster: Cluster, time: float) -> dict[str, Any]:
    nodes = sorted(cluster.objects("Node"), key=lambda n: n.name)
    pods = sorted(cluster.objects("Pod"), key=lambda p: (p.namespace, p.name))
    return {"time": round(time, 6), "nodes": [node_state(n) for n in nodes], "pods": [pod_state(p) for p in pods]}
