"""Manifests of workloads, services, storage and policy objects to engine objects.

The API server's defaults are applied (replicas 1, maxSurge/maxUnavailable 25%, backoffLimit 6...)
and its main validation rules enforced (a selector must match its template's labels; a Job's pods
must not restart Always), so a scenario that would not apply to a cluster is refused here too.
"""

from scheduler_core.api import quantity
from scheduler_core.api.cron_schedule import CronScheduleError, validate_schedule
from scheduler_core.api.errors import QuantityError
from scheduler_core.api.fields import Fields
from scheduler_core.api.parse import (
    META_FIELDS,
    parse_label_selector,
    parse_labels,
    parse_metadata,
    parse_node_selector_term,
    parse_pod_spec,
)
from scheduler_core.api.selectors import label_selector_matches
from scheduler_core.api.types import LabelSelector, NodeSelector
from scheduler_core.api.workloads import (
    CronJob,
    CronJobSpec,
    DaemonSet,
    DaemonSetSpec,
    Deployment,
    DeploymentSpec,
    HorizontalPodAutoscaler,
    HorizontalPodAutoscalerSpec,
    HPAScalingPolicy,
    HPAScalingRules,
    Ingress,
    IngressPath,
    IngressRule,
    IngressSpec,
    Job,
    JobSpec,
    LimitRange,
    LimitRangeItem,
    MetricTarget,
    PersistentVolume,
    PersistentVolumeClaim,
    PersistentVolumeClaimSpec,
    PersistentVolumeSpec,
    PodTemplateSpec,
    ReplicaSet,
    ReplicaSetSpec,
    ResourceQuota,
    RollingUpdateDeployment,
    Service,
    ServicePort,
    ServiceSpec,
    StatefulSet,
    StatefulSetSpec,
    StorageClass,
)

TOP_LEVEL = frozenset({"apiVersion", "kind", "metadata", "spec", "status"})
DEFAULT_STORAGE_CLASS_ANNOTATION = "storageclass.kubernetes.io/is-default-class"


def parse_pod_template(parent: Fields, key: str = "template") -> PodTemplateSpec:
    template = parent.object(key)
    if template is None:
        raise parent.error(key, "Required value")
    template.reject_unknown({"metadata", "spec"})
    metadata = template.object("metadata")
    labels: dict[str, str] = {}
    annotations: dict[str, str] = {}
    if metadata is not None:
        metadata.reject_unknown(META_FIELDS)
        labels = parse_labels(metadata, "labels")
        annotations = metadata.string_map("annotations")
    return PodTemplateSpec(labels=labels, annotations=annotations, spec=parse_pod_spec(template))


def _selector_for_template(spec: Fields, template: PodTemplateSpec, *, required: bool = True) -> LabelSelector:
    selector = parse_label_selector(spec.object("selector"))
    if selector is None:
        if required:
            raise spec.error("selector", "Required value")
        return LabelSelector(template.labels)
    if selector.is_empty:
        raise spec.error("selector", "Invalid value: empty selector is invalid for deployment")
    if not label_selector_matches(selector, template.labels):
        raise spec.error("selector", "Invalid value: `selector` does not match template `labels`")
    return selector


def _replicas(spec: Fields, go_struct: str, default: int = 1) -> int:
    replicas = spec.int32("replicas", go_struct, default, minimum=0)
    assert replicas is not None
    return replicas


def _spec(fields: Fields, known: set[str] | frozenset[str]) -> Fields:
    fields.reject_unknown(TOP_LEVEL)
    spec = fields.object("spec")
    if spec is None:
        raise fields.error("spec", "Required value")
    spec.reject_unknown(known)
    return spec


# ---------------------------------------------------------------------------- apps/v1


def parse_deployment(fields: Fields) -> Deployment:
    spec = _spec(
        fields,
        {
            "replicas", "selector", "template", "strategy", "minReadySeconds", "revisionHistoryLimit",
            "paused", "progressDeadlineSeconds",
        },
    )  # fmt: skip
    template = parse_pod_template(spec)
    _template_restart_always(spec, template)
    strategy_type = "RollingUpdate"
    rolling = RollingUpdateDeployment()
    strategy = spec.object("strategy")
    if strategy is not None:
        strategy.reject_unknown({"type", "rollingUpdate"})
        strategy_type = (
            strategy.one_of("type", ("RollingUpdate", "Recreate"), default="RollingUpdate") or "RollingUpdate"
        )
        rolling_fields = strategy.object("rollingUpdate")
        if rolling_fields is not None:
            if strategy_type == "Recreate":
                raise strategy.error(
                    "rollingUpdate", "Forbidden: may not be specified when strategy `type` is 'Recreate'"
                )
            rolling_fields.reject_unknown({"maxSurge", "maxUnavailable"})
            surge = rolling_fields.int_or_string("maxSurge", "RollingUpdateDeployment")
            unavailable = rolling_fields.int_or_string("maxUnavailable", "RollingUpdateDeployment")
            rolling = RollingUpdateDeployment(
                max_surge="25%" if surge is None else surge,
                max_unavailable="25%" if unavailable is None else unavailable,
            )
            if _is_zero(rolling.max_surge) and _is_zero(rolling.max_unavailable):
                raise rolling_fields.error("maxUnavailable", "Invalid value: may not be 0 when `maxSurge` is 0")
    return Deployment(
        metadata=parse_metadata(fields, namespaced=True),
        spec=DeploymentSpec(
            selector=_selector_for_template(spec, template),
            template=template,
            replicas=_replicas(spec, "DeploymentSpec"),
            strategy_type=strategy_type,
            rolling_update=rolling,
            min_ready_seconds=spec.int32("minReadySeconds", "DeploymentSpec", 0, minimum=0) or 0,
            revision_history_limit=_or(spec.int32("revisionHistoryLimit", "DeploymentSpec", None, minimum=0), 10),
            paused=spec.boolean("paused"),
            progress_deadline_seconds=spec.int32("progressDeadlineSeconds", "DeploymentSpec", 600, minimum=1) or 600,
        ),
    )


def _or(value: int | None, default: int) -> int:
    return default if value is None else value


def _is_zero(value: int | str) -> bool:
    return value == 0 or value == "0%"


def _template_restart_always(spec: Fields, template: PodTemplateSpec) -> None:
    if template.spec.restart_policy != "Always":
        raise spec.error(
            "template",
            f'Unsupported value: "{template.spec.restart_policy}": supported values: "Always"'
            " (spec.template.spec.restartPolicy)",
        )


def parse_replica_set(fields: Fields) -> ReplicaSet:
    spec = _spec(fields, {"replicas", "selector", "template", "minReadySeconds"})
    template = parse_pod_template(spec)
    _template_restart_always(spec, template)
    return ReplicaSet(
        metadata=parse_metadata(fields, namespaced=True),
        spec=ReplicaSetSpec(
            selector=_selector_for_template(spec, template),
            template=template,
            replicas=_replicas(spec, "ReplicaSetSpec"),
            min_ready_seconds=spec.int32("minReadySeconds", "ReplicaSetSpec", 0, minimum=0) or 0,
        ),
    )


def parse_stateful_set(fields: Fields) -> StatefulSet:
    spec = _spec(
        fields,
        {
            "replicas", "selector", "template", "serviceName", "podManagementPolicy", "updateStrategy",
            "volumeClaimTemplates", "minReadySeconds", "revisionHistoryLimit", "ordinals",
            "persistentVolumeClaimRetentionPolicy",
        },
    )  # fmt: skip
    template = parse_pod_template(spec)
    _template_restart_always(spec, template)
    update_type, partition, max_unavailable = "RollingUpdate", 0, None
    strategy = spec.object("updateStrategy")
    if strategy is not None:
        strategy.reject_unknown({"type", "rollingUpdate"})
        update_type = strategy.one_of("type", ("RollingUpdate", "OnDelete"), default="RollingUpdate") or "RollingUpdate"
        rolling = strategy.object("rollingUpdate")
        if rolling is not None:
            rolling.reject_unknown({"partition", "maxUnavailable"})
            partition = rolling.int32("partition", "RollingUpdateStatefulSetStrategy", 0, minimum=0) or 0
            max_unavailable = rolling.int_or_string("maxUnavailable", "RollingUpdateStatefulSetStrategy")
    claims = tuple(_claim_template(item) for item in spec.objects("volumeClaimTemplates"))
    ordinals = spec.object("ordinals")
    retention = spec.object("persistentVolumeClaimRetentionPolicy")
    when_deleted = when_scaled = "Retain"
    if retention is not None:
        retention.reject_unknown({"whenDeleted", "whenScaled"})
        when_deleted = retention.one_of("whenDeleted", ("Retain", "Delete"), default="Retain") or "Retain"
        when_scaled = retention.one_of("whenScaled", ("Retain", "Delete"), default="Retain") or "Retain"
    return StatefulSet(
        metadata=parse_metadata(fields, namespaced=True),
        spec=StatefulSetSpec(
            selector=_selector_for_template(spec, template),
            template=template,
            replicas=_replicas(spec, "StatefulSetSpec"),
            service_name=spec.string("serviceName"),
            pod_management_policy=spec.one_of(
                "podManagementPolicy", ("OrderedReady", "Parallel"), default="OrderedReady"
            )
            or "OrderedReady",
            update_strategy_type=update_type,
            partition=partition,
            max_unavailable=max_unavailable,
            volume_claim_templates=claims,
            min_ready_seconds=spec.int32("minReadySeconds", "StatefulSetSpec", 0, minimum=0) or 0,
            revision_history_limit=_or(spec.int32("revisionHistoryLimit", "StatefulSetSpec", None, minimum=0), 10),
            ordinals_start=(ordinals.int32("start", "StatefulSetOrdinals", 0, minimum=0) or 0)
            if ordinals is not None
            else 0,
            when_deleted=when_deleted,
            when_scaled=when_scaled,
        ),
    )


def _claim_template(fields: Fields) -> PersistentVolumeClaim:
    fields.reject_unknown({"apiVersion", "kind", "metadata", "spec", "status"})
    return PersistentVolumeClaim(
        metadata=parse_metadata(fields, namespaced=True), spec=_claim_spec(fields.object("spec"), fields)
    )


def _claim_spec(spec: Fields | None, parent: Fields) -> PersistentVolumeClaimSpec:
    if spec is None:
        raise parent.error("spec", "Required value")
    spec.reject_unknown(
        {
            "accessModes",
            "resources",
            "storageClassName",
            "volumeName",
            "volumeMode",
            "selector",
            "dataSource",
            "dataSourceRef",
            "volumeAttributesClassName",
        }
    )
    resources = spec.object("resources")
    storage = 0
    if resources is not None:
        resources.reject_unknown({"requests", "limits"})
        storage = resources.resources("requests").get("storage", 0)
    storage_class = spec.data.get("storageClassName")
    if storage_class is not None and not isinstance(storage_class, str):
        raise spec.error("storageClassName", "must be a string")
    return PersistentVolumeClaimSpec(
        access_modes=spec.strings("accessModes"),
        storage=storage,
        storage_class_name=storage_class,
        volume_name=spec.string("volumeName"),
        volume_mode=spec.string("volumeMode") or "Filesystem",
    )


def parse_daemon_set(fields: Fields) -> DaemonSet:
    spec = _spec(fields, {"selector", "template", "updateStrategy", "minReadySeconds", "revisionHistoryLimit"})
    template = parse_pod_template(spec)
    _template_restart_always(spec, template)
    update_type: str = "RollingUpdate"
    max_unavailable: int | str = 1
    max_surge: int | str = 0
    strategy = spec.object("updateStrategy")
    if strategy is not None:
        strategy.reject_unknown({"type", "rollingUpdate"})
        update_type = strategy.one_of("type", ("RollingUpdate", "OnDelete"), default="RollingUpdate") or "RollingUpdate"
        rolling = strategy.object("rollingUpdate")
        if rolling is not None:
            rolling.reject_unknown({"maxUnavailable", "maxSurge"})
            unavailable = rolling.int_or_string("maxUnavailable", "RollingUpdateDaemonSet")
            surge = rolling.int_or_string("maxSurge", "RollingUpdateDaemonSet")
            max_unavailable = 1 if unavailable is None else unavailable
            max_surge = 0 if surge is None else surge
    return DaemonSet(
        metadata=parse_metadata(fields, namespaced=True),
        spec=DaemonSetSpec(
            selector=_selector_for_template(spec, template),
            template=template,
            update_strategy_type=update_type,
            max_unavailable=max_unavailable,
            max_surge=max_surge,
            min_ready_seconds=spec.int32("minReadySeconds", "DaemonSetSpec", 0, minimum=0) or 0,
            revision_history_limit=_or(spec.int32("revisionHistoryLimit", "DaemonSetSpec", None, minimum=0), 10),
        ),
    )


# ---------------------------------------------------------------------------- batch/v1

JOB_SPEC_FIELDS = frozenset(
    {
        "template", "parallelism", "completions", "backoffLimit", "activeDeadlineSeconds", "ttlSecondsAfterFinished",
        "completionMode", "suspend", "selector", "manualSelector", "podFailurePolicy", "backoffLimitPerIndex",
        "maxFailedIndexes", "podReplacementPolicy", "successPolicy", "managedBy",
    }
)  # fmt: skip


def _job_spec(spec: Fields) -> JobSpec:
    spec.reject_unknown(JOB_SPEC_FIELDS)
    template = parse_pod_template(spec)
    if template.spec.restart_policy not in ("Never", "OnFailure"):
        raise spec.error(
            "template",
            f'Unsupported value: "{template.spec.restart_policy}": supported values: "OnFailure", "Never"'
            " (spec.template.spec.restartPolicy)",
        )
    # SetDefaults_Job: completions default to 1 only when parallelism is unset too; a parallel Job
    # without completions is a work queue (done when any pod succeeds and the rest have finished).
    default_completions = None if "parallelism" in spec.data else 1
    completions = (
        spec.int32("completions", "JobSpec", 1, minimum=0) if "completions" in spec.data else default_completions
    )
    completion_mode = spec.one_of("completionMode", ("NonIndexed", "Indexed"), default="NonIndexed") or "NonIndexed"
    if completion_mode == "Indexed" and completions is None:
        raise spec.error("completions", "Required value: when completion mode is Indexed")
    return JobSpec(
        template=template,
        parallelism=_or(spec.int32("parallelism", "JobSpec", None, minimum=0), 1),
        completions=completions,
        backoff_limit=_or(spec.int32("backoffLimit", "JobSpec", None, minimum=0), 6),
        active_deadline_seconds=spec.integer("activeDeadlineSeconds", None, minimum=1),
        ttl_seconds_after_finished=spec.int32("ttlSecondsAfterFinished", "JobSpec", None, minimum=0),
        completion_mode=completion_mode,
        suspend=spec.boolean("suspend"),
        selector=parse_label_selector(spec.object("selector")),
    )


def parse_job(fields: Fields) -> Job:
    fields.reject_unknown(TOP_LEVEL)
    spec = fields.object("spec")
    if spec is None:
        raise fields.error("spec", "Required value")
    return Job(metadata=parse_metadata(fields, namespaced=True), spec=_job_spec(spec))


def parse_cron_job(fields: Fields) -> CronJob:
    spec = _spec(
        fields,
        {
            "schedule", "timeZone", "concurrencyPolicy", "suspend", "startingDeadlineSeconds",
            "successfulJobsHistoryLimit", "failedJobsHistoryLimit", "jobTemplate",
        },
    )  # fmt: skip
    schedule = spec.string("schedule")
    if not schedule:
        raise spec.error("schedule", "Required value")
    try:
        validate_schedule(schedule, spec.string("timeZone") or None)
    except CronScheduleError as error:
        raise spec.error("schedule", f'Invalid value: "{schedule[:60]}": {error}') from None
    job_template = spec.object("jobTemplate")
    if job_template is None:
        raise spec.error("jobTemplate", "Required value")
    job_template.reject_unknown({"metadata", "spec"})
    job_meta = job_template.object("metadata")
    job_spec = job_template.object("spec")
    if job_spec is None:
        raise job_template.error("spec", "Required value")
    return CronJob(
        metadata=parse_metadata(fields, namespaced=True),
        spec=CronJobSpec(
            schedule=schedule,
            job_template=_job_spec(job_spec),
            job_labels=parse_labels(job_meta, "labels") if job_meta else {},
            job_annotations=job_meta.string_map("annotations") if job_meta else {},
            time_zone=spec.string("timeZone") or None,
            concurrency_policy=spec.one_of("concurrencyPolicy", ("Allow", "Forbid", "Replace"), default="Allow")
            or "Allow",
            suspend=spec.boolean("suspend"),
            starting_deadline_seconds=spec.integer("startingDeadlineSeconds", None, minimum=0),
            successful_jobs_history_limit=_or(
                spec.int32("successfulJobsHistoryLimit", "CronJobSpec", None, minimum=0), 3
            ),
            failed_jobs_history_limit=_or(spec.int32("failedJobsHistoryLimit", "CronJobSpec", None, minimum=0), 1),
        ),
    )


# ---------------------------------------------------------------------------- autoscaling/v2


def _scaling_rules(fields: Fields | None) -> HPAScalingRules | None:
    if fields is None:
        return None
    fields.reject_unknown({"stabilizationWindowSeconds", "selectPolicy", "policies", "tolerance"})
    policies = []
    for item in fields.objects("policies"):
        item.reject_unknown({"type", "value", "periodSeconds"})
        policy_type = item.one_of("type", ("Pods", "Percent"))
        value = item.int32("value", "HPAScalingPolicy", minimum=1)
        period = item.int32("periodSeconds", "HPAScalingPolicy", minimum=1)
        if policy_type is None or value is None or period is None:
            raise item.error_here("a policy needs type, value and periodSeconds")
        if period > 1800:
            raise item.error("periodSeconds", "Invalid value: must be less than or equal to 1800")
        policies.append(HPAScalingPolicy(policy_type, value, period))
    window = fields.int32("stabilizationWindowSeconds", "HPAScalingRules", None, minimum=0)
    if window is not None and window > 3600:
        raise fields.error("stabilizationWindowSeconds", "Invalid value: must be less than or equal to 3600")
    tolerance = fields.data.get("tolerance")
    return HPAScalingRules(
        stabilization_window_seconds=window,
        select_policy=fields.one_of("selectPolicy", ("Max", "Min", "Disabled"), default="Max") or "Max",
        policies=tuple(policies),
        tolerance=float(quantity.parse_quantity(tolerance)) if tolerance is not None else None,
    )


def parse_hpa(fields: Fields) -> HorizontalPodAutoscaler:
    spec = _spec(fields, {"scaleTargetRef", "minReplicas", "maxReplicas", "metrics", "behavior"})
    ref = spec.object("scaleTargetRef")
    if ref is None:
        raise spec.error("scaleTargetRef", "Required value")
    ref.reject_unknown({"apiVersion", "kind", "name"})
    kind = ref.one_of("kind", ("Deployment", "ReplicaSet", "StatefulSet"))
    if kind is None or not ref.string("name"):
        raise ref.error_here("kind and name are required")
    max_replicas = spec.int32("maxReplicas", "HorizontalPodAutoscalerSpec", minimum=1)
    if max_replicas is None:
        raise spec.error("maxReplicas", "Required value")
    min_replicas = spec.int32("minReplicas", "HorizontalPodAutoscalerSpec", 1, minimum=1) or 1
    if min_replicas > max_replicas:
        raise spec.error("minReplicas", "Invalid value: must be less than or equal to maxReplicas")
    metrics = []
    for item in spec.objects("metrics"):
        item.reject_unknown({"type", "resource", "containerResource", "pods", "object", "external"})
        if item.string("type") != "Resource":
            raise item.error("type", "only Resource metrics (cpu, memory) are simulated")
        resource = item.object("resource")
        if resource is None:
            raise item.error("resource", "Required value")
        resource.reject_unknown({"name", "target"})
        name = resource.one_of("name", ("cpu", "memory"))
        target = resource.object("target")
        if name is None or target is None:
            raise resource.error_here("name and target are required")
        target.reject_unknown({"type", "averageUtilization", "averageValue", "value"})
        target_type = target.one_of("type", ("Utilization", "AverageValue"))
        if target_type is None:
            raise target.error("type", "Required value")
        utilization = target.int32("averageUtilization", "MetricTarget", None, minimum=1)
        if target_type == "Utilization" and utilization is None:
            raise target.error("averageUtilization", "Required value: must be set for Utilization")
        average_value = None
        if target_type == "AverageValue":
            raw = target.data.get("averageValue")
            if raw is None:
                raise target.error("averageValue", "Required value: must be set for AverageValue")
            try:
                average_value = quantity.milli_value(raw) if name == "cpu" else quantity.value(raw)
            except QuantityError as error:
                raise target.error("averageValue", str(error)) from None
        metrics.append(MetricTarget(name, target_type, utilization, average_value))
    if not metrics:
        metrics.append(MetricTarget("cpu", "Utilization", 80))  # autoscaling/v2 default: 80% CPU
    behavior = spec.object("behavior")
    if behavior is not None:
        behavior.reject_unknown({"scaleUp", "scaleDown"})
    return HorizontalPodAutoscaler(
        metadata=parse_metadata(fields, namespaced=True),
        spec=HorizontalPodAutoscalerSpec(
            target_kind=kind,
            target_name=ref.string("name"),
            max_replicas=max_replicas,
            min_replicas=min_replicas,
            metrics=tuple(metrics),
            scale_up=_scaling_rules(behavior.object("scaleUp")) if behavior else None,
            scale_down=_scaling_rules(behavior.object("scaleDown")) if behavior else None,
        ),
    )


# ---------------------------------------------------------------------------- networking


def parse_service(fields: Fields) -> Service:
    spec = _spec(
        fields,
        {
            "type", "selector", "ports", "clusterIP", "clusterIPs", "sessionAffinity", "externalTrafficPolicy",
            "internalTrafficPolicy", "externalName", "loadBalancerIP", "loadBalancerClass", "ipFamilies",
            "ipFamilyPolicy", "publishNotReadyAddresses", "sessionAffinityConfig", "allocateLoadBalancerNodePorts",
            "externalIPs", "loadBalancerSourceRanges", "healthCheckNodePort", "trafficDistribution",
        },
    )  # fmt: skip
    ports = []
    for item in spec.objects("ports"):
        item.reject_unknown({"name", "port", "targetPort", "nodePort", "protocol", "appProtocol"})
        port = item.int32("port", "ServicePort")
        if port is None or not 1 <= port <= 65535:
            raise item.error("port", "Invalid value: must be between 1 and 65535, inclusive")
        node_port = item.int32("nodePort", "ServicePort")
        if node_port is not None and not 30000 <= node_port <= 32767:
            raise item.error("nodePort", "Invalid value: provided port is not in the valid range (30000-32767)")
        ports.append(
            ServicePort(
                port=port,
                target_port=item.int_or_name("targetPort") if "targetPort" in item.data else None,
                node_port=node_port,
                protocol=item.one_of("protocol", ("TCP", "UDP", "SCTP"), default="TCP") or "TCP",
                name=item.string("name"),
            )
        )
    selector = parse_labels(spec, "selector") if spec.has("selector") else None
    return Service(
        metadata=parse_metadata(fields, namespaced=True),
        spec=ServiceSpec(
            type=spec.one_of("type", ("ClusterIP", "NodePort", "LoadBalancer", "ExternalName"), default="ClusterIP")
            or "ClusterIP",
            selector=selector,
            ports=tuple(ports),
            cluster_ip=spec.string("clusterIP"),
            session_affinity=spec.one_of("sessionAffinity", ("None", "ClientIP"), default="None") or "None",
            external_traffic_policy=spec.one_of("externalTrafficPolicy", ("Cluster", "Local"), default="Cluster")
            or "Cluster",
        ),
    )


def parse_ingress(fields: Fields) -> Ingress:
    spec = _spec(fields, {"ingressClassName", "rules", "defaultBackend", "tls"})
    rules = []
    for rule in spec.objects("rules"):
        rule.reject_unknown({"host", "http"})
        paths = []
        http = rule.object("http")
        if http is not None:
            http.reject_unknown({"paths"})
            for path in http.objects("paths"):
                path.reject_unknown({"path", "pathType", "backend"})
                service_name, service_port = _ingress_backend(path.object("backend"), path)
                path_type = path.one_of("pathType", ("Exact", "Prefix", "ImplementationSpecific"))
                if path_type is None:
                    raise path.error("pathType", "Required value: must be specified")
                paths.append(IngressPath(path.string("path") or "/", path_type, service_name, service_port))
        rules.append(IngressRule(rule.string("host"), tuple(paths)))
    default_service = ""
    if spec.has("defaultBackend"):
        default_service, _ = _ingress_backend(spec.object("defaultBackend"), spec)
    tls_hosts = tuple(host for item in spec.objects("tls") for host in item.strings("hosts"))
    return Ingress(
        metadata=parse_metadata(fields, namespaced=True),
        spec=IngressSpec(spec.string("ingressClassName"), tuple(rules), default_service, tls_hosts),
    )


def _ingress_backend(backend: Fields | None, parent: Fields) -> tuple[str, int | str | None]:
    if backend is None:
        raise parent.error("backend", "Required value")
    backend.reject_unknown({"service", "resource"})
    service = backend.object("service")
    if service is None:
        raise backend.error("service", "Required value: only service backends are simulated")
    service.reject_unknown({"name", "port"})
    port = service.object("port")
    port_value: int | str | None = None
    if port is not None:
        port.reject_unknown({"number", "name"})
        port_value = port.int32("number", "ServiceBackendPort") or port.string("name") or None
    name = service.string("name")
    if not name:
        raise service.error("name", "Required value")
    return name, port_value


# ---------------------------------------------------------------------------- storage


def parse_persistent_volume_claim(fields: Fields) -> PersistentVolumeClaim:
    fields.reject_unknown(TOP_LEVEL)
    return PersistentVolumeClaim(
        metadata=parse_metadata(fields, namespaced=True), spec=_claim_spec(fields.object("spec"), fields)
    )


def parse_persistent_volume(fields: Fields) -> PersistentVolume:
    spec = _spec(
        fields,
        {
            "capacity", "accessModes", "storageClassName", "nodeAffinity", "claimRef", "persistentVolumeReclaimPolicy",
            "local", "hostPath", "csi", "nfs", "volumeMode", "mountOptions", "volumeAttributesClassName",
        },
    )  # fmt: skip
    node_affinity: NodeSelector | None = None
    affinity = spec.object("nodeAffinity")
    if affinity is not None:
        affinity.reject_unknown({"required"})
        required = affinity.object("required")
        if required is not None:
            required.reject_unknown({"nodeSelectorTerms"})
            node_affinity = NodeSelector(
                tuple(parse_node_selector_term(t) for t in required.objects("nodeSelectorTerms"))
            )
    claim = spec.object("claimRef")
    claim_ref = ""
    if claim is not None:
        claim_ref = f"{claim.string('namespace') or 'default'}/{claim.string('name')}"
    return PersistentVolume(
        metadata=parse_metadata(fields, namespaced=False),
        spec=PersistentVolumeSpec(
            storage=spec.resources("capacity").get("storage", 0),
            access_modes=spec.strings("accessModes"),
            storage_class_name=spec.string("storageClassName"),
            node_affinity=node_affinity,
            claim_ref=claim_ref,
            reclaim_policy=spec.one_of(
                "persistentVolumeReclaimPolicy", ("Retain", "Delete", "Recycle"), default="Retain"
            )
            or "Retain",
        ),
    )


def parse_storage_class(fields: Fields) -> StorageClass:
    fields.reject_unknown(
        {"apiVersion", "kind", "metadata", "provisioner", "volumeBindingMode", "reclaimPolicy", "parameters",
         "allowVolumeExpansion", "allowedTopologies", "mountOptions"}
    )  # fmt: skip
    metadata = parse_metadata(fields, namespaced=False)
    return StorageClass(
        metadata=metadata,
        provisioner=fields.string("provisioner"),
        volume_binding_mode=fields.one_of(
            "volumeBindingMode", ("Immediate", "WaitForFirstConsumer"), default="Immediate"
        )
        or "Immediate",
        reclaim_policy=fields.one_of("reclaimPolicy", ("Delete", "Retain"), default="Delete") or "Delete",
        is_default=metadata.annotations.get(DEFAULT_STORAGE_CLASS_ANNOTATION) == "true",
    )


# ---------------------------------------------------------------------------- policy


def parse_limit_range(fields: Fields) -> LimitRange:
    spec = _spec(fields, {"limits"})
    items = []
    for item in spec.objects("limits"):
        item.reject_unknown({"type", "default", "defaultRequest", "min", "max", "maxLimitRequestRatio"})
        kind = item.one_of("type", ("Container", "Pod", "PersistentVolumeClaim"))
        if kind is None:
            raise item.error("type", "Required value")
        ratio_fields = item.object("maxLimitRequestRatio")
        ratios = {}
        if ratio_fields is not None:
            for name, raw in ratio_fields.data.items():
                try:
                    ratios[name] = float(quantity.parse_quantity(raw))
                except QuantityError as error:
                    raise ratio_fields.error(name, str(error)) from None
        items.append(
            LimitRangeItem(
                type=kind,
                default=item.resources("default"),
                default_request=item.resources("defaultRequest"),
                min=item.resources("min"),
                max=item.resources("max"),
                max_limit_request_ratio=ratios,
            )
        )
    return LimitRange(metadata=parse_metadata(fields, namespaced=True), limits=tuple(items))


def parse_resource_quota(fields: Fields) -> ResourceQuota:
    spec = _spec(fields, {"hard", "scopes", "scopeSelector"})
    hard = spec.object("hard")
    amounts: dict[str, int] = {}
    if hard is not None:
        for name, raw in hard.data.items():
            try:
                amounts[name] = quantity.milli_value(raw) if name in quantity.CPU_RESOURCES else quantity.value(raw)
            except QuantityError as error:
                raise hard.error(name, f'invalid quantity "{raw}": {error}') from None
    return ResourceQuota(metadata=parse_metadata(fields, namespaced=True), hard=amounts, scopes=spec.strings("scopes"))
