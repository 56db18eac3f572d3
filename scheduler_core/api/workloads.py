"""Workload, service, storage and policy objects: what the controllers reconcile.

Same conventions as api/types.py: frozen dataclasses, Kubernetes field names in snake_case,
defaults as the API server sets them (pkg/apis/apps/v1/defaults.go, batch/v1, autoscaling/v2...).
"""

from collections.abc import Mapping
from dataclasses import dataclass, field

from scheduler_core.api.types import (
    EMPTY,
    NO_RESOURCES,
    Condition,
    IntOrString,
    LabelSelector,
    NodeSelector,
    ObjectMeta,
    PodSpec,
    ResourceList,
)


@dataclass(frozen=True, slots=True)
class PodTemplateSpec:
    labels: Mapping[str, str] = EMPTY
    annotations: Mapping[str, str] = EMPTY
    spec: PodSpec = field(default_factory=PodSpec)


# ---------------------------------------------------------------------------- apps/v1


@dataclass(frozen=True, slots=True)
class RollingUpdateDeployment:
    max_surge: IntOrString = "25%"
    max_unavailable: IntOrString = "25%"


@dataclass(frozen=True, slots=True)
class DeploymentSpec:
    selector: LabelSelector
    template: PodTemplateSpec
    replicas: int = 1
    strategy_type: str = "RollingUpdate"  # or Recreate
    rolling_update: RollingUpdateDeployment = RollingUpdateDeployment()
    min_ready_seconds: int = 0
    revision_history_limit: int = 10
    paused: bool = False
    progress_deadline_seconds: int = 600


@dataclass(frozen=True, slots=True)
class DeploymentStatus:
    observed_generation: int = 0
    replicas: int = 0
    updated_replicas: int = 0
    ready_replicas: int = 0
    available_replicas: int = 0
    unavailable_replicas: int = 0
    conditions: tuple[Condition, ...] = ()  # Available, Progressing, ReplicaFailure
    collision_count: int | None = None  # bumped when a new ReplicaSet's name is taken


@dataclass(frozen=True, slots=True)
class Deployment:
    metadata: ObjectMeta
    spec: DeploymentSpec
    status: DeploymentStatus = DeploymentStatus()
    generation: int = 1
    kind = "Deployment"


@dataclass(frozen=True, slots=True)
class ReplicaSetSpec:
    selector: LabelSelector
    template: PodTemplateSpec
    replicas: int = 1
    min_ready_seconds: int = 0


@dataclass(frozen=True, slots=True)
class ReplicaSetStatus:
    replicas: int = 0
    fully_labeled_replicas: int = 0
    ready_replicas: int = 0
    available_replicas: int = 0
    observed_generation: int = 0
    conditions: tuple[Condition, ...] = ()  # ReplicaFailure, while creating or deleting pods fails


@dataclass(frozen=True, slots=True)
class ReplicaSet:
    metadata: ObjectMeta
    spec: ReplicaSetSpec
    status: ReplicaSetStatus = ReplicaSetStatus()
    generation: int = 1
    kind = "ReplicaSet"


@dataclass(frozen=True, slots=True)
class PersistentVolumeClaimSpec:
    access_modes: tuple[str, ...] = ()
    storage: int = 0  # resources.requests.storage, bytes
    storage_class_name: str | None = None
    volume_name: str = ""
    volume_mode: str = "Filesystem"


@dataclass(frozen=True, slots=True)
class PersistentVolumeClaimStatus:
    phase: str = "Pending"  # Pending, Bound, Lost
    capacity: int = 0


@dataclass(frozen=True, slots=True)
class PersistentVolumeClaim:
    metadata: ObjectMeta
    spec: PersistentVolumeClaimSpec = PersistentVolumeClaimSpec()
    status: PersistentVolumeClaimStatus = PersistentVolumeClaimStatus()
    kind = "PersistentVolumeClaim"


@dataclass(frozen=True, slots=True)
class StatefulSetSpec:
    selector: LabelSelector
    template: PodTemplateSpec
    replicas: int = 1
    service_name: str = ""
    pod_management_policy: str = "OrderedReady"  # or Parallel
    update_strategy_type: str = "RollingUpdate"  # or OnDelete
    partition: int = 0
    max_unavailable: IntOrString | None = None
    volume_claim_templates: tuple[PersistentVolumeClaim, ...] = ()
    min_ready_seconds: int = 0
    revision_history_limit: int = 10
    ordinals_start: int = 0
    when_deleted: str = "Retain"  # persistentVolumeClaimRetentionPolicy
    when_scaled: str = "Retain"


@dataclass(frozen=True, slots=True)
class StatefulSetStatus:
    observed_generation: int = 0  # the set's generation this status was computed for
    replicas: int = 0
    ready_replicas: int = 0
    current_replicas: int = 0
    updated_replicas: int = 0
    available_replicas: int = 0
    current_revision: str = ""
    update_revision: str = ""
    collision_count: int | None = None  # every status write sets it (0 included), as updateStatefulSet does


@dataclass(frozen=True, slots=True)
class StatefulSet:
    metadata: ObjectMeta
    spec: StatefulSetSpec
    status: StatefulSetStatus = StatefulSetStatus()
    generation: int = 1
    kind = "StatefulSet"


@dataclass(frozen=True, slots=True)
class DaemonSetSpec:
    selector: LabelSelector
    template: PodTemplateSpec
    update_strategy_type: str = "RollingUpdate"  # or OnDelete
    max_unavailable: IntOrString = 1
    max_surge: IntOrString = 0
    min_ready_seconds: int = 0
    revision_history_limit: int = 10


@dataclass(frozen=True, slots=True)
class DaemonSetStatus:
    desired_number_scheduled: int = 0
    current_number_scheduled: int = 0
    number_ready: int = 0
    number_available: int = 0
    updated_number_scheduled: int = 0
    number_misscheduled: int = 0
    number_unavailable: int = 0  # nodes that should run a pod and have none available
    observed_generation: int = 0


@dataclass(frozen=True, slots=True)
class DaemonSet:
    metadata: ObjectMeta
    spec: DaemonSetSpec
    status: DaemonSetStatus = DaemonSetStatus()
    generation: int = 1
    kind = "DaemonSet"


# ---------------------------------------------------------------------------- batch/v1


@dataclass(frozen=True, slots=True)
class JobSpec:
    template: PodTemplateSpec
    parallelism: int = 1
    completions: int | None = 1
    backoff_limit: int = 6
    active_deadline_seconds: int | None = None
    ttl_seconds_after_finished: int | None = None
    completion_mode: str = "NonIndexed"  # or Indexed
    suspend: bool = False
    selector: LabelSelector | None = None


@dataclass(frozen=True, slots=True)
class JobStatus:
    active: int = 0
    succeeded: int = 0
    failed: int = 0
    start_time: float | None = None
    completion_time: float | None = None
    conditions: tuple[Condition, ...] = ()  # Complete, Failed, SuccessCriteriaMet, FailureTarget, Suspended
    # Pointers upstream: every sync sets them (0 included), so only a Job never synced has none.
    ready: int | None = None  # active pods with Ready True
    terminating: int | None = None  # pods being deleted that have not finished (JobPodReplacementPolicy, GA)
    completed_indexes: str = ""  # Indexed Jobs: the succeeded indexes as intervals, "1,3-5,7"


@dataclass(frozen=True, slots=True)
class Job:
    metadata: ObjectMeta
    spec: JobSpec
    status: JobStatus = JobStatus()
    kind = "Job"


@dataclass(frozen=True, slots=True)
class CronJobSpec:
    schedule: str
    job_template: JobSpec
    job_labels: Mapping[str, str] = EMPTY
    job_annotations: Mapping[str, str] = EMPTY
    time_zone: str | None = None
    concurrency_policy: str = "Allow"  # Allow, Forbid, Replace
    suspend: bool = False
    starting_deadline_seconds: int | None = None
    successful_jobs_history_limit: int = 3
    failed_jobs_history_limit: int = 1


@dataclass(frozen=True, slots=True)
class JobReference:
    """An entry of a CronJob's status.active (an ObjectReference to a Job of its namespace)."""

    name: str
    uid: str = ""


@dataclass(frozen=True, slots=True)
class CronJobStatus:
    active: tuple[JobReference, ...] = ()  # the running Jobs, in the order they were started
    last_schedule_time: float | None = None
    last_successful_time: float | None = None


@dataclass(frozen=True, slots=True)
class CronJob:
    metadata: ObjectMeta
    spec: CronJobSpec
    status: CronJobStatus = CronJobStatus()
    kind = "CronJob"


# ---------------------------------------------------------------------------- autoscaling/v2


@dataclass(frozen=True, slots=True)
class HPAScalingPolicy:
    type: str  # Pods or Percent
    value: int
    period_seconds: int


@dataclass(frozen=True, slots=True)
class HPAScalingRules:
    stabilization_window_seconds: int | None = None
    select_policy: str = "Max"  # Max, Min, Disabled
    policies: tuple[HPAScalingPolicy, ...] = ()
    tolerance: float | None = None


@dataclass(frozen=True, slots=True)
class MetricTarget:
    resource: str  # cpu or memory
    target_type: str  # Utilization or AverageValue
    average_utilization: int | None = None
    average_value: int | None = None


@dataclass(frozen=True, slots=True)
class HorizontalPodAutoscalerSpec:
    target_kind: str
    target_name: str
    max_replicas: int
    min_replicas: int = 1
    metrics: tuple[MetricTarget, ...] = ()
    scale_up: HPAScalingRules | None = None
    scale_down: HPAScalingRules | None = None


@dataclass(frozen=True, slots=True)
class MetricStatus:
    """One entry of status.currentMetrics: what the last sync measured for a Resource metric of the
    spec, in its order. An empty resource is a metric that could not be computed (upstream leaves
    that entry zero: `type: ""`)."""

    resource: str = ""  # cpu or memory
    average_value: int | None = None  # millicores for cpu, bytes for memory
    average_utilization: int | None = None  # percent of the requests, for a Utilization target


@dataclass(frozen=True, slots=True)
class HorizontalPodAutoscalerStatus:
    current_replicas: int = 0
    desired_replicas: int = 0
    current_metrics: tuple[MetricStatus, ...] = ()
    last_scale_time: float | None = None
    conditions: tuple[Condition, ...] = ()  # AbleToScale, ScalingActive, ScalingLimited

    @property
    def current_utilization(self) -> int | None:
        """The first measured utilization, in percent (what `kubectl get hpa` shows first)."""
        return next((m.average_utilization for m in self.current_metrics if m.average_utilization is not None), None)


@dataclass(frozen=True, slots=True)
class HorizontalPodAutoscaler:
    metadata: ObjectMeta
    spec: HorizontalPodAutoscalerSpec
    status: HorizontalPodAutoscalerStatus = HorizontalPodAutoscalerStatus()
    kind = "HorizontalPodAutoscaler"


# ---------------------------------------------------------------------------- networking


@dataclass(frozen=True, slots=True)
class ServicePort:
    port: int
    target_port: IntOrString | None = None
    node_port: int | None = None
    protocol: str = "TCP"
    name: str = ""


@dataclass(frozen=True, slots=True)
class ServiceSpec:
    type: str = "ClusterIP"  # ClusterIP, NodePort, LoadBalancer, ExternalName
    selector: Mapping[str, str] | None = None
    ports: tuple[ServicePort, ...] = ()
    cluster_ip: str = ""  # "None" for a headless service
    session_affinity: str = "None"
    external_traffic_policy: str = "Cluster"


@dataclass(frozen=True, slots=True)
class Service:
    metadata: ObjectMeta
    spec: ServiceSpec = ServiceSpec()
    kind = "Service"

    @property
    def headless(self) -> bool:
        return self.spec.cluster_ip == "None"


@dataclass(frozen=True, slots=True)
class IngressPath:
    path: str
    path_type: str
    service_name: str
    service_port: IntOrString | None = None


@dataclass(frozen=True, slots=True)
class IngressRule:
    host: str = ""
    paths: tuple[IngressPath, ...] = ()


@dataclass(frozen=True, slots=True)
class IngressSpec:
    ingress_class_name: str = ""
    rules: tuple[IngressRule, ...] = ()
    default_backend_service: str = ""
    tls_hosts: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Ingress:
    metadata: ObjectMeta
    spec: IngressSpec = IngressSpec()
    kind = "Ingress"


# ---------------------------------------------------------------------------- storage


@dataclass(frozen=True, slots=True)
class PersistentVolumeSpec:
    storage: int = 0
    access_modes: tuple[str, ...] = ()
    storage_class_name: str = ""
    node_affinity: NodeSelector | None = None
    claim_ref: str = ""  # namespace/name of the bound claim
    reclaim_policy: str = "Retain"


@dataclass(frozen=True, slots=True)
class PersistentVolume:
    metadata: ObjectMeta
    spec: PersistentVolumeSpec = PersistentVolumeSpec()
    phase: str = "Available"  # Available, Bound, Released
    kind = "PersistentVolume"


@dataclass(frozen=True, slots=True)
class StorageClass:
    metadata: ObjectMeta
    provisioner: str = ""
    volume_binding_mode: str = "Immediate"  # or WaitForFirstConsumer
    reclaim_policy: str = "Delete"
    is_default: bool = False
    kind = "StorageClass"


# ---------------------------------------------------------------------------- policy


@dataclass(frozen=True, slots=True)
class LimitRangeItem:
    type: str  # Container, Pod, PersistentVolumeClaim
    default: ResourceList = NO_RESOURCES  # default limits
    default_request: ResourceList = NO_RESOURCES
    min: ResourceList = NO_RESOURCES
    max: ResourceList = NO_RESOURCES
    max_limit_request_ratio: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class LimitRange:
    metadata: ObjectMeta
    limits: tuple[LimitRangeItem, ...] = ()
    kind = "LimitRange"


@dataclass(frozen=True, slots=True)
class ResourceQuota:
    metadata: ObjectMeta
    hard: ResourceList = NO_RESOURCES  # cpu, requests.cpu, limits.memory, pods, count/deployments.apps...
    scopes: tuple[str, ...] = ()
    used: ResourceList = NO_RESOURCES
    kind = "ResourceQuota"


# The workloads with a scale subresource (spec.replicas), by kind: what an HPA scales and what a
# PodDisruptionBudget's percentages are counted against.
ScaleTarget = Deployment | ReplicaSet | StatefulSet
SCALE_TARGETS: dict[str, type[ScaleTarget]] = {
    "Deployment": Deployment,
    "ReplicaSet": ReplicaSet,
    "StatefulSet": StatefulSet,
}
