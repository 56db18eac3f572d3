"""The API server's server-side printing: the columns and row cells of a meta.k8s.io/v1 Table, what
`kubectl get` shows, as upstream's pkg/printers/internalversion/printers.go prints them.

Upstream read: Kubernetes v1.34.1 (k8s.io/kubernetes v1.34.1, printers.go as vendored unchanged by
openshift/openshift-apiserver at commit 56aa2d96edd7, its "bump(k8s)=1.34.1"; it has the Job
"Status" column of 1.31+, resource.k8s.io/v1 and storage/v1 VolumeAttributesClass of 1.34), with
the column descriptions' swagger texts of k8s.io/api v0.34.1; cases ported from
kubernetes/kubernetes pkg/printers/internalversion/printers_test.go (the stored post-1.31 version).

The API server always prints wide (printers/storage.TableConvertor: GenerateOptions{Wide: true}), so
a row has a cell for every column, priority 1 included; kubectl hides those without -o wide.

What upstream prints that the engine does not keep is printed as upstream prints its absence (no
pod IP: "<none>"; no nodeInfo: an empty VERSION, "<unknown>" OS image...); each printer's
docstring names what it lacks.
"""

from collections.abc import Callable
from typing import Any

from scheduler_core.api.container_states import container_states, init_container_states
from scheduler_core.api.pod_conditions import conditions_of
from scheduler_core.api.types import Namespace, Node, Pod, PodDisruptionBudget, PriorityClass
from scheduler_core.api.workloads import (
    CronJob,
    DaemonSet,
    Deployment,
    HorizontalPodAutoscaler,
    Ingress,
    Job,
    LimitRange,
    PersistentVolume,
    PersistentVolumeClaim,
    ReplicaSet,
    ResourceQuota,
    Service,
    StatefulSet,
    StorageClass,
)
from scheduler_core.kubeapi import printers_core as core
from scheduler_core.kubeapi import printers_workloads as workloads
from scheduler_core.kubeapi.printers_columns import COLUMNS, DEFAULT_COLUMNS, Column
from scheduler_core.kubeapi.printers_common import Cell
from scheduler_core.kubeapi.printers_pod import node_cells, pod_cells

__all__ = ["DEFAULT_COLUMNS", "Column", "printed_cells", "printed_columns"]


def printed_columns(kind: str) -> tuple[Column, ...] | None:
    """The columns for a kind ("Pod", "Node", "Deployment", ...); None when upstream has no printer
    for it (the caller then uses the default Name / Created At table, DEFAULT_COLUMNS)."""
    return COLUMNS.get(kind)


def printed_cells(obj: object, now: float) -> list[Cell]:
    """One row's cells in column order for a stored object. `now` is the current time in the
    simulated seconds of obj.metadata.creation_timestamp. A kind without a printer (LimitRange)
    gets the default table's cells. TypeError for a class the store does not keep."""
    printer = _PRINTERS.get(type(obj))
    if printer is None:
        raise TypeError(f"no printer for {type(obj).__name__}")
    return printer(obj, now)


def _pod(pod: Pod, now: float) -> list[Cell]:
    return pod_cells(pod, init_container_states(pod), container_states(pod), conditions_of(pod), now)


def _limit_range(limit_range: LimitRange, now: float) -> list[Cell]:
    return core.default_cells(limit_range.metadata)


_PRINTERS: dict[type, Callable[[Any, float], list[Cell]]] = {
    Pod: _pod,
    Node: node_cells,
    Namespace: core.namespace_cells,
    PriorityClass: core.priority_class_cells,
    PodDisruptionBudget: core.pod_disruption_budget_cells,
    Deployment: workloads.deployment_cells,
    ReplicaSet: workloads.replica_set_cells,
    StatefulSet: workloads.stateful_set_cells,
    DaemonSet: workloads.daemon_set_cells,
    Job: workloads.job_cells,
    CronJob: workloads.cron_job_cells,
    HorizontalPodAutoscaler: workloads.hpa_cells,
    Service: core.service_cells,
    Ingress: core.ingress_cells,
    PersistentVolume: core.persistent_volume_cells,
    PersistentVolumeClaim: core.persistent_volume_claim_cells,
    StorageClass: core.storage_class_cells,
    LimitRange: _limit_range,
    ResourceQuota: core.resource_quota_cells,
}
