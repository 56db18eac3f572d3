"""Every object the store keeps, as the Kubernetes API shows it: apiVersion, kind, metadata, spec and
status with upstream's field names and order (k8s.io/api), so that kubectl, a linter or another
cluster can read what `simulate -o json` prints under "objects". The inverse of the parsers
(api/parse.py, api/parse_workloads.py): what they read, this writes back, and they read it again
to an equal object (tests/core/api/test_object_manifest.py names the few exceptions).

Conventions:

- Fields the API omits when empty (omitempty) are omitted; fields the API server defaults and the
  engine keeps are written (replicas, strategy, restartPolicy, schedulerName...). A field the
  engine does not keep is not invented (a container's lifecycle hooks, clusterIP, resourceVersion).
  A pod spec's and its containers' fields that nothing in the engine reads (probes' handlers,
  environment, mounts, volume sources, the service account...) are written by
  api/pod_details_manifest.py.
  Pointer fields a controller sets on every status write are written at 0 too (a Job's ready and
  terminating, a StatefulSet's collisionCount); docs/upstream/workload-status.md has the rules.
- Times are RFC 3339 in UTC (manifest_writer.format_timestamp): simulated second 0 is
  1970-01-01T00:00:00Z, and a time read from a manifest (Unix seconds) prints as it was written.
  (The CronJob controller's calendar starts at api/cron_schedule.SIMULATION_EPOCH, 2026-01-01,
  in the Job names and the scheduled-timestamp annotations it writes; these follow the parser.)
- Amounts are quantity strings as api/quantity.py formats them ("500m", "2", "512Mi").
- metadata.deletionTimestamp is the API's: the time the object goes away for good, the deletion's
  request plus its grace period (deletionGracePeriodSeconds). The engine keeps the request's time
  (ObjectMeta.deletion_timestamp, which the resource quota controller and the preemption dry run
  add the grace period to); parse.parse_metadata subtracts the grace period again.
- A Pod's status carries its conditions as the API shows them (api/pod_conditions.conditions_of),
  its QoS class, and its containers' states (api/container_states.py). A Node's, its conditions
  as its kubelet and the node lifecycle controller wrote them (api/node_conditions.node_conditions).
"""

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any, Protocol

from scheduler_core.api.container_states import container_states, init_container_states
from scheduler_core.api.manifest_writer import (
    format_timestamp,
    label_selector_manifest,
    node_selector_term_manifest,
    pod_affinity_term_manifest,
    spread_constraint_manifest,
    taint_manifest,
    toleration_manifest,
)
from scheduler_core.api.node_conditions import node_conditions
from scheduler_core.api.pod_conditions import conditions_of
from scheduler_core.api.pod_details_manifest import (
    container_environment,
    container_head,
    container_mounts,
    container_tail,
    host_fields,
    probe_manifest,
    service_account_fields,
    volume_manifest,
)
from scheduler_core.api.qos import qos_class
from scheduler_core.api.quantity import CPU_RESOURCES, format_decimal_si, format_milli_cpu, format_quantity
from scheduler_core.api.types import (
    Affinity,
    Condition,
    Container,
    ContainerPort,
    IntOrString,
    Namespace,
    Node,
    NodeAffinity,
    NodeCondition,
    NodeSelector,
    ObjectMeta,
    OwnerReference,
    Pod,
    PodAffinity,
    PodAffinityTerm,
    PodCondition,
    PodDisruptionBudget,
    PodSpec,
    PriorityClass,
    ResourceRequirements,
    Taint,
    TopologySpreadConstraint,
)
from scheduler_core.api.workloads import (
    CronJob,
    DaemonSet,
    Deployment,
    HorizontalPodAutoscaler,
    HPAScalingRules,
    Ingress,
    IngressPath,
    IngressRule,
    Job,
    JobReference,
    JobSpec,
    LimitRange,
    LimitRangeItem,
    MetricStatus,
    MetricTarget,
    PersistentVolume,
    PersistentVolumeClaim,
    PodTemplateSpec,
    ReplicaSet,
    ResourceQuota,
    Service,
    ServicePort,
    StatefulSet,
    StorageClass,
)

Manifest = dict[str, Any]

API_VERSIONS = {
    "Pod": "v1",
    "Node": "v1",
    "Namespace": "v1",
    "Service": "v1",
    "PersistentVolume": "v1",
    "PersistentVolumeClaim": "v1",
    "LimitRange": "v1",
    "ResourceQuota": "v1",
    "PriorityClass": "scheduling.k8s.io/v1",
    "PodDisruptionBudget": "policy/v1",
    "Deployment": "apps/v1",
    "ReplicaSet": "apps/v1",
    "StatefulSet": "apps/v1",
    "DaemonSet": "apps/v1",
    "Job": "batch/v1",
    "CronJob": "batch/v1",
    "HorizontalPodAutoscaler": "autoscaling/v2",
    "Ingress": "networking.k8s.io/v1",
    "StorageClass": "storage.k8s.io/v1",
}
CLUSTER_SCOPED = frozenset({"Node", "Namespace", "PriorityClass", "PersistentVolume", "StorageClass"})


class Stored(Protocol):
    @property
    def metadata(self) -> ObjectMeta: ...


def object_manifest(obj: Stored) -> Manifest:
    """The object as a manifest of its kind. TypeError for a class the store does not keep."""
    writer = _WRITERS.get(type(obj))
    if writer is None:
        raise TypeError(f"no manifest for {type(obj).__name__}")
    return writer(obj)


def objects_manifests(objects: Iterable[Stored]) -> list[Manifest]:
    """The objects' manifests ordered by kind, namespace and name."""
    return [object_manifest(obj) for obj in sorted(objects, key=_order)]


def _order(obj: Stored) -> tuple[str, str, str]:
    return (_kind(obj), obj.metadata.namespace, obj.metadata.name)


def _kind(obj: object) -> str:
    return str(getattr(type(obj), "kind", type(obj).__name__))


# ---------------------------------------------------------------------------- small writers


def _compact(fields: Mapping[str, Any]) -> Manifest:
    """The fields without the None ones: a caller passes None for what the API omits."""
    return {key: value for key, value in fields.items() if value is not None}


def _time(seconds: float | None) -> str | None:
    return None if seconds is None else format_timestamp(seconds)


def _strings(mapping: Mapping[str, str]) -> dict[str, str] | None:
    """A map of strings (labels, nodeSelector) in key order, as Go encodes maps; None when empty."""
    return dict(sorted(mapping.items())) or None


def _quantities(amounts: Mapping[str, int]) -> dict[str, str] | None:
    return {name: format_quantity(name, amount) for name, amount in sorted(amounts.items())} or None


def _decimal(value: float) -> str:
    """A fractional quantity (a ratio, a tolerance): millis when exact ("100m", "2"), else decimal."""
    exact = Fraction(repr(value))
    if (exact * 1000).denominator == 1:
        return format_milli_cpu(int(exact * 1000))
    return repr(value)


def _list(items: Iterable[Any]) -> list[Any] | None:
    return list(items) or None


# ---------------------------------------------------------------------------- metadata


def metadata_manifest(meta: ObjectMeta, kind: str, generation: int | None = None) -> Manifest:
    grace = meta.deletion_grace_period_seconds
    deletion = meta.deletion_timestamp
    return _compact(
        {
            "name": meta.name or None,
            "generateName": meta.generate_name or None,
            "namespace": None if kind in CLUSTER_SCOPED else meta.namespace or None,
            "uid": meta.uid or None,
            "generation": generation,
            "creationTimestamp": format_timestamp(meta.creation_timestamp),
            # The API's deletionTimestamp: when the grace period ends (see the module docstring).
            "deletionTimestamp": None if deletion is None else format_timestamp(deletion + (grace or 0)),
            "deletionGracePeriodSeconds": grace if deletion is not None else None,
            "labels": _strings(meta.labels),
            "annotations": _strings(meta.annotations),
            "ownerReferences": _list(_owner_reference(ref) for ref in meta.owner_references),
        }
    )


def _owner_reference(ref: OwnerReference) -> Manifest:
    return _compact(
        {
            "apiVersion": ref.api_version or API_VERSIONS.get(ref.kind),
            "kind": ref.kind,
            "name": ref.name,
            "uid": ref.uid or None,
            "controller": True if ref.controller else None,
            "blockOwnerDeletion": True if ref.controller else None,  # as metav1.NewControllerRef sets it
        }
    )


def _envelope(obj: Stored, generation: int | None = None, **parts: Any) -> Manifest:
    kind = _kind(obj)
    return {
        "apiVersion": API_VERSIONS[kind],
        "kind": kind,
        "metadata": metadata_manifest(obj.metadata, kind, generation),
        **_compact(parts),
    }


# ---------------------------------------------------------------------------- pods


def pod_spec_manifest(spec: PodSpec) -> Manifest:
    details = spec.details
    return _compact(
        {
            "volumes": _list(volume_manifest(volume) for volume in spec.volumes),
            "initContainers": _list(_container(container) for container in spec.init_containers),
            "containers": [_container(container) for container in spec.containers],
            "restartPolicy": spec.restart_policy,
            "terminationGracePeriodSeconds": spec.termination_grace_period_seconds,
            "dnsPolicy": details.dns_policy,
            "nodeSelector": _strings(spec.node_selector),
            **service_account_fields(details),
            "nodeName": spec.node_name or None,
            "hostNetwork": spec.host_network or None,
            **host_fields(details),
            "affinity": _affinity(spec.affinity),
            "schedulerName": spec.scheduler_name or None,
            "tolerations": _list(toleration_manifest(toleration) for toleration in spec.tolerations),
            "priorityClassName": spec.priority_class_name or None,
            "priority": spec.priority,
            "enableServiceLinks": details.enable_service_links,
            "preemptionPolicy": spec.preemption_policy,
            "overhead": _quantities(spec.overhead),
            "topologySpreadConstraints": _list(_spread(c) for c in spec.topology_spread_constraints),
            "schedulingGates": _list({"name": gate} for gate in spec.scheduling_gates),
            "resourceClaims": _list({"name": claim} for claim in spec.resource_claims),
            "resources": None if spec.resources is None else _requirements(spec.resources),
        }
    )


def _container(container: Container) -> Manifest:
    return _compact(
        {
            "name": container.name,
            "image": container.image or None,
            **container_head(container),
            "ports": _list(_port(port) for port in container.ports),
            **container_environment(container),
            "resources": _requirements(container.resources),
            "restartPolicy": container.restart_policy,
            "volumeMounts": container_mounts(container),
            "livenessProbe": probe_manifest(container.details.liveness_probe),
            "readinessProbe": probe_manifest(container.readiness_probe),
            **container_tail(container),
        }
    )


def _port(port: ContainerPort) -> Manifest:
    return _compact(
        {
            "name": port.name or None,
            "hostPort": port.host_port or None,
            "containerPort": port.container_port,
            "protocol": port.protocol,
            "hostIP": port.host_ip or None,
        }
    )


def _requirements(resources: ResourceRequirements) -> Manifest:
    return _compact({"limits": _quantities(resources.limits), "requests": _quantities(resources.requests)})


def _spread(constraint: TopologySpreadConstraint) -> Manifest:
    return {
        **spread_constraint_manifest(constraint),
        **_compact(
            {
                "minDomains": constraint.min_domains,
                "nodeAffinityPolicy": constraint.node_affinity_policy,
                "nodeTaintsPolicy": constraint.node_taints_policy,
                "matchLabelKeys": _list(constraint.match_label_keys),
            }
        ),
    }


def _affinity(affinity: Affinity | None) -> Manifest | None:
    if affinity is None:
        return None
    return _compact(
        {
            "nodeAffinity": _node_affinity(affinity.node_affinity),
            "podAffinity": _pod_affinity(affinity.pod_affinity),
            "podAntiAffinity": _pod_affinity(affinity.pod_anti_affinity),
        }
    )


REQUIRED = "requiredDuringSchedulingIgnoredDuringExecution"
PREFERRED = "preferredDuringSchedulingIgnoredDuringExecution"


def _node_selector(selector: NodeSelector) -> Manifest:
    return {"nodeSelectorTerms": [node_selector_term_manifest(term) for term in selector.node_selector_terms]}


def _node_affinity(affinity: NodeAffinity | None) -> Manifest | None:
    if affinity is None:
        return None
    preferred = (
        {"weight": p.weight, "preference": node_selector_term_manifest(p.preference)} for p in affinity.preferred
    )
    return _compact(
        {
            REQUIRED: None if affinity.required is None else _node_selector(affinity.required),
            PREFERRED: _list(preferred),
        }
    )


def _pod_affinity(affinity: PodAffinity | None) -> Manifest | None:
    if affinity is None:
        return None
    preferred = (
        {"weight": p.weight, "podAffinityTerm": _affinity_term(p.pod_affinity_term)} for p in affinity.preferred
    )
    return _compact({REQUIRED: _list(_affinity_term(t) for t in affinity.required), PREFERRED: _list(preferred)})


def _affinity_term(term: PodAffinityTerm) -> Manifest:
    return {
        **pod_affinity_term_manifest(term),
        **_compact(
            {
                "namespaceSelector": label_selector_manifest(term.namespace_selector),
                "matchLabelKeys": _list(term.match_label_keys),
                "mismatchLabelKeys": _list(term.mismatch_label_keys),
            }
        ),
    }


def _pod_condition(condition: PodCondition) -> Manifest:
    return _compact(
        {
            "type": condition.type,
            "status": condition.status,
            "lastTransitionTime": _time(condition.last_transition_time),
            "reason": condition.reason or None,
            "message": condition.message or None,
        }
    )


def pod_status_manifest(pod: Pod) -> Manifest:
    status = pod.status
    return _compact(
        {
            "phase": status.phase,
            "conditions": _list(_pod_condition(condition) for condition in conditions_of(pod)),
            "message": status.message or None,
            "reason": status.reason or None,
            "nominatedNodeName": status.nominated_node_name or None,
            "startTime": _time(status.start_time),
            "initContainerStatuses": _list(state.as_manifest() for state in init_container_states(pod)),
            "containerStatuses": _list(state.as_manifest() for state in container_states(pod)),
            "qosClass": qos_class(pod),
        }
    )


def _pod(pod: Pod) -> Manifest:
    return _envelope(pod, spec=pod_spec_manifest(pod.spec), status=pod_status_manifest(pod))


def _template(template: PodTemplateSpec) -> Manifest:
    metadata = _compact({"labels": _strings(template.labels), "annotations": _strings(template.annotations)})
    return {"metadata": metadata, "spec": pod_spec_manifest(template.spec)}


# ---------------------------------------------------------------------------- nodes and policy


def _taint(taint: Taint) -> Manifest:
    return _compact({**taint_manifest(taint), "timeAdded": _time(taint.time_added)})


def _node_condition(condition: NodeCondition) -> Manifest:
    return _compact(
        {
            "type": condition.type,
            "status": condition.status,
            "lastHeartbeatTime": _time(condition.last_heartbeat_time),
            "lastTransitionTime": _time(condition.last_transition_time),
            "reason": condition.reason or None,
            "message": condition.message or None,
        }
    )


def _node(node: Node) -> Manifest:
    images = (
        _compact({"names": list(image.names), "sizeBytes": image.size_bytes or None}) for image in node.status.images
    )
    return _envelope(
        node,
        spec=_compact(
            {
                "unschedulable": node.spec.unschedulable or None,
                "taints": _list(_taint(taint) for taint in node.spec.taints),
            }
        ),
        status=_compact(
            {
                "capacity": _quantities(node.status.capacity),
                "allocatable": _quantities(node.status.allocatable),
                "conditions": [_node_condition(condition) for condition in node_conditions(node)],
                "images": _list(images),
            }
        ),
    )


def _namespace(namespace: Namespace) -> Manifest:
    phase = "Active" if namespace.metadata.deletion_timestamp is None else "Terminating"
    return _envelope(namespace, spec={"finalizers": ["kubernetes"]}, status={"phase": phase})


def _priority_class(priority_class: PriorityClass) -> Manifest:
    return _envelope(
        priority_class,
        value=priority_class.value,
        globalDefault=priority_class.global_default or None,
        description=priority_class.description or None,
        preemptionPolicy=priority_class.preemption_policy,
    )


def _meta_condition(condition: Condition) -> Manifest:
    """A metav1.Condition: reason and message are always there."""
    return _compact(
        {
            "type": condition.type,
            "status": condition.status,
            "observedGeneration": condition.observed_generation or None,
            "lastTransitionTime": _time(condition.last_transition_time),
            "reason": condition.reason,
            "message": condition.message,
        }
    )


def _pod_disruption_budget(pdb: PodDisruptionBudget) -> Manifest:
    spec, status = pdb.spec, pdb.status
    disrupted = {name: format_timestamp(time) for name, time in sorted(status.disrupted_pods.items())}
    return _envelope(
        pdb,
        pdb.generation,
        spec=_compact(
            {
                "minAvailable": spec.min_available,
                "selector": label_selector_manifest(spec.selector),
                "maxUnavailable": spec.max_unavailable,
            }
        ),
        status=_compact(
            {
                "observedGeneration": status.observed_generation or None,
                "disruptedPods": disrupted or None,
                "disruptionsAllowed": status.disruptions_allowed,
                "currentHealthy": status.current_healthy,
                "desiredHealthy": status.desired_healthy,
                "expectedPods": status.expected_pods,
                "conditions": _list(_meta_condition(condition) for condition in status.conditions),
            }
        ),
    )


# ---------------------------------------------------------------------------- apps/v1


def _workload_condition(condition: Condition, *, probe_time: bool = False) -> Manifest:
    """A Deployment's (with lastUpdateTime), a Job's (lastProbeTime) or an HPA's condition."""
    return _compact(
        {
            "type": condition.type,
            "status": condition.status,
            "lastProbeTime": _time(condition.last_transition_time) if probe_time else None,
            "lastUpdateTime": _time(condition.last_update_time),
            "lastTransitionTime": _time(condition.last_transition_time),
            "reason": condition.reason or None,
            "message": condition.message or None,
        }
    )


def _conditions(conditions: tuple[Condition, ...], *, probe_time: bool = False) -> list[Manifest] | None:
    return _list(_workload_condition(condition, probe_time=probe_time) for condition in conditions)


def _deployment(deployment: Deployment) -> Manifest:
    spec, status = deployment.spec, deployment.status
    strategy: Manifest = {"type": spec.strategy_type}
    if spec.strategy_type == "RollingUpdate":
        rolling = spec.rolling_update
        strategy["rollingUpdate"] = {"maxUnavailable": rolling.max_unavailable, "maxSurge": rolling.max_surge}
    return _envelope(
        deployment,
        deployment.generation,
        spec=_compact(
            {
                "replicas": spec.replicas,
                "selector": label_selector_manifest(spec.selector),
                "template": _template(spec.template),
                "strategy": strategy,
                "minReadySeconds": spec.min_ready_seconds or None,
                "revisionHistoryLimit": spec.revision_history_limit,
                "paused": spec.paused or None,
                "progressDeadlineSeconds": spec.progress_deadline_seconds,
            }
        ),
        status=_compact(
            {
                "observedGeneration": status.observed_generation or None,
                "replicas": status.replicas or None,
                "updatedReplicas": status.updated_replicas or None,
                "readyReplicas": status.ready_replicas or None,
                "availableReplicas": status.available_replicas or None,
                "unavailableReplicas": status.unavailable_replicas or None,
                "conditions": _conditions(status.conditions),
                "collisionCount": status.collision_count,
            }
        ),
    )


def _replica_set(replica_set: ReplicaSet) -> Manifest:
    spec, status = replica_set.spec, replica_set.status
    return _envelope(
        replica_set,
        replica_set.generation,
        spec=_compact(
            {
                "replicas": spec.replicas,
                "minReadySeconds": spec.min_ready_seconds or None,
                "selector": label_selector_manifest(spec.selector),
                "template": _template(spec.template),
            }
        ),
        status=_compact(
            {
                "replicas": status.replicas,
                "fullyLabeledReplicas": status.fully_labeled_replicas or None,
                "readyReplicas": status.ready_replicas or None,
                "availableReplicas": status.available_replicas or None,
                "observedGeneration": status.observed_generation or None,
                "conditions": _conditions(status.conditions),
            }
        ),
    )


def _claim_template(claim: PersistentVolumeClaim) -> Manifest:
    metadata = _compact(
        {
            "name": claim.metadata.name,
            "labels": _strings(claim.metadata.labels),
            "annotations": _strings(claim.metadata.annotations),
        }
    )
    return {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": metadata, "spec": _claim_spec(claim)}


def _stateful_set(stateful_set: StatefulSet) -> Manifest:
    spec, status = stateful_set.spec, stateful_set.status
    strategy: Manifest = {"type": spec.update_strategy_type}
    if spec.update_strategy_type == "RollingUpdate":
        strategy["rollingUpdate"] = _compact({"partition": spec.partition, "maxUnavailable": spec.max_unavailable})
    return _envelope(
        stateful_set,
        stateful_set.generation,
        spec=_compact(
            {
                "replicas": spec.replicas,
                "selector": label_selector_manifest(spec.selector),
                "template": _template(spec.template),
                "volumeClaimTemplates": _list(_claim_template(claim) for claim in spec.volume_claim_templates),
                "serviceName": spec.service_name or None,
                "podManagementPolicy": spec.pod_management_policy,
                "updateStrategy": strategy,
                "revisionHistoryLimit": spec.revision_history_limit,
                "minReadySeconds": spec.min_ready_seconds or None,
                "persistentVolumeClaimRetentionPolicy": {
                    "whenDeleted": spec.when_deleted,
                    "whenScaled": spec.when_scaled,
                },
                "ordinals": {"start": spec.ordinals_start} if spec.ordinals_start else None,
            }
        ),
        status=_compact(
            {
                "observedGeneration": status.observed_generation or None,
                "replicas": status.replicas,
                "readyReplicas": status.ready_replicas or None,
                "currentReplicas": status.current_replicas or None,
                "updatedReplicas": status.updated_replicas or None,
                "currentRevision": status.current_revision or None,
                "updateRevision": status.update_revision or None,
                "collisionCount": status.collision_count,
                "availableReplicas": status.available_replicas,
            }
        ),
    )


def _daemon_set(daemon_set: DaemonSet) -> Manifest:
    spec, status = daemon_set.spec, daemon_set.status
    strategy: Manifest = {"type": spec.update_strategy_type}
    if spec.update_strategy_type == "RollingUpdate":
        strategy["rollingUpdate"] = {"maxUnavailable": spec.max_unavailable, "maxSurge": spec.max_surge}
    return _envelope(
        daemon_set,
        daemon_set.generation,
        spec=_compact(
            {
                "selector": label_selector_manifest(spec.selector),
                "template": _template(spec.template),
                "updateStrategy": strategy,
                "minReadySeconds": spec.min_ready_seconds or None,
                "revisionHistoryLimit": spec.revision_history_limit,
            }
        ),
        status=_compact(
            {
                "currentNumberScheduled": status.current_number_scheduled,
                "numberMisscheduled": status.number_misscheduled,
                "desiredNumberScheduled": status.desired_number_scheduled,
                "numberReady": status.number_ready,
                "observedGeneration": status.observed_generation or None,
                "updatedNumberScheduled": status.updated_number_scheduled or None,
                "numberAvailable": status.number_available or None,
                "numberUnavailable": status.number_unavailable or None,
            }
        ),
    )


# ---------------------------------------------------------------------------- batch/v1


def _job_spec(spec: JobSpec) -> Manifest:
    return _compact(
        {
            "parallelism": spec.parallelism,
            "completions": spec.completions,
            "activeDeadlineSeconds": spec.active_deadline_seconds,
            "backoffLimit": spec.backoff_limit,
            "selector": label_selector_manifest(spec.selector),
            "template": _template(spec.template),
            "ttlSecondsAfterFinished": spec.ttl_seconds_after_finished,
            "completionMode": spec.completion_mode,
            "suspend": spec.suspend,
        }
    )


def _job(job: Job) -> Manifest:
    status = job.status
    return _envelope(
        job,
        spec=_job_spec(job.spec),
        status=_compact(
            {
                "conditions": _conditions(status.conditions, probe_time=True),
                "startTime": _time(status.start_time),
                "completionTime": _time(status.completion_time),
                "active": status.active or None,
                "succeeded": status.succeeded or None,
                "failed": status.failed or None,
                "terminating": status.terminating,
                "completedIndexes": status.completed_indexes or None,
                "ready": status.ready,
            }
        ),
    )


def _job_reference(namespace: str, ref: JobReference) -> Manifest:
    """An ObjectReference as getRef makes it (no resourceVersion: the engine keeps none)."""
    return _compact(
        {"kind": "Job", "namespace": namespace, "name": ref.name, "uid": ref.uid or None, "apiVersion": "batch/v1"}
    )


def _cron_job(cron_job: CronJob) -> Manifest:
    spec, status = cron_job.spec, cron_job.status
    namespace = cron_job.metadata.namespace
    template_metadata = _compact({"labels": _strings(spec.job_labels), "annotations": _strings(spec.job_annotations)})
    active = (_job_reference(namespace, ref) for ref in status.active)
    return _envelope(
        cron_job,
        spec=_compact(
            {
                "schedule": spec.schedule,
                "timeZone": spec.time_zone,
                "startingDeadlineSeconds": spec.starting_deadline_seconds,
                "concurrencyPolicy": spec.concurrency_policy,
                "suspend": spec.suspend,
                "jobTemplate": {"metadata": template_metadata, "spec": _job_spec(spec.job_template)},
                "successfulJobsHistoryLimit": spec.successful_jobs_history_limit,
                "failedJobsHistoryLimit": spec.failed_jobs_history_limit,
            }
        ),
        status=_compact(
            {
                "active": _list(active),
                "lastScheduleTime": _time(status.last_schedule_time),
                "lastSuccessfulTime": _time(status.last_successful_time),
            }
        ),
    )


# ---------------------------------------------------------------------------- autoscaling/v2


def _metric(metric: MetricTarget) -> Manifest:
    value = None
    if metric.average_value is not None:
        value = format_quantity(metric.resource, metric.average_value)
    target = _compact(
        {"type": metric.target_type, "averageValue": value, "averageUtilization": metric.average_utilization}
    )
    return {"type": "Resource", "resource": {"name": metric.resource, "target": target}}


def _scaling_rules(rules: HPAScalingRules | None) -> Manifest | None:
    if rules is None:
        return None
    policies = ({"type": p.type, "value": p.value, "periodSeconds": p.period_seconds} for p in rules.policies)
    return _compact(
        {
            "stabilizationWindowSeconds": rules.stabilization_window_seconds,
            "selectPolicy": rules.select_policy,
            "policies": _list(policies),
            "tolerance": None if rules.tolerance is None else _decimal(rules.tolerance),
        }
    )


def _metric_amount(resource: str, amount: int) -> str:
    """An average usage as the controller writes it: resource.NewMilliQuantity(..., DecimalSI)."""
    return format_milli_cpu(amount) if resource in CPU_RESOURCES else format_decimal_si(amount)


def _metric_status(metric: MetricStatus) -> Manifest:
    """An autoscaling/v2 MetricStatus; a metric that failed is upstream's zero value, `type: ""`."""
    if not metric.resource:
        return {"type": ""}
    value = None if metric.average_value is None else _metric_amount(metric.resource, metric.average_value)
    current = _compact({"averageValue": value, "averageUtilization": metric.average_utilization})
    return {"type": "Resource", "resource": {"name": metric.resource, "current": current}}


def _hpa(hpa: HorizontalPodAutoscaler) -> Manifest:
    spec, status = hpa.spec, hpa.status
    behavior = _compact({"scaleUp": _scaling_rules(spec.scale_up), "scaleDown": _scaling_rules(spec.scale_down)})
    target_version = API_VERSIONS[spec.target_kind]
    return _envelope(
        hpa,
        spec=_compact(
            {
                "scaleTargetRef": {"kind": spec.target_kind, "name": spec.target_name, "apiVersion": target_version},
                "minReplicas": spec.min_replicas,
                "maxReplicas": spec.max_replicas,
                "metrics": [_metric(metric) for metric in spec.metrics],
                "behavior": behavior or None,
            }
        ),
        status=_compact(
            {
                "lastScaleTime": _time(status.last_scale_time),
                "currentReplicas": status.current_replicas or None,
                "desiredReplicas": status.desired_replicas,
                "currentMetrics": _list(_metric_status(metric) for metric in status.current_metrics),
                "conditions": _conditions(status.conditions),
            }
        ),
    )


# ---------------------------------------------------------------------------- networking


def _service_port(port: ServicePort) -> Manifest:
    return _compact(
        {
            "name": port.name or None,
            "protocol": port.protocol,
            "port": port.port,
            "targetPort": port.target_port,
            "nodePort": port.node_port,
        }
    )


def _service(service: Service) -> Manifest:
    spec = service.spec
    external = spec.type in ("NodePort", "LoadBalancer") or spec.external_traffic_policy != "Cluster"
    return _envelope(
        service,
        spec=_compact(
            {
                "ports": _list(_service_port(port) for port in spec.ports),
                "selector": None if spec.selector is None else dict(sorted(spec.selector.items())),
                "clusterIP": spec.cluster_ip or None,
                "type": spec.type,
                "sessionAffinity": spec.session_affinity,
                "externalTrafficPolicy": spec.external_traffic_policy if external else None,
            }
        ),
        status={"loadBalancer": {}},
    )


def _backend(service: str, port: IntOrString | None) -> Manifest:
    number_or_name = None if port is None else {"number" if isinstance(port, int) else "name": port}
    return {"service": _compact({"name": service, "port": number_or_name})}


def _ingress_path(path: IngressPath) -> Manifest:
    return {"path": path.path, "pathType": path.path_type, "backend": _backend(path.service_name, path.service_port)}


def _ingress_rule(rule: IngressRule) -> Manifest:
    http = {"paths": [_ingress_path(path) for path in rule.paths]} if rule.paths else None
    return _compact({"host": rule.host or None, "http": http})


def _ingress(ingress: Ingress) -> Manifest:
    spec = ingress.spec
    default = _backend(spec.default_backend_service, None) if spec.default_backend_service else None
    return _envelope(
        ingress,
        spec=_compact(
            {
                "ingressClassName": spec.ingress_class_name or None,
                "defaultBackend": default,
                "tls": [{"hosts": list(spec.tls_hosts)}] if spec.tls_hosts else None,
                "rules": _list(_ingress_rule(rule) for rule in spec.rules),
            }
        ),
        status={"loadBalancer": {}},
    )


# ---------------------------------------------------------------------------- storage


def _storage(amount: int) -> dict[str, str] | None:
    return {"storage": format_quantity("storage", amount)} if amount else None


def _claim_spec(claim: PersistentVolumeClaim) -> Manifest:
    spec = claim.spec
    storage = _storage(spec.storage)
    return _compact(
        {
            "accessModes": _list(spec.access_modes),
            "resources": None if storage is None else {"requests": storage},
            "volumeName": spec.volume_name or None,
            "storageClassName": spec.storage_class_name,
            "volumeMode": spec.volume_mode,
        }
    )


def _persistent_volume_claim(claim: PersistentVolumeClaim) -> Manifest:
    status = _compact({"phase": claim.status.phase, "capacity": _storage(claim.status.capacity)})
    return _envelope(claim, spec=_claim_spec(claim), status=status)


def _persistent_volume(volume: PersistentVolume) -> Manifest:
    spec = volume.spec
    claim_ref = None
    if spec.claim_ref:
        namespace, _, name = spec.claim_ref.partition("/")
        claim_ref = {"kind": "PersistentVolumeClaim", "namespace": namespace, "name": name, "apiVersion": "v1"}
    affinity = None if spec.node_affinity is None else {"required": _node_selector(spec.node_affinity)}
    return _envelope(
        volume,
        spec=_compact(
            {
                "capacity": _storage(spec.storage),
                "accessModes": _list(spec.access_modes),
                "claimRef": claim_ref,
                "persistentVolumeReclaimPolicy": spec.reclaim_policy,
                "storageClassName": spec.storage_class_name or None,
                "nodeAffinity": affinity,
            }
        ),
        status={"phase": volume.phase},
    )


def _storage_class(storage_class: StorageClass) -> Manifest:
    return _envelope(
        storage_class,
        provisioner=storage_class.provisioner,
        reclaimPolicy=storage_class.reclaim_policy,
        volumeBindingMode=storage_class.volume_binding_mode,
    )


# ---------------------------------------------------------------------------- policy


def _limit(item: LimitRangeItem) -> Manifest:
    ratios = {name: _decimal(ratio) for name, ratio in sorted(item.max_limit_request_ratio.items())}
    return _compact(
        {
            "type": item.type,
            "max": _quantities(item.max),
            "min": _quantities(item.min),
            "default": _quantities(item.default),
            "defaultRequest": _quantities(item.default_request),
            "maxLimitRequestRatio": ratios or None,
        }
    )


def _limit_range(limit_range: LimitRange) -> Manifest:
    return _envelope(limit_range, spec={"limits": [_limit(item) for item in limit_range.limits]})


def _resource_quota(quota: ResourceQuota) -> Manifest:
    return _envelope(
        quota,
        spec=_compact({"hard": _quantities(quota.hard), "scopes": _list(quota.scopes)}),
        status=_compact({"hard": _quantities(quota.hard), "used": _quantities(quota.used)}),
    )


_WRITERS: dict[type, Callable[[Any], Manifest]] = {
    Pod: _pod,
    Node: _node,
    Namespace: _namespace,
    PriorityClass: _priority_class,
    PodDisruptionBudget: _pod_disruption_budget,
    Deployment: _deployment,
    ReplicaSet: _replica_set,
    StatefulSet: _stateful_set,
    DaemonSet: _daemon_set,
    Job: _job,
    CronJob: _cron_job,
    HorizontalPodAutoscaler: _hpa,
    Service: _service,
    Ingress: _ingress,
    PersistentVolume: _persistent_volume,
    PersistentVolumeClaim: _persistent_volume_claim,
    StorageClass: _storage_class,
    LimitRange: _limit_range,
    ResourceQuota: _resource_quota,
}
