"""A Deployment as `kubectl describe deployment` shows it (k8s.io/kubectl/pkg/describe
describeDeployment), at one moment of a run: its replica counts, strategy, pod template, the
conditions the deployment controller wrote, its ReplicaSets (the new one, whose template is the
deployment's, and the old ones, with how many of their pods exist), and its events.

The ReplicaSets are those the deployment controls (kubectl's GetAllReplicaSetsInChunks): the old
ones oldest first, with or without pods.
"""

from dataclasses import dataclass, field
from typing import Any

from scheduler_core.api.types import Condition
from scheduler_core.api.workloads import Deployment, ReplicaSet
from scheduler_core.controllers.deployment_util import (
    by_creation,
    controller_uid_is,
    find_new_replica_set,
    find_old_replica_sets,
)
from scheduler_core.explain.describe_meta import Annotation, described_annotations, sorted_labels
from scheduler_core.explain.describe_pod_template import PodTemplateDescription, pod_template_description
from scheduler_core.explain.object_events import DescribedEvent, described_events
from scheduler_core.explain.selector_text import selector_string
from scheduler_core.store.cluster import Cluster

ROLLING_UPDATE = "RollingUpdate"


@dataclass(frozen=True, slots=True)
class ReplicaCounts:
    desired: int  # spec.replicas
    updated: int
    total: int
    available: int
    unavailable: int

    def parts(self) -> list[str]:
        return [
            f"{self.desired} desired",
            f"{self.updated} updated",
            f"{self.total} total",
            f"{self.available} available",
            f"{self.unavailable} unavailable",
        ]

    def __str__(self) -> str:
        return " | ".join(self.parts())


@dataclass(frozen=True, slots=True)
class ReplicaSetSummary:
    """printReplicaSetsByLabels' entry: the ReplicaSet's pods that exist of those it wants."""

    name: str
    created: int  # status.replicas
    desired: int  # spec.replicas

    def __str__(self) -> str:
        return f"{self.name} ({self.created}/{self.desired} replicas created)"


@dataclass(slots=True)
class DeploymentDescription:
    name: str
    namespace: str
    creation_timestamp: float
    labels: list[tuple[str, str]]
    annotations: list[Annotation]
    selector: str  # "app=web"
    replicas: ReplicaCounts
    strategy_type: str
    min_ready_seconds: int
    rolling_update: str | None  # "25% max unavailable, 25% max surge"; None for Recreate
    template: PodTemplateDescription
    conditions: tuple[Condition, ...]
    old_replica_sets: list[ReplicaSetSummary]  # oldest first
    new_replica_set: ReplicaSetSummary | None
    at: float  # the simulated time the ages count to
    events: list[DescribedEvent] = field(default_factory=list)

    @property
    def has_replica_sets(self) -> bool:
        """kubectl prints OldReplicaSets and NewReplicaSet only when there is one or the other."""
        return bool(self.old_replica_sets) or self.new_replica_set is not None

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "namespace": self.namespace,
            "creationTimestamp": self.creation_timestamp,
            "labels": dict(self.labels),
            "annotations": {annotation.key: "\n".join(annotation.lines) for annotation in self.annotations},
            "selector": self.selector,
            "replicas": str(self.replicas),
            "strategyType": self.strategy_type,
            "minReadySeconds": self.min_ready_seconds,
            "rollingUpdateStrategy": self.rolling_update,
            "conditions": [{"type": c.type, "status": c.status, "reason": c.reason} for c in self.conditions],
            "oldReplicaSets": [str(summary) for summary in self.old_replica_sets],
            "newReplicaSet": str(self.new_replica_set) if self.new_replica_set else None,
            "at": self.at,
            "events": [event.as_dict() for event in self.events],
        }


def describe_deployment(cluster: Cluster, deployment: Deployment, now: float) -> DeploymentDescription:
    """`kubectl describe deployment` at simulated time `now`, with this deployment's (this UID's)
    ReplicaSets and events."""
    meta, spec, status = deployment.metadata, deployment.spec, deployment.status
    owned = [
        rs
        for rs in cluster.objects(ReplicaSet)
        if rs.metadata.namespace == meta.namespace and controller_uid_is(rs, meta.uid)
    ]
    new = find_new_replica_set(deployment, owned)
    old = find_old_replica_sets(deployment, by_creation(owned))
    rolling = spec.rolling_update
    return DeploymentDescription(
        name=meta.name,
        namespace=meta.namespace,
        creation_timestamp=meta.creation_timestamp,
        labels=sorted_labels(meta.labels),
        annotations=described_annotations(meta.annotations),
        selector=selector_string(spec.selector),
        replicas=ReplicaCounts(
            desired=spec.replicas,
            updated=status.updated_replicas,
            total=status.replicas,
            available=status.available_replicas,
            unavailable=status.unavailable_replicas,
        ),
        strategy_type=spec.strategy_type,
        min_ready_seconds=spec.min_ready_seconds,
        # The API server keeps rollingUpdate for that strategy only (defaulted, validated).
        rolling_update=(
            f"{rolling.max_unavailable} max unavailable, {rolling.max_surge} max surge"
            if spec.strategy_type == ROLLING_UPDATE
            else None
        ),
        template=pod_template_description(spec.template),
        conditions=status.conditions,
        old_replica_sets=[_summary(rs) for rs in old],
        new_replica_set=_summary(new) if new is not None else None,
        at=now,
        events=described_events(cluster, "Deployment", meta.namespace, meta.name, meta.uid, now),
    )


def _summary(rs: ReplicaSet) -> ReplicaSetSummary:
    return ReplicaSetSummary(rs.metadata.name, rs.status.replicas, rs.spec.replicas)
